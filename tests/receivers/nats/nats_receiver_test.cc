// The `nats` receiver against a real nats-server with JetStream: acknowledgement only after the
// pipeline accepted (a refusal is redelivered, not lost), poison messages to the dead letter
// subject, max_deliver, and replicas sharing one durable consumer.
#include <gtest/gtest.h>

#include "core/exporterhelper/exporter_helper.h"
#include "core/flat/flat_encode.h"
#include "exporters/nats/nats_sender.h"
#include "receivers/nats/factory.h"
#include "receivers/nats/nats_receiver.h"
#include "tests/brokers/component_harness.h"
#include "tests/brokers/nats_client.h"
#include "tests/brokers/nats_server.h"
#include "tests/support/component_config.h"
#include "tests/support/daemon.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;
using receivers::nats::NatsReceiverConfig;

std::string wire(const std::string& service) { return flat::encode(testing::numbered(service).data()); }

class NatsReceiverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.ok());
    ASSERT_TRUE(client_.ok());
    ASSERT_TRUE(client_.addStream("PROFILES", "profiles.otlp"));
  }
  NatsReceiverConfig config() {
    NatsReceiverConfig c;
    c.connection.url = server_.url();
    c.consumer = "gateways";
    c.fetch_timeout = 100ms;
    c.nak_delay = 100ms;
    return c;
  }
  std::unique_ptr<receivers::nats::NatsReceiver> start(testing::ComponentHarness& h, NatsReceiverConfig c,
                                                       std::shared_ptr<testing::ScriptedPipeline> pipeline) {
    auto r = std::make_unique<receivers::nats::NatsReceiver>(h.settings, std::move(c), std::move(pipeline));
    EXPECT_TRUE(r->start(h.host).isOk());
    return r;
  }
  bool publish(const std::string& service) { return client_.publish("profiles.otlp", wire(service)); }

  testing::NatsServer server_;
  testing::NatsClient client_{server_.url()};
};

TEST(NatsReceiverConfig, ListsEveryError) {
  auto factory = receivers::nats::makeNatsReceiverFactory();
  auto errors = testing::checkComponentConfig(*factory, R"(
url: nats://127.0.0.1:4222
subject: profiles.otlp
dead_letter_subject: profiles.otlp
batch_size: 0
encoding: avro
)", "receivers.nats");
  const std::string text = errors.format();
  for (const char* key : {"receivers.nats.consumer", "receivers.nats.dead_letter_subject", "receivers.nats.batch_size",
                          "receivers.nats.encoding"})
    EXPECT_NE(text.find(key), std::string::npos) << key << " missing in:\n" << text;
  EXPECT_NE(text.find("t.yaml:4:"), std::string::npos) << text;
}

TEST_F(NatsReceiverTest, DeliversWhatTheExporterPublished) {
  testing::ComponentHarness eh(ComponentKind::kExporter, "nats");
  exporters::nats::NatsExporterConfig ec;
  ec.connection.url = server_.url();
  ec.helper.sending_queue.enabled = false;
  exporterhelper::ExporterHelper exporter(eh.settings, ec.helper, std::make_unique<exporters::nats::NatsSender>(eh.settings, ec));
  ASSERT_TRUE(exporter.start(eh.host).isOk());
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(exporter.consume(testing::numbered("p" + std::to_string(i))).isOk());

  testing::ComponentHarness h(ComponentKind::kReceiver, "nats");
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  auto r = start(h, config(), pipeline);
  EXPECT_TRUE(testing::waitFor([&] { return pipeline->accepted().size() >= 20; }, 10s));
  EXPECT_EQ(pipeline->acceptedSet().size(), 20u);
  r->shutdown(std::chrono::steady_clock::now());
  // Acknowledged: a new receiver on the same durable consumer gets nothing again.
  auto again = std::make_shared<testing::ScriptedPipeline>();
  auto r2 = start(h, config(), again);
  std::this_thread::sleep_for(500ms);
  EXPECT_TRUE(again->accepted().empty());
  r2->shutdown(std::chrono::steady_clock::now());
  exporter.shutdown(std::chrono::steady_clock::now() + 1s);
}

TEST_F(NatsReceiverTest, ARefusingPipelineLeadsToRedeliveryNotLoss) {
  testing::ComponentHarness h(ComponentKind::kReceiver, "nats");
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  pipeline->setRefuse(8);  // downstream full for a while
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(publish("p" + std::to_string(i)));
  auto r = start(h, config(), pipeline);
  EXPECT_TRUE(testing::waitFor([&] { return pipeline->acceptedSet().size() == 10; }, 15s))
      << pipeline->acceptedSet().size() << " of 10 arrived";
  EXPECT_EQ(pipeline->refusalCount(), 8);
  EXPECT_GT(h.metric("proflow_receiver_nats_nak_messages_total"), 0);
  EXPECT_GT(h.metric("proflow_receiver_nats_redelivered_messages_total"), 0);
  EXPECT_EQ(h.metric("proflow_receiver_nats_dead_letter_messages_total"), 0);
  r->shutdown(std::chrono::steady_clock::now());
}

