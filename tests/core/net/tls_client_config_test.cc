// The `tls` block of every HTTP exporter reaches the HTTP client whole: server_name_override is the
// name sent as SNI and verified in the certificate, insecure_skip_verify skips verification, and
// `insecure: true` with an https:// endpoint is refused (over HTTP the URL scheme decides TLS), as
// the gRPC exporters do. Against a TLS server on port 0 whose certificate names only "localhost",
// reached as 127.0.0.1 (certificate made by the openssl CLI at test time).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <atomic>

#include "core/config/config_loader.h"
#include "core/component/registry.h"
#include "core/runtime/runtime.h"
#include "core/telemetry/component_telemetry.h"
#include "exporters/datadog/factory.h"
#include "exporters/otlp_http/factory.h"
#include "exporters/pyroscope/factory.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow::net {
namespace {

using ::testing::HasSubstr;

using ::proflow::testing::NullHost;

// One HTTP exporter type with the endpoint its config wants for a given base URL.
struct ExporterCase {
  const char* type;
  const char* path;  // appended to the base URL ("" when the exporter appends its own)
};

void PrintTo(const ExporterCase& c, std::ostream* os) { *os << c.type; }

class HttpExporterTlsTest : public ::testing::TestWithParam<ExporterCase> {
 protected:
  void SetUp() override {
    for (auto* make : {&exporters::otlphttp::makeOtlpHttpExporterFactory, &exporters::datadog::makeDatadogExporterFactory,
                       &exporters::pyroscope::makePyroscopeExporterFactory})
      ASSERT_TRUE(registry_.add(make()).isOk());
    cert_ = dir_.file("cert.pem");
    const std::string key = dir_.file("key.pem");
    ASSERT_TRUE(proflow::testing::makeSelfSignedCert(cert_, key))
        << "the openssl CLI is required for this test (Debian package openssl; scripts/install-deps.sh test)";
    server_ = std::make_unique<proflow::testing::TlsTestServer>(cert_, key, [this](const std::string&, const std::string&) {
      ++requests_;
      return std::string();
    });
  }

  std::string endpoint(const std::string& host) const {
    return "https://" + host + ":" + std::to_string(server_->port()) + GetParam().path;
  }

  // Decodes and validates `tls_yaml` for the exporter; "" when valid, else the error listing.
  std::string configErrors(const std::string& endpoint_url, const std::string& tls_yaml,
                           std::unique_ptr<config::ComponentConfig>* out = nullptr) {
    const std::string yaml = "endpoint: " + endpoint_url + "\ntls: " + tls_yaml +
                             "\nsending_queue: { enabled: false }\nretry_on_failure: { enabled: false }\n";
    const Factory* factory = registry_.find(ComponentKind::kExporter, GetParam().type);
    EXPECT_NE(factory, nullptr);
    config::ConfigErrors errors;
    auto loaded = config::parseYaml(yaml, "t.yaml", errors);
    auto cfg = factory->createDefaultConfig();
    const std::string path = std::string("exporters.") + GetParam().type;
    cfg->decode(loaded.root, path, errors);
    cfg->validate(errors);
    if (out) *out = std::move(cfg);
    return errors.empty() ? std::string() : errors.format();
  }

  // Sends one batch synchronously through the exporter; the delivery status.
  Status send(const std::string& endpoint_url, const std::string& tls_yaml) {
    std::unique_ptr<config::ComponentConfig> cfg;
    const std::string errors = configErrors(endpoint_url, tls_yaml, &cfg);
    if (!errors.empty()) return Status::invalid(errors);
    auto* factory = dynamic_cast<const ExporterFactory*>(registry_.find(ComponentKind::kExporter, GetParam().type));
    CreateSettings s{ComponentId{GetParam().type, ""}, ComponentKind::kExporter, spdlog::default_logger(), &telemetry_,
                     &runtime_};
    auto exporter = factory->create(s, *cfg);
    if (Status st = exporter->start(host_); !st.isOk()) return st;
    proflow::testing::ProfileSpec p;
    p.samples = {{{"work", "main"}, 7}};
    Status st = exporter->consume(::proflow::testing::batchOf(proflow::testing::makeRequest("tls-app", {p})));
    exporter->shutdown(std::chrono::steady_clock::now());
    return st;
  }

  Registry registry_;
  proflow::testing::TempDir dir_;
  std::string cert_;
  std::atomic<int> requests_{0};
  std::unique_ptr<proflow::testing::TlsTestServer> server_;
  telemetry::MetricsRegistry metrics_;
  telemetry::ComponentTelemetry telemetry_{metrics_, ComponentKind::kExporter, "tls"};
  Runtime runtime_{1, 1};
  NullHost host_;
};

TEST_P(HttpExporterTlsTest, HostNameIsVerifiedAgainstTheUrlHost) {
  EXPECT_FALSE(send(endpoint("127.0.0.1"), "{ ca_file: " + cert_ + " }").isOk()) << "the certificate names localhost";
  EXPECT_EQ(requests_.load(), 0);
  ASSERT_TRUE(send(endpoint("localhost"), "{ ca_file: " + cert_ + " }").isOk());
  EXPECT_EQ(requests_.load(), 1);
}

TEST_P(HttpExporterTlsTest, ServerNameOverrideIsSentAndVerified) {
  Status s = send(endpoint("127.0.0.1"), "{ ca_file: " + cert_ + ", server_name_override: localhost }");
  ASSERT_TRUE(s.isOk()) << s.toString();
  EXPECT_EQ(requests_.load(), 1);
  // The override is what gets verified: a name the certificate does not carry fails even via "localhost".
  EXPECT_FALSE(send(endpoint("localhost"), "{ ca_file: " + cert_ + ", server_name_override: other.example }").isOk());
  EXPECT_EQ(requests_.load(), 1);
}

TEST_P(HttpExporterTlsTest, InsecureSkipVerifyAcceptsAnyCertificate) {
  Status s = send(endpoint("127.0.0.1"), "{ insecure_skip_verify: true }");
  ASSERT_TRUE(s.isOk()) << s.toString();
  EXPECT_EQ(requests_.load(), 1);
}

TEST_P(HttpExporterTlsTest, InsecureWithAnHttpsEndpointIsRefused) {
  EXPECT_THAT(configErrors(endpoint("localhost"), "{ insecure: true }"),
              HasSubstr("over HTTP the URL scheme decides TLS"));
  const std::string plain = std::string("http://127.0.0.1:1") + GetParam().path;
  EXPECT_EQ(configErrors(plain, "{ insecure: true }"), "");
}

INSTANTIATE_TEST_SUITE_P(Exporters, HttpExporterTlsTest,
                         ::testing::Values(ExporterCase{"otlp_http", ""},
                                           ExporterCase{"datadog", "/profiling/v1/input"},
                                           ExporterCase{"pyroscope", ""}),
                         [](const auto& info) { return std::string(info.param.type); });

}  // namespace
}  // namespace proflow::net
