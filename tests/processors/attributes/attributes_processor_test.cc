#include "processors/attributes/attributes_processor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/config/config_loader.h"
#include "tests/support/dictionary_builder.h"
#include "tests/support/flat_request.h"
#include "processors/attributes/factory.h"
#include "tests/support/component_config.h"
#include "tests/support/profile_builder.h"

namespace proflow::processors::attributes {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Strings = std::vector<std::string>;

config::ConfigErrors validate(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig(*makeAttributesProcessorFactory(), yaml, "processors.attributes");
}

AttributesProcessorConfig parse(const std::string& yaml) {
  config::ConfigErrors errors;
  auto loaded = config::parseYaml(yaml, "t.yaml", errors);
  config::TypedConfig<AttributesProcessorConfig> cfg;
  cfg.decode(loaded.root, "processors.attributes", errors);
  cfg.validate(errors);
  EXPECT_TRUE(errors.empty()) << errors.format();
  return cfg.value();
}

otlp::Request run(const std::string& yaml, otlp::Request req) {
  auto cfg = parse(yaml);
  proflow::attributes::ActionSet actions(cfg.actions);
  ProfileMatcher matcher(cfg.include, cfg.exclude);
  flat::Batch batch;
  EXPECT_TRUE(flat::fromRequest(req, &batch).isOk());
  applyToSamples(actions, matcher, batch);
  EXPECT_TRUE(flat::toRequest(batch, &req).isOk());
  return req;
}

// A sample's attributes as "key=value" (strings and ints), in list order.
Strings sampleAttrs(const otlp::Request& r, int resource, int profile, int sample) {
  const auto& d = r.dictionary();
  const auto& s = r.resource_profiles(resource).scope_profiles(0).profiles(profile).samples(sample);
  Strings out;
  for (int32_t i : s.attribute_indices()) {
    const auto& e = d.attribute_table(i);
    std::string v = e.value().has_int_value() ? "i:" + std::to_string(e.value().int_value()) : e.value().string_value();
    out.push_back(std::string(dictString(d, e.key_strindex())) + "=" + v);
  }
  return out;
}

void expectUniqueKeys(const otlp::Request& r) {
  const auto& d = r.dictionary();
  for (const auto& rp : r.resource_profiles())
    for (const auto& p : rp.scope_profiles(0).profiles())
      for (const auto& s : p.samples()) {
        std::set<std::string> keys;
        for (int32_t i : s.attribute_indices())
          EXPECT_TRUE(keys.insert(std::string(dictString(d, d.attribute_table(i).key_strindex()))).second);
      }
}

// One resource, a cpu and an alloc_space profile; every sample of both references the same
// thread.name=main entry (and the first sample of each a shared tid entry).
otlp::Request sharedRequest(const std::string& service = "checkout") {
  testing::ProfileSpec cpu = testing::makeProfile(3);
  testing::ProfileSpec alloc = testing::makeProfile(3, 1);
  alloc.sample_type = "alloc_space";
  alloc.sample_unit = "bytes";
  auto req = testing::makeRequest(service, {cpu, alloc});
  DictionaryBuilder b(req.mutable_dictionary());
  int32_t thread = b.stringAttribute("thread.name", "main");
  int32_t tid = b.intAttribute("thread.id", 7);
  for (auto& p : *req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles())
    for (int i = 0; i < p.samples_size(); ++i) {
      p.mutable_samples(i)->add_attribute_indices(thread);
      if (i == 0) p.mutable_samples(i)->add_attribute_indices(tid);
    }
  return req;
}

TEST(AttributesProcessorConfig, ErrorsPointAtTheField) {
  EXPECT_THAT(validate("{}\n").format(), HasSubstr("actions must list at least one action"));
  auto e = validate("include:\n  match_type: fuzzy\n  services: [a]\nactions: [{key: a, action: delete}]\n").format();
  EXPECT_THAT(e, HasSubstr("t.yaml:2:"));
  EXPECT_THAT(e, HasSubstr("match_type must be strict or regexp, got 'fuzzy'"));
  EXPECT_THAT(validate("exclude: {}\nactions: [{key: a, action: delete}]\n").format(),
              HasSubstr("processors.attributes.exclude: needs at least one of sample_types or services"));
  EXPECT_THAT(validate("include: {match_type: regexp, services: ['(']}\nactions: [{key: a, action: delete}]\n").format(),
              HasSubstr("include.services[0]"));
  EXPECT_THAT(validate("include: {sample_type: [cpu]}\nactions: [{key: a, action: delete}]\n").format(),
              HasSubstr("unknown key 'sample_type'"));
  EXPECT_THAT(validate("actions: [{key: a, action: update}]\n").format(),
              HasSubstr("actions[0].value: action 'update' needs exactly one of value, from_attribute or from_context"));
  EXPECT_TRUE(validate("include: {sample_types: [cpu], services: [a]}\nexclude: {match_type: regexp, services: ['^b']}\n"
                       "actions: [{key: a, action: delete}]\n")
                  .empty());
}

TEST(AttributesProcessor, EditingOneProfileLeavesSharedEntriesOfAnotherAlone) {
  auto in = sharedRequest();
  const int32_t thread_entry = in.resource_profiles(0).scope_profiles(0).profiles(1).samples(0).attribute_indices(0);
  const auto entry_before = in.dictionary().attribute_table(thread_entry).SerializeAsString();
  auto out = run(R"(
include: { sample_types: [cpu] }
actions:
  - { key: thread.name, action: update, value: worker }
  - { key: thread.id, action: delete }
  - { key: profiled, action: insert, value: 1 }
)",
                 in);
  for (int s = 0; s < 3; ++s) {
    Strings want = {"thread.name=worker", "profiled=i:1"};
    EXPECT_EQ(sampleAttrs(out, 0, 0, s), want) << s;
  }
  // The alloc profile still points at the very same entries, which were not edited.
  EXPECT_EQ(sampleAttrs(out, 0, 1, 0), (Strings{"thread.name=main", "thread.id=i:7"}));
  EXPECT_EQ(sampleAttrs(out, 0, 1, 1), (Strings{"thread.name=main"}));
  EXPECT_EQ(out.resource_profiles(0).scope_profiles(0).profiles(1).samples(0).attribute_indices(0), thread_entry);
  EXPECT_EQ(out.dictionary().attribute_table(thread_entry).SerializeAsString(), entry_before);
  // Equal edited lists share the new entries (interned, not duplicated).
  EXPECT_EQ(out.dictionary().attribute_table_size(), in.dictionary().attribute_table_size() + 2);
  expectUniqueKeys(out);
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
}

