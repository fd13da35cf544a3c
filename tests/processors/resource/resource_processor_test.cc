#include "processors/resource/resource_processor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>

#include "core/config/config_loader.h"
#include "tests/support/dictionary_builder.h"
#include "processors/resource/factory.h"
#include "tests/support/component_config.h"
#include "tests/support/profile_builder.h"
#include "tests/support/flat_request.h"

namespace proflow::processors::resource {
namespace {

using ::testing::HasSubstr;

struct Sink : ProfilesConsumer {
  Status consume(Batch b) override {
    std::lock_guard lock(mu);
    got.push_back(std::move(b));
    return Status::ok();
  }
  std::mutex mu;
  std::vector<Batch> got;
};

config::ConfigErrors validate(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig(*makeResourceProcessorFactory(), yaml, "processors.resource");
}

ResourceProcessorConfig parse(const std::string& yaml) {
  config::ConfigErrors errors;
  auto loaded = config::parseYaml(yaml, "t.yaml", errors);
  config::TypedConfig<ResourceProcessorConfig> cfg;
  cfg.decode(loaded.root, "processors.resource", errors);
  cfg.validate(errors);
  EXPECT_TRUE(errors.empty()) << errors.format();
  return cfg.value();
}

// Resource attributes as "key=value" with references resolved.
std::vector<std::string> attrs(const otlp::Request& r, int i) {
  std::vector<std::string> out;
  const auto& d = r.dictionary();
  for (const auto& kv : r.resource_profiles(i).resource().attributes()) {
    std::string k = kv.key_strindex() ? std::string(dictString(d, kv.key_strindex())) : kv.key();
    const auto& v = kv.value();
    std::string val = v.has_string_value_strindex() ? std::string(dictString(d, v.string_value_strindex()))
                      : v.has_int_value()           ? "i:" + std::to_string(v.int_value())
                                                    : v.string_value();
    out.push_back(k + "=" + val);
  }
  return out;
}

TEST(ResourceProcessorConfig, ErrorsPointAtTheField) {
  EXPECT_THAT(validate("{}\n").format(), HasSubstr("attributes must list at least one action"));
  auto e = validate("attributes:\n  - key: a\n    action: upsert\n").format();
  EXPECT_THAT(e, HasSubstr("t.yaml:2:"));
  EXPECT_THAT(e, HasSubstr("processors.resource.attributes[0]"));
  EXPECT_THAT(e, HasSubstr("needs exactly one of value, from_attribute or from_context"));
  EXPECT_THAT(validate("actions: []\n").format(), HasSubstr("unknown key 'actions'"));
  EXPECT_TRUE(validate("attributes: [{key: env, value: prod, action: upsert}]\n").empty());
}

// Two resources whose attributes reference the same string-table entries: editing one writes
// inline and leaves the table and the other resource as they were.
TEST(ResourceProcessor, ReadsReferencesWritesInlineAndLeavesOtherResourcesAlone) {
  auto req = testing::makeRequest("checkout", {testing::makeProfile(3)});
  *req.add_resource_profiles() = req.resource_profiles(0);
  DictionaryBuilder dict(req.mutable_dictionary());
  for (int i = 0; i < 2; ++i) {
    auto* kv = req.mutable_resource_profiles(i)->mutable_resource()->add_attributes();
    kv->set_key_strindex(dict.string("host.name"));
    kv->mutable_value()->set_string_value_strindex(dict.string(i == 0 ? "node-1" : "node-2"));
  }
  auto table_before = req.dictionary().string_table();
  // Dots are not allowed in group names (regex syntax): rejected at validation.
  EXPECT_FALSE(validate("attributes: [{key: host.name, action: extract, pattern: '^node-(?P<node.index>1)$'}]\n")
                   .empty());
  ResourceProcessorConfig cfg = parse(R"(
attributes:
  - {key: host.name, action: extract, pattern: '^node-(?P<node_index>1)$'}
  - {key: node_index, action: convert, converted_type: int}
)");
  auto sink = std::make_shared<Sink>();
  ResourceProcessor p(CreateSettings{}, cfg, sink);
  ASSERT_TRUE(p.consume(::proflow::testing::batchOf(std::move(req))).isOk());
  ASSERT_EQ(sink->got.size(), 1u);
  const auto& out = ::proflow::testing::requestOf(sink->got[0]);
  EXPECT_EQ(attrs(out, 0), (std::vector<std::string>{"service.name=checkout", "host.name=node-1", "node_index=i:1"}));
  EXPECT_EQ(attrs(out, 1), (std::vector<std::string>{"service.name=checkout", "host.name=node-2"}));
  // The untouched reference-based entry stays reference-based; the table is not edited.
  EXPECT_NE(out.resource_profiles(0).resource().attributes(1).key_strindex(), 0);
  EXPECT_EQ(out.resource_profiles(0).resource().attributes(2).key(), "node_index");
  EXPECT_TRUE(std::equal(table_before.begin(), table_before.end(), out.dictionary().string_table().begin(),
                         out.dictionary().string_table().end()));
  EXPECT_THAT(testing::dictionaryProblems(out), ::testing::IsEmpty());
}

TEST(ResourceProcessor, UpdatedReferenceBasedValueIsWrittenInline) {
  auto req = testing::makeRequest("checkout", {testing::makeProfile(2)});
  DictionaryBuilder dict(req.mutable_dictionary());
  auto* kv = req.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
  kv->set_key_strindex(dict.string("user.email"));
  kv->mutable_value()->set_string_value_strindex(dict.string("alice"));
  auto sink = std::make_shared<Sink>();
  ResourceProcessor p(CreateSettings{}, parse(R"(
attributes:
  - {key: user.email, action: hash}
  - {key: service.name, action: delete}
  - {key: deployment.environment, action: insert, value: prod}
  - {key: env_copy, action: insert, from_attribute: deployment.environment}
)"),
                      sink);
  ASSERT_TRUE(p.consume(::proflow::testing::batchOf(std::move(req))).isOk());
  const auto& out = ::proflow::testing::requestOf(sink->got.at(0));
  EXPECT_EQ(attrs(out, 0), (std::vector<std::string>{
                               "user.email=2bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90",
                               "deployment.environment=prod", "env_copy=prod"}));
  const auto& hashed = out.resource_profiles(0).resource().attributes(0);
  EXPECT_EQ(hashed.key_strindex(), 0);
  EXPECT_EQ(hashed.key(), "user.email");
  EXPECT_TRUE(hashed.value().has_string_value());
}

}  // namespace
}  // namespace proflow::processors::resource
