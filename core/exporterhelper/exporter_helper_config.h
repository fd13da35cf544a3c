// The YAML every exporter shares, with the OpenTelemetry Collector's names and defaults:
//   timeout: 5s
//   sending_queue:    { enabled: true, num_consumers: 10, queue_size: 1000, directory: "", fsync: false }
//   retry_on_failure: { enabled: true, initial_interval: 5s, max_interval: 30s, max_elapsed_time: 300s,
//                       multiplier: 1.5, randomization_factor: 0.5 }
#pragma once

#include <chrono>
#include <string>

#include "core/config/config_reader.h"

namespace proflow::exporterhelper {

struct QueueConfig {
  bool enabled = true;
  int num_consumers = 10;
  int queue_size = 1000;  // batches
  // Persistent queue: every accepted batch is written under <directory>/<exporter id> before it is
  // acknowledged and removed once delivered, so a restart (or a crash) resends what was pending.
  std::string directory;
  bool fsync = false;  // also survive a machine crash, at the cost of one fsync per batch
  template <class V>
  void visit(V& v) {
    v.field("enabled", enabled, "queue batches and send them from background workers");
    v.field("num_consumers", num_consumers, "parallel senders");
    v.field("queue_size", queue_size, "batches held before new data is refused (429 / RESOURCE_EXHAUSTED upstream)");
    v.field("directory", directory, "persist queued batches here and resend them after a restart (\"\" = memory only)");
    v.field("fsync", fsync, "fsync each persisted batch before acknowledging it");
  }
  void validate(config::ValidationContext& ctx) const;
};

struct RetryConfig {
  bool enabled = true;
  config::Duration initial_interval = std::chrono::seconds(5);
  config::Duration max_interval = std::chrono::seconds(30);
  config::Duration max_elapsed_time = std::chrono::seconds(300);  // 0 = retry until shutdown
  double multiplier = 1.5;
  double randomization_factor = 0.5;
  template <class V>
  void visit(V& v) {
    v.field("enabled", enabled, "retry retryable failures with exponential backoff");
    v.field("initial_interval", initial_interval, "wait before the first retry");
    v.field("max_interval", max_interval, "upper bound of one wait");
    v.field("max_elapsed_time", max_elapsed_time, "give up after this long (0 = never)");
    v.field("multiplier", multiplier, "growth of the wait per attempt");
    v.field("randomization_factor", randomization_factor, "jitter: each wait is scaled by 1 ± this");
  }
  void validate(config::ValidationContext& ctx) const;
};

struct ExporterHelperConfig {
  config::Duration timeout = std::chrono::seconds(5);  // per attempt
  QueueConfig sending_queue;
  RetryConfig retry_on_failure;

  // Called from an exporter config's own visit(): the three keys sit next to the exporter's keys.
  template <class V>
  void visit(V& v) {
    v.field("timeout", timeout, "deadline of one send attempt");
    v.field("sending_queue", sending_queue);
    v.field("retry_on_failure", retry_on_failure);
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::exporterhelper
