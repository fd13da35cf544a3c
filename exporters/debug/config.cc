#include "exporters/debug/config.h"

namespace proflow::exporters::debug {

void DebugExporterConfig::validate(config::ValidationContext& ctx) const {
  if (verbosity != "basic" && verbosity != "normal" && verbosity != "detailed")
    ctx.error("verbosity", "unknown verbosity '" + verbosity + "'; valid values: basic, normal, detailed");
  if (top_stacks == 0) ctx.error("top_stacks", "top_stacks must be > 0");
}

Verbosity DebugExporterConfig::level() const {
  if (verbosity == "detailed") return Verbosity::kDetailed;
  if (verbosity == "normal") return Verbosity::kNormal;
  return Verbosity::kBasic;
}

}  // namespace proflow::exporters::debug
