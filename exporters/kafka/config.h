// Config of the `kafka` exporter: one OTLP profiles request per Kafka record, idempotent producer.
//
//   exporters:
//     kafka:
//       brokers: [kafka-0:9092, kafka-1:9092]
//       topic: otlp_profiles
//       partition_key: service
//       compression: zstd
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/brokers/kafka_conf.h"
#include "core/config/config_reader.h"
#include "core/exporterhelper/exporter_helper_config.h"

namespace proflow::exporters::kafka {

struct KafkaExporterConfig {
  std::vector<std::string> brokers = {"localhost:9092"};
  std::string topic = "otlp_profiles";
  std::string encoding = "otlp_proto";   // otlp_proto | otlp_json
  std::string partition_key = "none";    // none | service | resource | trace_id
  std::string compression = "none";      // none | gzip | lz4 | zstd
  std::string tenant_attribute = "tenant.id";
  std::string client_id = "proflow";
  config::ByteSize max_message_bytes = config::ByteSize(1000000);  // Kafka's default message.max.bytes
  std::map<std::string, std::string> producer_config;  // librdkafka properties by their own names
  exporterhelper::ExporterHelperConfig helper;

  template <class V>
  void visit(V& v) {
    v.field("brokers", brokers, "bootstrap brokers, host:port each");
    v.field("topic", topic, "topic records are produced to");
    v.field("encoding", encoding, "otlp_proto or otlp_json");
    v.field("partition_key", partition_key, "record key: none, service, resource or trace_id");
    v.field("compression", compression, "none, gzip, lz4 or zstd");
    v.field("tenant_attribute", tenant_attribute, "resource attribute sent as the proflow-tenant header");
    v.field("client_id", client_id, "Kafka client.id");
    v.field("max_message_bytes", max_message_bytes, "records larger than this are not sent (failed)");
    v.field("producer_config", producer_config,
            "librdkafka properties (security.protocol, sasl.mechanisms, ssl.ca.location, ...)");
    helper.visit(v);
  }
  void validate(config::ValidationContext& ctx) const;
  // librdkafka properties set from the keys above (producer_config may override them).
  std::map<std::string, std::string> fixedProperties() const;
};

}  // namespace proflow::exporters::kafka
