#include "core/telemetry/logging.h"

#include <spdlog/details/fmt_helper.h>
#include <spdlog/formatter.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <ctime>

#include "core/telemetry/log_throttle.h"

namespace proflow::telemetry {
namespace {

void appendJsonString(spdlog::memory_buf_t& out, std::string_view s) {
  out.push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': out.append(std::string_view("\\\"")); break;
      case '\\': out.append(std::string_view("\\\\")); break;
      case '\n': out.append(std::string_view("\\n")); break;
      case '\r': out.append(std::string_view("\\r")); break;
      case '\t': out.append(std::string_view("\\t")); break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out.append(std::string_view(buf));
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
}

// One JSON object per line: {"ts":"...","level":"info","logger":"receiver/otlp","msg":"..."}.
class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    auto t = std::chrono::system_clock::to_time_t(msg.time);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(msg.time.time_since_epoch()).count() % 1000;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char ts[64];
    std::snprintf(ts, sizeof ts, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    dest.append(std::string_view("{\"ts\":\""));
    dest.append(std::string_view(ts));
    dest.append(std::string_view("\",\"level\":"));
    auto level = spdlog::level::to_string_view(msg.level);
    appendJsonString(dest, std::string_view(level.data(), level.size()));
    dest.append(std::string_view(",\"logger\":"));
    appendJsonString(dest, std::string_view(msg.logger_name.data(), msg.logger_name.size()));
    dest.append(std::string_view(",\"msg\":"));
    appendJsonString(dest, std::string_view(msg.payload.data(), msg.payload.size()));
    dest.append(std::string_view("}\n"));
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonFormatter>(); }
};

}  // namespace

void setupLogging(const std::string& level, const std::string& encoding) {
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  if (encoding == "json") sink->set_formatter(std::make_unique<JsonFormatter>());
  else
    sink->set_formatter(std::make_unique<spdlog::pattern_formatter>("%Y-%m-%dT%H:%M:%S.%eZ %-5l %n: %v",
                                                                    spdlog::pattern_time_type::utc));
  auto logger = std::make_shared<spdlog::logger>("proflow", sink);
  logger->set_level(spdlog::level::from_str(level));
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(logger);
  installProtobufLogHandler();
}

}  // namespace proflow::telemetry
