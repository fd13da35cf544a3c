#include "core/ottl/paths.h"

#include <array>

namespace proflow::ottl {
namespace {

struct FieldEntry {
  ContextKind level;
  std::string_view name;  // after the context prefix
  Field field;
  bool settable;
  bool is_map;
};

constexpr auto R = ContextKind::kResource;
constexpr auto S = ContextKind::kScope;
constexpr auto P = ContextKind::kProfile;
constexpr auto X = ContextKind::kSample;

constexpr std::array kFields = {
    FieldEntry{R, "attributes", Field::kResourceAttributes, true, true},
    FieldEntry{R, "dropped_attributes_count", Field::kResourceDroppedAttributesCount, true, false},
    FieldEntry{R, "schema_url", Field::kResourceSchemaUrl, true, false},
    FieldEntry{S, "name", Field::kScopeName, true, false},
    FieldEntry{S, "version", Field::kScopeVersion, true, false},
    FieldEntry{S, "attributes", Field::kScopeAttributes, true, true},
    FieldEntry{S, "dropped_attributes_count", Field::kScopeDroppedAttributesCount, true, false},
    FieldEntry{S, "schema_url", Field::kScopeSchemaUrl, true, false},
    FieldEntry{P, "attributes", Field::kProfileAttributes, true, true},
    FieldEntry{P, "time_unix_nano", Field::kProfileTimeUnixNano, true, false},
    FieldEntry{P, "duration_unix_nano", Field::kProfileDurationUnixNano, true, false},
    FieldEntry{P, "period", Field::kProfilePeriod, true, false},
    FieldEntry{P, "profile_id", Field::kProfileId, true, false},
    FieldEntry{P, "profile_id.string", Field::kProfileIdString, true, false},
    FieldEntry{P, "dropped_attributes_count", Field::kProfileDroppedAttributesCount, true, false},
    FieldEntry{P, "original_payload_format", Field::kProfileOriginalPayloadFormat, true, false},
    FieldEntry{P, "original_payload", Field::kProfileOriginalPayload, true, false},
    FieldEntry{P, "sample_type.type", Field::kProfileSampleTypeType, true, false},
    FieldEntry{P, "sample_type.unit", Field::kProfileSampleTypeUnit, true, false},
    FieldEntry{P, "period_type.type", Field::kProfilePeriodTypeType, true, false},
    FieldEntry{P, "period_type.unit", Field::kProfilePeriodTypeUnit, true, false},
    FieldEntry{X, "attributes", Field::kSampleAttributes, true, true},
    FieldEntry{X, "values", Field::kSampleValues, false, false},
    FieldEntry{X, "timestamps_unix_nano", Field::kSampleTimestamps, false, false},
    FieldEntry{X, "link_index", Field::kSampleLinkIndex, false, false},
    FieldEntry{X, "stack_index", Field::kSampleStackIndex, false, false},
    FieldEntry{X, "depth", Field::kSampleDepth, false, false},
};

struct FrameEntry {
  std::string_view name;
  Field field;
};
constexpr std::array kFrameFields = {
    FrameEntry{"function", Field::kFrameFunction},       FrameEntry{"system_name", Field::kFrameSystemName},
    FrameEntry{"filename", Field::kFrameFilename},       FrameEntry{"line", Field::kFrameLine},
    FrameEntry{"mapping.filename", Field::kFrameMappingFilename}, FrameEntry{"address", Field::kFrameAddress},
};

std::string join(const std::vector<std::string>& names, size_t from) {
  std::string out;
  for (size_t i = from; i < names.size(); ++i) out += (i > from ? "." : "") + names[i];
  return out;
}

std::optional<Field> frameField(std::string_view rest) {
  for (const auto& f : kFrameFields)
    if (f.name == rest) return f.field;
  return std::nullopt;
}

std::string validNames(ContextKind level) {
  std::string out;
  for (const auto& f : kFields)
    if (f.level == level) out += (out.empty() ? "" : ", ") + std::string(f.name);
  if (level == X) out += ", leaf.function, leaf.filename, leaf.mapping.filename, ...";
  return out;
}

std::optional<PathRef> lookup(ContextKind level, const std::string& rest, const std::string& prefix,
                              std::string* error) {
  if (level == X && rest.rfind("leaf.", 0) == 0) {
    if (auto f = frameField(std::string_view(rest).substr(5)))
      return PathRef{*f, X, true, false, false};
  }
  for (const auto& f : kFields)
    if (f.level == level && f.name == rest) return PathRef{f.field, level, false, f.settable, f.is_map};
  *error = "unknown path " + prefix + (prefix.empty() ? "" : ".") + rest + "; the " + contextName(level) +
           " context has: " + validNames(level);
  return std::nullopt;
}

}  // namespace

const char* contextName(ContextKind c) {
  switch (c) {
    case ContextKind::kResource: return "resource";
    case ContextKind::kScope: return "scope";
    case ContextKind::kProfile: return "profile";
    case ContextKind::kSample: return "sample";
  }
  return "?";
}

std::optional<ContextKind> parseContext(std::string_view name) {
  if (name == "resource") return R;
  if (name == "scope" || name == "instrumentation_scope") return S;
  if (name == "profile") return P;
  if (name == "sample" || name == "profilesample") return X;
  return std::nullopt;
}

bool isFrameField(Field f) { return f >= Field::kFrameFunction; }

std::optional<PathRef> resolvePath(const std::vector<std::string>& names, std::optional<ContextKind> context,
                                   bool in_frame, std::string* error) {
  const std::string& first = names.front();
  if (first == "cache") {
    if (names.size() > 1) {
      *error = "cache takes keys only: cache[\"name\"]";
      return std::nullopt;
    }
    return PathRef{Field::kCache, R, false, true, true};
  }
  if (first == "frame" || !parseContext(first)) {
    const size_t from = first == "frame" ? 1 : 0;
    auto f = frameField(join(names, from));
    if (f && in_frame) return PathRef{*f, X, false, false, false};
    const bool context_field = context && lookup(*context, join(names, 0), "", error);
    if (f && !context_field) {
      *error = "frame paths are read inside AnyFrame(...); the leaf frame is sample.leaf." + join(names, from);
      return std::nullopt;
    }
    if (first == "frame") {
      *error = "unknown frame path " + join(names, 0) +
               "; a frame has: function, system_name, filename, line, mapping.filename, address";
      return std::nullopt;
    }
  }
  if (auto level = parseContext(first); level && names.size() > 1) return lookup(*level, join(names, 1), first, error);
  if (context) return lookup(*context, join(names, 0), "", error);
  *error = "path " + join(names, 0) +
           " needs a context prefix: resource., instrumentation_scope., profile. or sample.";
  return std::nullopt;
}

}  // namespace proflow::ottl
