// The config loader: YAML text -> ServiceConfig (parse, ${env:...} expansion, component decoding and
// validation, pipelines). Registered: a receiver, a processor and an exporter with real configs, so
// component validation runs; unknown types exercise the error paths. Bad config must be an error with
// a location, never a crash.
#include <string>

#include "core/config/service_config.h"
#include "core/component/registry.h"
#include "exporters/debug/factory.h"
#include "processors/batch/factory.h"
#include "receivers/pyroscope/factory.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

const proflow::Registry& registry() {
  static const proflow::Registry* r = [] {
    auto* reg = new proflow::Registry;
    (void)reg->add(proflow::receivers::pyroscope::makePyroscopeReceiverFactory());
    (void)reg->add(proflow::processors::batch::makeBatchProcessorFactory());
    (void)reg->add(proflow::exporters::debug::makeDebugExporterFactory());
    return reg;
  }();
  return *r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow;
  const std::string yaml(reinterpret_cast<const char*>(data), size);
  config::ServiceConfig cfg;
  std::string errors;
  Status s = config::loadServiceConfigText(yaml, "fuzz.yaml", registry(), &cfg, &errors);
  if (!s.isOk()) FUZZ_CHECK(!errors.empty() || !s.message().empty(), "refused without a reason");
  return 0;
}
