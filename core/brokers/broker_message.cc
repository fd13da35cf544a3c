#include "core/brokers/broker_message.h"

#include <exception>
#include <map>
#include <tuple>

#include "core/flat/flat_attributes.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/flat/flat_identity.h"
#include "core/flat/flat_split.h"
#include "core/formats/otlp_json/otlp_json.h"
#include "core/model/otlp_types.h"
#include "core/util/hex.h"
#include "core/util/stable_hash.h"

namespace proflow::broker_message {
namespace {

// The trace id of the first sample of resource `r` that links to a trace.
std::string firstTraceId(const flat::Batch& b, const flat::Resource& r) {
  std::string found;
  b.forEachScope(r, [&](uint32_t s) {
    const flat::Range profiles = b.scopes[s].profiles;
    for (uint32_t p = profiles.begin; p < profiles.end() && found.empty(); ++p) {
      const flat::Range rows = b.profiles[p].samples;
      for (uint32_t row = rows.begin; row < rows.end() && found.empty(); ++row) {
        const int32_t link = b.samples.link_index[row];
        if (link > 0 && static_cast<size_t>(link) < b.links.size()) found = hexEncode(b.view(b.links[static_cast<size_t>(link)].trace_id));
      }
    }
  });
  return found;
}

std::string keyOf(const flat::Batch& b, const flat::Resource& r, KeyKind kind, const std::string& service) {
  switch (kind) {
    case KeyKind::kNone: return {};
    case KeyKind::kService: return service;
    case KeyKind::kResource: {
      // A short stable digest: equal attribute sets (in any order, inline or by reference) share it.
      const uint64_t h = stableHash(flat::keyValuesIdentity(b, r.attributes));
      std::string bytes(8, '\0');
      for (int i = 0; i < 8; ++i) bytes[static_cast<size_t>(i)] = static_cast<char>(h >> (56 - 8 * i));
      return hexEncode(bytes);
    }
    case KeyKind::kTraceId: return firstTraceId(b, r);
  }
  return {};
}

}  // namespace

bool validEncoding(std::string_view encoding) { return encoding == "otlp_proto" || encoding == "otlp_json"; }

bool parseKeyKind(std::string_view name, KeyKind* out) {
  static const std::map<std::string_view, KeyKind> kKinds = {
      {"none", KeyKind::kNone}, {"service", KeyKind::kService}, {"resource", KeyKind::kResource},
      {"trace_id", KeyKind::kTraceId}};
  auto it = kKinds.find(name);
  if (it == kKinds.end()) return false;
  *out = it->second;
  return true;
}

std::vector<Part> split(const flat::Batch& batch, std::string_view tenant_attribute, KeyKind key_kind) {
  std::map<std::tuple<std::string, std::string, std::string>, uint32_t> groups;
  std::vector<Part> parts;
  std::vector<uint32_t> group_of(batch.resources.size());
  for (size_t i = 0; i < batch.resources.size(); ++i) {
    const flat::Resource& r = batch.resources[i];
    Part p;
    if (!tenant_attribute.empty()) p.tenant = flat::resourceAttribute(batch, r, tenant_attribute).value_or("");
    p.service = flat::resourceAttribute(batch, r, "service.name").value_or("");
    p.key = keyOf(batch, r, key_kind, p.service);
    auto [it, added] = groups.emplace(std::make_tuple(p.tenant, p.service, p.key), static_cast<uint32_t>(parts.size()));
    if (added) parts.push_back(std::move(p));
    group_of[i] = it->second;
  }
  if (parts.size() <= 1) {
    if (parts.empty()) parts.emplace_back();
    parts[0].batch = batch;
    return parts;
  }
  std::vector<flat::Batch> cut = flat::splitByResource(batch, group_of, static_cast<uint32_t>(parts.size()));
  for (size_t g = 0; g < parts.size(); ++g) parts[g].batch = std::move(cut[g]);
  return parts;
}

Status encode(const flat::Batch& batch, std::string_view encoding, std::string* out) {
  if (encoding == "otlp_proto") {
    *out = flat::encode(batch);
    return Status::ok();
  }
  if (encoding != "otlp_json") return Status::invalid("unknown encoding '" + std::string(encoding) + "'");
  otlp_json::encode(batch, out);
  return Status::ok();
}

namespace {

Decoded decodeUnguarded(std::string_view body, std::string_view encoding, size_t max_bytes) {
  Decoded d;
  if (body.size() > max_bytes) {
    d.status = Status::tooLarge("message of " + std::to_string(body.size()) + " bytes exceeds max_message_bytes " +
                                std::to_string(max_bytes));
    return d;
  }
  flat::DecodeResult r;
  if (encoding == "otlp_json") {
    otlp_json::DecodeResult json = otlp_json::decode(body, &d.batch);
    if (!json.status.isOk()) {
      d.status = Status::invalid("message is not OTLP/JSON: " + json.status.message());
      return d;
    }
    r = flat::validateAndPrune(&d.batch, json.samples_with_unknown_fields);  // the OTLP receivers' checks
    if (!r.request.isOk()) d.batch.clear();
  } else if (encoding == "otlp_proto") {
    r = flat::decode(body, &d.batch);  // validates: the OTLP receivers' checks
  } else {
    d.status = Status::invalid("unknown encoding '" + std::string(encoding) + "'");
    return d;
  }
  if (!r.request.isOk()) {
    d.status = Status::invalid("message is not a valid ExportProfilesServiceRequest (" + r.request.message() + ")");
    return d;
  }
  d.rejected_profiles = r.rejected_profiles;
  for (const auto& e : r.profile_errors) {
    if (d.rejected_reason.size() > 1024) break;
    d.rejected_reason += (d.rejected_reason.empty() ? "" : "; ") + e;
  }
  return d;
}

}  // namespace

Decoded decode(std::string_view body, std::string_view encoding, size_t max_bytes) {
  // A message that exhausts memory (or trips any other exception) while being decoded is refused
  // like one that does not parse: thrown on a consumer thread it would end the process, and every
  // replica that fetched it after.
  try {
    return decodeUnguarded(body, encoding, max_bytes);
  } catch (const std::exception& e) {
    Decoded d;
    d.status = Status::invalid("message of " + std::to_string(body.size()) + " bytes could not be decoded (" + e.what() + ")");
    return d;
  }
}

}  // namespace proflow::broker_message
