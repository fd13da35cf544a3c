// The `kafka` receiver against librdkafka's mock cluster: offsets committed only after the pipeline
// accepted (a refusal pauses the partition and the record is read again, not lost), in batches and
// at once on revocation and shutdown, poison skipped and counted, and the lag gauge; and its SASL
// login inside TLS as a broker's front door sees it (the mock cluster speaks neither).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/flat/flat_encode.h"
#include "receivers/kafka/factory.h"
#include "receivers/kafka/kafka_receiver.h"
#include "tests/brokers/component_harness.h"
#include "tests/brokers/kafka_auth_peer.h"
#include "tests/brokers/kafka_mock.h"
#include "tests/support/component_config.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;
using receivers::kafka::KafkaReceiverConfig;

class KafkaReceiverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(mock_.ok());
    ASSERT_TRUE(mock_.createTopic("otlp_profiles", 2));
  }
  KafkaReceiverConfig config() {
    KafkaReceiverConfig c;
    std::stringstream in(mock_.bootstraps());
    c.brokers.clear();
    for (std::string b; std::getline(in, b, ',');) c.brokers.push_back(b);
    c.group_id = "gateways";
    c.initial_offset = "earliest";
    c.pause_duration = 200ms;
    return c;
  }
  std::unique_ptr<receivers::kafka::KafkaReceiver> start(testing::ComponentHarness& h, KafkaReceiverConfig c,
                                                         std::shared_ptr<testing::ScriptedPipeline> pipeline) {
    auto r = std::make_unique<receivers::kafka::KafkaReceiver>(h.settings, std::move(c), std::move(pipeline));
    EXPECT_TRUE(r->start(h.host).isOk());
    return r;
  }
  bool produce(const std::string& service) { return mock_.produce("otlp_profiles", flat::encode(testing::numbered(service).data())); }

  testing::KafkaMock mock_{1};
};

TEST(KafkaReceiverConfig, ListsEveryError) {
  auto factory = receivers::kafka::makeKafkaReceiverFactory();
  auto errors = testing::checkComponentConfig(*factory, R"(
brokers: [k0:9092]
group_id: ""
initial_offset: middle
consumer_config: { enable.auto.commit: "true", bogus.property: x }
max_deliver: -1
)", "receivers.kafka");
  const std::string text = errors.format();
  for (const char* what : {"receivers.kafka.group_id", "receivers.kafka.initial_offset", "enable.auto.commit", "bogus.property",
                           "receivers.kafka.max_deliver"})
    EXPECT_NE(text.find(what), std::string::npos) << what << " missing in:\n" << text;
  EXPECT_NE(text.find("t.yaml:5:"), std::string::npos) << text;
}

TEST_F(KafkaReceiverTest, CommitsOnlyWhatThePipelineAccepted) {
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(produce("p" + std::to_string(i)));
  testing::ComponentHarness h(ComponentKind::kReceiver, "kafka");
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  KafkaReceiverConfig c = config();
  c.commit_interval = std::chrono::hours(1);  // only the shutdown commits
  auto r = start(h, c, pipeline);
  EXPECT_TRUE(testing::waitFor([&] { return pipeline->acceptedSet().size() == 20; }, 20s));
  EXPECT_TRUE(testing::waitFor([&] { return h.metric("proflow_receiver_kafka_consumer_lag") == 0; }, 5s));
  r->shutdown(std::chrono::steady_clock::now());
  // Committed: the group resumes after them.
  ASSERT_TRUE(produce("p20"));
  auto again = std::make_shared<testing::ScriptedPipeline>();
  auto r2 = start(h, config(), again);
  EXPECT_TRUE(testing::waitFor([&] { return again->accepted().size() >= 1; }, 20s));
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(again->accepted(), std::vector<std::string>{"p20"});
  r2->shutdown(std::chrono::steady_clock::now());
}

TEST_F(KafkaReceiverTest, CommitsAcceptedOffsetsInBatchesWhileRunning) {
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(produce("p" + std::to_string(i)));
  testing::ComponentHarness h(ComponentKind::kReceiver, "kafka");
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  KafkaReceiverConfig c = config();
  c.commit_interval = 300ms;
  auto r = start(h, c, pipeline);
  EXPECT_TRUE(testing::waitFor([&] { return pipeline->acceptedSet().size() == 30; }, 20s));
  // Committed while the receiver runs (a kill -9 now would re-read nothing), in fewer requests than records.
  EXPECT_TRUE(testing::waitFor([&] { return mock_.committedTotal("gateways", "otlp_profiles", 2) == 30; }, 10s))
      << mock_.committedTotal("gateways", "otlp_profiles", 2);
  const int64_t commits = h.metric("proflow_receiver_kafka_offset_commits_total");
  EXPECT_GE(commits, 1);
  EXPECT_LT(commits, 30);
  r->shutdown(std::chrono::steady_clock::now());
}

