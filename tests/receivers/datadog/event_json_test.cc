// event.json built to make its parse expensive: deep nesting, millions of values, each refused by the
// bound it passes (the message names it), and the receiver serves the next upload.
#include "tests/receivers/datadog/fixtures.h"
#include "tests/receivers/datadog/harness.h"

namespace proflow::receivers::datadog {
namespace {

using namespace testing;

std::string uploadWithEvent(const std::string& event) {
  return multipart({{"event", "event.json", "application/json", event},
                    {"cpu.pprof", "cpu.pprof", "application/octet-stream", gzip(serialize(ddProfile({{"cpu", "nanoseconds"}}, true)))}});
}

TEST_F(DatadogReceiverTest, EventJsonBuiltToBeExpensiveIsRefusedByItsBound) {
  DatadogReceiverConfig cfg;
  cfg.max_inflate_ratio = 10'000;  // the bodies below are repetitive: let them reach the JSON reader
  start(cfg);
  const net::HttpHeaders headers = {{"Content-Type", contentType()}, {"Content-Encoding", "gzip"}};
  auto expect = [&](const std::string& event, const std::string& words) {
    auto r = send("POST", "/profiling/v1/input", headers, gzip(uploadWithEvent(event)));
    EXPECT_EQ(r.http_status, 400) << r.body.substr(0, 200);
    EXPECT_NE(r.body.find(words), std::string::npos) << r.body.substr(0, 200);
  };
  // 200 KB of nested arrays: refused at the 17th level, not parsed on.
  expect(std::string(100'000, '[') + std::string(100'000, ']'), "event.json: invalid JSON: nesting deeper than 16 at byte 16");
  // 10 million objects (30 MB, ~30 KB of gzip): refused by its size before any is read.
  std::string objects = "{\"attachments\":[\"cpu.pprof\"],\"x\":[";
  for (int i = 0; i < 10'000'000; ++i) objects += i ? ",{}" : "{}";
  objects += "]}";
  expect(objects, "bytes, more than the 1048576 allowed at byte 0");
  // Within the size bound, 100,000 values: refused by their count at the 10,001st.
  std::string values = "{\"attachments\":[\"cpu.pprof\"],\"x\":[";
  for (int i = 0; i < 100'000; ++i) values += i ? ",0" : "0";
  values += "]}";
  expect(values, "more than 10000 values");
  EXPECT_EQ(counter("datadog_invalid_uploads_total"), 3u);
  auto ok = send("POST", "/profiling/v1/input", headers, gzip(uploadWithEvent(eventJson({"cpu.pprof"}, "service:a"))));
  EXPECT_EQ(ok.http_status, 200) << ok.body;
  EXPECT_EQ(capture_->wait(1).size(), 1u);
}

}  // namespace
}  // namespace proflow::receivers::datadog
