// HTTPS against a small TLS server in the test, with a self-signed certificate made by the
// openssl CLI at test time (Debian package openssl, in the install-deps test list).
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdlib>
#include <thread>

#include "core/net/http_client.h"
#include "tests/support/temp_dir.h"

namespace proflow::net {
namespace {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

// Serves connections one after another: each request gets "tls:<target>", keep-alive.
class TlsServer {
 public:
  TlsServer(const std::string& cert, const std::string& key) : ctx_(ssl::context::tls_server) {
    ctx_.use_certificate_chain_file(cert);
    ctx_.use_private_key_file(key, ssl::context::pem);
    acceptor_.open(tcp::v4());
    acceptor_.bind({asio::ip::address_v4::loopback(), 0});
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { run(); });
  }
  ~TlsServer() {
    stop_ = true;
    boost::system::error_code ec;
    tcp::socket poke(ioc_);
    poke.connect({asio::ip::address_v4::loopback(), port_}, ec);  // unblocks accept()
    thread_.join();
  }
  uint16_t port() const { return port_; }
  int connections() const { return connections_; }

 private:
  void run() {
    while (!stop_) {
      tcp::socket s(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(s, ec);
      if (ec || stop_) return;
      ++connections_;
      serve(std::move(s));
    }
  }
  void serve(tcp::socket s) {
    ssl::stream<tcp::socket> tls(std::move(s), ctx_);
    boost::system::error_code ec;
    tls.handshake(ssl::stream_base::server, ec);
    if (ec) return;
    boost::beast::flat_buffer buf;
    while (true) {
      http::request<http::string_body> req;
      http::read(tls, buf, req, ec);
      if (ec) return;
      http::response<http::string_body> res(http::status::ok, req.version());
      res.body() = "tls:" + std::string(req.target());
      res.keep_alive(true);
      res.prepare_payload();
      http::write(tls, res, ec);
      if (ec) return;
    }
  }

  asio::io_context ioc_;
  ssl::context ctx_;
  tcp::acceptor acceptor_{ioc_};
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

class HttpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cert_ = dir_.file("cert.pem");
    key_ = dir_.file("key.pem");
    // The certificate names only DNS:localhost, so https://127.0.0.1 must fail host verification.
    std::string cmd = "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
                      "-addext subjectAltName=DNS:localhost -keyout " + key_ + " -out " + cert_ + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0)
        << "the openssl CLI is required for this test (Debian package openssl; scripts/install-deps.sh test)";
    server_ = std::make_unique<TlsServer>(cert_, key_);
  }

  proflow::testing::TempDir dir_;
  std::string cert_, key_;
  std::unique_ptr<TlsServer> server_;
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
