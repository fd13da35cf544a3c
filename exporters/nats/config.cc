#include "exporters/nats/config.h"

#include "core/brokers/broker_message.h"

namespace proflow::exporters::nats {

void NatsExporterConfig::validate(config::ValidationContext& ctx) const {
  connection.validate(ctx);
  if (auto p = brokers::natsNameProblem(stream, false); !p.empty()) ctx.error("stream", "stream name " + p);
  if (auto p = brokers::natsNameProblem(subject, true); !p.empty()) ctx.error("subject", "subject " + p);
  if (subject.find_first_of("*>") != std::string::npos) ctx.error("subject", "a publish subject has no wildcards");
  for (const auto& s : stream_subjects)
    if (auto p = brokers::natsNameProblem(s, true); !p.empty()) ctx.error("stream_subjects", "'" + s + "': " + p);
  if (!broker_message::validEncoding(encoding))
    ctx.error("encoding", "unknown encoding '" + encoding + "'; valid: otlp_json, otlp_proto");
  if (storage != "file" && storage != "memory") ctx.error("storage", "unknown storage '" + storage + "'; valid: file, memory");
  if (replicas < 1 || replicas > 5) ctx.error("replicas", "must be between 1 and 5");
  if (max_message_bytes.bytes == 0) ctx.error("max_message_bytes", "must be positive");
  helper.validate(ctx);
}

}  // namespace proflow::exporters::nats
