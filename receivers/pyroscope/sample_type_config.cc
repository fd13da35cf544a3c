#include "receivers/pyroscope/sample_type_config.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

namespace proflow::receivers::pyroscope {
namespace {

using google::protobuf::Value;

Status stringField(const google::protobuf::Struct& s, const std::string& type, const char* key, std::string* out) {
  auto it = s.fields().find(key);
  if (it == s.fields().end() || it->second.kind_case() == Value::kNullValue) return Status::ok();
  if (it->second.kind_case() != Value::kStringValue)
    return Status::invalid("sample_type_config: " + type + "." + key + " must be a string");
  *out = it->second.string_value();
  return Status::ok();
}

}  // namespace

Status parseSampleTypeConfig(std::string_view json, SampleTypeConfig* out) {
  out->clear();
  google::protobuf::Struct root;
  auto st = google::protobuf::util::JsonStringToMessage(google::protobuf::StringPiece(json.data(), json.size()), &root);
  if (!st.ok()) return Status::invalid("sample_type_config: not a JSON object: " + std::string(st.message()));
  for (const auto& [type, value] : root.fields()) {
    if (value.kind_case() != Value::kStructValue)
      return Status::invalid("sample_type_config: entry '" + type + "' must be an object");
    const auto& s = value.struct_value();
    SampleTypeSettings settings;
    for (auto [key, field] : {std::pair{"units", &settings.units}, std::pair{"display-name", &settings.display_name},
                              std::pair{"aggregation", &settings.aggregation}})
      if (Status e = stringField(s, type, key, field); !e.isOk()) return e;
    if (auto it = s.fields().find("cumulative"); it != s.fields().end()) {
      if (it->second.kind_case() != Value::kBoolValue)
        return Status::invalid("sample_type_config: " + type + ".cumulative must be true or false");
      settings.cumulative = it->second.bool_value();
    }
    out->emplace(type, std::move(settings));
  }
  return Status::ok();
}

}  // namespace proflow::receivers::pyroscope
