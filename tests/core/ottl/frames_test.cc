// The frame view: AnyFrame over every frame of a sample's stack (inlined lines included), the leaf
// frame's paths, and the per-stack memo giving the same answers as evaluating each sample.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/core/ottl/ottl_test_util.h"
#include "tests/support/profile_builder.h"

namespace proflow::ottl {
namespace {

using ::testing::ElementsAre;
using namespace testing;

TEST(OttlFrames, AnyFrameSeesEveryFrame) {
  flat::Batch b = smallBatch();  // stacks [work, main], [gc], [work, main]
  EXPECT_THAT(evalCondition(b, R"~(AnyFrame(function == "main"))~"), ElementsAre(true, false, true));
  EXPECT_THAT(evalCondition(b, R"~(AnyFrame(IsMatch(function, "^g")) or AnyFrame(frame.function == "work"))~"),
              ElementsAre(true, true, true));
  EXPECT_THAT(evalCondition(b, R"~(not AnyFrame(filename == "main.cc"))~"), ElementsAre(false, true, false));
  EXPECT_THAT(evalCondition(b, R"~(sample.leaf.function == "work")~"), ElementsAre(true, false, true));
  EXPECT_THAT(evalCondition(b, R"~(sample.depth == 2)~"), ElementsAre(true, false, true));
  // A frame condition mixing in sample fields is evaluated per sample, not memoized per stack.
  EXPECT_THAT(evalCondition(b, R"~(AnyFrame(function == "main" and sample.values[0] > 10))~"), ElementsAre(false, false, true));
}

TEST(OttlFrames, InlinedLinesAndMappingsAreFrames) {
  otlp::Request req = smallRequest();
  auto* dict = req.mutable_dictionary();
  // Location 1 (work) gets an inlined caller "inlined_caller" and a mapping /usr/bin/app.
  const int name = dict->string_table_size();
  dict->add_string_table("inlined_caller");
  dict->add_string_table("/usr/bin/app");
  auto* fn = dict->add_function_table();
  fn->set_name_strindex(name);
  auto* mapping = dict->add_mapping_table();
  mapping->set_filename_strindex(name + 1);
  auto* loc = dict->mutable_location_table(1);
  loc->add_lines()->set_function_index(dict->function_table_size() - 1);
  loc->set_mapping_index(dict->mapping_table_size() - 1);
  flat::Batch b = toFlat(req);
  EXPECT_THAT(evalCondition(b, R"~(AnyFrame(function == "inlined_caller"))~"), ElementsAre(true, false, true));
  EXPECT_THAT(evalCondition(b, R"~(sample.leaf.mapping.filename == "/usr/bin/app")~"), ElementsAre(true, false, true));
  EXPECT_THAT(evalCondition(b, R"~(AnyFrame(mapping.filename == "/usr/bin/app" and function == "inlined_caller"))~"),
              ElementsAre(true, false, true));
}

TEST(OttlFrames, FrameComparisonsAnswerAsValuesWould) {
  // Frame fields compared with a string are answered where the string lies; the answers must be
  // those of comparing values: either operand order, != included, nil (no such field) equal to no string.
  otlp::Request req = smallRequest();
  req.mutable_dictionary()->mutable_location_table(1)->clear_lines();  // "work" becomes a frame without a function
  flat::Batch b = toFlat(req);
  for (const std::string& c : {R"~(function == "main")~", R"~("main" == function)~", R"~(function != "main")~",
                               R"~(function != "gc")~", R"~(function == "")~", R"~(IsMatch(function, "^ma"))~"}) {
    const auto fast = evalCondition(b, "AnyFrame(" + c + ")");
    // The same test compared with true: evaluated as values.
    const auto values = evalCondition(b, "AnyFrame((" + c + ") == true)");
    EXPECT_EQ(fast, values) << c;
  }
  EXPECT_THAT(evalCondition(b, R"~(AnyFrame(function != "main"))~"), ElementsAre(true, true, true));
  EXPECT_THAT(evalCondition(b, R"~(AnyFrame(function == ""))~"), ElementsAre(false, false, false));
}

TEST(OttlFrames, MemoAgreesWithPerSampleEvaluation) {
  flat::Batch b = toFlat(proflow::testing::makeRequest("api", {proflow::testing::makeProfile(500, 3)}));
  // The same frame test, once memoizable and once tied to each sample (so evaluated afresh).
  const auto memo = evalCondition(b, R"~(AnyFrame(IsMatch(function, "^(memcpy|hash)$")))~");
  const auto fresh = evalCondition(b, R"~(AnyFrame(IsMatch(function, "^(memcpy|hash)$") and sample.depth >= 0))~");
  ASSERT_EQ(memo.size(), 500u);
  EXPECT_EQ(memo, fresh);
  EXPECT_NE(std::count(memo.begin(), memo.end(), true), 0);
  EXPECT_NE(std::count(memo.begin(), memo.end(), false), 0);
}

}  // namespace
}  // namespace proflow::ottl
