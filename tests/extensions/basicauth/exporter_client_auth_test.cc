// Exporter client auth end to end: an agent's otlphttp, otlp (gRPC) and pyroscope exporters send
// basicauth credentials to a gateway whose receivers require them (htpasswd with a bcrypt entry).
// An exporter with the wrong password is refused and counted on both sides.
#include <crypt.h>
#include <fstream>
#include <gtest/gtest.h>

#include "tests/e2e/otlp_client.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

std::string bcryptEntry(const std::string& user, const std::string& password) {
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  EXPECT_NE(crypt_gensalt_rn("$2y$", 4, nullptr, 0, setting, sizeof setting), nullptr);
  struct crypt_data data {};
  return user + ":" + crypt_r(password.c_str(), setting, &data);
}

TEST(ExporterClientAuth, AgentExportersAuthenticateToGatewayReceivers) {
  const int gw_http = testing::freePort(), gw_grpc = testing::freePort(), gw_pyro = testing::freePort(),
            ag_grpc = testing::freePort();
  const std::string server_auth = "auth: { authenticator: basicauth/server }";
  auto gateway = testing::startService(R"(
extensions:
  basicauth/server:
    htpasswd: { inline: ")" + bcryptEntry("agent", "s3cret") + R"(" }
receivers:
  otlp:
    protocols:
      http: { endpoint: "127.0.0.1:)" + std::to_string(gw_http) + "\", " + server_auth + R"( }
      grpc: { endpoint: "127.0.0.1:)" + std::to_string(gw_grpc) + "\", " + server_auth + R"( }
  pyroscope: { endpoint: "127.0.0.1:)" + std::to_string(gw_pyro) + "\", " + server_auth + R"( }
exporters: { debug: {} }
service:
  extensions: [basicauth/server]
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [otlp, pyroscope], exporters: [debug] } }
)");
  ASSERT_TRUE(gateway);
  const std::string client_auth = "auth: { authenticator: basicauth/client }";
  auto agent = testing::startService(R"(
extensions:
  basicauth/client: { client_auth: { username: agent, password: s3cret } }
  basicauth/wrong: { client_auth: { username: agent, password: guess } }
receivers: { otlp: { protocols: { grpc: { endpoint: "127.0.0.1:)" + std::to_string(ag_grpc) + R"(" } } } }
exporters:
  otlphttp:
    endpoint: http://127.0.0.1:)" + std::to_string(gw_http) + R"(
    send_version_header: true
    )" + client_auth + R"(
  otlp:
    endpoint: 127.0.0.1:)" + std::to_string(gw_grpc) + R"(
    tls: { insecure: true }
    send_version_header: true
    )" + client_auth + R"(
  pyroscope:
    endpoint: http://127.0.0.1:)" + std::to_string(gw_pyro) + R"(
    api: ingest
    auth: { authenticator: basicauth/client }
  otlphttp/wrong:
    endpoint: http://127.0.0.1:)" + std::to_string(gw_http) + R"(
    auth: { authenticator: basicauth/wrong }
    retry_on_failure: { enabled: false }
service:
  extensions: [basicauth/client, basicauth/wrong]
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [otlp], exporters: [otlphttp, otlp, pyroscope, otlphttp/wrong] } }
)");
  ASSERT_TRUE(agent);
  testing::ProfileSpec p;
  p.samples = {{{"leaf", "main"}, 5}};
  const auto request = testing::makeRequest("billing", {p});
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(testing::exportTo(ag_grpc, request).ok());
  agent->shutdown();  // drains every exporter's queue into the gateway
  auto& gm = gateway->metrics();
  // 2 over OTLP/HTTP + 2 over OTLP/gRPC; the pyroscope receiver gets one upload per profile.
  EXPECT_EQ(gm.value("proflow_receiver_accepted_batches_total", {{"receiver", "otlp"}}), 4);
  EXPECT_GE(gm.value("proflow_receiver_accepted_batches_total", {{"receiver", "pyroscope"}}), 2);
  EXPECT_EQ(gm.value("proflow_receiver_http_rejected_requests_total", {{"receiver", "pyroscope"}, {"reason", "unauthenticated"}}), 0);
  // Only the exporter with the wrong password was refused, and nothing it sent got in.
  EXPECT_EQ(gm.value("proflow_receiver_http_rejected_requests_total", {{"receiver", "otlp"}, {"reason", "unauthenticated"}}), 2);
  auto& am = agent->metrics();
  EXPECT_EQ(am.value("proflow_exporter_sent_batches_total", {{"exporter", "otlphttp"}}), 2);
  EXPECT_EQ(am.value("proflow_exporter_sent_batches_total", {{"exporter", "otlp"}}), 2);
  EXPECT_EQ(am.value("proflow_exporter_sent_batches_total", {{"exporter", "pyroscope"}}), 2);
  EXPECT_EQ(am.value("proflow_exporter_sent_batches_total", {{"exporter", "otlphttp/wrong"}}), 0);
  EXPECT_EQ(am.value("proflow_exporter_failed_batches_total", {{"exporter", "otlphttp/wrong"}}), 2);
}

