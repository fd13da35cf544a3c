#include "core/formats/otlp_json/otlp_json.h"

#include <google/protobuf/util/json_util.h>

namespace proflow::otlp_json {

Status parseOtlpJson(std::string_view json, google::protobuf::Message* out) {
  std::string rewritten;
  if (Status s = rewriteIds(json, /*hex_to_base64=*/true, &rewritten); !s.isOk()) return s;
  google::protobuf::util::JsonParseOptions opts;
  opts.ignore_unknown_fields = true;  // OTLP: receivers MUST ignore unknown fields
  out->Clear();
  auto st = google::protobuf::util::JsonStringToMessage(rewritten, out, opts);
  if (!st.ok()) return Status::invalid("invalid OTLP/JSON: " + std::string(st.message()));
  return Status::ok();
}

std::string toOtlpJson(const google::protobuf::Message& msg) {
  google::protobuf::util::JsonPrintOptions opts;
  opts.always_print_enums_as_ints = true;  // OTLP/JSON: enums are integers
  std::string printed, out;
  auto st = google::protobuf::util::MessageToJsonString(msg, &printed, opts);
  if (!st.ok()) return {};
  // Protobuf printed it, so it is valid JSON with base64 ids; the rewrite cannot fail.
  if (!rewriteIds(printed, /*hex_to_base64=*/false, &out).isOk()) return printed;
  return out;
}

}  // namespace proflow::otlp_json
