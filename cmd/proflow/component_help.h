// Help text of one component type: what its metadata.yaml says and its options as its config
// struct declares them.
#pragma once

#include <string>

#include "core/component/factory.h"
#include "core/component/metadata.h"

namespace proflow {

// "<kind> <type>: <description>", its stability, aliases and trust posture, then every option:
// key (type, default) and its help text.
std::string describeComponent(const Factory& factory, const ComponentMetadata& metadata);

// The status table at the top of the component's README (Markdown), from its metadata.
std::string componentStatusTable(const ComponentMetadata& metadata);

}  // namespace proflow
