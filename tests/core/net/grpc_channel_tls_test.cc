// The channel every gRPC exporter (otlp, parca, loadbalancing's backends) opens honours each field of
// its `tls` block over real sockets: plain text (`insecure`, http://), `ca_file`, the client
// certificate, `server_name_override` (the name verified) and `insecure_skip_verify`; and what the
// channel would not use is refused at config validation, never ignored. Servers are gRPC servers on
// 127.0.0.1 whose certificates (made by the openssl CLI at test time) name only "localhost".
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "core/net/grpc_channel.h"
#include "exporters/otlp_grpc/factory.h"
#include "exporters/parca/factory.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/support/component_config.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"

namespace proflow::net {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;
using ::testing::HasSubstr;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class CountingService final : public collector::ProfilesService::Service {
 public:
  grpc::Status Export(grpc::ServerContext*, const collector::ExportProfilesServiceRequest*,
                      collector::ExportProfilesServiceResponse*) override {
    ++calls;
    return grpc::Status::OK;
  }
  std::atomic<int> calls{0};
};

// One gRPC server on 127.0.0.1, port chosen by the kernel.
struct TestServer {
  TestServer(const std::shared_ptr<grpc::ServerCredentials>& creds) {
    grpc::ServerBuilder b;
    b.AddListeningPort("127.0.0.1:0", creds, &port);
    b.RegisterService(&service);
    server = b.BuildAndStart();
  }
  ~TestServer() { server->Shutdown(std::chrono::system_clock::now()); }
  CountingService service;
  int port = 0;
  std::unique_ptr<grpc::Server> server;
};

class GrpcChannelTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"server", "client", "stranger"})
      ASSERT_TRUE(proflow::testing::makeSelfSignedCert(file(name, "pem"), file(name, "key")))
          << "the openssl CLI is required (Debian package openssl)";
    grpc::SslServerCredentialsOptions tls;
    tls.pem_key_cert_pairs.push_back({readFile(file("server", "key")), readFile(file("server", "pem"))});
    tls_ = std::make_unique<TestServer>(grpc::SslServerCredentials(tls));
    grpc::SslServerCredentialsOptions mtls = tls;
    mtls.pem_root_certs = readFile(file("client", "pem"));
    mtls.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
    mtls_ = std::make_unique<TestServer>(grpc::SslServerCredentials(mtls));
    plain_ = std::make_unique<TestServer>(grpc::InsecureServerCredentials());
    ASSERT_GT(tls_->port, 0);
    ASSERT_GT(mtls_->port, 0);
    ASSERT_GT(plain_->port, 0);
  }

  std::string file(const std::string& name, const std::string& ext) const { return dir_.file(name + "." + ext); }

  // One Export through makeGrpcChannel with `tls` to `endpoint`.
  grpc::Status exportTo(const std::string& endpoint, const TlsClientConfig& tls) {
    auto channel = makeGrpcChannel(endpoint, tls, GrpcChannelOptions{});
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    collector::ExportProfilesServiceRequest request;
    collector::ExportProfilesServiceResponse response;
    return collector::ProfilesService::NewStub(channel)->Export(&ctx, request, &response);
  }
  static std::string at(const TestServer& s) { return "127.0.0.1:" + std::to_string(s.port); }

  TlsClientConfig trusting() const {
    TlsClientConfig t;
    t.ca_file = file("server", "pem");
    return t;
  }

  proflow::testing::TempDir dir_;
  std::unique_ptr<TestServer> tls_, mtls_, plain_;
};

TEST_F(GrpcChannelTlsTest, CaFileVerifiesTheChainAndTheName) {
  EXPECT_FALSE(exportTo(at(*tls_), trusting()).ok()) << "the certificate names localhost, not 127.0.0.1";
  EXPECT_FALSE(exportTo(at(*tls_), TlsClientConfig{}).ok()) << "self-signed: not in the system's roots";
  TlsClientConfig other = trusting();
  other.ca_file = file("stranger", "pem");
  other.server_name_override = "localhost";
  EXPECT_FALSE(exportTo(at(*tls_), other).ok()) << "a CA that did not sign the server";
  EXPECT_EQ(tls_->service.calls.load(), 0);
}

TEST_F(GrpcChannelTlsTest, ServerNameOverrideIsTheNameVerified) {
  TlsClientConfig t = trusting();
  t.server_name_override = "localhost";
  grpc::Status ok = exportTo(at(*tls_), t);
  EXPECT_TRUE(ok.ok()) << ok.error_message();
  t.server_name_override = "other.example";
  EXPECT_FALSE(exportTo(at(*tls_), t).ok());
  EXPECT_EQ(tls_->service.calls.load(), 1);
}

