// The receiver over HTTP: /info, the Agent's other paths, uploads into the pipeline, hostile input,
// and forward_to against a local HTTP server standing in for the Agent.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <thread>

#include "tests/receivers/datadog/fake_agent.h"
#include "tests/receivers/datadog/fixtures.h"
#include "tests/receivers/datadog/harness.h"
#include "tests/receivers/datadog/otlp_view.h"
#include "tests/support/raw_http.h"
#include "tests/support/flat_request.h"

namespace proflow::receivers::datadog {
namespace {

using namespace testing;
using namespace std::string_literals;

std::string upload(const std::string& tags = "service:web,env:prod,version:3") {
  return multipart({{"event", "event.json", "application/json", eventJson({"wall.pprof"}, tags, "node")},
                    {"wall.pprof", "wall.pprof", "application/octet-stream",
                     gzip(serialize(ddProfile({{"sample", "count"}, {"wall", "nanoseconds"}}, false)))}});
}

net::HttpHeaders multipartHeaders() { return {{"Content-Type", contentType()}}; }

TEST_F(DatadogReceiverTest, InfoAdvertisesTheProfilingEndpoint) {
  start({});
  auto r = send("GET", "/info", {}, "");
  ASSERT_EQ(r.http_status, 200) << r.body;
  EXPECT_EQ(net::headerValue(r.headers, "content-type"), "");  // the Agent sets none
  google::protobuf::Struct info;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.body, &info).ok()) << r.body;
  const auto& f = info.fields();
  EXPECT_NE(f.at("version").string_value(), "");
  std::vector<std::string> endpoints;
  for (const auto& v : f.at("endpoints").list_value().values()) endpoints.push_back(v.string_value());
  for (const char* want : {"/profiling/v1/input", "/v0.4/traces", "/v0.5/traces", "/v0.6/stats", "/telemetry/proxy/",
                           "/evp_proxy/v2/"})
    EXPECT_NE(std::find(endpoints.begin(), endpoints.end(), want), endpoints.end()) << want;
  EXPECT_EQ(f.at("config").struct_value().fields().at("receiver_port").number_value(), port_);
  EXPECT_TRUE(f.at("span_meta_structs").bool_value());
}

TEST_F(DatadogReceiverTest, TracerPathsAreAnsweredCountedAndDropped) {
  start({});
  auto traces = send("PUT", "/v0.4/traces", {{"Content-Type", "application/msgpack"}}, std::string("\x91\x90", 2));
  EXPECT_EQ(traces.http_status, 200);
  EXPECT_EQ(traces.body, "{\"rate_by_service\":{}}");
  EXPECT_EQ(send("POST", "/v0.5/traces", {}, "x").http_status, 200);
  EXPECT_EQ(send("POST", "/v0.6/stats", {}, "x").http_status, 200);
  EXPECT_EQ(send("POST", "/telemetry/proxy/api/v2/apmtelemetry", {}, "{}").http_status, 200);
  EXPECT_EQ(counter("datadog_dropped_requests_total"), 4u);
  EXPECT_EQ(send("GET", "/v0.4/traces", {}, "").http_status, 405);
  EXPECT_EQ(send("POST", "/nowhere", {}, "").http_status, 404);
  EXPECT_TRUE(capture_->wait(1, std::chrono::milliseconds(100)).empty());
}

TEST_F(DatadogReceiverTest, UploadReachesThePipeline) {
  start({});
  auto r = send("POST", "/profiling/v1/input",
                {{"Content-Type", contentType()}, {"Datadog-Container-ID", "c0ffee"},
                 {"X-Datadog-Additional-Tags", "host:agent-host,default_env:dev"}},
                upload());
  ASSERT_EQ(r.http_status, 200) << r.body;
  auto got = capture_->wait(1);
  ASSERT_EQ(got.size(), 1u);
  const auto& req = ::proflow::testing::requestOf(got[0]);
  const auto& rp = req.resource_profiles(0);
  EXPECT_EQ(resourceAttr(rp, "service.name"), "web");
  EXPECT_EQ(resourceAttr(rp, "deployment.environment.name"), "prod");
  EXPECT_EQ(resourceAttr(rp, "host.name"), "agent-host");
  EXPECT_EQ(resourceAttr(rp, "container.id"), "c0ffee");
  EXPECT_EQ(rp.scope_profiles(0).profiles_size(), 2);
  EXPECT_EQ(counter("datadog_profile_uploads_total"), 1u);
  EXPECT_EQ(counter("datadog_derived_trace_ids_total"), 4u);  // 2 linked samples x 2 sample types
}

