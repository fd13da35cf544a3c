// The `profilemetrics` processor: passes every batch on unchanged and turns what it saw into series
// on the telemetry endpoint (/metrics): per service and sample type the running total, per service
// and sample type the top-N functions by self and inclusive value, each with an OpenMetrics
// exemplar (trace_id, span_id, profile_id) of the heaviest trace-linked sample since the previous
// OpenMetrics scrape. Reads the flat batch; counts a batch once the next consumer took it (a
// refused batch comes back as a retry and is counted then). See README.md.
#pragma once

#include <functional>
#include <mutex>

#include "core/component/factory.h"
#include "processors/profilemetrics/config.h"
#include "processors/profilemetrics/series_store.h"

namespace proflow::processors::profilemetrics {

class ProfileMetricsProcessor final : public Processor {
 public:
  using Clock = SeriesStore::Clock;
  using ClockFn = std::function<Clock::time_point()>;

  // Registers its series with the settings' metrics registry (under its telemetry labels) until
  // destroyed. `clock` drives the windows (tests).
  ProfileMetricsProcessor(const CreateSettings& settings, const ProfileMetricsConfig& config, ConsumerPtr next,
                          ClockFn clock = [] { return Clock::now(); });
  ~ProfileMetricsProcessor() override;

  Capabilities capabilities() const override { return {.mutates_data = false}; }
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;

  // The families as a scrape sees them (tests; the registry calls the same).
  void collect(std::vector<telemetry::MetricFamily>& out, bool exemplars);

 private:
  void account(const AddOutcome& o, uint64_t truncated, size_t series);

  ProfileMetricsConfig config_;
  ConsumerPtr next_;
  ClockFn clock_;
  telemetry::Labels base_labels_;

  std::mutex mu_;
  SeriesStore store_;  // under mu_

  telemetry::Counter* dropped_series_ = nullptr;
  telemetry::Counter* dropped_samples_ = nullptr;
  telemetry::Counter* untracked_functions_ = nullptr;
  telemetry::Counter* truncated_labels_ = nullptr;
  telemetry::Gauge* series_ = nullptr;
  telemetry::CollectorHandle collector_;  // last: removed (waiting for a scrape) before the rest goes
};

}  // namespace proflow::processors::profilemetrics
