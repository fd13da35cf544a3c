// The `zpages` extension: the Collector's in-process pages, as HTML, from what the daemon runs:
//   /debug/servicez    version, start time and uptime, links to the other pages
//   /debug/pipelinez   each pipeline with its receivers, processors and exporters
//   /debug/extensionz  the extensions service.extensions starts
//   /debug/featurez    feature gates (proflow has none: the page says so)
//   /debug/tracez      the Collector's own spans (proflow records none: the page says so)
// Pages show component ids and pipeline names only; no profile data.
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "core/net/http_server.h"
#include "extensions/zpages/config.h"

namespace proflow::extensions::zpages {

class ZPages final : public Extension {
 public:
  ZPages(const CreateSettings& settings, ZPagesConfig config);
  ~ZPages() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;

 private:
  CreateSettings settings_;
  ZPagesConfig config_;
  std::unique_ptr<net::HttpServer> http_;
};

}  // namespace proflow::extensions::zpages
