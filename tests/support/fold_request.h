// Folded stacks of a protobuf request, for tests that hold their profiles as requests: through the
// flat batch, the one form core/formats/jfr/folded.h folds.
#pragma once

#include <gtest/gtest.h>

#include "tests/support/flat_request.h"
#include "core/formats/jfr/folded.h"

namespace proflow::jfr {

inline std::map<std::string, int64_t> foldStacks(const otlp::Request& request, const FoldOptions& options) {
  flat::Batch batch;
  EXPECT_TRUE(flat::fromRequest(request, &batch).isOk());
  return foldStacks(batch, options);
}

}  // namespace proflow::jfr
