#include "receivers/kafka/config.h"

#include "core/brokers/broker_message.h"

namespace proflow::receivers::kafka {

std::map<std::string, std::string> KafkaReceiverConfig::fixedProperties() const {
  return {
      {"bootstrap.servers", brokers::bootstrapServers(brokers)},
      {"group.id", group_id},
      {"client.id", client_id},
      {"auto.offset.reset", initial_offset},
      {"session.timeout.ms",
       std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(session_timeout.value).count())},
      // At least once: the receiver commits offsets itself, only of records the pipeline accepted.
      // (No stored offsets: a partition that comes back after a rebalance must not have an offset a
      // previous assignment stored committed over records another member did not deliver.)
      {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"},
      {"fetch.message.max.bytes", std::to_string(std::max<uint64_t>(max_message_bytes.bytes, 1024))},
  };
}

void KafkaReceiverConfig::validate(config::ValidationContext& ctx) const {
  brokers::validateBrokers(brokers, ctx);
  if (auto p = brokers::kafkaTopicProblem(topic); !p.empty()) ctx.error("topic", "topic " + p);
  if (group_id.empty()) ctx.error("group_id", "required (replicas share it)");
  if (!broker_message::validEncoding(encoding))
    ctx.error("encoding", "unknown encoding '" + encoding + "'; valid: otlp_json, otlp_proto");
  if (initial_offset != "latest" && initial_offset != "earliest")
    ctx.error("initial_offset", "unknown initial_offset '" + initial_offset + "'; valid: earliest, latest");
  if (pause_duration.value < std::chrono::milliseconds(10)) ctx.error("pause_duration", "must be at least 10ms");
  if (max_message_bytes.bytes == 0) ctx.error("max_message_bytes", "must be positive");
  if (max_deliver < 0) ctx.error("max_deliver", "must be 0 (unlimited) or positive");
  for (const char* owned : {"enable.auto.commit", "enable.auto.offset.store"})
    if (consumer_config.count(owned))
      ctx.error("consumer_config", std::string(owned) + " is managed by the receiver (commits follow acceptance)");
  std::vector<std::string> errors;
  brokers::buildKafkaConf(fixedProperties(), consumer_config, &errors);
  for (const auto& e : errors) ctx.error("consumer_config", "librdkafka refused " + e);
}

}  // namespace proflow::receivers::kafka
