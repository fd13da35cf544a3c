// Configuration of the `debug` exporter.
#pragma once

#include <cstdint>
#include <string>

#include "core/config/config_reader.h"

namespace proflow::exporters::debug {

enum class Verbosity { kBasic, kNormal, kDetailed };

struct DebugExporterConfig {
  std::string verbosity = "basic";
  uint32_t top_stacks = 5;

  template <class V>
  void visit(V& v) {
    v.field("verbosity", verbosity, "basic (a line per batch), normal (a line per profile), detailed (+ top stacks)");
    v.field("top_stacks", top_stacks, "stacks listed per profile at detailed verbosity");
  }
  void validate(config::ValidationContext& ctx) const;
  Verbosity level() const;  // after validation
};

}  // namespace proflow::exporters::debug
