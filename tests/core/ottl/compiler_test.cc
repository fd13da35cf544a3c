// Binding at load: unknown paths, functions and arguments, paths below the group's context,
// patterns compiled, context inference — each error with its column.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/core/ottl/ottl_test_util.h"

namespace proflow::ottl {
namespace {

using ::testing::HasSubstr;
using testing::compileError;

TEST(OttlCompiler, ValidStatementsCompile) {
  EXPECT_EQ(compileError(R"~(set(resource.attributes["a"], "b"))~"), "");
  EXPECT_EQ(compileError(R"~(keep_keys(resource.attributes, ["host.name"]))~"), "");
  EXPECT_EQ(compileError(R"~(set(profile.attributes["tag"], "profile#23"))~"), "");
  EXPECT_EQ(compileError(R"~(set(profile.original_payload_format, "json"))~"), "");
  EXPECT_EQ(compileError(R"~(limit(sample.attributes, 2, []) where AnyFrame(IsMatch(function, "^runtime\\.")))~"), "");
  EXPECT_EQ(compileError(R"~(set(attributes["x"], 1) where name == "y")~", "scope"), "");
  EXPECT_EQ(compileError(R"~(flatten(resource.attributes, "k8s", depth = 2))~"), "");
  EXPECT_EQ(compileError(R"~(replace_pattern(resource.attributes["a"], "x(\\d)", "$1", SHA256, "k.%s"))~"), "");
}

TEST(OttlCompiler, UnknownNamesPointAtTheirColumn) {
  std::string e = compileError(R"~(sett(resource.attributes["a"], "b"))~");
  EXPECT_THAT(e, HasSubstr("col 1: unknown editor 'sett'"));
  EXPECT_THAT(e, HasSubstr("delete_key"));  // the supported list
  e = compileError(R"~(set(resource.atributes["a"], "b"))~");
  EXPECT_THAT(e, HasSubstr("col 5: unknown path resource.atributes"));
  e = compileError(R"~(set(resource.attributes["a"], Lower("b")))~");
  EXPECT_THAT(e, HasSubstr("col 31: unknown converter 'Lower'"));
  e = compileError(R"~(set(attributes["a"], "b"))~");
  EXPECT_THAT(e, HasSubstr("needs a context prefix"));
  e = compileError(R"~(set(resource.attributes["a"], NOT_AN_ENUM))~");
  EXPECT_THAT(e, HasSubstr("col 31: unknown enum or converter 'NOT_AN_ENUM'"));
}

TEST(OttlCompiler, ArgumentsAreChecked) {
  EXPECT_THAT(compileError(R"~(set(resource.attributes["a"]))~"), HasSubstr("set needs its argument 'value'"));
  EXPECT_THAT(compileError(R"~(delete_key(resource.attributes, "a", "b"))~"), HasSubstr("col 38: delete_key takes at most 2"));
  EXPECT_THAT(compileError(R"~(flatten(resource.attributes, deep = 2))~"), HasSubstr("no argument named 'deep'"));
  EXPECT_THAT(compileError(R"~(set("a", "b"))~"), HasSubstr("col 5: set's argument 'target' must be a path"));
  EXPECT_THAT(compileError(R"~(set(profile.sample_type, "b"))~"), HasSubstr("unknown path profile.sample_type"));
  EXPECT_THAT(compileError(R"~(set(sample.values, [1]))~"), HasSubstr("cannot be set"));
  EXPECT_THAT(compileError(R"~(delete_key(profile.period, "a"))~"), HasSubstr("must be a map"));
  EXPECT_THAT(compileError(R"~(merge_maps(resource.attributes, {"a": 1}, "merge"))~"), HasSubstr("strategy must be"));
  EXPECT_THAT(compileError(R"~(replace_all_patterns(resource.attributes, "keys", "a", "b"))~"), HasSubstr("mode must be"));
  EXPECT_THAT(compileError(R"~(replace_pattern(resource.attributes["a"], "x", "y", Int, "%s"))~"),
              HasSubstr("converter of one string"));
  EXPECT_THAT(compileError(R"~(replace_pattern(resource.attributes["a"], "x", "y", SHA256, "k"))~"),
              HasSubstr("must contain %s"));
  EXPECT_THAT(compileError(R"~(set(resource.attributes["a"], 1) where resource.attributes["b"])~"),
              HasSubstr("expected a condition"));
}

TEST(OttlCompiler, PatternsCompileAtLoad) {
  std::string e = compileError(R"~(delete_matching_keys(resource.attributes, "(?=x)"))~");
  EXPECT_THAT(e, HasSubstr("col 43: invalid regex '(?=x)'"));
  EXPECT_THAT(compileError(R"~(replace_match(resource.attributes["a"], "[ab", "c"))~"), HasSubstr("invalid glob"));
}

TEST(OttlCompiler, ContextsAreRespected) {
  // An explicit context cannot read below itself, and AnyFrame needs the sample context.
  EXPECT_THAT(compileError(R"~(set(resource.attributes["a"], profile.period))~", "resource"),
              HasSubstr("col 31: this path is at the profile level"));
  EXPECT_THAT(compileError(R"~(set(profile.attributes["a"], 1) where AnyFrame(function == "x"))~", "profile"),
              HasSubstr("AnyFrame looks at a sample's stack"));
  EXPECT_THAT(compileError(R"~(set(profile.attributes["a"], function))~"), HasSubstr("frame paths are read inside AnyFrame"));
  // Inference: the deepest level any path reaches.
  std::vector<CompileError> errors;
  auto g = StatementGroup::compile(std::nullopt, {}, {R"~(set(resource.attributes["a"], "b"))~"}, &errors);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->context(), ContextKind::kResource);
  g = StatementGroup::compile(std::nullopt, {}, {R"~(set(resource.attributes["a"], profile.sample_type.type))~"}, &errors);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->context(), ContextKind::kProfile);
  g = StatementGroup::compile(std::nullopt, {R"(sample.leaf.function == "main")"}, {R"(set(resource.attributes["a"], "b"))"},
                              &errors);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->context(), ContextKind::kSample);
}

}  // namespace
}  // namespace proflow::ottl
