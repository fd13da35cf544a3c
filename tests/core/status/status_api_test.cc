// The status API: /api/status (pipelines, counters, rates, last error), /api/flamegraph as JSON
// (tree, comparison) and as pprof (read back with the project's pprof decoder), and 400s.
#include "core/status/status_api.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <thread>

#include "core/formats/pprof/pprof_codec.h"
#include "core/status/last_errors.h"
#include "core/telemetry/component_telemetry.h"
#include "tests/core/formats/jfr/mini_json.h"
#include "tests/core/status/flame_test_util.h"

namespace proflow::status {
namespace {

using namespace std::chrono_literals;
using proflow::testing::Json;

Json parse(const net::HttpResponse& r) {
  Json j;
  std::string error;
  EXPECT_TRUE(proflow::testing::parseJson(r.body, &j, &error)) << error << "\n" << r.body;
  return j;
}

net::HttpRequest get(const std::string& target) {
  net::HttpRequest r;
  r.method = "GET";
  r.target = target;
  const auto q = target.find('?');
  r.path = target.substr(0, q);
  if (q != std::string::npos) r.query = net::parseQuery(target.substr(q + 1));
  return r;
}

struct Fixture {
  telemetry::MetricsRegistry metrics;
  FlameTap tap{{}, metrics};
  StatusApi api{metrics, &tap, [] { return true; }};

