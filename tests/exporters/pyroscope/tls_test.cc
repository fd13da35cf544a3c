// The exporter's tls block reaches the HTTP client: https to a test TLS server trusting its
// self-signed certificate via ca_file (openssl CLI at test time), refused without it.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "core/config/component_config.h"
#include "core/runtime.h"
#include "core/telemetry/component_telemetry.h"
#include "exporters/pyroscope/config.h"
#include "exporters/pyroscope/factory.h"
#include "pyroscope/push/v1/push.pb.h"
#include "tests/exporters/pyroscope/test_profiles.h"
#include "tests/support/temp_dir.h"

namespace proflow::exporters::pyroscope {
namespace {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

// Accepts TLS connections one at a time; answers every request 200 and keeps the last body.
class TlsPyroscope {
 public:
  TlsPyroscope(const std::string& cert, const std::string& key) : ctx_(ssl::context::tls_server) {
    ctx_.use_certificate_chain_file(cert);
    ctx_.use_private_key_file(key, ssl::context::pem);
    acceptor_.open(tcp::v4());
    acceptor_.bind({asio::ip::address_v4::loopback(), 0});
    acceptor_.listen();
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this] { run(); });
  }
  ~TlsPyroscope() {
    stop_ = true;
    boost::system::error_code ec;
    tcp::socket poke(ioc_);
    poke.connect({asio::ip::address_v4::loopback(), port_}, ec);  // unblocks accept()
    thread_.join();
  }
  uint16_t port() const { return port_; }
  std::string lastTarget() {
    std::lock_guard<std::mutex> lock(mu_);
    return target_;
  }
  std::string lastBody() {
    std::lock_guard<std::mutex> lock(mu_);
    return body_;
  }

 private:
  void run() {
    while (!stop_) {
      tcp::socket s(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(s, ec);
      if (ec || stop_) return;
      serve(std::move(s));
    }
  }
  void serve(tcp::socket s) {
    ssl::stream<tcp::socket> tls(std::move(s), ctx_);
    boost::system::error_code ec;
    tls.handshake(ssl::stream_base::server, ec);
    if (ec) return;  // e.g. the client refused our certificate
    boost::beast::flat_buffer buf;
    while (true) {
      http::request<http::string_body> req;
      http::read(tls, buf, req, ec);
      if (ec) return;
      {
        std::lock_guard<std::mutex> lock(mu_);
        target_ = std::string(req.target());
        body_ = req.body();
      }
      http::response<http::string_body> res(http::status::ok, req.version());
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
  std::thread thread_;
  std::mutex mu_;
  std::string target_, body_;
};

class NullHost final : public Host {
 public:
  void reportFatalError(const ComponentId&, const Status&) override {}
};

class PyroscopeTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cert_ = dir_.file("cert.pem");
    const std::string key = dir_.file("key.pem");
    const std::string cmd = "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
                            "-addext subjectAltName=DNS:localhost -keyout " + key + " -out " + cert_ +
                            " >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0)
        << "the openssl CLI is required for this test (Debian package openssl; scripts/install-deps.sh test)";
    server_ = std::make_unique<TlsPyroscope>(cert_, key);
  }

  Status send(const std::string& ca_file) {
    PyroscopeExporterConfig c;
    c.endpoint = "https://localhost:" + std::to_string(server_->port());
    c.tls.ca_file = ca_file;
    c.helper.sending_queue.enabled = false;
    c.helper.retry_on_failure.enabled = false;
    auto factory = makePyroscopeExporterFactory();
    config::TypedConfig<PyroscopeExporterConfig> typed(c);
    CreateSettings s{ComponentId{"pyroscope", ""}, ComponentKind::kExporter, spdlog::default_logger(), &telemetry_,
                     &runtime_};
    auto e = dynamic_cast<ExporterFactory*>(factory.get())->create(s, typed);
    EXPECT_TRUE(e->start(host_).isOk());
    Status st = e->consume(Batch(testing::toOtlp(testing::cpuPprof(), {{"service.name", "tls-app"}})));
    e->shutdown(std::chrono::steady_clock::now());
    return st;
  }

  proflow::testing::TempDir dir_;
  std::string cert_;
  std::unique_ptr<TlsPyroscope> server_;
  telemetry::MetricsRegistry registry_;
  telemetry::ComponentTelemetry telemetry_{registry_, ComponentKind::kExporter, "pyroscope"};
  Runtime runtime_{1, 1};
  NullHost host_;
};

TEST_F(PyroscopeTlsTest, CaFileIsTrustedAndTheDefaultStoreIsNot) {
  Status untrusted = send("");
  EXPECT_FALSE(untrusted.isOk());  // self-signed: not in the system store
  EXPECT_EQ(server_->lastTarget(), "");

  ASSERT_TRUE(send(cert_).isOk());
  EXPECT_EQ(server_->lastTarget(), "/push.v1.PusherService/Push");
  push::v1::PushRequest req;
  ASSERT_TRUE(req.ParseFromString(server_->lastBody()));
  ASSERT_EQ(req.series_size(), 1);
  bool service = false;
  for (const auto& l : req.series(0).labels()) service = service || (l.name() == "service_name" && l.value() == "tls-app");
  EXPECT_TRUE(service);
}

}  // namespace
}  // namespace proflow::exporters::pyroscope
