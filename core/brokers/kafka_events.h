// What librdkafka reports outside any one call — its log lines and the errors it meets on its own
// threads (brokers unreachable, SASL authentication refused, TLS handshake failed) — sent to the
// component's logger (throttled, since librdkafka repeats them on every reconnect), counted in
// `kafka_client_errors_total`, and kept, so that a send that times out can say why.
//
// Without this librdkafka writes its lines to stderr in its own format and error events vanish.
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include <spdlog/logger.h>

#include "core/telemetry/component_telemetry.h"
#include "core/telemetry/log_throttle.h"

namespace proflow::brokers {

class KafkaEvents {
 public:
  // `owner` is what the component's own callbacks (rebalance, ...) get back through ownerOf().
  KafkaEvents(std::shared_ptr<spdlog::logger> logger, telemetry::ComponentTelemetry& telemetry, void* owner);

  // Sets librdkafka's log and error callbacks on `conf`, and its opaque to this object: a component
  // that needs the opaque for another callback gets its own pointer back with ownerOf(opaque).
  void attach(rd_kafka_conf_t* conf);
  static void* ownerOf(void* opaque) { return static_cast<KafkaEvents*>(opaque)->owner_; }

  // The last error librdkafka reported in the past minute ("_AUTHENTICATION: SASL authentication
  // error: ..."), "" when none: an old complaint says nothing of a failure now.
  std::string lastError() const;

  // What librdkafka's log and error callbacks call.
  void onLog(int level, const char* facility, const char* line);
  void onError(int err, const char* reason);

 private:
  std::shared_ptr<spdlog::logger> logger_;
  telemetry::Counter& errors_;
  void* owner_;
  telemetry::LogThrottle throttle_;
  mutable std::mutex mu_;
  std::string last_error_;
  std::chrono::steady_clock::time_point last_error_at_{};
};

}  // namespace proflow::brokers
