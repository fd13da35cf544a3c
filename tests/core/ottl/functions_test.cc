// Each editor and converter on a batch: what it changes and what it leaves alone.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/attributes/actions.h"
#include "core/flat/flat_attributes.h"
#include "tests/core/ottl/ottl_test_util.h"

namespace proflow::ottl {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace testing;

// A batch whose resource holds a=1, b="keep me", password="hunter2", url="/user/42/list/7".
flat::Batch withAttrs() {
  flat::Batch b = smallBatch();
  EXPECT_EQ(run(b, {R"(set(resource.attributes["a"], 1))", R"(set(resource.attributes["b"], "keep me"))",
                    R"~(set(resource.attributes["password"], "hunter2"))~",
                    R"~(set(resource.attributes["url"], "/user/42/list/7"))~"}),
            "");
  return b;
}

std::vector<std::string> keys(const flat::Batch& b) {
  std::vector<std::string> out;
  for (const auto& kv : flat::Batch::slice(b.key_values, b.resources[0].attributes)) out.emplace_back(flat::keyOf(b, kv));
  return out;
}

TEST(OttlFunctions, MapEditors) {
  flat::Batch b = withAttrs();
  EXPECT_EQ(run(b, {R"(delete_key(resource.attributes, "a"))", R"(delete_matching_keys(resource.attributes, "(?i)PASS"))"}), "");
  EXPECT_THAT(keys(b), ElementsAre("service.name", "env", "b", "url"));
  b = withAttrs();
  EXPECT_EQ(run(b, {R"~(keep_keys(resource.attributes, ["env", "url", "nope"]))~"}), "");
  EXPECT_THAT(keys(b), ElementsAre("env", "url"));
  b = withAttrs();
  EXPECT_EQ(run(b, {R"~(keep_matching_keys(resource.attributes, "^[ab]$"))~"}), "");
  EXPECT_THAT(keys(b), ElementsAre("a", "b"));
  b = withAttrs();
  EXPECT_EQ(run(b, {R"~(limit(resource.attributes, 3, ["url"]))~"}), "");
  EXPECT_THAT(keys(b), ElementsAre("service.name", "env", "url"));
  b = withAttrs();
  EXPECT_EQ(run(b, {R"~(truncate_all(resource.attributes, 4))~"}), "");
  EXPECT_EQ(resourceAttr(b, "b"), "keep");
  EXPECT_EQ(resourceAttr(b, "a"), "1");  // not a string
  EXPECT_THAT(run(b, {R"~(truncate_all(resource.attributes, -1))~"}), HasSubstr("limit must be an int >= 0"));
}

TEST(OttlFunctions, ReplaceFunctions) {
  flat::Batch b = withAttrs();
  EXPECT_EQ(run(b, {R"~(replace_pattern(resource.attributes["url"], "/(\\d+)", "/{id:$1}"))~"}), "");
  EXPECT_EQ(resourceAttr(b, "url"), "/user/{id:42}/list/{id:7}");
  b = withAttrs();
  EXPECT_EQ(run(b, {R"~(replace_match(resource.attributes["url"], "/user/*/list/*", "/user/{userId}/list/{listId}"))~"}), "");
  EXPECT_EQ(resourceAttr(b, "url"), "/user/{userId}/list/{listId}");
  b = withAttrs();
  EXPECT_EQ(run(b, {R"~(replace_match(resource.attributes["url"], "/user/*", "x"))~"}), "");  // * stops at '/'
  EXPECT_EQ(resourceAttr(b, "url"), "/user/42/list/7");
  b = withAttrs();
  EXPECT_EQ(run(b, {R"~(replace_all_patterns(resource.attributes, "value", "hunter\\d", "***"))~",
                    R"~(replace_all_patterns(resource.attributes, "key", "^(service)\\.(?P<rest>.*)$", "svc_${rest}"))~"}),
            "");
  EXPECT_EQ(resourceAttr(b, "password"), "***");
  EXPECT_THAT(keys(b), ElementsAre("svc_name", "env", "a", "b", "password", "url"));
  b = withAttrs();
  EXPECT_EQ(run(b, {R"~(replace_all_matches(resource.attributes, "/user/*/list/*", "/user/{userId}"))~"}), "");
  EXPECT_EQ(resourceAttr(b, "url"), "/user/{userId}");
  // A converter and a format applied to each replacement.
  b = withAttrs();
  EXPECT_EQ(run(b, {R"~(replace_pattern(resource.attributes["password"], "^.*$", "$0", SHA256, "sha:%s"))~"}), "");
  EXPECT_EQ(resourceAttr(b, "password"), "sha:" + attributes::sha256Hex("hunter2"));
  // $$ is a literal dollar; a name that names no group expands to nothing (Go's Expand).
  b = withAttrs();
  EXPECT_EQ(run(b, {R"~(replace_pattern(resource.attributes["b"], "keep", "$$1$nogroup"))~"}), "");
  EXPECT_EQ(resourceAttr(b, "b"), "$1 me");
}

TEST(OttlFunctions, MergeAndFlatten) {
  flat::Batch b = withAttrs();
  EXPECT_EQ(run(b, {R"~(merge_maps(resource.attributes, {"a": 2, "z": 3}, "insert"))~"}), "");
  EXPECT_EQ(resourceAttr(b, "a"), "1");
  EXPECT_EQ(resourceAttr(b, "z"), "3");
  EXPECT_EQ(run(b, {R"~(merge_maps(resource.attributes, {"a": 2, "y": 3}, "update"))~"}), "");
  EXPECT_EQ(resourceAttr(b, "a"), "2");
  EXPECT_EQ(resourceAttr(b, "y"), "<absent>");
  EXPECT_EQ(run(b, {R"~(set(resource.attributes["addr"], {"street": "first", "house": 1234, "tags": ["x", "y"]}))~",
                    R"~(flatten(resource.attributes, "app"))~"}),
            "");
  EXPECT_EQ(resourceAttr(b, "app.addr.street"), "first");
  EXPECT_EQ(resourceAttr(b, "app.addr.house"), "1234");
  EXPECT_EQ(resourceAttr(b, "app.addr.tags.1"), "y");
  EXPECT_EQ(resourceAttr(b, "app.env"), "prod");
  b = smallBatch();
  EXPECT_EQ(run(b, {R"~(set(resource.attributes["0"], {"1": {"2": {"3": {"4": "value"}}}}))~",
                    "flatten(resource.attributes, depth = 2)"}),
            "");
  EXPECT_THAT(evalCondition(b, R"~(resource.attributes["0.1.2"]["3"]["4"] == "value")~"), ElementsAre(true));
}

TEST(OttlFunctions, Converters) {
  flat::Batch b = smallBatch();
  EXPECT_EQ(run(b, {R"~(set(resource.attributes["parts"], Len(Split("a,b,c", ","))))~",
                    R"~(set(resource.attributes["upper"], ToUpperCase(resource.attributes["env"])))~",
                    R"~(set(resource.attributes["lower"], ToLowerCase("MiXeD")))~",
                    R"~(set(resource.attributes["int"], Int("42") + Int(2.9) + Int(true)))~",
                    R"~(set(resource.attributes["double"], Double("1.5") * 2.0))~",
                    R"~(set(resource.attributes["string"], String(12)))~",
                    R"~(set(resource.attributes["sub"], Substring("profiles", 0, 7)))~",
                    R"~(set(resource.attributes["hash"], SHA256("abc")))~"}),
            "");
  EXPECT_EQ(resourceAttr(b, "parts"), "3");
  EXPECT_EQ(resourceAttr(b, "upper"), "PROD");
  EXPECT_EQ(resourceAttr(b, "lower"), "mixed");
  EXPECT_EQ(resourceAttr(b, "int"), "45");
  EXPECT_THAT(evalCondition(b, R"~(resource.attributes["double"] == 3.0)~"), ElementsAre(true));
  EXPECT_EQ(resourceAttr(b, "string"), "12");
  EXPECT_EQ(resourceAttr(b, "sub"), "profile");
  EXPECT_EQ(resourceAttr(b, "hash"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_THAT(evalCondition(b, R"~(IsString(resource.attributes["env"]) and IsInt(resource.attributes["parts"]) and )~"
                               R"~(IsDouble(resource.attributes["double"]) and not IsMap(resource.attributes["env"]) and )~"
                               R"~(IsMatch(resource.attributes["env"], "^pr") and not IsMatch(resource.attributes["nope"], ".*") and )~"
                               R"~(HasPrefix(resource.attributes["env"], "pr") and HasSuffix(resource.attributes["env"], "od") and )~"
                               R"~(Int("x") == nil)~"),
              ElementsAre(true));
  EXPECT_THAT(run(b, {R"~(set(resource.attributes["x"], Len(1)))~"}), HasSubstr("Len takes a string, list or map"));
  EXPECT_THAT(run(b, {R"~(set(resource.attributes["x"], Split("a", ",")[3]))~"}), HasSubstr("index 3 is out of range"));
}

// OTLP strings must be UTF-8: functions count and cut in characters, and an edit that would write
// other bytes fails the statement (honouring error_mode) instead of producing them.
TEST(OttlFunctions, TextIsCutOnCharactersAndEditsNeverWriteInvalidUtf8) {
  flat::Batch b = smallBatch();
  EXPECT_EQ(run(b, {R"~(set(resource.attributes["sub"], Substring("h\u00e9llo", 0, 2)))~",
                    R"~(set(resource.attributes["tail"], Substring("h\u00e9llo", 1, 4)))~",
                    R"~(set(resource.attributes["len"], Len("h\u00e9llo")))~",
                    R"~(set(resource.attributes["chars"], Split("h\u00e9", "")[1]))~",
                    R"~(set(resource.attributes["empty_matches"], "\u00e9"))~",
                    R"~(replace_pattern(resource.attributes["empty_matches"], "x*", "-"))~"}),
            "");
  EXPECT_EQ(resourceAttr(b, "sub"), "h\u00e9");
  EXPECT_EQ(resourceAttr(b, "tail"), "\u00e9llo");
  EXPECT_EQ(resourceAttr(b, "len"), "5");
  EXPECT_EQ(resourceAttr(b, "chars"), "\u00e9");
  EXPECT_EQ(resourceAttr(b, "empty_matches"), "-\u00e9-");
  EXPECT_THAT(run(b, {R"~(set(resource.attributes["sub"], Substring("h\u00e9llo", 0, 6)))~"}),
              HasSubstr("(5 characters)"));
  flat::Batch cut = smallBatch();
  EXPECT_EQ(run(cut, {R"~(set(resource.attributes["cut"], "a\u00e9b"))~", R"~(truncate_all(resource.attributes, 2))~"}), "");
  EXPECT_EQ(resourceAttr(cut, "cut"), "a");  // 2 bytes would end inside the 'é'

  EXPECT_THAT(run(b, {R"~(set(resource.attributes["raw"], "caf\xc3"))~"}), HasSubstr("not valid UTF-8"));
  EXPECT_THAT(run(b, {R"~(set(resource.attributes["raw"], Concat(["a", "\xff"], "")))~"}), HasSubstr("not valid UTF-8"));
  EXPECT_THAT(run(b, {R"~(set(resource.attributes["raw"], {"\xfe": 1}))~"}), HasSubstr("not valid UTF-8"));
  EXPECT_THAT(run(b, {R"~(replace_pattern(resource.attributes["tail"], "^\\C", ""))~"}), HasSubstr("not valid UTF-8"));
  EXPECT_THAT(run(b, {R"~(replace_all_patterns(resource.attributes, "key", "^len$", "\xff"))~"}),
              HasSubstr("not valid UTF-8"));
  EXPECT_EQ(resourceAttr(b, "raw"), "<absent>");
  EXPECT_EQ(resourceAttr(b, "tail"), "\u00e9llo");
  // error_mode ignore: the statement is skipped for the item, the others run.
  EXPECT_EQ(run(b, {R"~(set(resource.attributes["raw"], "\xff"))~", R"~(set(resource.attributes["after"], "ok"))~"}, "", {},
                ErrorMode::kIgnore),
            "");
  EXPECT_EQ(resourceAttr(b, "raw"), "<absent>");
  EXPECT_EQ(resourceAttr(b, "after"), "ok");
  // Bytes hold any bytes.
  EXPECT_EQ(run(b, {R"~(set(resource.attributes["bytes"], 0xff00))~"}), "");
}

}  // namespace
}  // namespace proflow::ottl
