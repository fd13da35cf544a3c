// The listener every HTTP receiver shares: its keys decode and validate in one place, the server
// built from them fails with the reason at start-up, and the pending-request cap counts exactly.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include <spdlog/spdlog.h>

#include "core/component/factory_helpers.h"
#include "core/receiverhelper/http_listener.h"
#include "core/receiverhelper/pending_requests.h"
#include "core/runtime/runtime.h"
#include "tests/support/component_config.h"
#include "tests/support/raw_http.h"
#include "tests/support/stand_ins.h"

namespace proflow {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A receiver config made of the listener's keys alone, with a default port of its own.
struct ListenerOnlyConfig : receiverhelper::HttpListenerConfig {
  ListenerOnlyConfig() { endpoint = "127.0.0.1:4999"; }
  bool endpoint_optional = false;
  template <class V>
  void visit(V& v) {
    visitListener(v, "host:port for POST /v1/test");
    v.field("endpoint_optional", endpoint_optional);
  }
  void validate(config::ValidationContext& ctx) const { validateListener(ctx, endpoint_optional); }
};

class ListenerOnlyFactory final : public ReceiverFactoryFor<ListenerOnlyConfig> {
 public:
  std::string_view type() const override { return "listener"; }
  std::string_view description() const override { return "test"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings&, const ListenerOnlyConfig&,
                                           ConsumerPtr) const override {
    return nullptr;
  }
};

std::string errorsOf(const std::string& yaml, ListenerOnlyConfig* out = nullptr) {
  ListenerOnlyFactory factory;
  return testing::checkComponentConfig(factory, yaml, "receivers.listener", out).format();
}

TEST(HttpListenerConfig, KeysSitAtTheReceiversTopLevelOverItsDefaults) {
  ListenerOnlyConfig cfg;
  EXPECT_EQ(errorsOf("max_request_body_size: 4MiB\nmax_inflate_ratio: 20\nmax_connections: 10\n"
                     "auth: { authenticator: basicauth }\n",
                     &cfg),
            "");
  EXPECT_EQ(cfg.endpoint, "127.0.0.1:4999");  // the deriving receiver's default stays
  EXPECT_EQ(cfg.max_request_body_size.bytes, 4u << 20);
  EXPECT_EQ(cfg.max_inflate_ratio, 20);
  EXPECT_EQ(cfg.server_limits.max_connections, 10);
  EXPECT_FALSE(cfg.tls.has_value());
  ASSERT_TRUE(cfg.auth.has_value());
  EXPECT_EQ(cfg.auth->authenticator, "basicauth");
}

TEST(HttpListenerConfig, EveryBadKeyIsReportedAtOnce) {
  const std::string errors = errorsOf(
      "endpoint: no-port\nmax_request_body_size: 0\nmax_inflate_ratio: 0.5\ntls: { cert_file: /c.pem }\n");
  EXPECT_THAT(errors, HasSubstr("receivers.listener.endpoint"));
  EXPECT_THAT(errors, HasSubstr("max_request_body_size: must be greater than 0"));
  EXPECT_THAT(errors, HasSubstr("max_inflate_ratio: must be at least 1"));
  EXPECT_THAT(errors, HasSubstr("t.yaml:4:6: receivers.listener.tls.key_file"));  // file:line of each
  // The in-flight budget must hold one whole body.
  EXPECT_THAT(errorsOf("max_request_body_size: 64MiB\nmax_in_flight_bytes: 1MiB\n"), HasSubstr("max_in_flight_bytes"));
}

TEST(HttpListenerConfig, AnEmptyEndpointIsAnErrorUnlessTheReceiverHasAnotherInput) {
  EXPECT_THAT(errorsOf("endpoint: \"\"\n"), HasSubstr("receivers.listener.endpoint"));
  EXPECT_EQ(errorsOf("endpoint: \"\"\nendpoint_optional: true\n"), "");
  EXPECT_THAT(errorsOf("endpoint: \"nope\"\nendpoint_optional: true\n"), HasSubstr("receivers.listener.endpoint"));
}

using ::proflow::testing::NullHost;

class MakeListenerTest : public ::testing::Test {
 protected:
  Runtime runtime_{1, 1};
  telemetry::MetricsRegistry metrics_;
  telemetry::ComponentTelemetry telemetry_{metrics_, ComponentKind::kReceiver, "listener"};
  CreateSettings settings_{ComponentId{"listener", ""}, ComponentKind::kReceiver, spdlog::default_logger(),
                           &telemetry_, &runtime_};
  NullHost host_;
};

TEST_F(MakeListenerTest, ServesWithTheConfiguredBodyLimit) {
  ListenerOnlyConfig cfg;
  cfg.endpoint = "127.0.0.1:0";
  cfg.max_request_body_size = config::ByteSize(1000);
  std::unique_ptr<net::HttpServer> server;
  ASSERT_TRUE(receiverhelper::makeListener(host_, settings_, cfg, &server).isOk());
  server->route("POST", "/v1/test", [](net::HttpRequest&& req, net::Responder respond) {
    respond(net::HttpResponse::text(200, std::to_string(req.body.size())));
  });
  ASSERT_TRUE(server->start().isOk());
  const auto small = testing::rawPost(server->port(), "/v1/test", {}, std::string(1000, 'x'));
  EXPECT_EQ(small.status, 200);
  EXPECT_EQ(small.body, "1000");
  EXPECT_EQ(testing::rawPost(server->port(), "/v1/test", {}, std::string(1001, 'x')).status, 413);
  server->stop();
}

TEST_F(MakeListenerTest, FailsNamingAMissingCertificateOrAnUnknownAuthenticator) {
  ListenerOnlyConfig with_tls;
  with_tls.endpoint = "127.0.0.1:0";
  with_tls.tls = net::TlsServerConfig{"/nonexistent/cert.pem", "/nonexistent/key.pem", ""};
  std::unique_ptr<net::HttpServer> server;
  const Status tls = receiverhelper::makeListener(host_, settings_, with_tls, &server);
  EXPECT_FALSE(tls.isOk());
  EXPECT_THAT(tls.message(), HasSubstr("/nonexistent/cert.pem"));
  EXPECT_EQ(server, nullptr);

  ListenerOnlyConfig with_auth;
  with_auth.endpoint = "127.0.0.1:0";
  with_auth.auth = auth::AuthConfig{"bearertokenauth/missing"};
  const Status auth = receiverhelper::makeListener(host_, settings_, with_auth, &server);
  EXPECT_FALSE(auth.isOk());
  EXPECT_THAT(auth.message(), HasSubstr("bearertokenauth/missing"));
  EXPECT_EQ(server, nullptr);
}

TEST(PendingRequests, CountsUpToItsLimitAndFreesWhatIsDone) {
  receiverhelper::PendingRequests pending(2);
  EXPECT_TRUE(pending.tryAdd());
  EXPECT_TRUE(pending.tryAdd());
  EXPECT_FALSE(pending.tryAdd());  // a refusal counts nothing
  EXPECT_EQ(pending.count(), 2);
  pending.done();
  EXPECT_TRUE(pending.tryAdd());
  EXPECT_FALSE(pending.tryAdd());
}

TEST(PendingRequests, DrainWaitsForTheLastOneOrTheDeadline) {
  receiverhelper::PendingRequests pending(4);
  ASSERT_TRUE(pending.tryAdd());
  // A deadline already past returns with the request still pending.
  pending.drain(std::chrono::steady_clock::now());
  EXPECT_EQ(pending.count(), 1);
  std::thread worker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    pending.done();
  });
  pending.drain(std::chrono::steady_clock::now() + std::chrono::seconds(30));
  EXPECT_EQ(pending.count(), 0);
  worker.join();
}

}  // namespace
}  // namespace proflow