// The leaving owner commits what it accepted before giving its partitions up. A Kafka broker takes
// that commit (the member's generation is still valid); the mock cluster refuses commits while the
// group rebalances, so here the new owners read those records again: duplicates, no loss.
TEST_F(KafkaReceiverTest, ARebalanceLosesNothingAcceptedButNotCommitted) {
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(produce("a" + std::to_string(i)));
  testing::ComponentHarness h1(ComponentKind::kReceiver, "kafka");
  testing::ComponentHarness h2(ComponentKind::kReceiver, "kafka");
  auto first = std::make_shared<testing::ScriptedPipeline>();
  auto second = std::make_shared<testing::ScriptedPipeline>();
  KafkaReceiverConfig c = config();
  c.commit_interval = std::chrono::hours(1);  // only revocations and shutdowns commit
  auto r1 = start(h1, c, first);
  ASSERT_TRUE(testing::waitFor([&] { return first->acceptedSet().size() == 20; }, 20s));
  // A second member joins: partitions are revoked from the first and shared out.
  auto r2 = start(h2, c, second);
  ASSERT_TRUE(testing::waitFor([&] { return h2.metric("proflow_receiver_kafka_assigned_partitions") >= 1; }, 30s));
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(produce("b" + std::to_string(i)));
  std::set<std::string> unique;
  std::vector<std::string> all;
  EXPECT_TRUE(testing::waitFor([&] {
    all = first->accepted();
    for (const auto& s : second->accepted()) all.push_back(s);
    unique = std::set<std::string>(all.begin(), all.end());
    return unique.size() == 40;
  }, 20s)) << unique.size() << " of 40";
  // Read again only as often as the group rebalanced while they were uncommitted: the join, and on
  // a busy machine one more round as the mock settles the group (each refusing the revoke commit).
  std::map<std::string, int> reads;
  for (const auto& s : all) ++reads[s];
  for (const auto& [service, n] : reads) EXPECT_LE(n, 3) << service << " read " << n << " times";
  EXPECT_GE(h1.metric("proflow_receiver_kafka_offset_commits_total"), 1);
  r2->shutdown(std::chrono::steady_clock::now());
  r1->shutdown(std::chrono::steady_clock::now());
}

TEST_F(KafkaReceiverTest, ARefusingPipelinePausesThePartitionAndLosesNothing) {
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(produce("p" + std::to_string(i)));
  testing::ComponentHarness h(ComponentKind::kReceiver, "kafka");
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  pipeline->setRefuse(-1);
  auto r = start(h, config(), pipeline);
  EXPECT_TRUE(testing::waitFor([&] { return h.metric("proflow_receiver_kafka_partition_pauses_total") >= 2; }, 20s));
  EXPECT_TRUE(testing::waitFor([&] { return h.metric("proflow_receiver_kafka_consumer_lag") == 10; }, 5s))
      << h.metric("proflow_receiver_kafka_consumer_lag");
  pipeline->setRefuse(0);
  EXPECT_TRUE(testing::waitFor([&] { return pipeline->acceptedSet().size() == 10; }, 20s))
      << pipeline->acceptedSet().size() << " of 10";
  // Order within a partition is kept across the pauses.
  std::vector<std::string> order = pipeline->accepted();
  EXPECT_EQ(order.size(), 10u) << "duplicates after resuming";
  r->shutdown(std::chrono::steady_clock::now());
}

// A record the pipeline refuses (a backend outage) holds its partition: the committed offset stays
// at that record however often it is retried (commits after every record, a delivery count kept),
// the records after it wait, and once the pipeline takes it again every record arrives once.
class KafkaRefusedRecordTest : public KafkaReceiverTest, public ::testing::WithParamInterface<int> {};

TEST_P(KafkaRefusedRecordTest, IsNeverCommittedPastAndArrivesAfterTheOutage) {
  ASSERT_TRUE(mock_.createTopic("one_partition", 1));  // offsets 0..9 in the order produced
  for (int i = 0; i < 10; ++i)
    ASSERT_TRUE(mock_.produce("one_partition", flat::encode(testing::numbered("p" + std::to_string(i)).data())));
  testing::ComponentHarness h(ComponentKind::kReceiver, "kafka");
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  pipeline->refuseService("p4");
  KafkaReceiverConfig c = config();
  c.topic = "one_partition";
  c.commit_interval = std::chrono::seconds(0);  // every accepted record is committed at once
  c.max_deliver = GetParam();
  auto r = start(h, c, pipeline);
  // Paused and retried, again and again.
  EXPECT_TRUE(testing::waitFor([&] { return h.metric("proflow_receiver_kafka_partition_pauses_total") >= 3; }, 20s));
  EXPECT_GE(pipeline->refusalCount(), 3);
  EXPECT_EQ(pipeline->accepted(), (std::vector<std::string>{"p0", "p1", "p2", "p3"}));
  EXPECT_EQ(mock_.committedTotal("gateways", "one_partition", 1), 4);  // the refused record's own offset
  EXPECT_EQ(h.metric("proflow_receiver_kafka_poison_records_total"), 0);
  // The sink recovers.
  pipeline->refuseService("");
  EXPECT_TRUE(testing::waitFor([&] { return pipeline->accepted().size() >= 10; }, 20s));
  EXPECT_TRUE(testing::waitFor([&] { return mock_.committedTotal("gateways", "one_partition", 1) == 10; }, 10s));
  std::vector<std::string> expected;
  for (int i = 0; i < 10; ++i) expected.push_back("p" + std::to_string(i));
  EXPECT_EQ(pipeline->accepted(), expected);  // none lost, none twice, in order
  r->shutdown(std::chrono::steady_clock::now());
}