TEST_F(DatadogReceiverTest, HostileUploadsGetAMessageAndTheReceiverStaysUp) {
  DatadogReceiverConfig cfg;
  cfg.max_request_body_size = config::ByteSize(1 << 20);
  cfg.max_profile_size = config::ByteSize(2 << 20);
  start(cfg);
  const std::string good = upload();
  auto expect = [&](const std::string& body, int status, const std::string& words) {
    auto r = send("POST", "/profiling/v1/input", multipartHeaders(), body);
    EXPECT_EQ(r.http_status, status) << r.body;
    EXPECT_NE(r.body.find(words), std::string::npos) << r.body;
  };
  expect(good.substr(0, good.size() / 2), 400, "multipart");
  expect(multipart({{"wall.pprof", "wall.pprof", "", "x"}}), 400, "'event' part");
  expect(multipart({{"event", "event.json", "", eventJson({"wall.pprof"}, "")}, {"wall.pprof", "wall.pprof", "", "garbage"}}),
         400, "attachment 'wall.pprof'");
  std::string bad_zstd = zstd(serialize(ddProfile({{"cpu", "nanoseconds"}}, true)));
  bad_zstd.resize(bad_zstd.size() - 4);
  expect(multipart({{"event", "event.json", "", eventJson({"profile.pprof"}, "")},
                    {"profile.pprof", "profile.pprof", "", bad_zstd}}),
         400, "attachment 'profile.pprof'");
  expect(multipart({{"event", "event.json", "", eventJson({"cpu.pprof"}, "")},
                    {"cpu.pprof", "cpu.pprof", "", zstd(std::string(16 << 20, '\0'))}}),
         413, "attachment 'cpu.pprof'");  // a bomb
  auto big = send("POST", "/profiling/v1/input", multipartHeaders(), std::string(2 << 20, 'x'));
  EXPECT_EQ(big.http_status, 413);
  EXPECT_EQ(counter("datadog_invalid_uploads_total"), 5u);
  auto r = send("POST", "/profiling/v1/input", multipartHeaders(), good);
  EXPECT_EQ(r.http_status, 200) << r.body;
  EXPECT_EQ(capture_->wait(1).size(), 1u);
}

TEST_F(DatadogReceiverTest, BusyPipelineAsksToRetry) {
  start({});
  capture_->answer = Status::exhausted("memory limit");
  auto r = send("POST", "/profiling/v1/input", multipartHeaders(), upload());
  EXPECT_EQ(r.http_status, 429);
  EXPECT_NE(net::headerValue(r.headers, "retry-after"), "");
}