TEST_F(NatsReceiverTest, PoisonGoesToTheDeadLetterSubjectAtOnce) {
  ASSERT_TRUE(client_.addStream("DLQ", "profiles.dead"));
  testing::ComponentHarness h(ComponentKind::kReceiver, "nats");
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  ASSERT_TRUE(client_.publish("profiles.otlp", "\xff\xff not a protobuf"));
  ASSERT_TRUE(client_.publish("profiles.otlp", "{\"resourceProfiles\": [", {{"proflow-encoding", "otlp_json"}}));
  ASSERT_TRUE(publish("good"));
  NatsReceiverConfig c = config();
  c.dead_letter_subject = "profiles.dead";
  auto r = start(h, c, pipeline);
  EXPECT_TRUE(testing::waitFor([&] { return client_.streamMessages("DLQ") == 2; }, 10s));
  EXPECT_TRUE(testing::waitFor([&] { return pipeline->accepted().size() == 1; }, 10s));
  testing::NatsClient::Message m;
  ASSERT_TRUE(client_.get("DLQ", 1, {"proflow-dead-letter-reason", "proflow-original-subject"}, &m));
  EXPECT_EQ(m.data, "\xff\xff not a protobuf");
  ASSERT_EQ(m.headers.size(), 2u);
  EXPECT_NE(m.headers[0].second.find("not a valid ExportProfilesServiceRequest"), std::string::npos) << m.headers[0].second;
  EXPECT_EQ(m.headers[1].second, "profiles.otlp");
  EXPECT_EQ(h.metric("proflow_receiver_nats_dead_letter_messages_total"), 2);
  EXPECT_EQ(h.metric("proflow_receiver_nats_redelivered_messages_total"), 0);  // not retried first
  r->shutdown(std::chrono::steady_clock::now());
}

TEST_F(NatsReceiverTest, StillRefusedAfterMaxDeliverGoesToTheDeadLetter) {
  ASSERT_TRUE(client_.addStream("DLQ", "profiles.dead"));
  testing::ComponentHarness h(ComponentKind::kReceiver, "nats");
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  pipeline->setRefuse(-1);
  ASSERT_TRUE(publish("stuck"));
  NatsReceiverConfig c = config();
  c.dead_letter_subject = "profiles.dead";
  c.max_deliver = 3;
  auto r = start(h, c, pipeline);
  EXPECT_TRUE(testing::waitFor([&] { return client_.streamMessages("DLQ") == 1; }, 10s));
  EXPECT_EQ(pipeline->refusalCount(), 3);
  EXPECT_EQ(h.metric("proflow_receiver_nats_redelivered_messages_total"), 2);
  r->shutdown(std::chrono::steady_clock::now());
}

// A message other replicas took max_deliver times and never settled (each died decoding it, say)
// is dead-lettered without being decoded again, and the one after it comes through.
TEST_F(NatsReceiverTest, NeverSettledAfterMaxDeliverIsDeadLetteredUndecoded) {
  ASSERT_TRUE(client_.addStream("DLQ", "profiles.dead"));
  ASSERT_TRUE(publish("killer"));
  ASSERT_EQ(client_.deliverUnsettled("PROFILES", "gateways", "profiles.otlp", 3), 3);
  ASSERT_TRUE(publish("next"));
  testing::ComponentHarness h(ComponentKind::kReceiver, "nats");
  auto pipeline = std::make_shared<testing::ScriptedPipeline>();
  NatsReceiverConfig c = config();
  c.dead_letter_subject = "profiles.dead";
  c.max_deliver = 3;
  auto r = start(h, c, pipeline);
  EXPECT_TRUE(testing::waitFor([&] { return pipeline->accepted().size() == 1; }, 10s));
  EXPECT_EQ(pipeline->accepted(), std::vector<std::string>{"next"});  // "killer" never reached the pipeline
  ASSERT_TRUE(testing::waitFor([&] { return client_.streamMessages("DLQ") == 1; }, 10s));
  testing::NatsClient::Message m;
  ASSERT_TRUE(client_.get("DLQ", 1, {"proflow-dead-letter-reason"}, &m));
  EXPECT_EQ(m.data, wire("killer"));
  ASSERT_EQ(m.headers.size(), 1u);
  EXPECT_NE(m.headers[0].second.find("delivered 4 times without being settled"), std::string::npos) << m.headers[0].second;
  EXPECT_EQ(h.metric("proflow_receiver_nats_dead_letter_messages_total"), 1);
  r->shutdown(std::chrono::steady_clock::now());
}

TEST_F(NatsReceiverTest, ReplicasShareTheDurableConsumer) {
  testing::ComponentHarness h1(ComponentKind::kReceiver, "nats"), h2(ComponentKind::kReceiver, "nats");
  auto p1 = std::make_shared<testing::ScriptedPipeline>(), p2 = std::make_shared<testing::ScriptedPipeline>();
  NatsReceiverConfig c = config();
  c.batch_size = 1;
  auto r1 = start(h1, c, p1);
  auto r2 = start(h2, c, p2);
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(publish("p" + std::to_string(i)));
  EXPECT_TRUE(testing::waitFor([&] { return p1->accepted().size() + p2->accepted().size() >= 60; }, 15s));
  std::set<std::string> all = p1->acceptedSet();
  for (const auto& s : p2->accepted()) EXPECT_TRUE(all.insert(s).second) << s << " went to both replicas";
  EXPECT_EQ(all.size(), 60u);
  EXPECT_GT(p1->accepted().size(), 0u);
  EXPECT_GT(p2->accepted().size(), 0u);
  r1->shutdown(std::chrono::steady_clock::now());
  r2->shutdown(std::chrono::steady_clock::now());
}

}  // namespace
}  // namespace proflow
