// The counters every component instance gets without writing any: batches, profiles and samples
// received / accepted / refused / sent / failed / dropped, bytes in and out, queue size and capacity.
// Exposed as proflow_<kind>_<event>_<item>_total{<kind>="<id>"}, e.g.
// proflow_receiver_accepted_profiles_total{receiver="otlp"}.
#pragma once

#include <array>
#include <string>

#include "core/model/batch.h"
#include "core/component/component.h"
#include "core/telemetry/metrics.h"

namespace proflow::telemetry {

enum class Event { kReceived, kAccepted, kRefused, kSent, kFailed, kDropped };
inline constexpr int kEventCount = 6;

class ComponentTelemetry {
 public:
  // `extra` labels distinguish instances of one id, e.g. a processor's pipeline.
  ComponentTelemetry(MetricsRegistry& registry, ComponentKind kind, const std::string& id, const Labels& extra = {});

  void record(Event event, const BatchCounts& counts);
  // Profiles and samples without a batch: part of a batch whose batch count went elsewhere (a partial
  // success: the batch was sent, some of its profiles failed).
  void recordItems(Event event, uint64_t profiles, uint64_t samples);
  void bytesIn(uint64_t n) { bytes_in_->add(n); }
  void bytesOut(uint64_t n) { bytes_out_->add(n); }
  Gauge& queueSize() { return *queue_size_; }
  Gauge& queueCapacity() { return *queue_capacity_; }

  // Component-specific counters live next to the standard ones, with the same labels.
  Counter& counter(const std::string& suffix, const std::string& help);
  Gauge& gauge(const std::string& suffix, const std::string& help);

  MetricsRegistry& registry() { return registry_; }
  const Labels& labels() const { return labels_; }
  const std::string& prefix() const { return prefix_; }

 private:
  MetricsRegistry& registry_;
  std::string prefix_;  // proflow_<kind>_
  Labels labels_;
  std::array<std::array<Counter*, 3>, kEventCount> items_{};  // [event][batches, profiles, samples]
  Counter* bytes_in_;
  Counter* bytes_out_;
  Gauge* queue_size_;
  Gauge* queue_capacity_;
};

}  // namespace proflow::telemetry
