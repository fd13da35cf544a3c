// Opt-in lossy pruning: depth truncation and [other] folding change stacks, never totals.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/processors/compress/compress_test_util.h"
#include "tests/support/profile_builder.h"

namespace proflow::processors::compress {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;
using testing::makeRequest;
using testing::ProfileSpec;
using Frames = std::vector<std::string>;

std::vector<Frames> stacksOf(const otlp::Request& req, int profile = 0) {
  std::vector<Frames> out;
  for (const auto& s : req.resource_profiles(0).scope_profiles(0).profiles(profile).samples())
    out.push_back(testing::stackFrames(req.dictionary(), s.stack_index()));
  return out;
}

TEST(CompressLossy, MaxStackDepthCutsTheRootSideAndMarksIt) {
  Frames deep = {"f0", "f1", "f2", "f3", "f4", "f5", "main"};
  otlp::Request in = makeRequest("svc", {ProfileSpec{.samples = {{deep, 5}, {{"g", "main"}, 3}, {{"f0", "f1", "f2", "x", "y"}, 2}}}});
  auto want = totals(in);
  CompressConfig c;
  c.max_stack_depth = 4;
  Harness h(c);
  otlp::Request out = h.run(in);
  EXPECT_EQ(totals(out), want);
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
  // Both deep stacks share their 3 leaf-most frames, so they merge once cut.
  EXPECT_THAT(stacksOf(out), UnorderedElementsAre(Frames{"f0", "f1", "f2", "[truncated]"}, Frames{"g", "main"}));
  EXPECT_EQ(h.metric("proflow_processor_compress_truncated_samples_total"), 2);
}

ProfileSpec weighted() {
  ProfileSpec p;
  p.samples = {{{"parse", "handle", "main"}, 880},
               {{"hash", "handle", "main"}, 50},
               {{"log", "flush", "main"}, 40},
               {{"gc"}, 30}};
  return p;
}

TEST(CompressLossy, MinFractionFoldsUnderTheLongestKeptPrefix) {
  otlp::Request in = makeRequest("svc", {weighted()});
  auto want = totals(in);
  CompressConfig c;
  c.min_fraction = 0.1;
  Harness h(c);
  otlp::Request out = h.run(in);
  EXPECT_EQ(totals(out), want);
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
  EXPECT_THAT(stacksOf(out), UnorderedElementsAre(Frames{"parse", "handle", "main"}, Frames{"[other]", "handle", "main"},
                                                  Frames{"[other]", "main"}, Frames{"[other]"}));
  EXPECT_EQ(h.metric("proflow_processor_compress_folded_samples_total"), 3);
}

TEST(CompressLossy, MaxNodesKeepsTheHeaviestStacksAndFoldsPerProfile) {
  // Two profiles over one dictionary; each is folded by its own weights.
  ProfileSpec cpu = weighted();
  ProfileSpec alloc;
  alloc.sample_type = "alloc_space";
  alloc.samples = {{{"gc"}, 900}, {{"parse", "handle", "main"}, 1}, {{"hash", "handle", "main"}, 1}};
  otlp::Request in = makeRequest("svc", {cpu, alloc});
  auto want = totals(in);
  CompressConfig c;
  c.max_nodes = 2;
  Harness h(c);
  otlp::Request out = h.run(in);
  EXPECT_EQ(totals(out), want);
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
  EXPECT_THAT(stacksOf(out, 0), UnorderedElementsAre(Frames{"parse", "handle", "main"}, Frames{"hash", "handle", "main"},
                                                     Frames{"[other]", "main"}, Frames{"[other]"}));
  // alloc keeps gc and parse (tie broken by stack index); hash folds under handle/main.
  EXPECT_EQ(stacksOf(out, 1).size(), 3u);
  EXPECT_THAT(stacksOf(out, 1), ::testing::Contains(Frames{"gc"}));
  EXPECT_THAT(stacksOf(out, 1), ::testing::Contains(Frames{"[other]", "handle", "main"}));
}

TEST(CompressLossy, FoldingManyProfilesKeepsEveryTotal) {
  std::vector<ProfileSpec> specs;
  for (int i = 0; i < 8; ++i) specs.push_back(testing::makeProfile(200, i));
  otlp::Request in = makeRequest("svc", specs);
  auto want = totals(in);
  CompressConfig c;
  c.min_fraction = 0.3;
  c.max_stack_depth = 2;
  Harness h(c);
  otlp::Request out = h.run(in);
  EXPECT_EQ(totals(out), want);
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
  EXPECT_LT(out.ByteSizeLong(), in.ByteSizeLong());
}

}  // namespace
}  // namespace proflow::processors::compress
