// The `compress` processor: shrinks each batch before it reaches an exporter (see compactor.h) and
// counts the serialized bytes before and after.
#pragma once

#include "core/component/factory.h"
#include "processors/compress/config.h"

namespace proflow::processors::compress {

class CompressProcessor final : public Processor {
 public:
  CompressProcessor(const CreateSettings& settings, const CompressConfig& config, ConsumerPtr next);

  Capabilities capabilities() const override { return {.mutates_data = true}; }
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;

 private:
  CompressConfig config_;
  ConsumerPtr next_;
  telemetry::Counter* bytes_before_ = nullptr;
  telemetry::Counter* bytes_after_ = nullptr;
  telemetry::Counter* merged_ = nullptr;
  telemetry::Counter* zero_dropped_ = nullptr;
  telemetry::Counter* truncated_ = nullptr;
  telemetry::Counter* folded_ = nullptr;
};

}  // namespace proflow::processors::compress
