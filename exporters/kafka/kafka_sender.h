// One Kafka record per message of a batch, through an idempotent librdkafka producer. A push
// succeeds only once the delivery report of every record came back without error (written to the
// partition leader with the configured acks). The exporter helper queues and retries around it.
#pragma once

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "core/brokers/broker_message.h"
#include "core/brokers/kafka_conf.h"
#include "core/brokers/kafka_events.h"
#include "core/exporterhelper/sender.h"
#include "core/component/factory.h"
#include "exporters/kafka/config.h"

namespace proflow::exporters::kafka {

// A record ready to produce: key, value and headers (pure, for tests).
struct KafkaRecord {
  std::string key;  // "" = no key (the partitioner spreads records)
  std::string value;
  std::vector<std::pair<std::string, std::string>> headers;
};
Status encodeRecords(const KafkaExporterConfig& config, const flat::Batch& batch, std::vector<KafkaRecord>* out);

class KafkaSender final : public exporterhelper::Sender {
 public:
  KafkaSender(const CreateSettings& settings, KafkaExporterConfig config);
  ~KafkaSender() override;
  Status start(Host& host) override;
  Status push(const Batch& batch, Deadline deadline) override;
  void shutdown() override;

 private:
  CreateSettings settings_;
  KafkaExporterConfig config_;
  brokers::KafkaEvents events_;  // outlives the producer, whose threads report to it
  brokers::KafkaClientPtr producer_;
  std::thread poller_;  // serves delivery reports
  std::atomic<bool> stopping_{false};
};

}  // namespace proflow::exporters::kafka