TEST_F(DatadogReceiverTest, ForwardToPassesEveryRequestOnUnchangedAndTapsProfiles) {
  FakeAgent agent(runtime_.io());
  DatadogReceiverConfig cfg;
  cfg.forward_to = agent.url();
  start(cfg);
  const std::string traces = "\x91\x91\x8c\xa7service\xa3web\x00\xff"s;  // 17 bytes, one of them NUL
  auto t = send("PUT", "/v0.4/traces?x=1", {{"Content-Type", "application/msgpack"}, {"Datadog-Meta-Lang", "nodejs"},
                                            {"X-Datadog-Trace-Count", "1"}},
                traces);
  EXPECT_EQ(t.http_status, 202);
  EXPECT_EQ(t.body, "{\"agent\":\"/v0.4/traces\"}");
  EXPECT_EQ(net::headerValue(t.headers, "x-agent"), "yes");
  EXPECT_EQ(net::headerValue(t.headers, "content-type"), "application/json");
  EXPECT_EQ(send("GET", "/info", {}, "").body, "{\"agent\":\"/info\"}");
  const std::string body = upload();
  auto p = send("POST", "/profiling/v1/input", {{"Content-Type", contentType()}, {"DD-EVP-ORIGIN", "dd-trace-js"}}, body);
  EXPECT_EQ(p.http_status, 202);  // the Agent's answer, as is
  EXPECT_EQ(send("POST", "/some/future/path", {}, "z").http_status, 202);

  const auto got = agent.received();
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].method, "PUT");
  EXPECT_EQ(got[0].target, "/v0.4/traces?x=1");
  EXPECT_EQ(got[0].body, traces);  // byte for byte
  EXPECT_EQ(net::headerValue(got[0].headers, "datadog-meta-lang"), "nodejs");
  EXPECT_EQ(net::headerValue(got[0].headers, "x-datadog-trace-count"), "1");
  EXPECT_EQ(got[1].target, "/info");
  EXPECT_EQ(got[2].body, body);
  EXPECT_EQ(net::headerValue(got[2].headers, "content-type"), contentType());
  EXPECT_EQ(net::headerValue(got[2].headers, "dd-evp-origin"), "dd-trace-js");
  EXPECT_EQ(got[3].target, "/some/future/path");
  // ... and the profile was decoded into the pipeline too.
  auto batches = capture_->wait(1);
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(resourceAttr(::proflow::testing::requestOf(batches[0]).resource_profiles(0), "service.name"), "web");
  EXPECT_EQ(counter("datadog_forwarded_requests_total"), 4u);
}

TEST_F(DatadogReceiverTest, DeadOrSlowAgentGets502Or504) {
  std::string dead_url;
  {
    FakeAgent gone(runtime_.io());
    dead_url = gone.url();
    gone.server->stop();
  }
  DatadogReceiverConfig cfg;
  cfg.forward_to = dead_url;
  start(cfg);
  auto r = send("PUT", "/v0.4/traces", {}, "x");
  EXPECT_EQ(r.http_status, 502);
  EXPECT_NE(r.body.find("unreachable"), std::string::npos) << r.body;

  FakeAgent slow(runtime_.io(), std::chrono::milliseconds(3000));
  cfg.forward_to = slow.url();
  cfg.forward_timeout = std::chrono::milliseconds(300);
  start(cfg);
  const auto t0 = std::chrono::steady_clock::now();
  r = send("PUT", "/v0.4/traces", {}, "x");
  EXPECT_EQ(r.http_status, 504);
  EXPECT_NE(r.body.find("did not answer within 300 ms"), std::string::npos) << r.body;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_EQ(counter("datadog_forward_failures_total"), 2u);
}

TEST_F(DatadogReceiverTest, ForwardQueueIsBounded) {
  FakeAgent slow(runtime_.io(), std::chrono::milliseconds(1500));
  DatadogReceiverConfig cfg;
  cfg.forward_to = slow.url();
  cfg.forward_workers = 1;
  cfg.max_concurrent_forwards = 2;
  start(cfg);
  std::vector<std::thread> clients;
  std::mutex mu;
  std::vector<int> codes;
  for (int i = 0; i < 4; ++i)
    clients.emplace_back([&] {
      net::HttpClient c{net::HttpClientOptions{}};
      auto r = c.request("PUT", "http://127.0.0.1:" + std::to_string(port_) + "/v0.4/traces", {}, "x",
                         std::chrono::seconds(20));
      std::lock_guard<std::mutex> lock(mu);
      codes.push_back(r.http_status);
    });
  for (auto& t : clients) t.join();
  EXPECT_EQ(std::count(codes.begin(), codes.end(), 503), 2) << ::testing::PrintToString(codes);
  EXPECT_EQ(std::count(codes.begin(), codes.end(), 202), 2) << ::testing::PrintToString(codes);
}

}  // namespace
}  // namespace proflow::receivers::datadog
