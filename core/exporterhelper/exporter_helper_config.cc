#include "core/exporterhelper/exporter_helper_config.h"

namespace proflow::exporterhelper {

void QueueConfig::validate(config::ValidationContext& ctx) const {
  if (num_consumers < 1) ctx.error("num_consumers", "must be at least 1");
  if (num_consumers > 1000) ctx.error("num_consumers", "must be at most 1000");
  if (queue_size < 1) ctx.error("queue_size", "must be at least 1");
}

void RetryConfig::validate(config::ValidationContext& ctx) const {
  if (initial_interval.value.count() <= 0) ctx.error("initial_interval", "must be greater than 0");
  if (max_interval < initial_interval) ctx.error("max_interval", "must not be less than initial_interval");
  if (multiplier < 1.0) ctx.error("multiplier", "must be at least 1");
  if (randomization_factor < 0 || randomization_factor >= 1) ctx.error("randomization_factor", "must be in [0, 1)");
}

void ExporterHelperConfig::validate(config::ValidationContext& ctx) const {
  if (timeout.value.count() <= 0) ctx.error("timeout", "must be greater than 0");
  if (sending_queue.enabled) {
    auto q = ctx.nested("sending_queue");
    sending_queue.validate(q);
  } else if (!sending_queue.directory.empty()) {
    auto q = ctx.nested("sending_queue");
    q.error("directory", "a persistent queue needs the queue: set enabled: true or remove directory");
  }
  if (retry_on_failure.enabled) {
    auto r = ctx.nested("retry_on_failure");
    retry_on_failure.validate(r);
  }
}

}  // namespace proflow::exporterhelper
