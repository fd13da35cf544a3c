#include "receivers/pyroscope/sample_type_config.h"

#include "core/util/json/json_document.h"

namespace proflow::receivers::pyroscope {
namespace {

// pyroscope-go sends one entry per sample type of the profile (a handful, each ~100 bytes): these
// bounds refuse a part built to make the parse itself expensive before it grows.
constexpr json::Limits kLimits{.max_bytes = 256u << 10, .max_depth = 8, .max_values = 10'000,
                               .max_string_bytes = 4u << 10};

Status stringField(json::Value entry, std::string_view type, const char* key, std::string* out) {
  const auto v = entry.member(key);
  if (!v || v->isNull()) return Status::ok();
  if (!v->isString()) return Status::invalid("sample_type_config: " + std::string(type) + "." + key + " must be a string");
  *out = v->text();
  return Status::ok();
}

Status readEntry(std::string_view type, json::Value entry, SampleTypeSettings* settings) {
  if (!entry.isObject()) return Status::invalid("sample_type_config: entry '" + std::string(type) + "' must be an object");
  for (auto [key, field] : {std::pair{"units", &settings->units}, std::pair{"display-name", &settings->display_name},
                            std::pair{"aggregation", &settings->aggregation}})
    if (Status e = stringField(entry, type, key, field); !e.isOk()) return e;
  if (const auto cumulative = entry.member("cumulative")) {
    if (!cumulative->isBool())
      return Status::invalid("sample_type_config: " + std::string(type) + ".cumulative must be true or false");
    settings->cumulative = cumulative->boolean();
  }
  return Status::ok();
}

}  // namespace

Status parseSampleTypeConfig(std::string_view json, SampleTypeConfig* out) {
  out->clear();
  json::Document doc;
  if (Status s = doc.parse(json, kLimits); !s.isOk()) return Status::invalid("sample_type_config: " + s.message());
  if (!doc.root().isObject()) return Status::invalid("sample_type_config: not a JSON object");
  Status result;
  doc.root().forEachMember([&](std::string_view type, json::Value entry) {
    if (!result.isOk()) return;
    SampleTypeSettings settings;
    result = readEntry(type, entry, &settings);
    (*out)[std::string(type)] = std::move(settings);  // a repeated type: the last one wins
  });
  return result;
}

}  // namespace proflow::receivers::pyroscope
