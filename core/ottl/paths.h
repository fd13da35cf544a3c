// The paths of the profile contexts: which field of the flat batch each OTTL path names, at which
// level (resource, scope, profile, sample) it lives, and whether it can be set. Paths follow the
// Collector's contexts (`resource.attributes`, `instrumentation_scope.name`, `profile.time_unix_nano`,
// `profilesample.values`, ...), plus proflow's own: `profile.sample_type.type` / `.unit`, and the
// frame view (`function`, `filename`, `mapping.filename`, ... inside AnyFrame; `sample.leaf.*` for
// the leaf frame). The list is documented in core/ottl/README.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace proflow::ottl {

// The level a statement group runs at, from the outermost to the innermost. A statement can read
// every level at or above its own.
enum class ContextKind : uint8_t { kResource = 0, kScope = 1, kProfile = 2, kSample = 3 };

const char* contextName(ContextKind c);
// "resource", "scope" / "instrumentation_scope", "profile", "sample" / "profilesample".
std::optional<ContextKind> parseContext(std::string_view name);

enum class Field : uint8_t {
  kNone,
  kCache,
  kResourceAttributes,
  kResourceDroppedAttributesCount,
  kResourceSchemaUrl,
  kScopeName,
  kScopeVersion,
  kScopeAttributes,
  kScopeDroppedAttributesCount,
  kScopeSchemaUrl,
  kProfileAttributes,
  kProfileTimeUnixNano,
  kProfileDurationUnixNano,
  kProfilePeriod,
  kProfileId,
  kProfileIdString,
  kProfileDroppedAttributesCount,
  kProfileOriginalPayloadFormat,
  kProfileOriginalPayload,
  kProfileSampleTypeType,
  kProfileSampleTypeUnit,
  kProfilePeriodTypeType,
  kProfilePeriodTypeUnit,
  kSampleAttributes,
  kSampleValues,
  kSampleTimestamps,
  kSampleLinkIndex,
  kSampleStackIndex,
  kSampleDepth,
  // Frame fields: of the frame AnyFrame visits, or of the sample's leaf frame (PathRef::leaf).
  kFrameFunction,
  kFrameSystemName,
  kFrameFilename,
  kFrameLine,
  kFrameMappingFilename,
  kFrameAddress,
};

struct PathRef {
  Field field = Field::kNone;
  ContextKind level = ContextKind::kResource;  // where the field lives
  bool leaf = false;                           // a frame field read at the sample's leaf frame
  bool settable = false;
  bool is_map = false;  // an attribute map (or the cache): keys index it, map editors take it
};

bool isFrameField(Field f);

// Resolves the dotted names of a path. `context`: the group's context when the configuration named
// it (then names without a context prefix are relative to it, as in the Collector's explicit
// contexts); `in_frame`: inside AnyFrame (bare frame names allowed). nullopt with `error` set.
std::optional<PathRef> resolvePath(const std::vector<std::string>& names, std::optional<ContextKind> context,
                                   bool in_frame, std::string* error);

}  // namespace proflow::ottl
