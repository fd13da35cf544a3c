// Reading OTTL statement and condition lists out of YAML for the components that take them
// (transform, filter, routing): each entry keeps the file:line:column of its YAML node, so an
// error is reported there plus the column inside the statement.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config_node.h"
#include "core/config/config_reader.h"
#include "core/ottl/program.h"

namespace proflow::ottl {

struct SourcedList {
  std::vector<std::string> texts;
  std::vector<config::SourceLocation> locations;
};

// A YAML list of strings (absent or null: empty). Other shapes are reported at `field`.
SourcedList readStringList(const config::ConfigNode& node, config::ValidationContext& ctx, std::string_view field);

// Reports compile errors: "<field>[i]: column C: message" at the entry's YAML location.
void reportCompileErrors(config::ValidationContext& ctx, std::string_view field, const SourcedList& list,
                         const std::vector<CompileError>& errors);

// `error_mode` checked: nullopt (reported) when it is not ignore, silent or propagate.
std::optional<ErrorMode> checkErrorMode(config::ValidationContext& ctx, std::string_view field, const std::string& value);

}  // namespace proflow::ottl
