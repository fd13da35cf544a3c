#include "cmd/proflow/builtins.h"

#include "connectors/forward/factory.h"
#include "connectors/routing/factory.h"
#include "exporters/datadog/factory.h"
#include "exporters/debug/factory.h"
#include "exporters/file/factory.h"
#include "exporters/kafka/factory.h"
#include "exporters/loadbalancing/factory.h"
#include "exporters/nats/factory.h"
#include "exporters/otlp/factory.h"
#include "exporters/otlphttp/factory.h"
#include "exporters/parca/factory.h"
#include "exporters/pyroscope/factory.h"
#include "extensions/basicauth/factory.h"
#include "extensions/bearertokenauth/factory.h"
#include "extensions/symbolstore/factory.h"
#include "processors/attributes/factory.h"
#include "processors/batch/factory.h"
#include "processors/compress/factory.h"
#include "processors/filter/factory.h"
#include "processors/memory_limiter/factory.h"
#include "processors/profilemetrics/factory.h"
#include "processors/resource/factory.h"
#include "processors/resourcedetection/factory.h"
#include "processors/sample/factory.h"
#include "processors/symbolize/factory.h"
#include "processors/transform/factory.h"
#include "receivers/datadog/factory.h"
#include "receivers/folded/factory.h"
#include "receivers/jfr/factory.h"
#include "receivers/kafka/factory.h"
#include "receivers/nats/factory.h"
#include "receivers/otlp/factory.h"
#include "receivers/perf/factory.h"
#include "receivers/pprof/factory.h"
#include "receivers/pyroscope/factory.h"
#include "receivers/self/factory.h"

namespace proflow {

Status registerBuiltins(Registry& registry) {
  std::unique_ptr<Factory> factories[] = {
      // receivers
      receivers::datadog::makeDatadogReceiverFactory(),
      receivers::folded::makeFoldedReceiverFactory(),
      receivers::jfr::makeJfrReceiverFactory(),
      receivers::kafka::makeKafkaReceiverFactory(),
      receivers::nats::makeNatsReceiverFactory(),
      receivers::otlp::makeOtlpReceiverFactory(),
      receivers::perf::makePerfReceiverFactory(),
      receivers::pprof::makePprofReceiverFactory(),
      receivers::pyroscope::makePyroscopeReceiverFactory(),
      receivers::self::makeSelfReceiverFactory(),
      // processors
      processors::attributes::makeAttributesProcessorFactory(),
      processors::batch::makeBatchProcessorFactory(),
      processors::compress::makeCompressProcessorFactory(),
      processors::filter::makeFilterProcessorFactory(),
      processors::memory_limiter::makeMemoryLimiterProcessorFactory(),
      processors::profilemetrics::makeProfileMetricsProcessorFactory(),
      processors::resource::makeResourceProcessorFactory(),
      processors::resourcedetection::makeResourceDetectionProcessorFactory(),
      processors::sample::makeSampleProcessorFactory(),
      makeSymbolizeProcessorFactory(),
      processors::transform::makeTransformProcessorFactory(),
      // exporters
      exporters::datadog::makeDatadogExporterFactory(),
      exporters::debug::makeDebugExporterFactory(),
      exporters::file::makeFileExporterFactory(),
      exporters::kafka::makeKafkaExporterFactory(),
      exporters::loadbalancing::makeLoadBalancingExporterFactory(),
      exporters::nats::makeNatsExporterFactory(),
      exporters::otlp::makeOtlpExporterFactory(),
      exporters::otlphttp::makeOtlpHttpExporterFactory(),
      exporters::parca::makeParcaExporterFactory(),
      exporters::pyroscope::makePyroscopeExporterFactory(),
      // extensions
      extensions::basicauth::makeBasicAuthExtensionFactory(),
      extensions::bearertokenauth::makeBearerTokenAuthExtensionFactory(),
      extensions::symbolstore::makeSymbolStoreExtensionFactory(),
      // connectors
      connectors::forward::makeForwardConnectorFactory(),
      connectors::routing::makeRoutingConnectorFactory(),
  };
  for (auto& f : factories)
    if (Status s = registry.add(std::move(f)); !s.isOk()) return s;
  return Status::ok();
}

}  // namespace proflow
