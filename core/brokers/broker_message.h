// A broker message (Kafka record, NATS JetStream message) holds one OTLP profiles request, in
// `otlp_proto` (ExportProfilesServiceRequest bytes) or `otlp_json` (OTLP/JSON). Exporters cut a batch
// into messages that each carry one tenant, one service and one partition key, so headers and keys
// describe the whole message; receivers decode with the checks every OTLP entry point applies.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/util/status.h"

namespace proflow::broker_message {

// Header names every broker component writes and reads.
inline constexpr std::string_view kTenantHeader = "proflow-tenant";
inline constexpr std::string_view kServiceHeader = "proflow-service";
inline constexpr std::string_view kEncodingHeader = "proflow-encoding";

// True for "otlp_proto" and "otlp_json".
bool validEncoding(std::string_view encoding);

// What decides a message's partition key.
enum class KeyKind { kNone, kService, kResource, kTraceId };
// "none" | "service" | "resource" | "trace_id"; false for anything else.
bool parseKeyKind(std::string_view name, KeyKind* out);

// One message's worth of a batch, with the facts its headers and key are made of.
struct Part {
  flat::Batch batch;
  std::string tenant;   // value of the tenant attribute of its resources ("" when absent)
  std::string service;  // service.name ("" when absent)
  std::string key;      // partition key ("" = none)
};

// Groups the resources of `batch` by (tenant, service, key): one part per group, in first-seen
// order. A batch of one group is returned as one part without copying the profiles twice.
std::vector<Part> split(const flat::Batch& batch, std::string_view tenant_attribute, KeyKind key_kind);

// The message body of `batch` in `encoding`.
Status encode(const flat::Batch& batch, std::string_view encoding, std::string* out);

struct [[nodiscard]] Decoded {
  Status status;  // non-OK: the message can never be accepted (undecodable or invalid as a whole)
  flat::Batch batch;
  int64_t rejected_profiles = 0;  // removed by validation (the rest is delivered)
  std::string rejected_reason;    // first errors, bounded
};

// Decodes and validates a message body. `max_bytes` bounds what is even looked at. Never throws:
// whatever fails while decoding (memory included) is a non-OK status.
Decoded decode(std::string_view body, std::string_view encoding, size_t max_bytes);

}  // namespace proflow::broker_message