TEST_F(GrpcChannelTlsTest, InsecureSkipVerifyAcceptsAnyServerCertificate) {
  TlsClientConfig t;
  t.insecure_skip_verify = true;
  grpc::Status s = exportTo(at(*tls_), t);
  EXPECT_TRUE(s.ok()) << s.error_message();
  // Still TLS: a plain-text server is not reached.
  EXPECT_FALSE(exportTo(at(*plain_), t).ok());
  EXPECT_EQ(tls_->service.calls.load(), 1);
  EXPECT_EQ(plain_->service.calls.load(), 0);
}

TEST_F(GrpcChannelTlsTest, ClientCertificateIsPresented) {
  TlsClientConfig t = trusting();
  t.server_name_override = "localhost";
  EXPECT_FALSE(exportTo(at(*mtls_), t).ok()) << "the server requires a client certificate";
  t.cert_file = file("client", "pem");
  t.key_file = file("client", "key");
  grpc::Status s = exportTo(at(*mtls_), t);
  EXPECT_TRUE(s.ok()) << s.error_message();
  // Without verifying the server, the client certificate still goes out.
  TlsClientConfig skip;
  skip.insecure_skip_verify = true;
  EXPECT_FALSE(exportTo(at(*mtls_), skip).ok());
  skip.cert_file = file("client", "pem");
  skip.key_file = file("client", "key");
  s = exportTo(at(*mtls_), skip);
  EXPECT_TRUE(s.ok()) << s.error_message();
  skip.cert_file = file("stranger", "pem");
  skip.key_file = file("stranger", "key");
  EXPECT_FALSE(exportTo(at(*mtls_), skip).ok()) << "a client certificate the server does not trust";
  EXPECT_EQ(mtls_->service.calls.load(), 2);
}

TEST_F(GrpcChannelTlsTest, InsecureAndHttpSchemeArePlainText) {
  TlsClientConfig insecure;
  insecure.insecure = true;
  grpc::Status s = exportTo(at(*plain_), insecure);
  EXPECT_TRUE(s.ok()) << s.error_message();
  s = exportTo("http://" + at(*plain_), TlsClientConfig{});
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_FALSE(exportTo(at(*tls_), insecure).ok()) << "plain text to a TLS server";
  EXPECT_FALSE(exportTo(at(*plain_), TlsClientConfig{}).ok()) << "TLS is the default without a scheme";
  EXPECT_EQ(plain_->service.calls.load(), 2);
}

// Both gRPC exporters validate their `tls` block against their endpoint the same way.
class GrpcExporterTlsConfigTest : public ::testing::TestWithParam<const char*> {
 protected:
  std::string errors(const std::string& endpoint, const std::string& tls) {
    auto factory = std::string(GetParam()) == "otlp" ? exporters::otlp::makeOtlpExporterFactory()
                                                     : exporters::parca::makeParcaExporterFactory();
    return proflow::testing::checkComponentConfig(*factory, "endpoint: " + endpoint + "\ntls: " + tls + "\n",
                                                  std::string("exporters.") + GetParam())
        .format();
  }
  proflow::testing::TempDir dir_;
};

TEST_P(GrpcExporterTlsConfigTest, SettingsThePlainTextChannelWouldIgnoreAreRefused) {
  EXPECT_THAT(errors("https://backend:4317", "{ insecure: true }"), HasSubstr("is https://, which means TLS"));
  EXPECT_THAT(errors("backend:4317", "{ insecure: true, insecure_skip_verify: true }"),
              HasSubstr("tls.insecure_skip_verify: has no effect: insecure: true means plain text"));
  EXPECT_THAT(errors("backend:4317", "{ insecure: true, server_name_override: backend.example }"),
              HasSubstr("tls.server_name_override: has no effect"));
  EXPECT_THAT(errors("http://backend:4317", "{ insecure_skip_verify: true }"),
              HasSubstr("the http:// endpoint means plain text"));
  EXPECT_THAT(errors("http://backend:4317", "{ ca_file: " + dir_.write("ca.pem", "x") + " }"),
              HasSubstr("ca_file/cert_file have no effect"));
}

TEST_P(GrpcExporterTlsConfigTest, ConsistentSettingsAreAccepted) {
  const std::string ca = dir_.write("ca.pem", "x");
  EXPECT_EQ(errors("backend:4317", "{ insecure: true }"), "");
  EXPECT_EQ(errors("http://backend:4317", "{}"), "");
  EXPECT_EQ(errors("backend:4317", "{ insecure_skip_verify: true, server_name_override: backend.example }"), "");
  EXPECT_EQ(errors("https://backend:4317", "{ ca_file: " + ca + ", server_name_override: backend.example }"), "");
}

INSTANTIATE_TEST_SUITE_P(Exporters, GrpcExporterTlsConfigTest, ::testing::Values("otlp", "parca"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace proflow::net
