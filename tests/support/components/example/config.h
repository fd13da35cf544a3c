// Config of the `example` exporter: counts the profiles it receives, refusing them past a limit.
//
//   exporters:
//     example:
//       limit: 1000   # 0: no limit
#pragma once

#include <cstdint>

#include "core/config/config_reader.h"

namespace proflow::testing::example {

struct ExampleExporterConfig {
  int64_t limit = 0;

  template <class V>
  void visit(V& v) {
    v.field("limit", limit, "profiles accepted before batches are refused as RESOURCE_EXHAUSTED; 0: no limit");
  }
  void validate(config::ValidationContext& ctx) const {
    if (limit < 0) ctx.error("limit", "must be >= 0");
  }
};

}  // namespace proflow::testing::example
