// The OTLP receiver serving TLS: gRPC with mutual TLS and HTTP with server TLS, into the file exporter
// through real sockets, with certificates the openssl CLI makes at test time.
#include <grpcpp/grpcpp.h>

#include <fstream>
#include <sstream>

#include "core/net/http_client.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"

namespace proflow {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;
using namespace std::chrono_literals;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class OtlpTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"server", "client", "stranger"})
      ASSERT_TRUE(testing::makeSelfSignedCert(dir_.file(std::string(name) + ".pem"), dir_.file(std::string(name) + ".key")))
          << "the openssl CLI is required (Debian package openssl)";
    grpc_port_ = testing::freePort();
    http_port_ = testing::freePort();
    const std::string server_tls = "tls: { cert_file: " + dir_.file("server.pem") + ", key_file: " + dir_.file("server.key");
    service_ = testing::startService(
        "receivers:\n  otlp:\n    protocols:\n"
        "      grpc: { endpoint: 127.0.0.1:" + std::to_string(grpc_port_) + ", " + server_tls +
        ", client_ca_file: " + dir_.file("client.pem") + " } }\n"
        "      http: { endpoint: 127.0.0.1:" + std::to_string(http_port_) + ", " + server_tls + " } }\n"
        "exporters:\n  file: { path: " + dir_.file("out.bin") + ", format: otlp_proto }\n"
        "service:\n  shutdown_timeout: 1s\n  telemetry: { metrics: { address: \"127.0.0.1:0\" } }\n"
        "  pipelines: { profiles: { receivers: [otlp], exporters: [file] } }\n");
    ASSERT_TRUE(service_);
  }

  // Export over gRPC with the given client credentials; the server certificate names localhost.
  grpc::Status exportWith(const std::shared_ptr<grpc::ChannelCredentials>& creds) {
    grpc::ChannelArguments args;
    args.SetSslTargetNameOverride("localhost");
    auto ch = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(grpc_port_), creds, args);
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 10s);
    otlp::Response response;
    return collector::ProfilesService::NewStub(ch)->Export(&ctx, request_, &response);
  }
  std::shared_ptr<grpc::ChannelCredentials> tlsAs(const std::string& who) {
    grpc::SslCredentialsOptions o;
    o.pem_root_certs = readFile(dir_.file("server.pem"));
    if (!who.empty()) {
      o.pem_cert_chain = readFile(dir_.file(who + ".pem"));
      o.pem_private_key = readFile(dir_.file(who + ".key"));
    }
    return grpc::SslCredentials(o);
  }

  testing::TempDir dir_;
  int grpc_port_ = 0, http_port_ = 0;
  std::unique_ptr<Service> service_;
  otlp::Request request_ = testing::makeRequest("secure", {testing::makeProfile(4)});
};

TEST_F(OtlpTlsTest, GrpcAcceptsOnlyClientsWithATrustedCertificate) {
  grpc::Status ok = exportWith(tlsAs("client"));
  EXPECT_TRUE(ok.ok()) << ok.error_message();
  EXPECT_FALSE(exportWith(tlsAs("")).ok());          // TLS without a client certificate
  EXPECT_FALSE(exportWith(tlsAs("stranger")).ok());  // a certificate the receiver does not trust
  EXPECT_FALSE(exportWith(grpc::InsecureChannelCredentials()).ok());
  service_->shutdown();
  EXPECT_EQ(testing::readOtlpProtoFile(dir_.file("out.bin")).size(), 1u);
}

TEST_F(OtlpTlsTest, HttpServesHttpsAndRefusesPlainText) {
  net::HttpClientOptions o;
  o.tls.ca_file = dir_.file("server.pem");
  net::HttpClient client(o);
  const std::string body = request_.SerializeAsString();
  net::HttpResult r = client.request("POST", "https://localhost:" + std::to_string(http_port_) + "/v1development/profiles",
                                     {{"Content-Type", "application/x-protobuf"}}, body, 10s);
  ASSERT_TRUE(r.status.isOk()) << r.status.toString();
  EXPECT_EQ(r.http_status, 200) << r.body;
  net::HttpClient plain({});
  EXPECT_FALSE(plain.request("POST", "http://127.0.0.1:" + std::to_string(http_port_) + "/v1development/profiles",
                             {{"Content-Type", "application/x-protobuf"}}, body, 10s)
                   .status.isOk());
  service_->shutdown();
  auto written = testing::readOtlpProtoFile(dir_.file("out.bin"));
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(testing::serviceName(written[0], 0), "secure");
}

TEST(OtlpTlsConfig, MissingCertificateFilesFailValidationWithTheirPath) {
  std::string errors = testing::configErrors(
      "receivers:\n  otlp:\n    protocols:\n      grpc: { tls: { cert_file: /nonexistent/cert.pem } }\n"
      "exporters:\n  debug: {}\n"
      "service:\n  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n");
  EXPECT_NE(errors.find("receivers.otlp.protocols.grpc.tls.cert_file"), std::string::npos) << errors;
  EXPECT_NE(errors.find("/nonexistent/cert.pem"), std::string::npos) << errors;
  EXPECT_NE(errors.find("key_file"), std::string::npos) << errors;  // required too, reported in the same run
}

}  // namespace
}  // namespace proflow
