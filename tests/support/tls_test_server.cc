#include "tests/support/tls_test_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <cstdlib>
#include <utility>

namespace proflow::testing {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

bool makeSelfSignedCert(const std::string& cert_path, const std::string& key_path) {
  const std::string cmd = "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
                          "-addext subjectAltName=DNS:localhost -keyout " + key_path + " -out " + cert_path +
                          " >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

struct TlsTestServer::Impl {
  Impl(const std::string& cert, const std::string& key, Handler h) : ctx(ssl::context::tls_server), handler(std::move(h)) {
    ctx.use_certificate_chain_file(cert);
    ctx.use_private_key_file(key, ssl::context::pem);
    acceptor.open(tcp::v4());
    acceptor.bind({asio::ip::address_v4::loopback(), 0});
    acceptor.listen();
    port = acceptor.local_endpoint().port();
    thread = std::thread([this] { run(); });
  }

  void run() {
    while (!stop) {
      tcp::socket s(ioc);
      boost::system::error_code ec;
      acceptor.accept(s, ec);
      if (ec || stop) return;
      ++connections;
      serve(std::move(s));
    }
  }

  void serve(tcp::socket s) {
    ssl::stream<tcp::socket> tls(std::move(s), ctx);
    boost::system::error_code ec;
    tls.handshake(ssl::stream_base::server, ec);
    if (ec) return;  // e.g. the client refused our certificate
    boost::beast::flat_buffer buf;
    while (true) {
      http::request<http::string_body> req;
      http::read(tls, buf, req, ec);
      if (ec) return;
      http::response<http::string_body> res(http::status::ok, req.version());
      res.body() = handler(std::string(req.target()), req.body());
      res.keep_alive(true);
      res.prepare_payload();
      http::write(tls, res, ec);
      if (ec) return;
    }
  }

  asio::io_context ioc;
  ssl::context ctx;
  tcp::acceptor acceptor{ioc};
  Handler handler;
  uint16_t port = 0;
  std::atomic<bool> stop{false};
  std::atomic<int> connections{0};
  std::thread thread;
};

TlsTestServer::TlsTestServer(const std::string& cert, const std::string& key, Handler handler)
    : impl_(std::make_unique<Impl>(cert, key, std::move(handler))) {}

TlsTestServer::~TlsTestServer() {
  impl_->stop = true;
  boost::system::error_code ec;
  tcp::socket poke(impl_->ioc);
  poke.connect({asio::ip::address_v4::loopback(), impl_->port}, ec);  // unblocks accept()
  impl_->thread.join();
}

uint16_t TlsTestServer::port() const { return impl_->port; }
int TlsTestServer::connections() const { return impl_->connections; }

}  // namespace proflow::testing
