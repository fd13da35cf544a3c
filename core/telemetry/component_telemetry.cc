#include "core/telemetry/component_telemetry.h"

namespace proflow::telemetry {
namespace {

constexpr const char* kEventNames[kEventCount] = {"received", "accepted", "refused", "sent", "failed", "dropped"};
constexpr const char* kEventHelp[kEventCount] = {
    "handed to the component",
    "taken by the component (delivered downstream or queued)",
    "turned back to the sender (malformed, too large, or a retryable refusal such as a full queue)",
    "delivered to the next hop",
    "not delivered after all retries, or permanently rejected by the next hop",
    "discarded on purpose (sampling, filtering) or lost on shutdown",
};
constexpr const char* kItemNames[3] = {"batches", "profiles", "samples"};

}  // namespace

ComponentTelemetry::ComponentTelemetry(MetricsRegistry& registry, ComponentKind kind, const std::string& id,
                                       const Labels& extra)
    : registry_(registry), prefix_(std::string("proflow_") + componentKindName(kind) + "_") {
  labels_ = {{componentKindName(kind), id}};
  labels_.insert(labels_.end(), extra.begin(), extra.end());
  for (int e = 0; e < kEventCount; ++e)
    for (int i = 0; i < 3; ++i)
      items_[e][i] = &registry_.counter(prefix_ + kEventNames[e] + "_" + kItemNames[i] + "_total",
                                        std::string(kItemNames[i]) + " " + kEventHelp[e], labels_);
  bytes_in_ = &registry_.counter(prefix_ + "bytes_in_total", "payload bytes received (as sent on the wire)", labels_);
  bytes_out_ = &registry_.counter(prefix_ + "bytes_out_total", "payload bytes sent (as sent on the wire)", labels_);
  queue_size_ = &registry_.gauge(prefix_ + "queue_size", "batches waiting in the component's queue", labels_);
  queue_capacity_ = &registry_.gauge(prefix_ + "queue_capacity", "capacity of the component's queue", labels_);
}

void ComponentTelemetry::record(Event event, const BatchCounts& counts) {
  auto& row = items_[static_cast<int>(event)];
  row[0]->add(1);
  row[1]->add(counts.profiles);
  row[2]->add(counts.samples);
}

void ComponentTelemetry::recordItems(Event event, uint64_t profiles, uint64_t samples) {
  auto& row = items_[static_cast<int>(event)];
  row[1]->add(profiles);
  row[2]->add(samples);
}

Counter& ComponentTelemetry::counter(const std::string& suffix, const std::string& help) {
  return registry_.counter(prefix_ + suffix, help, labels_);
}

Gauge& ComponentTelemetry::gauge(const std::string& suffix, const std::string& help) {
  return registry_.gauge(prefix_ + suffix, help, labels_);
}

}  // namespace proflow::telemetry
