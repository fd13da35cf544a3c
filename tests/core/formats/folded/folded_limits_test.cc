// Folded text is bounded like pprof: distinct stacks, frames per line and frame length, each refused
// with kPayloadTooLarge naming the line and the limit, before the sample is built.
#include <gtest/gtest.h>

#include "core/flat/flat_encode.h"
#include "core/formats/folded/folded.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "tests/support/flat_request.h"

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

namespace proflow::folded {
namespace {

// The receivers convert folded text with foldedToFlat: the parsed pprof converted as any pprof is,
// with the sample type and period applied and identical stacks summed.
TEST(FoldedToFlat, EqualsTheParsedProfileConverted) {
  FoldedOptions o;
  o.sample_type = "cpu";
  o.sample_unit = "nanoseconds";
  o.period_type = "cpu";
  o.period_unit = "nanoseconds";
  o.period = 10'000'000;
  o.scale_by_period = true;
  o.time_ns = 1'700'000'000'000'000'000;
  pprof::PprofToOtlpOptions convert;
  convert.resource_attributes = {{"service.name", "svc"}};
  convert.scope_name = "proflow.receiver.folded";
  const std::string text = "main;a;b 3\nmain;a;c 2\nmain;a;b 1\n\nmain;d\xc3\xa9 7\n";
  pprof::Profile parsed;
  ASSERT_TRUE(foldedToPprof(text, o, &parsed).isOk());
  flat::Batch want;
  ASSERT_TRUE(pprof::pprofToFlat(parsed, convert, &want).isOk());
  flat::Batch batch;
  ASSERT_TRUE(foldedToFlat(text, o, convert, 0, {}, &batch).isOk());
  EXPECT_EQ(flat::encode(batch), flat::encode(want));
  otlp::Request got;
  ASSERT_TRUE(flat::toRequest(batch, &got).isOk());
  const auto& profile = got.resource_profiles(0).scope_profiles(0).profiles(0);
  ASSERT_EQ(profile.samples_size(), 3);
  EXPECT_EQ(profile.samples(0).values(0), 40'000'000);  // main;a;b: 3 + 1, times the period
  EXPECT_EQ(profile.period(), 10'000'000);
}

}  // namespace
}  // namespace proflow::folded
