// The `kafka` exporter against librdkafka's mock cluster: config errors (librdkafka checks the
// producer_config), record keys and headers, delivery reports as the send result, injected errors
// and leader changes, and brokers going away.
#include <gtest/gtest.h>

#include "core/exporterhelper/exporter_helper.h"
#include "exporters/kafka/factory.h"
#include "exporters/kafka/kafka_sender.h"
#include "tests/brokers/component_harness.h"
#include "tests/brokers/kafka_mock.h"
#include "tests/support/component_config.h"

namespace proflow {
namespace {

using exporters::kafka::KafkaExporterConfig;
using namespace std::chrono_literals;

std::map<std::string, std::string> headersOf(const testing::KafkaMock::Record& r) {
  return {r.headers.begin(), r.headers.end()};
}

class KafkaExporterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(mock_.ok());
    ASSERT_TRUE(mock_.createTopic("otlp_profiles", 4));
  }
  KafkaExporterConfig config() {
    KafkaExporterConfig c;
    std::stringstream in(mock_.bootstraps());
    c.brokers.clear();
    for (std::string b; std::getline(in, b, ',');) c.brokers.push_back(b);
    c.helper.sending_queue.enabled = false;
    c.helper.retry_on_failure.enabled = false;
    c.helper.timeout = 5s;
    return c;
  }
  std::unique_ptr<exporterhelper::ExporterHelper> start(KafkaExporterConfig c) {
    auto e = std::make_unique<exporterhelper::ExporterHelper>(
        h_.settings, c.helper, std::make_unique<exporters::kafka::KafkaSender>(h_.settings, c));
    EXPECT_TRUE(e->start(h_.host).isOk());
    return e;
  }

  testing::KafkaMock mock_{3};
  testing::ComponentHarness h_{ComponentKind::kExporter, "kafka"};
};

TEST(KafkaExporterConfig, ListsEveryErrorIncludingLibrdkafkasWithLocation) {
  auto factory = exporters::kafka::makeKafkaExporterFactory();
  auto errors = testing::checkComponentConfig(*factory, R"(
brokers: [nohost]
topic: "bad topic!"
partition_key: span_id
compression: brotli
producer_config:
  no.such.property: "1"
  security.protocol: carrier_pigeon
)", "exporters.kafka");
  const std::string text = errors.format();
  for (const char* what : {"exporters.kafka.brokers", "exporters.kafka.topic", "exporters.kafka.partition_key",
                           "exporters.kafka.compression", "no.such.property", "security.protocol"})
    EXPECT_NE(text.find(what), std::string::npos) << what << " missing in:\n" << text;
  EXPECT_NE(text.find("t.yaml:6:"), std::string::npos) << text;  // producer_config's line
  EXPECT_TRUE(testing::checkComponentConfig(*factory, R"(
brokers: [k0:9092, k1:9092]
compression: zstd
partition_key: service
producer_config: { security.protocol: sasl_ssl, sasl.mechanisms: SCRAM-SHA-512, sasl.username: u, sasl.password: p }
)", "exporters.kafka").empty());
}

TEST(KafkaExporterEncode, KeysFollowPartitionKey) {
  KafkaExporterConfig c;
  const Batch b = testing::numbered("billing");
  for (const char* kind : {"none", "service", "resource"}) {
    c.partition_key = kind;
    std::vector<exporters::kafka::KafkaRecord> records;
    ASSERT_TRUE(exporters::kafka::encodeRecords(c, b.data(), &records).isOk());
    ASSERT_EQ(records.size(), 1u);
    const std::string k = kind;
    const std::string expected = k == "none" ? "" : k == "service" ? "billing" : records[0].key;
    EXPECT_EQ(records[0].key, expected) << kind;
    if (k == "resource") {
      EXPECT_EQ(records[0].key.size(), 16u) << records[0].key;
    }
  }
}

TEST_F(KafkaExporterTest, DeliveredRecordsCarryKeyHeadersAndTheRequest) {
  KafkaExporterConfig c = config();
  c.partition_key = "service";
  c.compression = "zstd";
  auto e = start(c);
  for (int i = 0; i < 12; ++i) ASSERT_TRUE(e->consume(testing::numbered("svc-" + std::to_string(i % 3))).isOk());
  auto records = mock_.readAll("otlp_profiles", 12);
  ASSERT_EQ(records.size(), 12u);
  std::map<std::string, std::set<int32_t>> partitions_of;
  for (const auto& r : records) {
    otlp::Request back;
    ASSERT_TRUE(back.ParseFromString(r.value));
    EXPECT_EQ(testing::serviceName(back, 0), r.key);
    EXPECT_EQ(headersOf(r)["proflow-service"], r.key);
    EXPECT_EQ(headersOf(r)["proflow-encoding"], "otlp_proto");
    partitions_of[r.key].insert(r.partition);
  }
  for (const auto& [key, parts] : partitions_of) EXPECT_EQ(parts.size(), 1u) << key << " spread over partitions";
  e->shutdown(std::chrono::steady_clock::now() + 2s);
}

TEST_F(KafkaExporterTest, InjectedErrorsAndLeaderChangesAreRetriedWithoutDuplicates) {
  auto e = start(config());
  ASSERT_TRUE(e->consume(testing::numbered("warm-up")).isOk());
  rd_kafka_mock_push_request_errors(mock_.cluster(), 0 /* Produce */, 3, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION,
                                    RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT, RD_KAFKA_RESP_ERR__TRANSPORT);
  for (int i = 0; i < 8; ++i) {
    if (i == 4)
      for (int p = 0; p < 4; ++p) rd_kafka_mock_partition_set_leader(mock_.cluster(), "otlp_profiles", p, 3);
    ASSERT_TRUE(e->consume(testing::numbered("p" + std::to_string(i))).isOk()) << i;
  }
  auto records = mock_.readAll("otlp_profiles", 10, 8000);  // waits for a tenth that must not exist
  EXPECT_EQ(records.size(), 9u);  // idempotent producer: internal retries wrote each record once
  e->shutdown(std::chrono::steady_clock::now() + 2s);
}

TEST_F(KafkaExporterTest, ARecordTheBrokerRefusesAsTooLargeFailsForGood) {
  auto e = start(config());
  rd_kafka_mock_push_request_errors(mock_.cluster(), 0, 1, RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE);
  Status s = e->consume(testing::numbered("big"));
  EXPECT_EQ(s.code(), StatusCode::kPayloadTooLarge) << s.toString();
  EXPECT_FALSE(s.retryable());
  e->shutdown(std::chrono::steady_clock::now() + 2s);
}

TEST_F(KafkaExporterTest, BrokersDownIsRetryableAndRecovers) {
  KafkaExporterConfig c = config();
  c.helper.timeout = 1500ms;
  auto e = start(c);
  ASSERT_TRUE(e->consume(testing::numbered("before")).isOk());
  for (int b = 1; b <= 3; ++b) rd_kafka_mock_broker_set_down(mock_.cluster(), b);
  Status down = e->consume(testing::numbered("while-down"));
  EXPECT_FALSE(down.isOk());
  EXPECT_TRUE(down.retryable()) << down.toString();
  for (int b = 1; b <= 3; ++b) rd_kafka_mock_broker_set_up(mock_.cluster(), b);
  Status up;
  for (int i = 0; i < 20 && !(up = e->consume(testing::numbered("after"))).isOk(); ++i) std::this_thread::sleep_for(200ms);
  EXPECT_TRUE(up.isOk()) << up.toString();
  e->shutdown(std::chrono::steady_clock::now() + 2s);
}

}  // namespace
}  // namespace proflow
