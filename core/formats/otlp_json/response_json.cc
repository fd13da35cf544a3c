// The small OTLP/HTTP answers in JSON: ExportProfilesServiceResponse and google.rpc.Status.
#include "core/formats/otlp_json/otlp_json.h"
#include "core/util/json/json_document.h"
#include "core/util/json/json_writer.h"

namespace proflow::otlp_json {

std::string encodeResponse(int64_t rejected_profiles, std::string_view error_message, bool partial_success) {
  std::string out;
  json::Writer w(&out);
  w.beginObject();
  if (partial_success) {
    w.key("partialSuccess").beginObject();
    if (rejected_profiles != 0) w.key("rejectedProfiles").quotedInt64(rejected_profiles);
    if (!error_message.empty()) w.key("errorMessage").string(error_message);
    w.endObject();
  }
  w.endObject();
  return out;
}

std::string encodeRpcStatus(int code, std::string_view message) {
  std::string out;
  json::Writer w(&out);
  w.beginObject();
  if (code != 0) w.key("code").int64(code);
  if (!message.empty()) w.key("message").string(message);
  w.endObject();
  return out;
}

bool decodeResponse(std::string_view json, int64_t* rejected_profiles, std::string* error_message) {
  *rejected_profiles = 0;
  error_message->clear();
  json::Document doc;
  if (!doc.parse(json, json::Limits{.max_bytes = 1u << 20, .max_depth = 16, .max_values = 10'000}).isOk() ||
      !doc.root().isObject())
    return false;
  auto partial = doc.root().member("partialSuccess");
  if (!partial) partial = doc.root().member("partial_success");
  if (!partial || !partial->isObject()) return true;
  auto rejected = partial->member("rejectedProfiles");
  if (!rejected) rejected = partial->member("rejected_profiles");
  if (rejected && (rejected->isNumber() || rejected->isString()) && !json::parseInt64(rejected->text(), rejected_profiles))
    return false;
  auto message = partial->member("errorMessage");
  if (!message) message = partial->member("error_message");
  if (message && message->isString()) *error_message = message->text();
  return true;
}

}  // namespace proflow::otlp_json
