// Harness for the profilemetrics processor tests: a recording sink that can refuse, real telemetry,
// a clock the test moves, and lookups in what a scrape returns.
#pragma once

#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/telemetry/metrics.h"
#include "processors/profilemetrics/profilemetrics_processor.h"
#include "tests/support/stand_ins.h"

namespace proflow::processors::profilemetrics::testing {

using Sink = ::proflow::testing::CaptureConsumer;

struct Harness {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kProcessor, "profilemetrics"};
  std::shared_ptr<Sink> sink = std::make_shared<Sink>();
  SeriesStore::Clock::time_point now = SeriesStore::Clock::time_point(std::chrono::hours(1000));
  std::unique_ptr<ProfileMetricsProcessor> processor;

  explicit Harness(const ProfileMetricsConfig& c = {}) {
    CreateSettings s;
    s.id = {"profilemetrics", ""};
    s.kind = ComponentKind::kProcessor;
    s.logger = std::make_shared<spdlog::logger>("profilemetrics", std::make_shared<spdlog::sinks::null_sink_mt>());
    s.telemetry = &telemetry;
    processor = std::make_unique<ProfileMetricsProcessor>(s, c, sink, [this] { return now; });
  }
  std::vector<telemetry::MetricFamily> scrape(bool exemplars = true) {
    std::vector<telemetry::MetricFamily> out;
    processor->collect(out, exemplars);
    return out;
  }
  // proflow_processor_<suffix>{processor="profilemetrics"}
  double own(const std::string& suffix) {
    return registry.value("proflow_processor_" + suffix, {{"processor", "profilemetrics"}});
  }
};

inline const telemetry::MetricFamily* family(const std::vector<telemetry::MetricFamily>& fs, const std::string& name) {
  for (const auto& f : fs)
    if (f.name == name) return &f;
  return nullptr;
}

inline std::string label(const telemetry::Labels& labels, const std::string& key) {
  for (const auto& [k, v] : labels)
    if (k == key) return v;
  return "";
}

// The samples of family `name` for `service`, by their function label ("" for totals).
inline std::map<std::string, telemetry::MetricSample> series(const std::vector<telemetry::MetricFamily>& fs,
                                                              const std::string& name, const std::string& service) {
  std::map<std::string, telemetry::MetricSample> out;
  if (const auto* f = family(fs, name))
    for (const auto& s : f->samples)
      if (label(s.labels, "service_name") == service) out[label(s.labels, "function")] = s;
  return out;
}

}  // namespace proflow::processors::profilemetrics::testing
