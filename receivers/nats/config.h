// Config of the `nats` receiver: a durable JetStream pull consumer shared by every replica.
//
//   receivers:
//     nats:
//       url: nats://nats:4222
//       stream: PROFILES
//       subject: profiles.otlp
//       consumer: proflow-gateway
#pragma once

#include <string>

#include "core/brokers/nats_connection.h"
#include "core/config/config_reader.h"

namespace proflow::receivers::nats {

struct NatsReceiverConfig {
  brokers::NatsConnectionConfig connection;
  std::string stream = "PROFILES";
  std::string subject = "profiles.otlp";  // filter subject of the consumer
  std::string consumer;                   // durable name, shared by replicas (required)
  std::string encoding = "otlp_proto";    // when a message has no proflow-encoding header
  int batch_size = 16;                    // messages per fetch
  config::Duration fetch_timeout = std::chrono::seconds(1);
  config::Duration ack_wait = std::chrono::seconds(30);
  // 0 = unlimited; else a message still refused on its n-th delivery, or delivered n times without
  // being settled (its receivers died handling it), is dead-lettered.
  int max_deliver = 0;
  int max_ack_pending = 1000;
  config::Duration nak_delay = std::chrono::seconds(1);
  std::string dead_letter_subject;  // "" = poison messages are terminated (logged, counted) only
  config::ByteSize max_message_bytes = config::ByteSize(8u << 20);

  template <class V>
  void visit(V& v) {
    connection.visit(v);
    v.field("stream", stream, "JetStream stream to consume");
    v.field("subject", subject, "filter subject of the consumer");
    v.field("consumer", consumer, "durable consumer name, the same on every replica");
    v.field("encoding", encoding, "otlp_proto or otlp_json, for messages without a proflow-encoding header");
    v.field("batch_size", batch_size, "messages per fetch");
    v.field("fetch_timeout", fetch_timeout, "longest wait of one fetch");
    v.field("ack_wait", ack_wait, "a message not acknowledged within this is redelivered");
    v.field("max_deliver", max_deliver,
            "deliveries before a refused or never settled message goes to the dead letter (0 = unlimited)");
    v.field("max_ack_pending", max_ack_pending, "unacknowledged messages in flight over all replicas");
    v.field("nak_delay", nak_delay, "redelivery delay of a message the pipeline refused, and fetch pause");
    v.field("dead_letter_subject", dead_letter_subject, "subject poison messages are published to");
    v.field("max_message_bytes", max_message_bytes, "larger messages are poison");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::nats
