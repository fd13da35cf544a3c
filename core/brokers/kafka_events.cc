#include "core/brokers/kafka_events.h"

#include <string_view>

namespace proflow::brokers {
namespace {

// How long an error still explains a failure.
constexpr std::chrono::minutes kRecent{1};

// librdkafka logs with syslog levels (0 emergency .. 7 debug).
spdlog::level::level_enum spdlogLevel(int syslog_level) {
  if (syslog_level <= 3) return spdlog::level::err;
  if (syslog_level == 4) return spdlog::level::warn;
  if (syslog_level <= 6) return spdlog::level::info;
  return spdlog::level::debug;
}

void logCallback(const rd_kafka_t* rk, int level, const char* facility, const char* line) {
  static_cast<KafkaEvents*>(rd_kafka_opaque(rk))->onLog(level, facility, line);
}

void errorCallback(rd_kafka_t* rk, int err, const char* reason, void* opaque) {
  (void)rk;
  static_cast<KafkaEvents*>(opaque)->onError(err, reason);
}

}  // namespace

KafkaEvents::KafkaEvents(std::shared_ptr<spdlog::logger> logger, telemetry::ComponentTelemetry& telemetry, void* owner)
    : logger_(std::move(logger)),
      errors_(telemetry.counter("kafka_client_errors_total",
                                "errors librdkafka met on its own (brokers down, authentication or TLS refused)")),
      owner_(owner) {}

void KafkaEvents::attach(rd_kafka_conf_t* conf) {
  rd_kafka_conf_set_log_cb(conf, logCallback);
  rd_kafka_conf_set_error_cb(conf, errorCallback);
  rd_kafka_conf_set_opaque(conf, this);
}

std::string KafkaEvents::lastError() const {
  std::lock_guard lock(mu_);
  if (std::chrono::steady_clock::now() - last_error_at_ > kRecent) return "";
  return last_error_;
}

void KafkaEvents::onLog(int level, const char* facility, const char* line) {
  // A broker connection's failure is also reported to onError, which says what to check: its
  // FAIL line only matters when debugging.
  const auto lvl = std::string_view(facility) == "FAIL" ? spdlog::level::debug : spdlogLevel(level);
  if (!logger_->should_log(lvl)) return;
  // Keyed by facility: a broker that keeps refusing writes one line per interval, not one per retry.
  throttle_.log(*logger_, lvl, facility, std::string("librdkafka ") + facility + ": " + line);
}

void KafkaEvents::onError(int err, const char* reason) {
  const auto code = static_cast<rd_kafka_resp_err_t>(err);
  std::string text = std::string(rd_kafka_err2name(code)) + ": " + reason;
  errors_.add();
  {
    std::lock_guard lock(mu_);
    const auto now = std::chrono::steady_clock::now();
    // "1/1 brokers are down" follows each broker's own reason, which says more: keep that one.
    const bool summary = code == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN;
    if (!summary || last_error_.empty() || now - last_error_at_ > kRecent) last_error_ = text;
    last_error_at_ = now;
  }
  // Authentication and TLS failures are configuration problems: say what to check.
  if (code == RD_KAFKA_RESP_ERR__AUTHENTICATION)
    text += " (check sasl.mechanisms, sasl.username and sasl.password)";
  else if (code == RD_KAFKA_RESP_ERR__SSL)
    text += " (check ssl.ca.location and the brokers' certificate names)";
  throttle_.log(*logger_, spdlog::level::warn, rd_kafka_err2name(code), "Kafka: " + text);
}

}  // namespace proflow::brokers
