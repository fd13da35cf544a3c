// A message that takes down every gateway that handles it must not take down the gateways forever:
// after max_deliver gateways began handling it and died (here: each stalls on the backend with the
// message in hand and is killed with SIGKILL), the next gateway gives it up without handling it
// again, and the message after it comes through. And the request that used to abort gateways
// while being decoded neither ends one nor holds up the next message. Real daemons, a real
// nats-server, librdkafka's mock cluster.
#include <gtest/gtest.h>
#include <signal.h>

#include <functional>
#include <memory>
#include <set>
#include <vector>

#include "core/flat/flat_encode.h"
#include "tests/brokers/broker_scenario.h"
#include "tests/brokers/component_harness.h"
#include "tests/brokers/counting_sink.h"
#include "tests/brokers/kafka_mock.h"
#include "tests/brokers/nats_client.h"
#include "tests/brokers/nats_server.h"
#include "tests/support/daemon.h"
#include "tests/support/hostile_otlp.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;

constexpr int kMaxDeliver = 2;

std::string wire(const std::string& service) { return flat::encode(testing::numbered(service).data()); }

double metric(int port, const std::string& name) {
  testing::ScenarioResult probe;
  testing::httpGet(port, "/metrics", &probe.gateway_metrics);
  return probe.gatewayMetric(name);
}

// A gateway: the `type` receiver (`receiver_yaml` plus max_deliver) -> otlp_grpc exporter to the sink,
// with no queue and no retries (a message is settled once the sink answered).
std::string gatewayConfig(const std::string& type, const std::string& receiver_yaml, int sink, int metrics) {
  return "receivers:\n  " + type + ":\n" + receiver_yaml + "    max_deliver: " + std::to_string(kMaxDeliver) + "\n" +
         "exporters:\n  otlp:\n    endpoint: 127.0.0.1:" + std::to_string(sink) +
         "\n    tls: { insecure: true }\n    timeout: 60s\n    sending_queue: { enabled: false }\n"
         "    retry_on_failure: { enabled: false }\n"
         "service:\n  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(metrics) + " } }\n" +
         "  pipelines: { profiles: { receivers: [" + type + "], exporters: [otlp] } }\n";
}

// Messages that came with "stuck": published right after it, before any gateway started.
const std::vector<std::string> kInnocents = {"m1", "m2", "m3"};

// "stuck", then kInnocents, are in the broker (`publish` puts one more); `receiver_yaml` configures
// the gateways' receiver (type `type`). Gateway after gateway takes "stuck" while the sink holds
// its export, and is killed with it in hand; then "next" is published, the sink lets "stuck"
// through and one more gateway starts. Every other message arrives, "stuck" never. Returns the
// last gateway's value of `given_up_metric`.
double runUntilGivenUp(const std::string& type, const std::string& receiver_yaml, const std::string& given_up_metric,
                       const std::function<bool(const std::string&)>& publish) {
  testing::TempDir dir;
  testing::CountingSink sink(testing::freePort());
  EXPECT_TRUE(sink.start());
  sink.hold("stuck");
  const int metrics = testing::freePort();
  const std::string config = dir.write("gateway.yaml", gatewayConfig(type, receiver_yaml, sink.port(), metrics));
  std::string logs;
  for (int g = 1; g <= kMaxDeliver; ++g) {
    testing::Daemon gateway({"--config", config}, dir.file("gateway" + std::to_string(g) + ".log"));
    EXPECT_TRUE(gateway.waitHealthy(metrics)) << gateway.log();
    // The gateway has the message in hand when its export reaches the sink.
    const bool stalled = testing::waitFor([&] { return sink.held() >= g; }, 60s);
    EXPECT_TRUE(stalled) << "gateway " << g << " never exported:\n" << gateway.log();
    ::kill(gateway.pid(), SIGKILL);
    gateway.wait();
    logs += "--- gateway " + std::to_string(g) + " (killed)\n" + gateway.log();
    if (!stalled) return -1;
  }
  EXPECT_TRUE(publish(wire("next")));
  sink.hold("");
  testing::Daemon gateway({"--config", config}, dir.file("gateway-last.log"));
  EXPECT_TRUE(gateway.waitHealthy(metrics)) << gateway.log();
  // Those fetched with "stuck" by gateways that died are not given up with it.
  std::set<std::string> others(kInnocents.begin(), kInnocents.end());
  others.insert("next");
  EXPECT_TRUE(testing::waitFor([&] { return sink.missing(others).empty(); }, 60s))
      << ::testing::PrintToString(sink.missing(others)) << " never arrived\n" << logs << "--- last gateway\n" << gateway.log();
  // "next" may come first: "stuck" comes back only once the last gateway's broker says it may.
  EXPECT_TRUE(testing::waitFor([&] { return metric(metrics, given_up_metric) >= 1; }, 30s)) << gateway.log();
  EXPECT_EQ(sink.arrivals().count("stuck"), 0u) << "handled again after " << kMaxDeliver << " deliveries";
  EXPECT_TRUE(gateway.running());
  const double given_up = metric(metrics, given_up_metric);
  EXPECT_EQ(gateway.terminate(), 0) << gateway.log();
  return given_up;
}

