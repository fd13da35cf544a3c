// Config of the `nats` exporter: one OTLP profiles request per NATS JetStream message.
//
//   exporters:
//     nats:
//       url: nats://nats:4222
//       stream: PROFILES
//       subject: profiles.otlp
//       create_stream: true
#pragma once

#include <string>
#include <vector>

#include "core/brokers/nats_connection.h"
#include "core/config/config_reader.h"
#include "core/exporterhelper/exporter_helper_config.h"

namespace proflow::exporters::nats {

struct NatsExporterConfig {
  brokers::NatsConnectionConfig connection;
  std::string stream = "PROFILES";
  std::string subject = "profiles.otlp";
  std::string encoding = "otlp_proto";  // otlp_proto | otlp_json
  std::string tenant_attribute = "tenant.id";  // resource attribute sent in the proflow-tenant header
  // Stream creation (only with create_stream; an existing stream is used as it is).
  bool create_stream = false;
  std::vector<std::string> stream_subjects;  // default: [subject]
  std::string storage = "file";              // file | memory
  config::ByteSize max_bytes = config::ByteSize(0);  // 0 = unlimited; publishes are refused when full
  config::Duration max_age = config::Duration(std::chrono::nanoseconds(0));  // 0 = unlimited
  int replicas = 1;
  config::ByteSize max_message_bytes = config::ByteSize(1u << 20);  // nats-server's default max_payload
  exporterhelper::ExporterHelperConfig helper;

  template <class V>
  void visit(V& v) {
    connection.visit(v);
    v.field("stream", stream, "JetStream stream that stores the messages");
    v.field("subject", subject, "subject published to (must be one of the stream's subjects)");
    v.field("encoding", encoding, "otlp_proto or otlp_json");
    v.field("tenant_attribute", tenant_attribute, "resource attribute sent as the proflow-tenant header");
    v.field("create_stream", create_stream, "create the stream if it does not exist");
    v.field("stream_subjects", stream_subjects, "subjects of a created stream (default: [subject])");
    v.field("storage", storage, "storage of a created stream: file or memory");
    v.field("max_bytes", max_bytes, "size limit of a created stream (0 = unlimited); full = publishes refused");
    v.field("max_age", max_age, "age limit of a created stream's messages (0 = unlimited)");
    v.field("replicas", replicas, "replicas of a created stream (JetStream cluster)");
    v.field("max_message_bytes", max_message_bytes, "messages larger than this are not sent (failed)");
    helper.visit(v);
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::exporters::nats
