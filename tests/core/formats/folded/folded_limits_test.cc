// Folded text is bounded like pprof: distinct stacks, frames per line and frame length, each refused
// with kPayloadTooLarge naming the line and the limit, before the sample is built.
#include <gtest/gtest.h>

#include "core/formats/folded/folded.h"

namespace proflow::folded {
namespace {

Status convert(std::string_view text, const pprof::ProfileLimits& limits) {
  FoldedOptions o;
  o.limits = limits;
  pprof::Profile p;
  return foldedToPprof(text, o, &p);
}

void expectRefused(const Status& st, const std::string& what) {
  EXPECT_EQ(st.code(), StatusCode::kPayloadTooLarge) << st.message();
  EXPECT_NE(st.message().find(what), std::string::npos) << st.message();
}

TEST(FoldedLimits, DistinctStacksAreBoundedRepeatsAreNot) {
  pprof::ProfileLimits l;
  l.max_samples = 2;
  EXPECT_TRUE(convert("a;b 1\na;c 2\na;b 5\na;c 1\n", l).isOk());
  expectRefused(convert("a;b 1\na;c 2\na;d 1\n", l), "folded line 3: more distinct stacks than max_samples 2");
}

TEST(FoldedLimits, StackDepth) {
  pprof::ProfileLimits l;
  l.max_stack_depth = 3;
  EXPECT_TRUE(convert("a;b;c 1\n", l).isOk());
  expectRefused(convert("a;b;c 1\na;b;c;d 1\n", l), "folded line 2: stack deeper than max_stack_depth 3");
}

TEST(FoldedLimits, FrameLength) {
  pprof::ProfileLimits l;
  l.max_string_length = 4;
  EXPECT_TRUE(convert("abcd;x 1\n", l).isOk());
  expectRefused(convert("abcde;x 1\n", l), "frame of 5 bytes exceeds max_string_length 4");
}

}  // namespace
}  // namespace proflow::folded
