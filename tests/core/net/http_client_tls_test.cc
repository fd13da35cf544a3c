// HTTPS against a small TLS server in the test, with a self-signed certificate made by the
// openssl CLI at test time (Debian package openssl, in the install-deps test list).
#include <gtest/gtest.h>


#include "core/net/http_client.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"

namespace proflow::net {
namespace {

using namespace std::chrono_literals;

class HttpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cert_ = dir_.file("cert.pem");
    key_ = dir_.file("key.pem");
    // The certificate names only DNS:localhost, so https://127.0.0.1 must fail host verification.
    ASSERT_TRUE(proflow::testing::makeSelfSignedCert(cert_, key_))
        << "the openssl CLI is required for this test (Debian package openssl; scripts/install-deps.sh test)";
    // Each request gets "tls:<target>".
    server_ = std::make_unique<proflow::testing::TlsTestServer>(
        cert_, key_, [](const std::string& target, const std::string&) { return "tls:" + target; });
  }

  proflow::testing::TempDir dir_;
  std::string cert_, key_;
  std::unique_ptr<proflow::testing::TlsTestServer> server_;
};

TEST_F(HttpsTest, TrustedCertificateWorksAndConnectionIsReused) {
  {
    HttpClientOptions o;
    o.tls.ca_file = cert_;
    HttpClient client(o);
    ASSERT_TRUE(client.tlsStatus().isOk()) << client.tlsStatus().toString();
    std::string base = "https://localhost:" + std::to_string(server_->port());
    auto a = client.request("GET", base + "/one", {}, "", 10s);
    ASSERT_TRUE(a.status.isOk()) << a.status.toString();
    EXPECT_EQ(a.http_status, 200);
    EXPECT_EQ(a.body, "tls:/one");
    auto b = client.request("POST", base + "/two", {}, "body", 10s);
    ASSERT_TRUE(b.status.isOk()) << b.status.toString();
    EXPECT_EQ(b.body, "tls:/two");
  }
  EXPECT_EQ(server_->connections(), 1);
}

TEST_F(HttpsTest, UntrustedOrMismatchedCertificateIsRejected) {
  std::string port = std::to_string(server_->port());
  {
    HttpClient system_store({});
    auto r = system_store.request("GET", "https://localhost:" + port + "/", {}, "", 10s);
    EXPECT_EQ(r.status.code(), StatusCode::kUnavailable);
    EXPECT_NE(r.status.message().find("TLS handshake"), std::string::npos) << r.status.message();
  }
  {
    HttpClientOptions o;
    o.tls.ca_file = cert_;
    HttpClient client(o);
    auto r = client.request("GET", "https://127.0.0.1:" + port + "/", {}, "", 10s);
    EXPECT_EQ(r.status.code(), StatusCode::kUnavailable) << "host name must be verified";
  }
  {
    HttpClientOptions o;
    o.tls.ca_file = cert_;
    o.tls.server_name_override = "localhost";  // the name in the certificate, reached by IP
    HttpClient client(o);
    auto r = client.request("GET", "https://127.0.0.1:" + port + "/y", {}, "", 10s);
    ASSERT_TRUE(r.status.isOk()) << r.status.toString();
    EXPECT_EQ(r.body, "tls:/y");
  }
  {
    HttpClientOptions o;
    o.tls.insecure_skip_verify = true;
    HttpClient client(o);
    auto r = client.request("GET", "https://127.0.0.1:" + port + "/x", {}, "", 10s);
    ASSERT_TRUE(r.status.isOk()) << r.status.toString();
    EXPECT_EQ(r.body, "tls:/x");
  }
}

TEST_F(HttpsTest, BadTlsFilesAreReported) {
  HttpClientOptions o;
  o.tls.ca_file = dir_.file("missing.pem");
  HttpClient client(o);
  EXPECT_EQ(client.tlsStatus().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(client.tlsStatus().message().find("missing.pem"), std::string::npos);
  auto r = client.request("GET", "https://localhost:" + std::to_string(server_->port()) + "/", {}, "", 10s);
  EXPECT_EQ(r.status.code(), StatusCode::kInvalidArgument);
  HttpClientOptions half;
  half.tls.cert_file = cert_;
  EXPECT_FALSE(HttpClient(half).tlsStatus().isOk());
}

}  // namespace
}  // namespace proflow::net
