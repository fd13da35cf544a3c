// What a component says about itself, in the metadata.yaml of its folder (the Collector's
// metadata.yaml shape, plus what proflow adds). The build embeds each file into the registration
// (cmake/proflow_component.cmake), so the type, its deprecated aliases, its stability and its trust
// posture are written once: the registry, `proflow components` and the status table of each
// README come from it.
//
//   type: otlp_grpc
//   deprecated_aliases: [otlp]            # old names still accepted, each with a deprecation line
//   description: OTLP profiles over gRPC  # one line for `proflow components`
//   status:
//     class: exporter                     # receiver | processor | exporter | extension | connector
//     stability:
//       development: [profiles]           # level -> signals
//   trust:
//     accepts: what input it takes, from whom
//     exposes: what it opens or sends out
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/component/component.h"
#include "core/util/status.h"

namespace proflow {

struct ComponentMetadata {
  std::string type;
  std::vector<std::string> deprecated_aliases;
  std::string description;
  ComponentKind kind = ComponentKind::kReceiver;
  std::vector<std::pair<std::string, std::vector<std::string>>> stability;  // level -> signals, as written
  std::string trust_accepts;
  std::string trust_exposes;
};

// The stability levels the Collector defines, most to least mature.
inline constexpr std::string_view kStabilityLevels[] = {"stable", "beta", "alpha", "development", "deprecated",
                                                        "unmaintained"};

// Parses one metadata.yaml; kInvalidArgument naming `source` and the key when it is not well formed.
Status parseComponentMetadata(std::string_view yaml, std::string_view source, ComponentMetadata* out);

// "profiles: development" (one entry per signal, in the order written).
std::string stabilitySummary(const ComponentMetadata& metadata);

// The Collector's deprecation line for a type written by an old name.
std::string deprecatedAliasMessage(std::string_view alias, std::string_view type);

}  // namespace proflow
