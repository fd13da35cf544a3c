// The pyroscope exporter against a small fake Pyroscope server (the shared HTTP server on port 0)
// that decodes what arrives: the Connect PushRequest and the gzip pprof inside, or /ingest bodies.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <deque>
#include <mutex>
#include <thread>

#include "core/config/component_config.h"
#include "core/net/http_server.h"
#include "core/runtime/runtime.h"
#include "core/telemetry/component_telemetry.h"
#include "exporters/pyroscope/factory.h"
#include "exporters/pyroscope/pyroscope_sender.h"
#include "pyroscope/push/v1/push.pb.h"
#include "tests/exporters/pyroscope/test_profiles.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow::exporters::pyroscope {
namespace {

struct Received {
  std::string path;
  std::multimap<std::string, std::string> query;
  net::HttpHeaders headers;
  std::string body;
};

class FakePyroscope {
 public:
  FakePyroscope() : work_(boost::asio::make_work_guard(ioc_)) {
    thread_ = std::thread([this] { ioc_.run(); });
    server_ = std::make_unique<net::HttpServer>(ioc_, net::HttpServerOptions{}, spdlog::default_logger());
    for (const char* path : {"/push.v1.PusherService/Push", "/ingest"})
      server_->route("POST", path, [this](net::HttpRequest&& req, net::Responder respond) {
        std::lock_guard<std::mutex> lock(mu_);
        received_.push_back({req.path, req.query, req.headers, req.body});
        net::HttpResponse r{200, "", "", {}};
        if (!script_.empty()) {
          r = script_.front();
          script_.pop_front();
        }
        respond(r);
      });
    EXPECT_TRUE(server_->start().isOk());
  }
  ~FakePyroscope() {
    server_->stop();
    work_.reset();
    ioc_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(server_->port()); }
  void answer(net::HttpResponse r) {
    std::lock_guard<std::mutex> lock(mu_);
    script_.push_back(std::move(r));
  }
  std::vector<Received> received() {
    std::lock_guard<std::mutex> lock(mu_);
    return received_;
  }

 private:
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
  std::unique_ptr<net::HttpServer> server_;
  std::mutex mu_;
  std::deque<net::HttpResponse> script_;
  std::vector<Received> received_;
};

using ::proflow::testing::NullHost;

class ExporterTest : public ::testing::Test {
 protected:
  PyroscopeExporterConfig baseConfig() {
    PyroscopeExporterConfig c;
    c.endpoint = server_.url() + "/";
    c.helper.sending_queue.enabled = false;  // consume() returns the final outcome
    c.helper.retry_on_failure.initial_interval = std::chrono::milliseconds(10);
    c.helper.retry_on_failure.max_elapsed_time = std::chrono::seconds(30);
    return c;
  }

  std::unique_ptr<Exporter> make(const PyroscopeExporterConfig& c) {
    auto factory = makePyroscopeExporterFactory();
    EXPECT_EQ(factory->type(), "pyroscope");
    auto* ef = dynamic_cast<ExporterFactory*>(factory.get());
    config::TypedConfig<PyroscopeExporterConfig> typed(c);
    CreateSettings s{ComponentId{"pyroscope", ""}, ComponentKind::kExporter, spdlog::default_logger(), &telemetry_,
                     &runtime_};
    auto e = ef->create(s, typed);
    EXPECT_TRUE(e->start(host_).isOk());
    return e;
  }

  static Batch cpuBatch() {
    return ::proflow::testing::batchOf(testing::toOtlp(testing::cpuPprof(), {{"service.name", "shop"}, {"host.name", "h1"}}));
  }

  static std::map<std::string, std::string> labelsOf(const push::v1::RawProfileSeries& s) {
    std::map<std::string, std::string> m;
    for (const auto& l : s.labels()) m[l.name()] = l.value();
    return m;
  }

  FakePyroscope server_;
  telemetry::MetricsRegistry registry_;
  telemetry::ComponentTelemetry telemetry_{registry_, ComponentKind::kExporter, "pyroscope"};
  Runtime runtime_{1, 1};
  NullHost host_;
};

TEST_F(ExporterTest, PushApiCarriesLabelsAndGzipPprofWithAuthAndTenant) {
  auto c = baseConfig();
  c.tenant_id = "team-a";
  c.auth.basic = BasicAuthConfig{"user", "s3cret"};
  c.external_labels = {{"cluster", "eu-1"}};
  auto e = make(c);
  ASSERT_TRUE(e->consume(cpuBatch()).isOk());
  e->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(2));

