// Shared helpers of the filter tests: a processor built from YAML wired to a recording sink.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <memory>
#include <vector>

#include "core/config/config_loader.h"
#include "core/telemetry/metrics.h"
#include "processors/filter/factory.h"
#include "processors/filter/filter_processor.h"
#include "tests/support/component_config.h"
#include "tests/support/flat_request.h"

namespace proflow::processors::filter {

class Sink : public ProfilesConsumer {
 public:
  Status consume(Batch b) override {
    batches.push_back(std::move(b));
    return Status::ok();
  }
  std::vector<Batch> batches;
};

// Decodes YAML through the factory (as the service does) and returns the errors' text.
inline std::string decode(const std::string& yaml, FilterConfig* out) {
  return ::proflow::testing::checkComponentConfig(*makeFilterProcessorFactory(), yaml, "processors.filter", out).format();
}

struct Harness {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kProcessor, "filter"};
  std::shared_ptr<Sink> sink = std::make_shared<Sink>();
  std::unique_ptr<FilterProcessor> processor;

  explicit Harness(const std::string& yaml) {
    FilterConfig c;
    EXPECT_EQ(decode(yaml, &c), "");
    CreateSettings s;
    s.id = {"filter", ""};
    s.kind = ComponentKind::kProcessor;
    s.logger = std::make_shared<spdlog::logger>("filter", std::make_shared<spdlog::sinks::null_sink_mt>());
    s.telemetry = &telemetry;
    processor = std::make_unique<FilterProcessor>(s, c, sink);
  }
  // Runs a request through; returns what came out (an empty request when everything was dropped).
  otlp::Request run(otlp::Request req) {
    size_t before = sink->batches.size();
    EXPECT_TRUE(processor->consume(::proflow::testing::batchOf(std::move(req))).isOk());
    return sink->batches.size() > before ? ::proflow::testing::requestOf(sink->batches.back()) : otlp::Request();
  }
  double metric(const std::string& name) { return registry.value(name, {{"processor", "filter"}}); }
};

}  // namespace proflow::processors::filter
