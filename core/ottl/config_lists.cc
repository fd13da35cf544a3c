#include "core/ottl/config_lists.h"

namespace proflow::ottl {

SourcedList readStringList(const config::ConfigNode& node, config::ValidationContext& ctx, std::string_view field) {
  SourcedList out;
  if (node.isNull()) return out;
  if (node.isScalar()) {  // one statement given without a list
    out.texts.push_back(node.scalar);
    out.locations.push_back(node.location);
    return out;
  }
  if (!node.isSequence()) {
    ctx.errorAt(field, node.location, "expected a list of strings");
    return out;
  }
  for (size_t i = 0; i < node.items.size(); ++i) {
    const auto& item = node.items[i];
    if (!item.isScalar()) {
      ctx.errorAt(std::string(field) + "[" + std::to_string(i) + "]", item.location, "expected a string");
      continue;
    }
    out.texts.push_back(item.scalar);
    out.locations.push_back(item.location);
  }
  return out;
}

void reportCompileErrors(config::ValidationContext& ctx, std::string_view field, const SourcedList& list,
                         const std::vector<CompileError>& errors) {
  for (const auto& e : errors) {
    if (e.index >= list.texts.size()) continue;
    ctx.errorAt(std::string(field) + "[" + std::to_string(e.index) + "]", list.locations[e.index],
                "column " + std::to_string(e.column) + " of '" + config::quoteValue(list.texts[e.index], false, 200) +
                    "': " + e.message);
  }
}

std::optional<ErrorMode> checkErrorMode(config::ValidationContext& ctx, std::string_view field, const std::string& value) {
  auto mode = parseErrorMode(value);
  if (!mode) ctx.error(field, "error_mode must be ignore, silent or propagate, got " + config::quoteValue(value));
  return mode;
}

}  // namespace proflow::ottl
