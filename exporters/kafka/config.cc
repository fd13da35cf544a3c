#include "exporters/kafka/config.h"

#include "core/brokers/broker_message.h"

namespace proflow::exporters::kafka {

std::map<std::string, std::string> KafkaExporterConfig::fixedProperties() const {
  const auto timeout_ms = std::chrono::duration_cast<std::chrono::milliseconds>(helper.timeout.value).count();
  return {
      {"bootstrap.servers", brokers::bootstrapServers(brokers)},
      {"client.id", client_id},
      {"enable.idempotence", "true"},  // retries inside librdkafka neither duplicate nor reorder
      {"compression.type", compression},
      {"message.max.bytes", std::to_string(std::max<uint64_t>(max_message_bytes.bytes + 4096, 1000))},
      // A record not delivered within one attempt's timeout fails, and the exporter helper retries it.
      {"message.timeout.ms", std::to_string(std::max<int64_t>(timeout_ms, 1))},
  };
}

void KafkaExporterConfig::validate(config::ValidationContext& ctx) const {
  brokers::validateBrokers(brokers, ctx);
  if (auto p = brokers::kafkaTopicProblem(topic); !p.empty()) ctx.error("topic", "topic " + p);
  if (!broker_message::validEncoding(encoding))
    ctx.error("encoding", "unknown encoding '" + encoding + "'; valid: otlp_json, otlp_proto");
  broker_message::KeyKind kind;
  if (!broker_message::parseKeyKind(partition_key, &kind))
    ctx.error("partition_key", "unknown partition_key '" + partition_key + "'; valid: none, resource, service, trace_id");
  if (compression != "none" && compression != "gzip" && compression != "lz4" && compression != "zstd")
    ctx.error("compression", "unknown compression '" + compression + "'; valid: gzip, lz4, none, zstd");
  if (max_message_bytes.bytes == 0) ctx.error("max_message_bytes", "must be positive");
  // librdkafka itself checks every property name and value, without connecting.
  std::vector<std::string> errors;
  brokers::buildKafkaConf(fixedProperties(), producer_config, &errors);
  for (const auto& e : errors) ctx.error("producer_config", "librdkafka refused " + e);
  helper.validate(ctx);
}

}  // namespace proflow::exporters::kafka
