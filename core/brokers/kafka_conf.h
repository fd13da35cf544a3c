// librdkafka configuration shared by the `kafka` exporter and receiver: settings proflow names
// itself (brokers, client id) plus a map of librdkafka properties under their own names
// (security.protocol, sasl.mechanisms, ssl.ca.location, ...), checked by librdkafka at validation.
#pragma once

#include <librdkafka/rdkafka.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/config/config_reader.h"
#include "core/util/status.h"

namespace proflow::brokers {

struct KafkaConfDeleter {
  void operator()(rd_kafka_conf_t* c) const { rd_kafka_conf_destroy(c); }
};
using KafkaConfPtr = std::unique_ptr<rd_kafka_conf_t, KafkaConfDeleter>;

struct KafkaClientDeleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using KafkaClientPtr = std::unique_ptr<rd_kafka_t, KafkaClientDeleter>;

// Builds a librdkafka configuration: `fixed` first (what proflow sets from its own keys), then
// `user` (the YAML map, which may override). Every refused property is appended to `errors` as
// "<name>: <librdkafka's reason>"; the result is null when there was any.
KafkaConfPtr buildKafkaConf(const std::map<std::string, std::string>& fixed,
                            const std::map<std::string, std::string>& user, std::vector<std::string>* errors);

// `brokers` as bootstrap.servers; validation of the list (host:port each).
std::string bootstrapServers(const std::vector<std::string>& brokers);
void validateBrokers(const std::vector<std::string>& brokers, config::ValidationContext& ctx);
// Kafka topic names: 1..249 of [A-Za-z0-9._-]; "" when fine.
std::string kafkaTopicProblem(const std::string& topic);

}  // namespace proflow::brokers