// The member holding a refused record leaves (shutdown: its partitions are committed and revoked):
// the next member starts at the refused record, not after it.
TEST_P(KafkaRefusedRecordTest, TheNextMemberStartsAtTheRefusedRecord) {
  ASSERT_TRUE(mock_.createTopic("one_partition", 1));
  for (int i = 0; i < 6; ++i)
    ASSERT_TRUE(mock_.produce("one_partition", flat::encode(testing::numbered("p" + std::to_string(i)).data())));
  testing::ComponentHarness h1(ComponentKind::kReceiver, "kafka"), h2(ComponentKind::kReceiver, "kafka");
  auto refusing = std::make_shared<testing::ScriptedPipeline>();
  refusing->refuseService("p2");
  KafkaReceiverConfig c = config();
  c.topic = "one_partition";
  c.max_deliver = GetParam();
  auto r1 = start(h1, c, refusing);
  EXPECT_TRUE(testing::waitFor([&] { return h1.metric("proflow_receiver_kafka_partition_pauses_total") >= 2; }, 20s));
  r1->shutdown(std::chrono::steady_clock::now());
  EXPECT_EQ(refusing->accepted(), (std::vector<std::string>{"p0", "p1"}));
  EXPECT_EQ(mock_.committedTotal("gateways", "one_partition", 1), 2);
  auto next = std::make_shared<testing::ScriptedPipeline>();
  auto r2 = start(h2, c, next);
  EXPECT_TRUE(testing::waitFor([&] { return next->accepted().size() >= 4; }, 20s));
  EXPECT_EQ(next->accepted(), (std::vector<std::string>{"p2", "p3", "p4", "p5"}));
  r2->shutdown(std::chrono::steady_clock::now());
}

// Without and with a delivery count (max_deliver), which commits offsets of its own.
INSTANTIATE_TEST_SUITE_P(MaxDeliver, KafkaRefusedRecordTest, ::testing::Values(0, 2));

TEST_F(KafkaReceiverTest, PoisonIsSkippedAndCounted) {
  ASSERT_TRUE(mock_.produce("otlp_profiles", "\x0a\xff\xff garbage"));
  ASSERT_TRUE(mock_.produce("otlp_profiles", "{\"resourceProfiles\": [", {{"proflow-encoding", "otlp_json"}}));
  ASSERT_TRUE(produce("good"));
  testing::ComponentHarness h(ComponentKind::kReceiver, "kafka");
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  auto r = start(h, config(), pipeline);
  // The three records may sit on different partitions: the good one can arrive before the poison.
  EXPECT_TRUE(testing::waitFor([&] {
    return pipeline->accepted().size() == 1 && h.metric("proflow_receiver_kafka_poison_records_total") == 2;
  }, 20s));
  EXPECT_EQ(pipeline->accepted().size(), 1u);
  EXPECT_EQ(h.metric("proflow_receiver_kafka_poison_records_total"), 2);
  EXPECT_EQ(h.metric("proflow_receiver_refused_batches_total"), 2);
  r->shutdown(std::chrono::steady_clock::now());
}

TEST(KafkaReceiverSecurity, TheGroupMemberLogsInWithSaslInsideTls) {
  testing::TempDir dir;
  const std::string cert = dir.file("broker.crt"), key = dir.file("broker.key");
  ASSERT_TRUE(testing::makeSelfSignedCert(cert, key));
  testing::KafkaAuthPeer peer({.cert_file = cert, .key_file = key, .username = "gateway", .password = "pa55"});
  testing::ComponentHarness h(ComponentKind::kReceiver, "kafka");
  KafkaReceiverConfig c;
  c.brokers = {peer.bootstrap()};
  c.group_id = "gateways";
  c.consumer_config = {{"security.protocol", "sasl_ssl"},  {"ssl.ca.location", cert},
                       {"sasl.mechanisms", "PLAIN"},       {"sasl.username", "gateway"},
                       {"sasl.password", "pa55"},          {"broker.address.family", "v4"}};
  auto r =
      std::make_unique<receivers::kafka::KafkaReceiver>(h.settings, c, std::make_shared<testing::ScriptedPipeline>());
  ASSERT_TRUE(r->start(h.host).isOk());
  EXPECT_TRUE(peer.waitFor([](const auto& seen) { return seen.accepted >= 1; }, 20s));
  r->shutdown(std::chrono::steady_clock::now() + 5s);
  const auto seen = peer.seen();
  EXPECT_GE(seen.tls_handshakes, 1);
  EXPECT_EQ(seen.tls_failures, 0);
  EXPECT_EQ(seen.refused, 0);
  EXPECT_EQ(seen.logins.at(0), std::make_pair(std::string("gateway"), std::string("pa55")));
}

}  // namespace
}  // namespace proflow
