// Harness for the sample processor tests: a recording sink, settings with real telemetry, an
// injectable clock.
#pragma once

#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <memory>
#include <mutex>
#include <vector>

#include "core/telemetry/metrics.h"
#include "processors/sample/sample_processor.h"

namespace proflow::processors::sample {

class RecordingSink : public ProfilesConsumer {
 public:
  Status consume(Batch b) override {
    std::lock_guard lock(mu_);
    batches.push_back(std::move(b));
    return Status::ok();
  }
  std::mutex mu_;
  std::vector<Batch> batches;
};

struct Harness {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kProcessor, "sample"};
  std::shared_ptr<RecordingSink> sink = std::make_shared<RecordingSink>();
  Clock::time_point now = Clock::time_point(std::chrono::hours(1000));
  std::unique_ptr<SampleProcessor> processor;

  explicit Harness(const SampleConfig& c) {
    CreateSettings s;
    s.id = {"sample", ""};
    s.kind = ComponentKind::kProcessor;
    s.logger = std::make_shared<spdlog::logger>("sample", std::make_shared<spdlog::sinks::null_sink_mt>());
    s.telemetry = &telemetry;
    processor = std::make_unique<SampleProcessor>(s, c, sink, [this] { return now; });
  }
  double metric(const std::string& name) { return registry.value(name, {{"processor", "sample"}}); }
  uint64_t deliveredProfiles() {
    uint64_t n = 0;
    for (const auto& b : sink->batches) n += b.counts().profiles;
    return n;
  }
};

}  // namespace proflow::processors::sample
