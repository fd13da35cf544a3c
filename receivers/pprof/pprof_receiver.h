// The `pprof` receiver: an HTTP push listener and/or a scraper, both feeding the pipelines.
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "receivers/pprof/config.h"

namespace proflow::receivers::pprof {

class PushServer;
class Scraper;

class PprofReceiver final : public Receiver {
 public:
  PprofReceiver(const CreateSettings& settings, PprofReceiverConfig config, ConsumerPtr next);
  ~PprofReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;

  // Bound push port (0 when push is off); useful with port 0 in tests.
  int pushPort() const;

 private:
  CreateSettings settings_;
  PprofReceiverConfig config_;
  ConsumerPtr next_;
  std::unique_ptr<PushServer> push_;
  std::unique_ptr<Scraper> scraper_;
};

}  // namespace proflow::receivers::pprof
