// Server authentication on every receiver kind, over real sockets: OTLP/HTTP, OTLP/gRPC, pprof,
// pyroscope, jfr, folded and the telemetry endpoint, all behind one bearertokenauth extension; and
// the config errors of bearertokenauth and of `auth` references (file:line, never a token).
#include <gtest/gtest.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <future>

#include "core/net/http_client.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;

struct Listener {
  std::string receiver;  // the receiver id label of its counters
  int port;
  std::string path;
};

class ReceiversAuthTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (auto* p : {&otlp_http_, &otlp_grpc_, &pprof_, &pyroscope_, &jfr_, &folded_}) *p = testing::freePort();
    auto ep = [](int port) { return "\"127.0.0.1:" + std::to_string(port) + "\""; };
    const std::string auth = "auth: { authenticator: bearertokenauth/ingest }";
    service_ = testing::startService(R"(
extensions:
  bearertokenauth/ingest: { token: the-token }
receivers:
  otlp:
    protocols:
      http: { endpoint: )" + ep(otlp_http_) + ", " + auth + R"( }
      grpc: { endpoint: )" + ep(otlp_grpc_) + ", " + auth + R"( }
  pprof: { endpoint: )" + ep(pprof_) + ", " + auth + R"( }
  pyroscope: { endpoint: )" + ep(pyroscope_) + ", " + auth + R"( }
  jfr: { endpoint: )" + ep(jfr_) + ", " + auth + R"( }
  folded: { endpoint: )" + ep(folded_) + ", " + auth + R"( }
exporters: { debug: {} }
service:
  extensions: [bearertokenauth/ingest]
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0", )" + auth + R"( } }
  pipelines:
    profiles: { receivers: [otlp, pprof, pyroscope, jfr, folded], exporters: [debug] }
)");
    ASSERT_TRUE(service_);
  }

  std::vector<Listener> httpListeners() const {
    return {{"otlp", otlp_http_, "/v1development/profiles"},
            {"pprof", pprof_, "/v1/pprof"},
            {"pyroscope", pyroscope_, "/ingest?name=app&format=pprof"},
            {"jfr", jfr_, "/v1/jfr"},
            {"folded", folded_, "/v1/folded"}};
  }

  net::HttpResult post(const Listener& l, net::HttpHeaders headers) {
    headers.emplace("Content-Type", "application/x-protobuf");
    return client_.request("POST", "http://127.0.0.1:" + std::to_string(l.port) + l.path, headers, "not a profile",
                           std::chrono::seconds(10));
  }

  double unauthenticatedCount(const std::string& receiver) {
    return service_->metrics().value("proflow_receiver_http_rejected_requests_total",
                                     {{"receiver", receiver}, {"reason", "unauthenticated"}});
  }

  int otlp_http_ = 0, otlp_grpc_ = 0, pprof_ = 0, pyroscope_ = 0, jfr_ = 0, folded_ = 0;
  std::unique_ptr<Service> service_;
  net::HttpClient client_{net::HttpClientOptions{}};
};

TEST_F(ReceiversAuthTest, EveryHttpReceiverAnswers401WithoutTheToken) {
  for (const auto& l : httpListeners()) {
    SCOPED_TRACE(l.receiver);
    auto missing = post(l, {});
    ASSERT_TRUE(missing.status.isOk()) << missing.status.toString();
    EXPECT_EQ(missing.http_status, 401);
    EXPECT_EQ(net::headerValue(missing.headers, "WWW-Authenticate"), "Bearer realm=\"proflow\"");
    auto wrong = post(l, {{"Authorization", "Bearer not-the-token"}});
    EXPECT_EQ(wrong.http_status, 401);
    EXPECT_EQ(wrong.body.find("not-the-token"), std::string::npos) << wrong.body;
    EXPECT_EQ(unauthenticatedCount(l.receiver), 2);
    // With the token the request reaches the receiver, which refuses the body on its merits.
    auto right = post(l, {{"Authorization", "Bearer the-token"}});
    ASSERT_TRUE(right.status.isOk()) << right.status.toString();
    EXPECT_NE(right.http_status, 401) << right.body;
    EXPECT_EQ(unauthenticatedCount(l.receiver), 2);
  }
}

