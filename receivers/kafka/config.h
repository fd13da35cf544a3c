// Config of the `kafka` receiver: a consumer group member that commits offsets only after the
// pipeline accepted a record, batched every commit_interval.
//
//   receivers:
//     kafka:
//       brokers: [kafka-0:9092]
//       topic: otlp_profiles
//       group_id: proflow-gateway
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/brokers/kafka_conf.h"
#include "core/config/config_reader.h"

namespace proflow::receivers::kafka {

struct KafkaReceiverConfig {
  std::vector<std::string> brokers = {"localhost:9092"};
  std::string topic = "otlp_profiles";
  std::string group_id = "proflow";
  std::string encoding = "otlp_proto";  // for records without a proflow-encoding header
  std::string client_id = "proflow";
  // earliest | latest: where a partition without a committed offset starts. earliest, unlike the
  // Collector's latest: a partition that moves to a member before its first commit would otherwise
  // start after records the producer was already told were stored.
  std::string initial_offset = "earliest";
  config::Duration session_timeout = std::chrono::seconds(10);
  config::Duration pause_duration = std::chrono::seconds(1);  // how long a refused partition rests
  config::Duration commit_interval = std::chrono::seconds(1);  // accepted offsets are committed this often
  config::ByteSize max_message_bytes = config::ByteSize(8u << 20);
  // 0 = unlimited; else a record that this many group members began handling and never finished
  // (each died or stalled on it) is skipped as poison without being decoded again.
  int max_deliver = 0;
  std::map<std::string, std::string> consumer_config;  // librdkafka properties by their own names

  template <class V>
  void visit(V& v) {
    v.field("brokers", brokers, "bootstrap brokers, host:port each");
    v.field("topic", topic, "topic to consume");
    v.field("group_id", group_id, "consumer group, the same on every replica");
    v.field("encoding", encoding, "otlp_proto or otlp_json, for records without a proflow-encoding header");
    v.field("client_id", client_id, "Kafka client.id");
    v.field("initial_offset", initial_offset,
            "earliest or latest: where a partition without a committed offset starts (earliest: nothing skipped)");
    v.field("session_timeout", session_timeout, "a member silent this long leaves the group (its partitions move)");
    v.field("pause_duration", pause_duration, "a partition the pipeline refused is paused this long");
    v.field("commit_interval", commit_interval,
            "offsets of accepted records are committed together this often (0s: after every record)");
    v.field("max_message_bytes", max_message_bytes, "larger records are skipped as poison");
    v.field("max_deliver", max_deliver,
            "members that may begin a record and never finish it before it is skipped as poison (0 = unlimited)");
    v.field("consumer_config", consumer_config,
            "librdkafka properties (security.protocol, sasl.mechanisms, ssl.ca.location, ...)");
  }
  void validate(config::ValidationContext& ctx) const;
  std::map<std::string, std::string> fixedProperties() const;
};

}  // namespace proflow::receivers::kafka
