// Shared helpers of the transform tests: a processor built from YAML (through the factory, as the
// service does) wired to a capturing consumer.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/telemetry/metrics.h"
#include "processors/transform/factory.h"
#include "processors/transform/transform_processor.h"
#include "tests/support/component_config.h"
#include "tests/support/stand_ins.h"

namespace proflow::processors::transform {

inline std::string decode(const std::string& yaml, TransformConfig* out = nullptr) {
  return ::proflow::testing::checkComponentConfig(*makeTransformProcessorFactory(), yaml, "processors.transform", out)
      .format();
}

struct Harness {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kProcessor, "transform"};
  std::shared_ptr<::proflow::testing::CaptureConsumer> sink = std::make_shared<::proflow::testing::CaptureConsumer>();
  std::unique_ptr<TransformProcessor> processor;

  explicit Harness(const std::string& yaml) {
    TransformConfig c;
    EXPECT_EQ(decode(yaml, &c), "");
    processor = std::make_unique<TransformProcessor>(::proflow::testing::processorSettings("transform", &telemetry), c, sink);
  }
  // Runs a batch through; returns what came out (an empty batch when nothing did).
  flat::Batch run(flat::Batch b, Status* status = nullptr) {
    const size_t before = sink->batches.size();
    Status s = processor->consume(Batch(std::move(b)));
    if (status) *status = s;
    else EXPECT_TRUE(s.isOk()) << s.message();
    return sink->batches.size() > before ? sink->batches.back().data() : flat::Batch();
  }
  double metric(const std::string& name) { return registry.value(name, {{"processor", "transform"}}); }
};

}  // namespace proflow::processors::transform