// The 401 comes from the headers alone: the client announces a body far over the size limit and
// never sends it, and still gets its answer (a server reading the body would wait, or answer 413).
TEST_F(ReceiversAuthTest, RefusesBeforeReadingTheBody) {
  namespace asio = boost::asio;
  asio::io_context io;
  asio::ip::tcp::socket sock(io);
  sock.connect({asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(folded_)});
  const std::string head =
      "POST /v1/folded HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000000\r\nContent-Type: text/plain\r\n\r\n";
  asio::write(sock, asio::buffer(head));
  std::string response;
  boost::system::error_code ec;
  char buf[4096];
  while (response.find("\r\n\r\n") == std::string::npos) {
    size_t n = sock.read_some(asio::buffer(buf), ec);
    if (ec) break;
    response.append(buf, n);
  }
  EXPECT_EQ(response.rfind("HTTP/1.1 401", 0), 0u) << response;
}

TEST_F(ReceiversAuthTest, OtlpGrpcAnswersUnauthenticatedWithoutTheToken) {
  auto stub = collector::ProfilesService::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(otlp_grpc_), grpc::InsecureChannelCredentials()));
  testing::ProfileSpec p;
  p.samples = {{{"leaf", "main"}, 3}};
  const auto request = testing::makeRequest("web", {p});
  auto call = [&](const std::vector<std::pair<std::string, std::string>>& metadata) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    for (const auto& [k, v] : metadata) ctx.AddMetadata(k, v);
    collector::ExportProfilesServiceResponse resp;
    return stub->Export(&ctx, request, &resp);
  };
  EXPECT_EQ(call({}).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  grpc::Status wrong = call({{"authorization", "Bearer nope"}});
  EXPECT_EQ(wrong.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(wrong.error_message().find("nope"), std::string::npos);
  EXPECT_EQ(service_->metrics().value("proflow_receiver_grpc_rejected_requests_total",
                                      {{"receiver", "otlp"}, {"reason", "unauthenticated"}}),
            2);
  grpc::Status ok = call({{"authorization", "Bearer the-token"}});
  EXPECT_TRUE(ok.ok()) << ok.error_message();
}

// gRPC answers a method no service registered UNIMPLEMENTED by itself; behind an authenticator that
// would tell a client without credentials which methods exist, so the credentials come first.
TEST_F(ReceiversAuthTest, OtlpGrpcChecksCredentialsBeforeSayingAMethodIsUnknown) {
  auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(otlp_grpc_), grpc::InsecureChannelCredentials());
  grpc::GenericStub generic(channel);
  auto call = [&](const std::string& method, const std::string& token) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    grpc::Slice empty("");
    grpc::ByteBuffer request(&empty, 1), response;
    std::promise<grpc::Status> answer;
    generic.UnaryCall(&ctx, method, grpc::StubOptions(), &request, &response,
                      [&answer](grpc::Status s) { answer.set_value(s); });
    return answer.get_future().get();
  };
  for (const std::string method : {"/opentelemetry.proto.collector.profiles.v1development.ProfilesService/Nope",
                                   "/grpc.health.v1.Health/Check", "/anything"}) {
    SCOPED_TRACE(method);
    grpc::Status anonymous = call(method, "");
    EXPECT_EQ(anonymous.error_code(), grpc::StatusCode::UNAUTHENTICATED) << anonymous.error_message();
    EXPECT_EQ(anonymous.error_message().find("unknown method"), std::string::npos) << anonymous.error_message();
    EXPECT_EQ(call(method, "not-the-token").error_code(), grpc::StatusCode::UNAUTHENTICATED);
    grpc::Status authenticated = call(method, "the-token");
    EXPECT_EQ(authenticated.error_code(), grpc::StatusCode::UNIMPLEMENTED) << authenticated.error_message();
  }
  EXPECT_EQ(service_->metrics().value("proflow_receiver_grpc_rejected_requests_total",
                                      {{"receiver", "otlp"}, {"reason", "unauthenticated"}}),
            6);
}

TEST_F(ReceiversAuthTest, TelemetryEndpointNeedsTheTokenToo) {
  const std::string url = "http://127.0.0.1:" + std::to_string(service_->telemetryPort()) + "/metrics";
  auto anon = client_.request("GET", url, {}, "", std::chrono::seconds(10));
  EXPECT_EQ(anon.http_status, 401);
  auto authed = client_.request("GET", url, {{"Authorization", "Bearer the-token"}}, "", std::chrono::seconds(10));
  EXPECT_EQ(authed.http_status, 200);
  EXPECT_NE(authed.body.find("proflow_receiver_http_rejected_requests_total"), std::string::npos);
}