  auto got = server_.received();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].path, "/push.v1.PusherService/Push");
  EXPECT_EQ(net::headerValue(got[0].headers, "content-type"), "application/proto");
  EXPECT_EQ(net::headerValue(got[0].headers, "connect-protocol-version"), "1");
  EXPECT_EQ(net::headerValue(got[0].headers, "x-scope-orgid"), "team-a");
  EXPECT_EQ(net::headerValue(got[0].headers, "authorization"), "Basic dXNlcjpzM2NyZXQ=");  // user:s3cret

  push::v1::PushRequest req;
  ASSERT_TRUE(req.ParseFromString(got[0].body));
  ASSERT_EQ(req.series_size(), 1);
  const auto labels = labelsOf(req.series(0));
  EXPECT_EQ(labels.at("__name__"), "process_cpu");
  EXPECT_EQ(labels.at("service_name"), "shop");
  EXPECT_EQ(labels.at("host_name"), "h1");
  EXPECT_EQ(labels.at("cluster"), "eu-1");
  EXPECT_EQ(labels.at("__delta__"), "false");
  ASSERT_EQ(req.series(0).samples_size(), 1);
  pprof::Profile p;
  ASSERT_TRUE(pprof::decodeProfile(req.series(0).samples(0).raw_profile(), &p).isOk());
  const pprof::Profile want = testing::cpuPprof();
  ASSERT_EQ(p.sample_size(), want.sample_size());
  for (int i = 0; i < p.sample_size(); ++i) {
    EXPECT_EQ(p.sample(i).value(0), want.sample(i).value(0));
    EXPECT_EQ(p.sample(i).value(1), want.sample(i).value(1));
  }
  EXPECT_EQ(p.time_nanos(), want.time_nanos());
}

TEST_F(ExporterTest, IngestApiPostsOnePprofPerProfileWithBearerToken) {
  auto c = baseConfig();
  c.api = "ingest";
  c.auth.bearer_token = "tok-123";
  auto e = make(c);
  otlp::Request two;
  testing::appendOtlp(&two, testing::cpuPprof(), {{"service.name", "shop"}, {"env", "prod"}});
  testing::appendOtlp(&two, testing::heapPprof(), {{"service.name", "shop"}, {"env", "prod"}});
  ASSERT_TRUE(e->consume(::proflow::testing::batchOf(std::move(two))).isOk());
  auto got = server_.received();
  ASSERT_EQ(got.size(), 2u);
  for (const auto& r : got) {
    EXPECT_EQ(r.path, "/ingest");
    EXPECT_EQ(net::headerValue(r.headers, "authorization"), "Bearer tok-123");
    EXPECT_EQ(r.query.find("format")->second, "pprof");
    EXPECT_EQ(r.query.find("name")->second, "shop{env=prod}");
    EXPECT_EQ(r.query.find("from")->second, "1795987030000000000");
    pprof::Profile p;
    EXPECT_TRUE(pprof::decodeProfile(r.body, &p).isOk());
  }
  EXPECT_EQ(got[0].query.find("until")->second, "1795987040000000000");
}

TEST_F(ExporterTest, TooManyRequestsIsRetriedThenSucceeds) {
  server_.answer({429, "application/json", R"({"code":"resource_exhausted","message":"rate limited"})",
                  {{"Retry-After", "1"}}});
  server_.answer({503, "", "", {}});
  auto e = make(baseConfig());
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(e->consume(cpuBatch()).isOk());
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));  // Retry-After honoured
  EXPECT_EQ(server_.received().size(), 3u);
}

TEST_F(ExporterTest, BadRequestIsNotRetriedAndCarriesTheServerMessage) {
  server_.answer({400, "application/json", R"({"code":"invalid_argument","message":"invalid labels: bad name"})", {}});
  auto e = make(baseConfig());
  Status s = e->consume(cpuBatch());
  EXPECT_FALSE(s.isOk());
  EXPECT_FALSE(s.retryable());
  EXPECT_NE(s.message().find("invalid labels: bad name"), std::string::npos) << s.message();
  EXPECT_EQ(server_.received().size(), 1u);
}

TEST_F(ExporterTest, UnreachableServerIsRetryable) {
  auto c = baseConfig();
  c.endpoint = "http://127.0.0.1:1";  // nothing listens on port 1
  c.helper.retry_on_failure.enabled = false;
  auto e = make(c);
  Status s = e->consume(cpuBatch());
  EXPECT_FALSE(s.isOk());
  EXPECT_TRUE(s.retryable()) << s.toString();
}

TEST(BasicAuthTest, Base64Padding) {
  EXPECT_EQ(basicAuthorization("a", ""), "Basic YTo=");
  EXPECT_EQ(basicAuthorization("ab", ""), "Basic YWI6");
  EXPECT_EQ(basicAuthorization("Aladdin", "open sesame"), "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
}

}  // namespace
}  // namespace proflow::exporters::pyroscope
