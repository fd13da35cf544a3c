// protobuf's per-message complaint (invalid UTF-8 in a string field): 1000 bad requests through the
// OTLP receiver (which decodes protobuf bodies itself and refuses them without protobuf's log) and
// 1000 parses by protobuf itself, a bounded number of log lines either way.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "core/net/http_client.h"
#include "core/model/otlp_types.h"
#include "core/telemetry/log_throttle.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"

namespace proflow::telemetry {
namespace {

size_t countLines(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) ++n;
  return n;
}

TEST(ProtobufLogHandler, ThousandInvalidUtf8RequestsLogABoundedNumberOfLines) {
  std::ostringstream out;
  auto previous = spdlog::default_logger();
  auto capture = std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(out));
  capture->set_level(spdlog::level::info);
  spdlog::set_default_logger(capture);
  installProtobufLogHandler();

  const int port = testing::freePort();
  auto service = testing::startService(R"(
receivers: { otlp: { protocols: { http: { endpoint: "127.0.0.1:)" + std::to_string(port) + R"(" } } } }
exporters: { debug: {} }
service:
  telemetry: { metrics: { address: none } }
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)");
  ASSERT_TRUE(service);
  // ExportProfilesServiceRequest{dictionary{string_table: ["\xff"]}}: field 2 { field 5 = 0xff }.
  const std::string bad_utf8("\x12\x03\x2a\x01\xff", 5);
  net::HttpClient client({});
  const auto started = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000; ++i) {
    auto r = client.request("POST", "http://127.0.0.1:" + std::to_string(port) + "/v1development/profiles",
                            {{"Content-Type", "application/x-protobuf"}}, bad_utf8, std::chrono::seconds(10));
    ASSERT_EQ(r.http_status, 400) << r.body;
  }
  service->shutdown();
  const std::string receiver_log = out.str();
  // Each one refused (400 above), none of them a line per request.
  EXPECT_LE(countLines(receiver_log, "UTF-8"), 2u) << receiver_log.substr(0, 2000);

  // protobuf's own parser on the same bytes: its complaint reaches the log, throttled.
  for (int i = 0; i < 1000; ++i) {
    ::proflow::otlp::Request request;
    EXPECT_FALSE(request.ParseFromString(bad_utf8));
  }
  const double elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  spdlog::set_default_logger(previous);
  const std::string log = out.str();
  const size_t lines = countLines(log, "invalid UTF-8");
  EXPECT_GE(lines, 1u) << "protobuf's complaint should reach the log once:\n" << log;
  // One line per 10 s interval at most (plus the first), however long the loops took.
  EXPECT_LE(lines, 2 + static_cast<size_t>(elapsed_s / 10)) << log.substr(0, 2000);
}

}  // namespace
}  // namespace proflow::telemetry
