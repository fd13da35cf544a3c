// The `kafka` exporter's SASL and TLS settings (librdkafka's own names in producer_config) as a
// broker sees them: the PLAIN login inside or outside TLS, the CA it trusts, and what a send says
// when the broker refuses the login or the certificate. The broker side is a front door that speaks
// the Kafka handshake (tests/brokers/kafka_auth_peer.h); nothing past authentication is answered,
// so every send here ends in a timeout whose message must carry the reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/exporterhelper/exporter_helper.h"
#include "exporters/kafka/kafka_sender.h"
#include "tests/brokers/component_harness.h"
#include "tests/brokers/kafka_auth_peer.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"

namespace proflow {
namespace {

using exporters::kafka::KafkaExporterConfig;
using testing::KafkaAuthPeer;
using namespace std::chrono_literals;

constexpr int kApiVersions = 18, kSaslHandshake = 17, kSaslAuthenticate = 36;

class KafkaExporterSecurityTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(testing::makeSelfSignedCert(cert_, key_)); }

  // One send through an exporter on `peer` with these producer properties; its result.
  Status sendOnce(const KafkaAuthPeer& peer, std::map<std::string, std::string> properties) {
    KafkaExporterConfig c;
    c.brokers = {peer.bootstrap()};
    c.producer_config = std::move(properties);
    c.producer_config["broker.address.family"] = "v4";  // the peer listens on 127.0.0.1 only
    c.helper.sending_queue.enabled = false;
    c.helper.retry_on_failure.enabled = false;
    c.helper.timeout = 2s;
    exporterhelper::ExporterHelper e(h_.settings, c.helper,
                                     std::make_unique<exporters::kafka::KafkaSender>(h_.settings, c));
    EXPECT_TRUE(e.start(h_.host).isOk());
    Status s = e.consume(testing::numbered("checkout"));
    e.shutdown(std::chrono::steady_clock::now() + 5s);
    return s;
  }

  testing::TempDir dir_;
  const std::string cert_ = dir_.file("broker.crt"), key_ = dir_.file("broker.key");
  testing::ComponentHarness h_{ComponentKind::kExporter, "kafka"};
};

TEST_F(KafkaExporterSecurityTest, SaslPlainSendsTheConfiguredLogin) {
  KafkaAuthPeer peer({.username = "proflow", .password = "s3cret"});
  // The peer answers the handshake and the login, not produce requests: what it saw is the result.
  (void)sendOnce(peer, {{"security.protocol", "sasl_plaintext"},
                        {"sasl.mechanisms", "PLAIN"},
                        {"sasl.username", "proflow"},
                        {"sasl.password", "s3cret"}});
  const auto seen = peer.seen();
  ASSERT_EQ(seen.accepted, 1) << "logins refused: " << seen.refused;
  EXPECT_EQ(seen.refused, 0);
  EXPECT_EQ(seen.mechanisms, std::vector<std::string>{"PLAIN"});
  EXPECT_EQ(seen.logins.at(0), std::make_pair(std::string("proflow"), std::string("s3cret")));
  // A broker's order: versions first, then the mechanism, then the login.
  ASSERT_GE(seen.api_keys.size(), 3u);
  EXPECT_EQ(std::vector<int>(seen.api_keys.begin(), seen.api_keys.begin() + 3),
            (std::vector<int>{kApiVersions, kSaslHandshake, kSaslAuthenticate}));
  EXPECT_EQ(seen.client_ids.at(0), "proflow");
}

TEST_F(KafkaExporterSecurityTest, ARefusedLoginIsNamedInTheSendErrorAndCounted) {
  KafkaAuthPeer peer({.username = "proflow", .password = "s3cret"});
  const Status s = sendOnce(peer, {{"security.protocol", "sasl_plaintext"},
                                   {"sasl.mechanisms", "PLAIN"},
                                   {"sasl.username", "proflow"},
                                   {"sasl.password", "wrong"}});
  EXPECT_GE(peer.seen().refused, 1);
  EXPECT_EQ(peer.seen().accepted, 0);
  ASSERT_FALSE(s.isOk());
  EXPECT_TRUE(s.retryable()) << s.message();  // the broker's users may be fixed meanwhile
  EXPECT_NE(s.message().find("_AUTHENTICATION"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("Invalid username or password"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("wrong"), std::string::npos) << "the password leaked: " << s.message();
  EXPECT_GE(h_.metric("proflow_exporter_kafka_client_errors_total"), 1);
}

TEST_F(KafkaExporterSecurityTest, SaslSslCarriesTheLoginInsideTlsTrustingTheConfiguredCa) {
  KafkaAuthPeer peer({.cert_file = cert_, .key_file = key_, .username = "proflow", .password = "s3cret"});
  (void)sendOnce(peer, {{"security.protocol", "sasl_ssl"},  // what the peer saw is the result (see above)
                        {"ssl.ca.location", cert_},
                        {"sasl.mechanisms", "PLAIN"},
                        {"sasl.username", "proflow"},
                        {"sasl.password", "s3cret"}});
  const auto seen = peer.seen();
  EXPECT_GE(seen.tls_handshakes, 1);
  EXPECT_EQ(seen.tls_failures, 0);
  EXPECT_EQ(seen.accepted, 1);
}

TEST_F(KafkaExporterSecurityTest, ABrokerCertificateNotTrustedFailsTheSendWithTheTlsReason) {
  KafkaAuthPeer peer({.cert_file = cert_, .key_file = key_});
  // No ssl.ca.location: the system's CAs, which never signed the test certificate.
  const Status s = sendOnce(peer, {{"security.protocol", "ssl"}});
  const auto seen = peer.seen();
  EXPECT_GE(seen.tls_failures, 1);
  EXPECT_EQ(seen.tls_handshakes, 0);
  EXPECT_TRUE(seen.api_keys.empty()) << "a request went out over an untrusted connection";
  ASSERT_FALSE(s.isOk());
  // librdkafka names the first failure _SSL and a reconnect's _TRANSPORT; both carry the reason.
  EXPECT_NE(s.message().find("certificate verify failed"), std::string::npos) << s.message();
}

TEST_F(KafkaExporterSecurityTest, TlsWithoutSaslSpeaksKafkaOverTheHandshake) {
  KafkaAuthPeer peer({.cert_file = cert_, .key_file = key_});
  (void)sendOnce(peer, {{"security.protocol", "ssl"}, {"ssl.ca.location", cert_}});  // the peer saw it (see above)
  const auto seen = peer.seen();
  EXPECT_GE(seen.tls_handshakes, 1);
  ASSERT_FALSE(seen.api_keys.empty());
  EXPECT_EQ(seen.api_keys.front(), kApiVersions);
  EXPECT_TRUE(seen.mechanisms.empty());
}

}  // namespace
}  // namespace proflow
