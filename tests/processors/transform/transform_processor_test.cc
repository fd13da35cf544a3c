// The transform processor on batches: groups run in order, error modes decide what a failure does,
// failures are counted, and what it changes reaches the next consumer.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/core/ottl/ottl_test_util.h"
#include "tests/processors/transform/transform_test_util.h"

namespace proflow::processors::transform {
namespace {

using ::testing::HasSubstr;
using ottl::testing::resourceAttr;
using ottl::testing::sampleAttr;
using ottl::testing::smallBatch;

TEST(TransformProcessor, GroupsRunInOrder) {
  Harness h(R"~(
profile_statements:
  - context: resource
    statements:
      - set(attributes["step"], "1")
  - context: sample
    statements:
      - set(attributes["seen"], resource.attributes["step"]) where AnyFrame(function == "main")
)~");
  flat::Batch out = h.run(smallBatch());
  EXPECT_EQ(sampleAttr(out, "seen", 0), "1");
  EXPECT_EQ(sampleAttr(out, "seen", 1), "<absent>");
  EXPECT_EQ(sampleAttr(out, "seen", 2), "1");
}

TEST(TransformProcessor, PropagateRefusesTheBatch) {
  Harness h(R"~(
error_mode: propagate
profile_statements:
  - set(resource.attributes["x"], Len(resource.attributes["missing"]))
)~");
  Status s;
  h.run(smallBatch(), &s);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Len takes a string, list or map"));
  EXPECT_TRUE(h.sink->batches.empty());
  EXPECT_EQ(h.metric("proflow_processor_transform_statement_errors_total"), 1);
}

TEST(TransformProcessor, IgnoreSkipsAndCounts) {
  Harness h(R"~(
error_mode: ignore
profile_statements:
  - context: sample
    statements:
      - set(attributes["n"], 10 / (values[0] - 20))
      - set(attributes["ok"], "yes")
)~");
  flat::Batch out = h.run(smallBatch());
  EXPECT_EQ(sampleAttr(out, "n", 0), "-1");
  EXPECT_EQ(sampleAttr(out, "n", 1), "<absent>");  // division by zero: skipped
  EXPECT_EQ(sampleAttr(out, "ok", 1), "yes");
  EXPECT_EQ(h.metric("proflow_processor_transform_statement_errors_total"), 1);
}

TEST(TransformProcessor, GroupErrorModeOverridesTopLevel) {
  Harness h(R"~(
error_mode: propagate
profile_statements:
  - context: resource
    error_mode: silent
    statements:
      - set(attributes["x"], 1 + 1.0)
      - set(attributes["y"], "after")
)~");
  flat::Batch out = h.run(smallBatch());
  EXPECT_EQ(resourceAttr(out, "y"), "after");
}

}  // namespace
}  // namespace proflow::processors::transform
