// The `nats` exporter and receiver against a nats-server that demands TLS and a user and password
// on every connection: with `tls` (the server's certificate as ca_file) and the credentials they
// carry profiles through; a wrong password or an untrusted certificate fails start-up with the
// reason (instead of retrying in the background forever).
#include <gtest/gtest.h>

#include "core/exporterhelper/exporter_helper.h"
#include "exporters/nats/nats_sender.h"
#include "receivers/nats/nats_receiver.h"
#include "tests/brokers/component_harness.h"
#include "tests/brokers/nats_server.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;

class NatsSecuredTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(testing::makeSelfSignedCert(cert_, key_));
    server_ = std::make_unique<testing::NatsServer>(testing::NatsServerSecurity{"proflow", "s3cret", cert_, key_});
    ASSERT_TRUE(server_->ok()) << server_->log();
  }
  // The certificate names localhost only: the URL must too, or verification fails.
  brokers::NatsConnectionConfig connection(const std::string& password = "s3cret", bool tls = true) {
    brokers::NatsConnectionConfig c;
    c.url = "nats://localhost:" + server_->url().substr(server_->url().rfind(':') + 1);
    c.username = "proflow";
    c.password = password;
    c.tls.enabled = tls;
    if (tls) c.tls.ca_file = cert_;  // (cnats turns TLS on for a CA file alone)
    c.connect_timeout = 2s;
    return c;
  }
  std::unique_ptr<exporterhelper::ExporterHelper> exporter(testing::ComponentHarness& h,
                                                           const brokers::NatsConnectionConfig& conn) {
    exporters::nats::NatsExporterConfig c;
    c.connection = conn;
    c.create_stream = true;
    c.helper.sending_queue.enabled = false;
    c.helper.retry_on_failure.enabled = false;
    c.helper.timeout = 3s;
    auto e = std::make_unique<exporterhelper::ExporterHelper>(h.settings, c.helper,
                                                             std::make_unique<exporters::nats::NatsSender>(h.settings, c));
    start_status_ = e->start(h.host);
    return e;
  }

  testing::TempDir dir_;
  const std::string cert_ = dir_.file("server.crt"), key_ = dir_.file("server.key");
  std::unique_ptr<testing::NatsServer> server_;
  Status start_status_;
};

TEST_F(NatsSecuredTest, TlsAndCredentialsCarryProfilesFromExporterToReceiver) {
  testing::ComponentHarness eh(ComponentKind::kExporter, "nats");
  auto e = exporter(eh, connection());
  ASSERT_TRUE(start_status_.isOk()) << start_status_.toString();
  for (int i = 0; i < 5; ++i) {
    const Status s = e->consume(testing::numbered("secured-" + std::to_string(i)));
    ASSERT_TRUE(s.isOk()) << s.toString() << "\n" << server_->log();
  }

  testing::ComponentHarness rh(ComponentKind::kReceiver, "nats");
  receivers::nats::NatsReceiverConfig rc;
  rc.connection = connection();
  rc.consumer = "gateways";
  rc.fetch_timeout = 100ms;
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  receivers::nats::NatsReceiver r(rh.settings, rc, pipeline);
  ASSERT_TRUE(r.start(rh.host).isOk());
  EXPECT_TRUE(testing::waitFor([&] { return pipeline->accepted().size() >= 5; }, 20s)) << server_->log();
  EXPECT_EQ(pipeline->acceptedSet(), (std::set<std::string>{"secured-0", "secured-1", "secured-2", "secured-3",
                                                            "secured-4"}));
  r.shutdown(std::chrono::steady_clock::now() + 2s);
  e->shutdown(std::chrono::steady_clock::now() + 2s);
  // The server saw TLS connections only, authenticated as the configured user.
  EXPECT_EQ(server_->log().find("Authorization Violation"), std::string::npos) << server_->log();
}

TEST_F(NatsSecuredTest, AWrongPasswordIsRefusedWithTheServersReason) {
  testing::ComponentHarness eh(ComponentKind::kExporter, "nats");
  auto e = exporter(eh, connection("wrong"));
  Status s = start_status_;
  if (s.isOk()) s = e->consume(testing::numbered("never"));
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("uthoriz"), std::string::npos) << s.toString();
  e->shutdown(std::chrono::steady_clock::now() + 1s);
}

// Without tls settings cnats still follows the server into TLS, and without the CA the server's
// certificate is not trusted: refused at start, naming the certificate problem.
TEST_F(NatsSecuredTest, AServerCertificateNotTrustedIsRefusedWithTheReason) {
  testing::ComponentHarness eh(ComponentKind::kExporter, "nats");
  auto e = exporter(eh, connection("s3cret", /*tls=*/false));
  Status s = start_status_;
  if (s.isOk()) s = e->consume(testing::numbered("never"));
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("SSL"), std::string::npos) << s.toString();
  EXPECT_NE(s.message().find("certificate"), std::string::npos) << s.toString();
  e->shutdown(std::chrono::steady_clock::now() + 1s);
}

}  // namespace
}  // namespace proflow
