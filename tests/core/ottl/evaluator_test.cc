// Evaluation over a flat batch: paths of every level read and set, conditions, arithmetic,
// comparisons across kinds, error modes, and edits that keep reference-based attributes intact.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/flat/flat_attributes.h"
#include "tests/core/ottl/ottl_test_util.h"
#include "tests/support/profile_builder.h"

namespace proflow::ottl {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace testing;

TEST(OttlEvaluator, SetsAttributesAtEveryLevel) {
  flat::Batch b = smallBatch();
  EXPECT_EQ(run(b, {R"~(set(resource.attributes["team"], "core"))~",
                    R"~(set(profile.attributes["tag"], Concat([resource.attributes["service.name"], "#", "23"], "")))~",
                    R"~(set(sample.attributes["heavy"], true) where sample.values[0] >= 20)~",
                    R"~(set(instrumentation_scope.attributes["s"], 1))~"}),
            "");
  EXPECT_EQ(resourceAttr(b, "team"), "core");
  EXPECT_EQ(resourceAttr(b, "service.name"), "api");  // untouched entries stay
  EXPECT_EQ(profileAttr(b, "tag"), "api#23");
  EXPECT_EQ(sampleAttr(b, "heavy", 0), "<absent>");
  EXPECT_EQ(sampleAttr(b, "heavy", 1), "true");
  EXPECT_EQ(sampleAttr(b, "heavy", 2), "true");
  EXPECT_EQ(sampleAttr(b, "thread", 0), "t1");
  EXPECT_EQ(flat::keyValueAttribute(b, b.scopes[0].attributes, "s").value_or(""), "1");
  // The edited batch converts back to a consistent request.
  EXPECT_THAT(proflow::testing::dictionaryProblems(toProto(b)), ::testing::IsEmpty());
}

TEST(OttlEvaluator, ProfileFields) {
  flat::Batch b = smallBatch();
  EXPECT_EQ(run(b, {R"~(set(profile.original_payload_format, "json"))~",
                    R"~(set(profile.period, profile.duration_unix_nano / 1000))~",
                    R"~(set(profile.sample_type.type, "samples") where profile.sample_type.unit == "nanoseconds")~",
                    R"~(set(profile.attributes["start"], profile.time_unix_nano))~"}),
            "");
  EXPECT_EQ(b.view(b.profiles[0].original_payload_format), "json");
  EXPECT_EQ(b.profiles[0].period, 10'000'000);
  EXPECT_EQ(b.string(b.profiles[0].sample_type.type_strindex), "samples");
  EXPECT_EQ(profileAttr(b, "start"), "1700000000000000000");
}

TEST(OttlEvaluator, ConditionsAndComparisons) {
  flat::Batch b = smallBatch();
  EXPECT_THAT(evalCondition(b, R"~(resource.attributes["env"] == "prod" and not (resource.attributes["x"] != nil))~"),
              ElementsAre(true));
  EXPECT_THAT(evalCondition(b, "sample.values[0] > 15"), ElementsAre(false, true, true));
  EXPECT_THAT(evalCondition(b, "sample.values[0] == 10.0 or sample.values[0] * 2 == 60"), ElementsAre(true, false, true));
  EXPECT_THAT(evalCondition(b, R"~(sample.attributes["thread"] == "t1")~"), ElementsAre(true, false, false));
  EXPECT_THAT(evalCondition(b, R"~(profile.sample_type.type == "cpu" and profile.sample_type.unit == "nanoseconds")~"),
              ElementsAre(true));
  // Different kinds are never equal, and have no order.
  EXPECT_THAT(evalCondition(b, R"~(resource.attributes["env"] == 1 or resource.attributes["env"] > 1)~"), ElementsAre(false));
  EXPECT_THAT(evalCondition(b, R"~("b" > "a" and true != false and nil == nil and [1, "a"] == [1, "a"])~", "resource"),
              ElementsAre(true));
  EXPECT_THAT(evalCondition(b, R"~({"a": 1} == {"a": 1} and {"a": 1} != {"a": 2})~", "resource"), ElementsAre(true));
}

TEST(OttlEvaluator, ErrorModes) {
  flat::Batch b = smallBatch();
  // Ints and floats do not mix; propagate refuses the batch with the statement and column.
  std::string e = run(b, {R"~(set(resource.attributes["x"], 1 + 1.5))~"});
  EXPECT_THAT(e, HasSubstr("column 33"));
  EXPECT_THAT(e, HasSubstr("ints and floats do not mix"));
  EXPECT_THAT(run(b, {R"~(set(resource.attributes["x"], 1 / 0))~"}), HasSubstr("division by zero"));
  // ignore: the failing statement is skipped, the others run.
  EXPECT_EQ(run(b, {R"(set(resource.attributes["x"], 1 / 0))", R"(set(resource.attributes["y"], "ok"))"}, "", {},
                ErrorMode::kIgnore),
            "");
  EXPECT_EQ(resourceAttr(b, "x"), "<absent>");
  EXPECT_EQ(resourceAttr(b, "y"), "ok");
}

TEST(OttlEvaluator, GroupConditionsAreOred) {
  flat::Batch b = smallBatch();
  EXPECT_EQ(run(b, {R"~(set(sample.attributes["picked"], "yes"))~"}, "sample",
                {"values[0] == 10", R"~(attributes["thread"] == "nope" or values[0] == 20)~"}),
            "");
  EXPECT_EQ(sampleAttr(b, "picked", 0), "yes");
  EXPECT_EQ(sampleAttr(b, "picked", 1), "yes");
  EXPECT_EQ(sampleAttr(b, "picked", 2), "<absent>");
}

// Group conditions on the resource in a sample group are answered once per resource; a group whose
// statements write the resource answers them per sample, as they may change on the way.
TEST(OttlEvaluator, GroupConditionsOnAnOuterLevel) {
  flat::Batch b = smallBatch();
  EXPECT_EQ(run(b, {R"~(set(attributes["picked"], "yes") where values[0] != 20)~"}, "sample",
                {R"~(resource.attributes["service.name"] == "api")~"}),
            "");
  EXPECT_EQ(sampleAttr(b, "picked", 0), "yes");
  EXPECT_EQ(sampleAttr(b, "picked", 1), "<absent>");
  EXPECT_EQ(sampleAttr(b, "picked", 2), "yes");
  EXPECT_EQ(run(b, {R"~(set(attributes["other"], "yes"))~"}, "sample",
                {R"~(resource.attributes["service.name"] == "other")~"}),
            "");
  for (uint32_t row = 0; row < 3; ++row) EXPECT_EQ(sampleAttr(b, "other", row), "<absent>");
  // The first sample's statement changes what the condition reads: only it is edited.
  EXPECT_EQ(run(b, {R"~(set(resource.attributes["seen"], 1))~", R"~(set(attributes["first"], "yes"))~"}, "sample",
                {R"~(resource.attributes["seen"] == nil)~"}),
            "");
  EXPECT_EQ(sampleAttr(b, "first", 0), "yes");
  EXPECT_EQ(sampleAttr(b, "first", 1), "<absent>");
  EXPECT_EQ(sampleAttr(b, "first", 2), "<absent>");
}

TEST(OttlEvaluator, ReferenceBasedAttributesSurviveEdits) {
  otlp::Request req = smallRequest();
  proflow::testing::referenceResourceAttributes(&req);
  ASSERT_NE(req.resource_profiles(0).resource().attributes(0).key_strindex(), 0);
  flat::Batch b = toFlat(req);
  EXPECT_EQ(run(b, {R"(delete_key(resource.attributes, "env"))", R"(set(resource.attributes["new"], "n"))"}), "");
  otlp::Request out = toProto(b);
  const auto& attrs = out.resource_profiles(0).resource().attributes();
  ASSERT_EQ(attrs.size(), 2);
  // The untouched attribute keeps its reference-based encoding; the new one is inline.
  EXPECT_NE(attrs[0].key_strindex(), 0);
  EXPECT_EQ(out.dictionary().string_table(attrs[0].key_strindex()), "service.name");
  EXPECT_EQ(attrs[1].key(), "new");
  EXPECT_EQ(resourceAttr(b, "service.name"), "api");
}

TEST(OttlEvaluator, CacheAndNestedMaps) {
  flat::Batch b = smallBatch();
  EXPECT_EQ(run(b, {R"~(set(cache["parts"], Split("a.b.c", ".")))~",
                    R"~(set(resource.attributes["first"], cache["parts"][0]))~",
                    R"~(set(resource.attributes["nested"], {"k": {"n": 1}}))~",
                    R"~(set(resource.attributes["nested"]["k"]["m"], 2))~",
                    R"~(set(resource.attributes["n"], resource.attributes["nested"]["k"]["n"] + 1))~"}),
            "");
  EXPECT_EQ(resourceAttr(b, "first"), "a");
  EXPECT_EQ(resourceAttr(b, "n"), "2");
  EXPECT_THAT(evalCondition(b, R"~(resource.attributes["nested"]["k"]["m"] == 2)~"), ElementsAre(true));
}

TEST(OttlEvaluator, EditsOfSharedSampleListsAreInternedOnce) {
  proflow::testing::ProfileSpec p = proflow::testing::makeProfile(200, 1);
  flat::Batch b = toFlat(proflow::testing::makeRequest("api", {p}));
  const size_t before = b.indices.size();
  EXPECT_EQ(run(b, {R"~(set(sample.attributes["k"], "v"))~"}), "");
  for (uint32_t row = 0; row < b.samples.size(); ++row) EXPECT_EQ(sampleAttr(b, "k", row), "v");
  // 200 samples share a handful of lists: the new lists are appended once each, not per sample.
  EXPECT_LT(b.indices.size() - before, 50u);
}

// A sample's or profile's list is edited as dictionary indexes while statements only set scalars by
// key and delete keys; the result must be what editing it as a map gives.
TEST(OttlEvaluator, IndexListEditsMatchMapEdits) {
  flat::Batch listed = smallBatch(), mapped = smallBatch();
  EXPECT_EQ(run(listed, {R"~(set(sample.attributes["k"], "v"))~", R"~(set(sample.attributes["thread"], "t2"))~",
                         R"~(delete_key(sample.attributes, "k") where sample.values[0] == 20)~",
                         R"~(set(profile.attributes["n"], 3))~"}),
            "");
  EXPECT_EQ(run(mapped, {R"~(merge_maps(sample.attributes, {"k": "v", "thread": "t2"}, "upsert"))~",
                         R"~(delete_matching_keys(sample.attributes, "^k$") where sample.values[0] == 20)~",
                         R"~(merge_maps(profile.attributes, {"n": 3}, "upsert"))~"}),
            "");
  for (uint32_t row = 0; row < 3; ++row)
    for (const char* key : {"k", "thread"}) EXPECT_EQ(sampleAttr(listed, key, row), sampleAttr(mapped, key, row)) << row;
  EXPECT_EQ(sampleAttr(listed, "k", 1), "<absent>");
  EXPECT_EQ(sampleAttr(listed, "thread", 0), "t2");
  EXPECT_EQ(profileAttr(listed, "n"), "3");
  // Setting the value an entry already has changes nothing, not even its index list.
  flat::Batch same = smallBatch();
  const flat::Range before = same.samples.attributes[0];
  EXPECT_EQ(run(same, {R"~(set(sample.attributes["thread"], "t1"))~"}), "");
  EXPECT_EQ(same.samples.attributes[0].begin, before.begin);
  // A value set on many samples is one dictionary attribute.
  const size_t attributes = same.attributes.size();
  EXPECT_EQ(run(same, {R"~(set(sample.attributes["gc"], true))~"}), "");
  EXPECT_EQ(same.attributes.size(), attributes + 1);
}

}  // namespace
}  // namespace proflow::ottl
