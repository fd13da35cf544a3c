// The exporter's tls block reaches the HTTP client: https to a test TLS server trusting its
// self-signed certificate via ca_file (openssl CLI at test time), refused without it.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <mutex>

#include "core/config/component_config.h"
#include "core/runtime/runtime.h"
#include "core/telemetry/component_telemetry.h"
#include "exporters/pyroscope/config.h"
#include "exporters/pyroscope/factory.h"
#include "pyroscope/push/v1/push.pb.h"
#include "tests/exporters/pyroscope/test_profiles.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow::exporters::pyroscope {
namespace {


using ::proflow::testing::NullHost;

class PyroscopeTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cert_ = dir_.file("cert.pem");
    const std::string key = dir_.file("key.pem");
    ASSERT_TRUE(proflow::testing::makeSelfSignedCert(cert_, key))
        << "the openssl CLI is required for this test (Debian package openssl; scripts/install-deps.sh test)";
    // Answers every request 200 with an empty body and keeps the last one.
    server_ = std::make_unique<proflow::testing::TlsTestServer>(cert_, key, [this](const std::string& target,
                                                                          const std::string& body) {
      std::lock_guard<std::mutex> lock(mu_);
      target_ = target;
      body_ = body;
      return std::string();
    });
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
    Status st = e->consume(::proflow::testing::batchOf(testing::toOtlp(testing::cpuPprof(), {{"service.name", "tls-app"}})));
    e->shutdown(std::chrono::steady_clock::now());
    return st;
  }

  proflow::testing::TempDir dir_;
  std::string cert_;
  std::string lastTarget() {
    std::lock_guard<std::mutex> lock(mu_);
    return target_;
  }
  std::string lastBody() {
    std::lock_guard<std::mutex> lock(mu_);
    return body_;
  }

  std::mutex mu_;
  std::string target_, body_;
  std::unique_ptr<proflow::testing::TlsTestServer> server_;
  telemetry::MetricsRegistry registry_;
  telemetry::ComponentTelemetry telemetry_{registry_, ComponentKind::kExporter, "pyroscope"};
  Runtime runtime_{1, 1};
  NullHost host_;
};

TEST_F(PyroscopeTlsTest, CaFileIsTrustedAndTheDefaultStoreIsNot) {
  Status untrusted = send("");
  EXPECT_FALSE(untrusted.isOk());  // self-signed: not in the system store
  EXPECT_EQ(lastTarget(), "");

  ASSERT_TRUE(send(cert_).isOk());
  EXPECT_EQ(lastTarget(), "/push.v1.PusherService/Push");
  push::v1::PushRequest req;
  ASSERT_TRUE(req.ParseFromString(lastBody()));
  ASSERT_EQ(req.series_size(), 1);
  bool service = false;
  for (const auto& l : req.series(0).labels()) service = service || (l.name() == "service_name" && l.value() == "tls-app");
  EXPECT_TRUE(service);
}

}  // namespace
}  // namespace proflow::exporters::pyroscope