  Fixture() {
    auto cfg = std::make_shared<config::ServiceConfig>();
    cfg->pipelines.push_back({"profiles", {{"otlp", ""}}, {{"batch", ""}}, {{"file", ""}}, {}});
    api.setConfig(cfg);
    tap.offer(std::make_shared<const flat::Batch>(testing::batchOf(
        "checkout", "cpu/nanoseconds", {{{"parseJson", "handle", "main"}, 30}, {{"writeRow", "handle", "main"}, 10}})));
    tap.offer(std::make_shared<const flat::Batch>(
        testing::batchOf("checkout", "alloc_space/bytes", {{{"newBuffer", "main"}, 4096}})));
    tap.flush();
  }
};

TEST(StatusApi, StatusListsPipelinesAndComponentsWithCountersRatesAndLastError) {
  Fixture f;
  installLastErrorSink();
  telemetry::ComponentTelemetry receiver(f.metrics, ComponentKind::kReceiver, "otlp");
  telemetry::ComponentTelemetry exporter(f.metrics, ComponentKind::kExporter, "file");
  receiver.record(telemetry::Event::kAccepted, {1, 4, 400});
  receiver.bytesIn(1000);
  exporter.record(telemetry::Event::kFailed, {1, 1, 10});
  exporter.queueSize().set(3);
  exporter.queueCapacity().set(10);
  spdlog::default_logger()->clone("exporter/file")->warn("export failed: connection refused");

  Json first = parse(f.api.status());
  EXPECT_TRUE(first["healthy"].boolean);
  ASSERT_EQ(first["pipelines"].items.size(), 1u);
  const Json& p = first["pipelines"].items[0];
  EXPECT_EQ(p["name"].text, "profiles");
  EXPECT_EQ(p["receivers"].items.at(0).text, "otlp");
  EXPECT_EQ(p["processors"].items.at(0).text, "batch");
  EXPECT_EQ(p["exporters"].items.at(0).text, "file");
  ASSERT_EQ(first["components"].items.size(), 3u);
  const Json& r = first["components"].items[0];
  EXPECT_EQ(r["kind"].text, "receiver");
  EXPECT_EQ(r["id"].text, "otlp");
  EXPECT_EQ(r["totals"]["accepted_samples"].number, 400);
  EXPECT_EQ(r["totals"]["bytes_in"].number, 1000);
  const Json& proc = first["components"].items[1];
  EXPECT_EQ(proc["pipeline"].text, "profiles");
  const Json& e = first["components"].items[2];
  EXPECT_EQ(e["errors"].number, 1);
  EXPECT_EQ(e["queue_size"].number, 3);
  EXPECT_EQ(e["queue_capacity"].number, 10);
  EXPECT_EQ(e["last_error"]["message"].text, "export failed: connection refused");
  EXPECT_TRUE(r["last_error"].isNull());
  EXPECT_GT(first["flamegraph"]["memory_bytes"].number, 0);

  // Rates: the difference to the snapshot a second or more before.
  std::this_thread::sleep_for(1100ms);
  receiver.record(telemetry::Event::kAccepted, {1, 6, 600});
  Json second = parse(f.api.status());
  const Json& rates = second["components"].items[0]["rates"];
  ASSERT_FALSE(rates.isNull()) << second["components"].items[0]["rates"].text;
  const double dt = second["rate_seconds"].number;
  ASSERT_GE(dt, 1.0);
  EXPECT_NEAR(rates["samples"].number, 1000 / dt, 1);
  EXPECT_NEAR(rates["profiles"].number, 10 / dt, 0.1);
}

TEST(StatusApi, FlamegraphJsonIsTheTreeOfTheWindowWithTheComparison) {
  Fixture f;
  Json series = parse(f.api.series());
  ASSERT_EQ(series["series"].items.size(), 2u);
  EXPECT_EQ(series["series"].items[0]["service"].text, "checkout");
  EXPECT_EQ(series["series"].items[0]["type"].text, "alloc_space/bytes");
  EXPECT_EQ(series["series"].items[1]["type"].text, "cpu/nanoseconds");

  auto r = f.api.flamegraph(get("/api/flamegraph?service=checkout&type=cpu/nanoseconds&window=5m&compare=15m"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.content_type, "application/json; charset=utf-8");
  Json j = parse(r);
  EXPECT_EQ(j["total"].number, 40);
  EXPECT_EQ(j["window"].text, "5m");
  EXPECT_EQ(j["compare"].text, "15m");
  const Json& root = j["root"];
  EXPECT_EQ(root["n"].text, "all");
  ASSERT_EQ(root["c"].items.size(), 1u);
  const Json& main = root["c"].items[0];
  EXPECT_EQ(main["n"].text, "main");
  const Json& handle = main["c"].items.at(0);
  EXPECT_EQ(handle["n"].text, "handle");
  ASSERT_EQ(handle["c"].items.size(), 2u);
  EXPECT_EQ(handle["c"].items[0]["n"].text, "parseJson");
  EXPECT_EQ(handle["c"].items[0]["v"].number, 30);
  EXPECT_EQ(handle["c"].items[1]["n"].text, "writeRow");
  // Everything is recent: both windows cover the same seconds, so the base equals the value.
  EXPECT_NEAR(handle["c"].items[0]["b"].number, 30, 0.01);
}

TEST(StatusApi, FlamegraphPprofOpensWithThePprofDecoder) {
  Fixture f;
  auto r = f.api.flamegraph(get("/api/flamegraph?service=checkout&type=cpu/nanoseconds&window=1m&format=pprof"));
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_GE(r.body.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(r.body[0]), 0x1f);  // gzip
  pprof::Profile p;
  ASSERT_TRUE(pprof::decodeProfile(r.body, &p).isOk());
  ASSERT_EQ(p.sample_type_size(), 1);
  EXPECT_EQ(p.string_table(p.sample_type(0).type()), "cpu");
  EXPECT_EQ(p.string_table(p.sample_type(0).unit()), "nanoseconds");
  std::map<std::string, int64_t> leaves;
  for (const auto& s : p.sample()) {
    const uint64_t leaf = s.location_id(0);
    for (const auto& l : p.location())
      if (l.id() == leaf)
        for (const auto& fn : p.function())
          if (fn.id() == l.line(0).function_id()) leaves[p.string_table(fn.name())] += s.value(0);
    EXPECT_EQ(s.location_id_size(), 3);
  }
  EXPECT_EQ(leaves, (std::map<std::string, int64_t>{{"parseJson", 30}, {"writeRow", 10}}));
}

TEST(StatusApi, BadQueryParametersAnswer400WithAMessage) {
  Fixture f;
  const std::pair<const char*, const char*> cases[] = {
      {"/api/flamegraph?type=cpu/nanoseconds", "'service' is required"},
      {"/api/flamegraph?service=checkout", "'type' is required"},
      {"/api/flamegraph?service=checkout&type=cpu/nanoseconds&window=2h", "must be 1m, 5m or 15m, got '2h'"},
      {"/api/flamegraph?service=checkout&type=cpu/nanoseconds&compare=soon", "'compare' must be"},
      {"/api/flamegraph?service=checkout&type=cpu/nanoseconds&format=svg", "must be json or pprof"},
      {"/api/flamegraph?service=checkout&type=cpu/nanoseconds&colour=red", "unknown parameter 'colour'"},
      {"/api/flamegraph?service=checkout&service=other&type=cpu/nanoseconds", "more than once"},
      {"/api/flamegraph?service=checkout&type=cpu/nanoseconds&format=pprof&compare=15m", "format=json only"},
  };
  for (const auto& [target, message] : cases) {
    auto r = f.api.flamegraph(get(target));
    EXPECT_EQ(r.status, 400) << target;
    EXPECT_NE(r.body.find(message), std::string::npos) << target << ": " << r.body;
  }
  auto unknown = f.api.flamegraph(get("/api/flamegraph?service=nobody&type=cpu/nanoseconds"));
  EXPECT_EQ(unknown.status, 404);
}

TEST(StatusApi, ABareSampleTypeNamesTheOneSeriesOfThatType) {
  Fixture f;
  auto bare = f.api.flamegraph(get("/api/flamegraph?service=checkout&type=cpu"));
  ASSERT_EQ(bare.status, 200) << bare.body;
  Json j = parse(bare);
  EXPECT_EQ(j["type"].text, "cpu/nanoseconds");
  EXPECT_EQ(j["total"].number, 40);
  EXPECT_EQ(parse(f.api.flamegraph(get("/api/flamegraph?service=checkout&type=alloc_space")))["total"].number, 4096);

  // A type the service does not have: 404 listing the types it has.
  auto missing = f.api.flamegraph(get("/api/flamegraph?service=checkout&type=wall"));
  EXPECT_EQ(missing.status, 404);
  EXPECT_NE(missing.body.find("its types: alloc_space/bytes, cpu/nanoseconds"), std::string::npos) << missing.body;
  // A unit that does not match is not guessed at.
  EXPECT_EQ(f.api.flamegraph(get("/api/flamegraph?service=checkout&type=cpu/count")).status, 404);
  // An unknown service: the services there are.
  auto nobody = f.api.flamegraph(get("/api/flamegraph?service=nobody&type=cpu"));
  EXPECT_EQ(nobody.status, 404);
  EXPECT_NE(nobody.body.find("services: checkout"), std::string::npos) << nobody.body;
}

TEST(StatusApi, ABareSampleTypeOfSeveralSeriesIsRefusedWithThem) {
  Fixture f;
  f.tap.offer(std::make_shared<const flat::Batch>(testing::batchOf("checkout", "cpu/count", {{{"main"}, 3}})));
  f.tap.flush();
  auto r = f.api.flamegraph(get("/api/flamegraph?service=checkout&type=cpu"));
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("several series of service 'checkout': cpu/count, cpu/nanoseconds"), std::string::npos) << r.body;
  EXPECT_EQ(f.api.flamegraph(get("/api/flamegraph?service=checkout&type=cpu/count")).status, 200);
}

TEST(StatusApi, WithoutTheTapTheFlamegraphIsOffAndStatusSaysSo) {
  telemetry::MetricsRegistry metrics;
  StatusApi api(metrics, nullptr, [] { return false; });
  EXPECT_EQ(api.status().status, 503);  // no config yet
  api.setConfig(std::make_shared<config::ServiceConfig>());
  Json j = parse(api.status());
  EXPECT_FALSE(j["healthy"].boolean);
  EXPECT_TRUE(j["flamegraph"].isNull());
  EXPECT_EQ(api.flamegraph(get("/api/flamegraph?service=a&type=b")).status, 404);
}

}  // namespace
}  // namespace proflow::status
