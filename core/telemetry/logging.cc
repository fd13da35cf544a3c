#include "core/telemetry/logging.h"

#include <spdlog/details/fmt_helper.h>
#include <spdlog/formatter.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <ctime>

#include "core/telemetry/log_throttle.h"
#include "core/util/json/json_writer.h"

namespace proflow::telemetry {
namespace {

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
    auto level = spdlog::level::to_string_view(msg.level);
    thread_local std::string line;  // reused: one allocation per thread, not per line
    line.clear();
    json::Writer(&line)
        .beginObject()
        .key("ts").string(ts)
        .key("level").string(std::string_view(level.data(), level.size()))
        .key("logger").string(std::string_view(msg.logger_name.data(), msg.logger_name.size()))
        .key("msg").string(std::string_view(msg.payload.data(), msg.payload.size()))
        .endObject();
    line += '\n';
    dest.append(std::string_view(line));
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonFormatter>(); }
};

}  // namespace

Status setupLogging(const std::string& level, const std::string& encoding, const std::vector<std::string>& outputs) {
  std::vector<spdlog::sink_ptr> sinks;
  for (const auto& out : outputs) {
    spdlog::sink_ptr sink;
    if (out == "stderr") {
      sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    } else if (out == "stdout") {
      sink = std::make_shared<spdlog::sinks::stdout_sink_mt>();
    } else {
      try {
        sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(out, /*truncate=*/false);
      } catch (const spdlog::spdlog_ex& e) {
        return Status::invalid("service.telemetry.logs.output_paths: cannot open '" + out + "': " + e.what());
      }
    }
    if (encoding == "json") sink->set_formatter(std::make_unique<JsonFormatter>());
    else
      sink->set_formatter(std::make_unique<spdlog::pattern_formatter>("%Y-%m-%dT%H:%M:%S.%eZ %-5l %n: %v",
                                                                      spdlog::pattern_time_type::utc));
    sinks.push_back(std::move(sink));
  }
  auto logger = std::make_shared<spdlog::logger>("proflow", sinks.begin(), sinks.end());
  logger->set_level(spdlog::level::from_str(level));
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(logger);
  installProtobufLogHandler();
  return Status::ok();
}

}  // namespace proflow::telemetry