TEST(AttributesProcessor, ReusesAnExistingEqualEntryInsteadOfAddingOne) {
  auto in = sharedRequest();
  auto out = run("actions: [{ key: thread.id, action: upsert, value: 7 }]\n", in);
  // thread.id=7 exists already: samples that lacked it now reference the existing entry.
  EXPECT_EQ(out.dictionary().attribute_table_size(), in.dictionary().attribute_table_size());
  EXPECT_EQ(sampleAttrs(out, 0, 1, 2), (Strings{"thread.name=main", "thread.id=i:7"}));
  expectUniqueKeys(out);
}

TEST(AttributesProcessor, IncludeAndExcludeByService) {
  otlp::Request req = sharedRequest("checkout");
  otlp::Request other = sharedRequest("billing");
  // Two resources with one dictionary: copy the second resource over (same dictionary layout).
  ASSERT_EQ(req.dictionary().SerializeAsString(), other.dictionary().SerializeAsString());
  *req.add_resource_profiles() = other.resource_profiles(0);
  const std::string actions = "actions: [{ key: thread.name, action: hash }]\n";
  auto excluded = run("exclude: { services: [billing] }\n" + actions, req);
  EXPECT_EQ(sampleAttrs(excluded, 0, 0, 1)[0].size(), std::string("thread.name=").size() + 64);
  EXPECT_EQ(sampleAttrs(excluded, 0, 1, 1)[0].size(), std::string("thread.name=").size() + 64);
  EXPECT_EQ(sampleAttrs(excluded, 1, 0, 1), (Strings{"thread.name=main"}));
  auto regexp = run("include: { match_type: regexp, services: ['^bill'], sample_types: ['^alloc_'] }\n" + actions, req);
  EXPECT_EQ(sampleAttrs(regexp, 0, 1, 1), (Strings{"thread.name=main"}));
  EXPECT_EQ(sampleAttrs(regexp, 1, 0, 1), (Strings{"thread.name=main"}));
  EXPECT_NE(sampleAttrs(regexp, 1, 1, 1), (Strings{"thread.name=main"}));
  EXPECT_THAT(testing::dictionaryProblems(regexp), IsEmpty());
}

TEST(AttributesProcessor, ExtractAndConvertKeepUnits) {
  auto req = testing::makeRequest("svc", {testing::makeProfile(2)});
  DictionaryBuilder b(req.mutable_dictionary());
  int32_t path = b.stringAttribute("http.route", "/api/v3/orders");
  int32_t size = b.attribute("payload.size", [] {
    otlp::AnyValue v;
    v.set_string_value("512");
    return v;
  }(), "bytes");
  auto* p = req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0);
  p->mutable_samples(0)->add_attribute_indices(path);
  p->mutable_samples(0)->add_attribute_indices(size);
  auto out = run(R"(
actions:
  - { key: http.route, action: extract, pattern: '^/api/(?P<api_version>v\d+)/(?<resource>\w+)' }
  - { key: payload.size, action: convert, converted_type: int }
)",
                 req);
  EXPECT_EQ(sampleAttrs(out, 0, 0, 0),
            (Strings{"http.route=/api/v3/orders", "payload.size=i:512", "api_version=v3", "resource=orders"}));
  const auto& d = out.dictionary();
  int32_t converted = out.resource_profiles(0).scope_profiles(0).profiles(0).samples(0).attribute_indices(1);
  EXPECT_EQ(dictString(d, d.attribute_table(converted).unit_strindex()), "bytes");
  EXPECT_THAT(sampleAttrs(out, 0, 0, 1), IsEmpty());
}

}  // namespace
}  // namespace proflow::processors::attributes