TEST(ExporterClientAuth, ServerInstanceCannotSendAndClientInstanceCannotCheck) {
  const int port = testing::freePort();
  Registry registry;
  ASSERT_TRUE(registerBuiltins(registry).isOk());
  config::ServiceConfig cfg;
  std::string errors;
  ASSERT_TRUE(config::loadServiceConfigText(R"(
extensions:
  basicauth/client: { client_auth: { username: a, password: b } }
receivers:
  otlp: { protocols: { http: { endpoint: "127.0.0.1:)" + std::to_string(port) + R"(", auth: { authenticator: basicauth/client } } } }
exporters: { debug: {} }
service:
  extensions: [basicauth/client]
  telemetry: { metrics: { address: none } }
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)", "test.yaml", registry, &cfg, &errors).isOk()) << errors;
  Service service(std::move(cfg));
  Status s = service.start();
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("'basicauth/client' cannot authenticate incoming requests"), std::string::npos)
      << s.message();
}

TEST(BasicAuthConfig, ServerOrClientNotBoth) {
  const std::string errors = testing::configErrors(R"(extensions:
  basicauth:
    htpasswd: { inline: "a:{SHA}87u9ZqY9S/F0eUBXjsPQEDUw4h0=" }
    client_auth: { username: a, password: b }
  basicauth/empty: {}
receivers: { otlp: { protocols: { http: { endpoint: "127.0.0.1:0" } } } }
exporters: { debug: {} }
service:
  extensions: [basicauth, basicauth/empty]
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)");
  EXPECT_NE(errors.find("test.yaml:4:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("either a server (htpasswd) or a client"), std::string::npos) << errors;
  EXPECT_NE(errors.find("extensions.basicauth/empty: set htpasswd"), std::string::npos) << errors;
}

}  // namespace
}  // namespace proflow

namespace proflow {
namespace {

// What start-up refuses, validation refuses too, with file:line: a missing htpasswd file and
// plain-text passwords (inline or in the file).
TEST(BasicAuthConfig, ValidationReadsTheHtpasswdAsStartUpWould) {
  const std::string plain = ::testing::TempDir() + "/plain.htpasswd";
  { std::ofstream(plain) << "alice:wonderland\n"; }
  const std::string errors = testing::configErrors(R"(extensions:
  basicauth/missing:
    htpasswd: { file: /nonexistent/users.htpasswd }
  basicauth/plain_file:
    htpasswd: { file: ")" + plain + R"(" }
  basicauth/plain_inline:
    htpasswd: { inline: "bob:builder" }
receivers: { otlp: { protocols: { http: { endpoint: "127.0.0.1:0" } } } }
exporters: { debug: {} }
service:
  extensions: [basicauth/missing, basicauth/plain_file, basicauth/plain_inline]
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)");
  EXPECT_NE(errors.find("test.yaml:3:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("extensions.basicauth/missing.htpasswd.file: htpasswd file '/nonexistent/users.htpasswd' does not exist"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("extensions.basicauth/plain_file.htpasswd.file:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("extensions.basicauth/plain_inline.htpasswd.inline:"), std::string::npos) << errors;
  EXPECT_EQ(errors.find("wonderland"), std::string::npos) << "a password is never echoed: " << errors;
  EXPECT_EQ(errors.find("builder"), std::string::npos) << "a password is never echoed: " << errors;
}

}  // namespace
}  // namespace proflow
