// Rate limit for log lines a client can trigger once per request (a malformed payload, a library
// complaining about it): at most one line per key per interval, and the next line that gets through
// says how many were held back. Without it, a misbehaving sender turns into a log flood.
//
//   static telemetry::LogThrottle throttle;  // one per call site or per component
//   throttle.log(*logger, spdlog::level::warn, "bad_utf8", "request with invalid UTF-8 refused");
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include <spdlog/logger.h>

namespace proflow::telemetry {

class LogThrottle {
 public:
  explicit LogThrottle(std::chrono::steady_clock::duration interval = std::chrono::seconds(10), size_t max_keys = 256);

  // True when a line for `key` may be written now; `suppressed` (optional) receives the number of
  // lines for that key held back since the last one that got through. Thread-safe.
  bool allow(std::string_view key, uint64_t* suppressed = nullptr);

  // Writes `message` through `logger` when allowed, with " (N similar lines suppressed)" appended.
  void log(spdlog::logger& logger, spdlog::level::level_enum level, std::string_view key, std::string_view message);

 private:
  struct KeyState {
    std::chrono::steady_clock::time_point next_allowed{};
    uint64_t suppressed = 0;
  };
  const std::chrono::steady_clock::duration interval_;
  const size_t max_keys_;  // further keys share one entry, so memory stays bounded
  std::mutex mu_;
  std::map<std::string, KeyState, std::less<>> keys_;
};

// Routes protobuf's own log lines (e.g. "String field ... contains invalid UTF-8 data", written for
// every such request) through spdlog's default logger, throttled per source location. Process-wide;
// setupLogging() installs it.
void installProtobufLogHandler();

}  // namespace proflow::telemetry
