// drop_frames / keep_frames with pprof semantics: full match on the function name, the matching frame
// goes with everything it called, keep wins; totals never change.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/dictionary_builder.h"
#include "tests/processors/filter/filter_test_util.h"
#include "tests/support/profile_builder.h"

namespace proflow::processors::filter {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::makeRequest;
using testing::ProfileSpec;
using Frames = std::vector<std::string>;

otlp::Request stacks() {
  ProfileSpec p;
  p.samples = {{{"memclr", "runtime.mallocgc", "handle", "main"}, 5},
               {{"parse", "handle", "main"}, 7},
               {{"runtime.gcBgMarkWorker"}, 11},
               {{"mallocgc_helper", "handle", "main"}, 13}};
  return makeRequest("api", {p, p});  // two profiles sharing every stack
}

std::vector<Frames> stacksOf(const otlp::Request& r, int profile = 0) {
  std::vector<Frames> out;
  for (const auto& s : r.resource_profiles(0).scope_profiles(0).profiles(profile).samples())
    out.push_back(testing::stackFrames(r.dictionary(), s.stack_index()));
  return out;
}

int64_t total(const otlp::Request& r) {
  int64_t t = 0;
  for (const auto& p : r.resource_profiles(0).scope_profiles(0).profiles())
    for (const auto& s : p.samples()) t += s.values(0);
  return t;
}

TEST(FilterFrames, DropsTheMatchAndItsCalleesKeepingTotals) {
  Harness h("drop_frames: 'runtime\\..*'\n");
  otlp::Request in = stacks();
  otlp::Request out = h.run(in);
  for (int p : {0, 1})
    EXPECT_THAT(stacksOf(out, p), ElementsAre(Frames{"handle", "main"}, Frames{"parse", "handle", "main"}, Frames{},
                                              Frames{"mallocgc_helper", "handle", "main"}));
  EXPECT_EQ(total(out), total(in));
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
  for (const auto& f : out.dictionary().function_table())
    EXPECT_NE(dictString(out.dictionary(), f.name_strindex()), "memclr") << "orphaned frames are not sent";
  EXPECT_EQ(h.metric("proflow_processor_filter_pruned_samples_total"), 4);
}

TEST(FilterFrames, MatchIsFullNotPartial) {
  Harness h("drop_frames: mallocgc\n");
  otlp::Request out = h.run(stacks());
  EXPECT_EQ(stacksOf(out)[0], (Frames{"memclr", "runtime.mallocgc", "handle", "main"}));
  EXPECT_EQ(stacksOf(out)[3], (Frames{"mallocgc_helper", "handle", "main"}));
}

TEST(FilterFrames, KeepFramesWins) {
  Harness h("drop_frames: 'runtime\\..*|mallocgc_.*'\nkeep_frames: 'runtime\\.mallocgc'\n");
  otlp::Request out = h.run(stacks());
  EXPECT_THAT(stacksOf(out), ElementsAre(Frames{"memclr", "runtime.mallocgc", "handle", "main"},
                                         Frames{"parse", "handle", "main"}, Frames{}, Frames{"handle", "main"}));
}

TEST(FilterFrames, InlinedLinesAreCutInsideTheLocation) {
  otlp::Request r = makeRequest("api", {ProfileSpec{.samples = {{{"leaf", "main"}, 3}}}});
  DictionaryBuilder d(r.mutable_dictionary());
  // One location: lines[0] innermost (inlined_helper) inside outer_fn; then main.
  otlp::Location loc;
  loc.add_lines()->set_function_index(d.function("inlined_helper", "", "x.cc"));
  loc.add_lines()->set_function_index(d.function("outer_fn", "", "x.cc"));
  int32_t inl = d.location(loc);
  int32_t orig = r.resource_profiles(0).scope_profiles(0).profiles(0).samples(0).stack_index();
  int32_t main_loc = r.dictionary().stack_table(orig).location_indices(1);
  int32_t stack = d.stack(std::vector<int32_t>{inl, main_loc});
  r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(0)->set_stack_index(stack);
  Harness h("drop_frames: inlined_helper\n");
  otlp::Request out = h.run(r);
  EXPECT_EQ(stacksOf(out)[0], (Frames{"outer_fn", "main"}));
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
}

}  // namespace
}  // namespace proflow::processors::filter
