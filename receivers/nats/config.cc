#include "receivers/nats/config.h"

#include "core/brokers/broker_message.h"

namespace proflow::receivers::nats {

void NatsReceiverConfig::validate(config::ValidationContext& ctx) const {
  connection.validate(ctx);
  if (auto p = brokers::natsNameProblem(stream, false); !p.empty()) ctx.error("stream", "stream name " + p);
  if (auto p = brokers::natsNameProblem(subject, true); !p.empty()) ctx.error("subject", "subject " + p);
  if (auto p = brokers::natsNameProblem(consumer, false); !p.empty())
    ctx.error("consumer", "durable consumer name " + p + (consumer.empty() ? " (replicas share it)" : ""));
  if (!dead_letter_subject.empty()) {
    if (auto p = brokers::natsNameProblem(dead_letter_subject, true); !p.empty())
      ctx.error("dead_letter_subject", "subject " + p);
    else if (dead_letter_subject.find_first_of("*>") != std::string::npos)
      ctx.error("dead_letter_subject", "a publish subject has no wildcards");
    else if (dead_letter_subject == subject)
      ctx.error("dead_letter_subject", "must differ from subject (poison messages would come back)");
  }
  if (!broker_message::validEncoding(encoding))
    ctx.error("encoding", "unknown encoding '" + encoding + "'; valid: otlp_json, otlp_proto");
  if (batch_size < 1 || batch_size > 1024) ctx.error("batch_size", "must be between 1 and 1024");
  if (fetch_timeout.value < std::chrono::milliseconds(10) || fetch_timeout.value > std::chrono::seconds(30))
    ctx.error("fetch_timeout", "must be between 10ms and 30s (shutdown waits for one fetch)");
  if (ack_wait.value < std::chrono::seconds(1)) ctx.error("ack_wait", "must be at least 1s");
  if (max_deliver < 0) ctx.error("max_deliver", "must be 0 (unlimited) or positive");
  if (max_ack_pending < 1) ctx.error("max_ack_pending", "must be positive");
  if (nak_delay.value.count() < 0) ctx.error("nak_delay", "must not be negative");
  if (max_message_bytes.bytes == 0) ctx.error("max_message_bytes", "must be positive");
}

}  // namespace proflow::receivers::nats
