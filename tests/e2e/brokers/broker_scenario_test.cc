// Every profile the agent acknowledged arrives at the sink at least once, through a broker, while a
// gateway is killed with SIGKILL and restarted and the sink is down for a while. Duplicates are
// allowed (at least once) and reported.
#include <gtest/gtest.h>

#include <set>

#include "tests/brokers/broker_scenario.h"
#include "tests/brokers/kafka_mock.h"
#include "tests/brokers/nats_server.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

void expectNoLoss(const testing::ScenarioResult& r, int sent) {
  if (getenv("BROKER_SCENARIO_LOGS")) std::cout << r.logs << "\n" << r.gateway_metrics << "\n";
  std::cout << "acknowledged " << r.acknowledged << " of " << sent << ", arrived " << r.arrived << ", duplicates "
            << r.duplicates << "\n";
  ::testing::Test::RecordProperty("acknowledged", static_cast<int>(r.acknowledged));
  ::testing::Test::RecordProperty("duplicates", static_cast<int>(r.duplicates));
  EXPECT_GE(r.acknowledged, static_cast<size_t>(sent) * 9 / 10);  // the agent kept acknowledging throughout
  EXPECT_TRUE(r.missing.empty()) << r.missing.size() << " acknowledged profiles never arrived, e.g. "
                                 << (r.missing.empty() ? "" : *r.missing.begin()) << "\n"
                                 << r.logs;
  EXPECT_EQ(r.arrived, r.acknowledged);
}

TEST(BrokerScenario, NatsJetStreamLosesNothingAcknowledged) {
  testing::NatsServer server;
  ASSERT_TRUE(server.ok());
  testing::TempDir dir;
  testing::BrokerScenario s;
  s.type = "nats";
  s.exporter_yaml = "    url: " + server.url() + "\n    stream: PROFILES\n    subject: profiles.otlp\n" +
                    "    create_stream: true\n";
  s.receiver_yaml = "    url: " + server.url() + "\n    stream: PROFILES\n    subject: profiles.otlp\n" +
                    "    consumer: gateways\n    ack_wait: 2s\n    nak_delay: 200ms\n    batch_size: 8\n" +
                    "    fetch_timeout: 200ms\n";
  s.refusal_metric = "proflow_receiver_nats_nak_messages_total";
  auto r = testing::runBrokerScenario(s, dir.path().string());
  expectNoLoss(r, s.profiles);
  // The sink's absence reached the broker as refusals, not as drops.
  EXPECT_TRUE(r.outage_refused) << r.gateway_metrics;
  EXPECT_GT(r.gatewayMetric("proflow_receiver_nats_nak_messages_total"), 0) << r.gateway_metrics;
  EXPECT_EQ(r.gatewayMetric("proflow_receiver_nats_dead_letter_messages_total"), 0);
}

// Two gateways in one group on librdkafka's mock cluster (3 brokers, 4 partitions), the agent and
// the gateways given `exporter_keys` and `receiver_keys` after where the brokers are. A killed
// member holds the group's rebalance until its session times out: the client sends slower, so
// traffic is still flowing when the restarted member has its partitions again.
testing::ScenarioResult runKafkaScenario(testing::KafkaMock& mock, int profiles, const std::string& exporter_keys,
                                         const std::string& receiver_keys, bool wait_for_assignments = true) {
  EXPECT_TRUE(mock.createTopic("otlp_profiles", 4));
  testing::TempDir dir;
  testing::BrokerScenario s;
  s.type = "kafka";
  s.exporter_yaml = "    brokers: " + mock.brokersYaml() + "\n    topic: otlp_profiles\n" + exporter_keys;
  s.receiver_yaml = "    brokers: " + mock.brokersYaml() + "\n    topic: otlp_profiles\n    group_id: gateways\n" +
                    receiver_keys;
  s.profiles = profiles;
  s.send_interval_ms = 40;
  s.sink_down_ms = 8000;
  if (wait_for_assignments) s.ready_metric = "proflow_receiver_kafka_assigned_partitions";
  s.refusal_metric = "proflow_receiver_kafka_partition_pauses_total";
  auto r = testing::runBrokerScenario(s, dir.path().string());
  expectNoLoss(r, s.profiles);
  // The sink's absence reached the consumers as refusals (partitions paused and read again), not
  // as drops: the profiles sent while it was down met gateways that could not deliver them.
  EXPECT_TRUE(r.outage_refused) << r.gateway_metrics;
  if (!r.missing.empty()) {
    // Where they went missing: in the topic (the consumers skipped them) or not (never produced).
    std::set<std::string> in_topic;
    for (const auto& rec : mock.readAll("otlp_profiles", 100000, 8000)) in_topic.insert(rec.key);
    for (const auto& m : r.missing) ADD_FAILURE() << m << (in_topic.count(m) ? " is in the topic" : " is not in the topic");
  }
  EXPECT_EQ(r.gatewayMetric("proflow_receiver_kafka_poison_records_total"), 0);
  return r;
}

// With a delivery count kept (max_deliver): kills, rebalances and the sink's outage make no record
// poison (the kafka_poison_records_total check in runKafkaScenario), and the outage still pauses
// partitions.
TEST(BrokerScenario, KafkaLosesNothingAcknowledged) {
  testing::KafkaMock mock(3);
  ASSERT_TRUE(mock.ok());
  runKafkaScenario(mock, 300, "    partition_key: service\n    compression: lz4\n",
                            "    session_timeout: 6s\n    pause_duration: 200ms\n    max_deliver: 2\n"
                            "    consumer_config: { heartbeat.interval.ms: \"500\", max.poll.interval.ms: \"10000\" }\n");
}

// Both components at their defaults (only where the brokers are and the group's name), traffic
// from the moment the gateways are up, as a deployment sees it: a partition that reaches a member
// before any offset of it was committed (the group still forming, a member killed before its first
// commit) is read from its start, not from the records produced after.
TEST(BrokerScenario, KafkaAtDefaultsLosesNothingAcknowledged) {
  testing::KafkaMock mock(3);
  ASSERT_TRUE(mock.ok());
  runKafkaScenario(mock, 450, "", "", /*wait_for_assignments=*/false);
}

}  // namespace
}  // namespace proflow
