#include "core/telemetry/log_throttle.h"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <string>

namespace proflow::telemetry {

LogThrottle::LogThrottle(std::chrono::steady_clock::duration interval, size_t max_keys)
    : interval_(interval), max_keys_(max_keys) {}

bool LogThrottle::allow(std::string_view key, uint64_t* suppressed) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mu_);
  auto it = keys_.find(key);
  if (it == keys_.end()) {
    if (keys_.size() >= max_keys_) key = "(other)";
    it = keys_.try_emplace(std::string(key)).first;
  }
  KeyState& st = it->second;
  if (now < st.next_allowed) {
    ++st.suppressed;
    return false;
  }
  if (suppressed) *suppressed = st.suppressed;
  st.suppressed = 0;
  st.next_allowed = now + interval_;
  return true;
}

void LogThrottle::log(spdlog::logger& logger, spdlog::level::level_enum level, std::string_view key,
                      std::string_view message) {
  if (!logger.should_log(level)) return;
  uint64_t suppressed = 0;
  if (!allow(key, &suppressed)) return;
  if (suppressed == 0) logger.log(level, "{}", message);
  else logger.log(level, "{} ({} similar lines suppressed)", message, suppressed);
}

namespace {

LogThrottle& protobufThrottle() {
  static LogThrottle throttle;
  return throttle;
}

void protobufLogHandler(google::protobuf::LogLevel level, const char* filename, int line, const std::string& message) {
  spdlog::level::level_enum lvl = spdlog::level::info;
  switch (level) {
    case google::protobuf::LOGLEVEL_INFO: lvl = spdlog::level::info; break;
    case google::protobuf::LOGLEVEL_WARNING: lvl = spdlog::level::warn; break;
    default: lvl = spdlog::level::err; break;  // ERROR and FATAL (protobuf aborts after FATAL itself)
  }
  const std::string where = std::string(filename ? filename : "?") + ":" + std::to_string(line);
  protobufThrottle().log(*spdlog::default_logger(), lvl, where, "protobuf: " + message);
}

}  // namespace

void installProtobufLogHandler() { google::protobuf::SetLogHandler(&protobufLogHandler); }

}  // namespace proflow::telemetry
