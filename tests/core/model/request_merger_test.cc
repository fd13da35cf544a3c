#include <gtest/gtest.h>

#include "tests/support/request_merger.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

using testing::makeRequest;
using testing::ProfileSpec;
using testing::SampleSpec;
using testing::stackFrames;

ProfileSpec spec(std::vector<SampleSpec> samples) {
  ProfileSpec p;
  p.samples = std::move(samples);
  return p;
}

TEST(RequestMerger, RemapsEveryIndexIntoOneDictionary) {
  auto a = makeRequest("svc-a", {spec({{{"leaf", "main"}, 5}, {{"other", "main"}, 2}})});
  auto b = makeRequest("svc-b", {spec({{{"main"}, 1}, {{"zzz", "leaf", "main"}, 9}})});
  otlp::Request merged;
  RequestMerger m(&merged);
  m.append(a);
  m.append(b);
  ASSERT_TRUE(testing::dictionaryProblems(merged).empty());
  ASSERT_EQ(merged.resource_profiles_size(), 2);
  EXPECT_EQ(testing::serviceName(merged, 0), "svc-a");
  EXPECT_EQ(testing::serviceName(merged, 1), "svc-b");

  const auto& d = merged.dictionary();
  const auto& pa = merged.resource_profiles(0).scope_profiles(0).profiles(0);
  const auto& pb = merged.resource_profiles(1).scope_profiles(0).profiles(0);
  EXPECT_EQ(stackFrames(d, pa.samples(0).stack_index()), (std::vector<std::string>{"leaf", "main"}));
  EXPECT_EQ(stackFrames(d, pa.samples(1).stack_index()), (std::vector<std::string>{"other", "main"}));
  EXPECT_EQ(stackFrames(d, pb.samples(0).stack_index()), (std::vector<std::string>{"main"}));
  EXPECT_EQ(stackFrames(d, pb.samples(1).stack_index()), (std::vector<std::string>{"zzz", "leaf", "main"}));
  EXPECT_EQ(pb.samples(1).values(0), 9);
  // "main" and "leaf" are shared, so their functions exist once.
  int mains = 0;
  for (const auto& f : d.function_table())
    if (d.string_table(f.name_strindex()) == "main") ++mains;
  EXPECT_EQ(mains, 1);
}

TEST(RequestMerger, CombinesIdenticalResourcesButKeepsScopesApart) {
  auto a = makeRequest("same", {spec({{{"a"}, 1}})});
  auto b = makeRequest("same", {spec({{{"b"}, 1}})});
  otlp::Request merged;
  RequestMerger m(&merged);
  m.append(a);
  m.append(b);
  ASSERT_EQ(merged.resource_profiles_size(), 1);
  EXPECT_EQ(merged.resource_profiles(0).scope_profiles_size(), 2);
}

TEST(RequestMerger, ResolvesReferenceBasedResourceAttributes) {
  // A resource attribute that points into the source string table must survive the remap
  // (the Collector once corrupted these keys when batching).
  auto a = makeRequest("x", {spec({{{"f"}, 1}})});
  auto src = a;
  auto* d = src.mutable_dictionary();
  int key = d->string_table_size();
  d->add_string_table("host.name");
  d->add_string_table("node-7");
  auto* kv = src.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
  kv->set_key_strindex(key);
  kv->mutable_value()->set_string_value_strindex(key + 1);

  otlp::Request merged;
  RequestMerger m(&merged);
  m.append(a);  // shifts string indexes of the destination
  m.append(src);
  ASSERT_EQ(merged.resource_profiles_size(), 2);
  const auto& attr = merged.resource_profiles(1).resource().attributes(1);
  EXPECT_EQ(merged.dictionary().string_table(attr.key_strindex()), "host.name");
  EXPECT_EQ(merged.dictionary().string_table(attr.value().string_value_strindex()), "node-7");
}

TEST(RequestMerger, DropsOrphanEntries) {
  auto a = makeRequest("x", {spec({{{"f"}, 1}})});
  a.mutable_dictionary()->add_string_table("orphan");
  otlp::Request merged;
  RequestMerger m(&merged);
  m.append(a);
  for (const auto& s : merged.dictionary().string_table()) EXPECT_NE(s, "orphan");
}

}  // namespace
}  // namespace proflow