TEST(GivenUp, NatsMessageThatKillsEveryGatewayIsDeadLetteredAfterMaxDeliver) {
  testing::NatsServer server;
  ASSERT_TRUE(server.ok());
  testing::NatsClient client(server.url());
  ASSERT_TRUE(client.addStream("PROFILES", "profiles.otlp"));
  ASSERT_TRUE(client.addStream("DLQ", "profiles.dead"));
  auto publish = [&](const std::string& body) { return client.publish("profiles.otlp", body); };
  ASSERT_TRUE(publish(wire("stuck")));
  for (const auto& m : kInnocents) ASSERT_TRUE(publish(wire(m)));
  const std::string receiver = "    url: " + server.url() + "\n    stream: PROFILES\n    subject: profiles.otlp\n" +
                               "    consumer: gateways\n    ack_wait: 1s\n    fetch_timeout: 200ms\n" +
                               "    dead_letter_subject: profiles.dead\n";
  const double dead = runUntilGivenUp("nats", receiver, "proflow_receiver_nats_dead_letter_messages_total", publish);
  EXPECT_EQ(dead, 1);
  testing::NatsClient::Message m;
  ASSERT_TRUE(client.get("DLQ", 1, {"proflow-dead-letter-reason"}, &m));
  EXPECT_EQ(m.data, wire("stuck"));
}

TEST(GivenUp, KafkaRecordThatKillsEveryGatewayIsSkippedAfterMaxDeliver) {
  testing::KafkaMock mock(3);
  ASSERT_TRUE(mock.ok());
  ASSERT_TRUE(mock.createTopic("otlp_profiles", 1));
  auto publish = [&](const std::string& body) { return mock.produce("otlp_profiles", body); };
  ASSERT_TRUE(publish(wire("stuck")));
  for (const auto& m : kInnocents) ASSERT_TRUE(publish(wire(m)));
  // A killed member holds its partition until its session times out: a short one keeps the test short.
  const std::string receiver = "    brokers: " + mock.brokersYaml() + "\n    topic: otlp_profiles\n" +
                               "    group_id: gateways\n    session_timeout: 3s\n" +
                               "    consumer_config: { heartbeat.interval.ms: \"500\" }\n";
  EXPECT_EQ(runUntilGivenUp("kafka", receiver, "proflow_receiver_kafka_poison_records_total", publish), 1);
}

// The message that aborted gateways: each handles it (whatever comes of it, at most max_deliver
// times) and goes on to the next one; no gateway exits.
void expectPoisonPassesBy(const std::string& type, const std::string& receiver_yaml,
                          const std::function<bool(const std::string&)>& publish) {
  testing::TempDir dir;
  testing::CountingSink sink(testing::freePort());
  ASSERT_TRUE(sink.start());
  // Profile.attribute_indices alternating with samples (448 KB): a decoder that copies a repeated
  // field again each time another field interrupts it costs O(pairs²) there, once enough to abort
  // a daemon with 4 GiB of address space.
  ASSERT_TRUE(publish(flat::testing::interleavedProfileAttributes(75'000)));
  ASSERT_TRUE(publish(wire("next")));
  const int metrics = testing::freePort();
  testing::Daemon gateway({"--config", dir.write("gateway.yaml", gatewayConfig(type, receiver_yaml, sink.port(), metrics))},
                          dir.file("gateway.log"));
  ASSERT_TRUE(gateway.waitHealthy(metrics)) << gateway.log();
  EXPECT_TRUE(testing::waitFor([&] { return sink.arrivals().count("next") > 0; }, 30s)) << gateway.log();
  EXPECT_TRUE(gateway.running()) << gateway.log();
  EXPECT_EQ(gateway.terminate(), 0) << gateway.log();
}

TEST(Poison, NatsInterleavedRequestNeitherKillsTheGatewayNorHoldsUpTheNext) {
  testing::NatsServer server;
  ASSERT_TRUE(server.ok());
  testing::NatsClient client(server.url());
  ASSERT_TRUE(client.addStream("PROFILES", "profiles.otlp"));
  expectPoisonPassesBy("nats",
                       "    url: " + server.url() + "\n    stream: PROFILES\n    subject: profiles.otlp\n" +
                           "    consumer: gateways\n    ack_wait: 2s\n",
                       [&](const std::string& body) { return client.publish("profiles.otlp", body); });
}

TEST(Poison, KafkaInterleavedRequestNeitherKillsTheGatewayNorHoldsUpTheNext) {
  testing::KafkaMock mock(3);
  ASSERT_TRUE(mock.ok());
  ASSERT_TRUE(mock.createTopic("otlp_profiles", 1));
  expectPoisonPassesBy("kafka",
                       "    brokers: " + mock.brokersYaml() + "\n    topic: otlp_profiles\n    group_id: gateways\n",
                       [&](const std::string& body) { return mock.produce("otlp_profiles", body); });
}

}  // namespace
}  // namespace proflow
