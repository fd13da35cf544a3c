// The shared HTTP server serving TLS and mutual TLS (what receivers get with `tls:`), checked with
// proflow's HTTP client and certificates the openssl CLI makes at test time.
#include <gtest/gtest.h>

#include <thread>

#include "core/net/http_client.h"
#include "core/net/http_server.h"
#include "core/net/tls_server.h"
#include "core/telemetry/component_telemetry.h"
#include "tests/core/net/http_test_util.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"

namespace proflow::net {
namespace {

using namespace std::chrono_literals;

class HttpServerTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(proflow::testing::makeSelfSignedCert(dir_.file("server.pem"), dir_.file("server.key")))
        << "the openssl CLI is required (Debian package openssl; scripts/install-deps.sh test)";
    ASSERT_TRUE(proflow::testing::makeSelfSignedCert(dir_.file("client.pem"), dir_.file("client.key")));
    ASSERT_TRUE(proflow::testing::makeSelfSignedCert(dir_.file("other.pem"), dir_.file("other.key")));
  }
  void start(TlsServerConfig tls) {
    HttpServerOptions o;
    Status s = makeServerTlsContext(tls, &o.tls);
    ASSERT_TRUE(s.isOk()) << s.toString();
    tel_ = std::make_unique<telemetry::ComponentTelemetry>(registry_, ComponentKind::kReceiver, "test");
    server_ = std::make_unique<HttpServer>(io_.ioc, o, nullptr, tel_.get());
    server_->route("POST", "/echo", [](HttpRequest&& r, Responder respond) {
      respond(HttpResponse{200, "text/plain", "echo:" + r.body, {}});
    });
    ASSERT_TRUE(server_->start().isOk());
  }
  void TearDown() override {
    if (server_) server_->stop();
    io_.join();
  }
  TlsServerConfig serverCert() const { return {dir_.file("server.pem"), dir_.file("server.key"), ""}; }
  std::string url() const { return "https://localhost:" + std::to_string(server_->port()) + "/echo"; }
  double rejected(const char* reason) {
    return registry_.value("proflow_receiver_http_rejected_requests_total", {{"receiver", "test"}, {"reason", reason}});
  }

  proflow::testing::TempDir dir_;
  testing::IoThreads io_;
  telemetry::MetricsRegistry registry_;
  std::unique_ptr<telemetry::ComponentTelemetry> tel_;
  std::unique_ptr<HttpServer> server_;
};

TEST_F(HttpServerTlsTest, ServesHttpsToAClientThatTrustsTheCertificate) {
  start(serverCert());
  HttpClientOptions o;
  o.tls.ca_file = dir_.file("server.pem");
  HttpClient client(o);
  for (int i = 0; i < 2; ++i) {  // the second request reuses the TLS connection
    HttpResult r = client.request("POST", url(), {}, "hello", 10s);
    ASSERT_TRUE(r.status.isOk()) << r.status.toString();
    EXPECT_EQ(r.http_status, 200);
    EXPECT_EQ(r.body, "echo:hello");
  }
}

TEST_F(HttpServerTlsTest, PlainTextToATlsPortIsCountedAndTheServerKeepsServing) {
  start(serverCert());
  testing::RawConn plain(server_->port());
  plain.send(testing::post("/echo", "not encrypted"));
  EXPECT_FALSE(plain.read());  // no HTTP answer on a TLS port
  HttpClientOptions o;
  o.tls.ca_file = dir_.file("server.pem");
  HttpClient client(o);
  EXPECT_EQ(client.request("POST", url(), {}, "still here", 10s).body, "echo:still here");
  EXPECT_EQ(rejected("tls_handshake"), 1);
}

TEST_F(HttpServerTlsTest, MutualTlsRequiresATrustedClientCertificate) {
  TlsServerConfig tls = serverCert();
  tls.client_ca_file = dir_.file("client.pem");
  start(tls);
  auto requestWith = [&](const std::string& cert, const std::string& key) {
    HttpClientOptions o;
    o.tls.ca_file = dir_.file("server.pem");
    o.tls.cert_file = cert;
    o.tls.key_file = key;
    HttpClient client(o);
    return client.request("POST", url(), {}, "mtls", 10s);
  };
  HttpResult ok = requestWith(dir_.file("client.pem"), dir_.file("client.key"));
  ASSERT_TRUE(ok.status.isOk()) << ok.status.toString();
  EXPECT_EQ(ok.body, "echo:mtls");
  EXPECT_FALSE(requestWith("", "").status.isOk());                                         // no certificate
  EXPECT_FALSE(requestWith(dir_.file("other.pem"), dir_.file("other.key")).status.isOk());  // untrusted one
  // With TLS 1.3 the client may see its failure before the server has counted the refusal.
  for (int i = 0; i < 200 && rejected("tls_handshake") < 2; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(rejected("tls_handshake"), 2);
}

TEST_F(HttpServerTlsTest, BadCertificateFilesAreNamedInTheError) {
  std::shared_ptr<boost::asio::ssl::context> ctx;
  Status missing = makeServerTlsContext({dir_.file("nope.pem"), dir_.file("server.key"), ""}, &ctx);
  EXPECT_EQ(missing.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(missing.message().find("nope.pem"), std::string::npos) << missing.message();
  Status mismatch = makeServerTlsContext({dir_.file("server.pem"), dir_.file("other.key"), ""}, &ctx);
  EXPECT_NE(mismatch.message().find("other.key"), std::string::npos) << mismatch.message();
  EXPECT_NE(mismatch.message().find("mismatch"), std::string::npos) << mismatch.message();
  std::shared_ptr<grpc::ServerCredentials> creds;
  Status grpc_missing = makeGrpcServerCredentials({dir_.file("server.pem"), dir_.file("server.key"),
                                                   dir_.file("no-ca.pem")}, &creds);
  EXPECT_NE(grpc_missing.message().find("no-ca.pem"), std::string::npos) << grpc_missing.message();
}

}  // namespace
}  // namespace proflow::net