// Kubernetes probes send no credentials: /healthz answers them, with nothing but its verdict; the
// other routes (/metrics, the index) still need the token, and look-alikes of /healthz or other
// methods get no health answer (404 / 405 for what is no route) and never any metrics.
TEST_F(ReceiversAuthTest, TelemetryHealthAnswersProbesWithoutCredentialsAndNothingElseDoes) {
  const std::string base = "http://127.0.0.1:" + std::to_string(service_->telemetryPort());
  auto health = client_.request("GET", base + "/healthz", {}, "", std::chrono::seconds(10));
  EXPECT_EQ(health.http_status, 200);
  EXPECT_EQ(health.body, "ok\n") << "the probe answer tells the verdict only";
  for (const char* path : {"/metrics", "/", "/metrics?/healthz"}) {
    auto anon = client_.request("GET", base + path, {}, "", std::chrono::seconds(10));
    EXPECT_EQ(anon.http_status, 401) << path;
    EXPECT_EQ(anon.body.find("proflow_"), std::string::npos) << path << " leaked metrics: " << anon.body;
  }
  for (const char* path : {"/healthz/", "/healthz/../metrics", "/healthzx", "/unknown"}) {
    auto anon = client_.request("GET", base + path, {}, "", std::chrono::seconds(10));
    EXPECT_TRUE(anon.http_status == 401 || anon.http_status == 404) << path << ": " << anon.http_status;
    EXPECT_EQ(anon.body.find("proflow_"), std::string::npos) << path << " leaked metrics: " << anon.body;
  }
  auto post = client_.request("POST", base + "/healthz", {}, "x", std::chrono::seconds(10));
  EXPECT_NE(post.http_status, 200) << "only GET of the health path is open";
  auto authed = client_.request("GET", base + "/healthz", {{"Authorization", "Bearer the-token"}}, "",
                                std::chrono::seconds(10));
  EXPECT_EQ(authed.http_status, 200);
}

const char* kPipeline = R"(
receivers: { otlp: { protocols: { http: { endpoint: "127.0.0.1:0" } } } }
exporters: { debug: {} }
)";

TEST(BearerTokenAuthConfig, ErrorsNeverQuoteTheToken) {
  const std::string errors = testing::configErrors(std::string(R"(extensions:
  bearertokenauth/both: { token: "sekrit value", tokens: [x] }
  bearertokenauth/none: {}
)") + kPipeline + R"(
service:
  extensions: [bearertokenauth/both, bearertokenauth/none]
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)");
  EXPECT_NE(errors.find("set either token or tokens"), std::string::npos) << errors;
  EXPECT_NE(errors.find("token: contains whitespace"), std::string::npos) << errors;
  EXPECT_NE(errors.find("one of token, tokens or filename is required"), std::string::npos) << errors;
  EXPECT_EQ(errors.find("sekrit"), std::string::npos) << errors;
}

TEST(AuthReference, UnknownNonAuthOrUnlistedExtensionsFailWithFileLine) {
  const std::string errors = testing::configErrors(R"(extensions:
  bearertokenauth: { token: abc }
  bearertokenauth/unlisted: { token: abc }
receivers:
  otlp:
    protocols:
      http: { endpoint: "127.0.0.1:0", auth: { authenticator: nosuch } }
      grpc: { endpoint: "127.0.0.1:0", auth: { authenticator: bearertokenauth/unlisted } }
exporters:
  otlp: { endpoint: "127.0.0.1:1", auth: { authenticator: bearertokenauth } }
  otlphttp: { endpoint: "http://127.0.0.1:1", auth: { authenticator: debug } }
service:
  extensions: [bearertokenauth]
  telemetry: { metrics: { address: "127.0.0.1:0", auth: { authenticator: basicauth } } }
  pipelines: { profiles: { receivers: [otlp], exporters: [otlp, otlphttp] } }
)");
  EXPECT_NE(errors.find("test.yaml:7:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("receivers.otlp.protocols.http.auth.authenticator: extension 'nosuch' is not defined"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("test.yaml:8:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("'bearertokenauth/unlisted' is not listed in service.extensions"), std::string::npos) << errors;
  EXPECT_NE(errors.find("test.yaml:11:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("service.telemetry.metrics.auth.authenticator"), std::string::npos) << errors;
  EXPECT_EQ(errors.find("exporters.otlp.auth"), std::string::npos) << "a valid reference was refused:\n" << errors;
}

}  // namespace
}  // namespace proflow
