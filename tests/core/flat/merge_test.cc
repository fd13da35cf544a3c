// Merging through the flat model gives the request RequestMerger gives, table for table.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include "tests/support/flat_request.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/flat/flat_merge.h"
#include "tests/support/request_merger.h"
#include "tests/core/flat/test_requests.h"

namespace proflow::flat {
namespace {

using google::protobuf::util::MessageDifferencer;

Batch decoded(const otlp::Request& r) {
  Batch b;
  EXPECT_TRUE(decode(r.SerializeAsString(), &b).request.isOk());
  return b;
}

void expectSameAsRequestMerger(const std::vector<otlp::Request>& inputs, const otlp::Request& start) {
  otlp::Request want = start;
  {
    RequestMerger merger(&want);
    for (const auto& r : inputs) merger.append(r);
  }
  Batch got = decoded(start);
  {
    std::vector<Batch> batches;
    for (const auto& r : inputs) batches.push_back(decoded(r));
    Merger merger(&got);
    for (size_t i = 0; i < batches.size(); i += 2) merger.expect(batches[i]);  // only a hint
    for (const auto& b : batches) merger.append(b);
  }
  otlp::Request got_request;
  ASSERT_TRUE(got_request.ParseFromString(encode(got)));
  std::string diff;
  MessageDifferencer d;
  d.ReportDifferencesToString(&diff);
  EXPECT_TRUE(d.Compare(want, got_request)) << diff.substr(0, 4000);
}

TEST(FlatMerge, SameAsRequestMergerOverTheCorpus) {
  std::vector<otlp::Request> inputs;
  for (auto& [name, r] : testing::corpus()) inputs.push_back(r);
  for (uint32_t seed = 0; seed < 6; ++seed) inputs.push_back(testing::agentRequest(2, 50, seed));
  inputs.push_back(testing::everyFieldRequest());  // everything again: all of it is deduplicated
  expectSameAsRequestMerger(inputs, otlp::Request());
}

TEST(FlatMerge, IntoANonEmptyDestinationReusesItsEntriesAndResources) {
  std::vector<otlp::Request> inputs = {testing::agentRequest(1, 30, 3), testing::everyFieldRequest()};
  expectSameAsRequestMerger(inputs, testing::agentRequest(2, 40, 0));
  expectSameAsRequestMerger(inputs, testing::everyFieldRequest());
}

TEST(FlatMerge, CombinesResourcesWithIdenticalAttributesWhateverTheirForm) {
  // service.name=svc inline in one request, reference-based in the other: one resource.
  otlp::Request a = testing::agentRequest(1, 5, 0);
  otlp::Request b = testing::agentRequest(1, 5, 3);  // same service (seed % 3)
  auto* kv = b.mutable_resource_profiles(0)->mutable_resource()->mutable_attributes(0);
  const std::string value = kv->value().string_value();
  auto* strings = b.mutable_dictionary()->mutable_string_table();
  strings->Add("service.name");
  kv->set_key_strindex(strings->size() - 1);
  kv->clear_key();
  strings->Add(std::string(value));
  kv->mutable_value()->set_string_value_strindex(strings->size() - 1);

  Batch merged;
  Merger merger(&merged);
  merger.append(decoded(a));
  merger.append(decoded(b));
  EXPECT_EQ(merged.resources.size(), 1u);
  EXPECT_EQ(merged.resources[0].scope_count, 2u);
  EXPECT_EQ(merged.counts().profiles, 2u);
  expectSameAsRequestMerger({a, b}, otlp::Request());
}

TEST(FlatMerge, AppendingABatchToItselfDoublesItsProfiles) {
  Batch b = decoded(testing::agentRequest(2, 20, 1));
  const size_t strings = b.strings.size();
  Merger merger(&b);
  merger.append(b);
  EXPECT_EQ(b.counts().profiles, 4u);
  EXPECT_EQ(b.strings.size(), strings);  // every string was already there
}

TEST(FlatMerge, ResourceIdentityIsTheTextTheProtobufFormGives) {
  // Shards and load-balancing routes hash this text: it must not move when the model changes.
  std::vector<otlp::Request> inputs = {testing::everyFieldRequest()};
  for (auto& [name, r] : testing::corpus()) inputs.push_back(r);
  for (const auto& r : inputs) {
    const Batch b = decoded(r);
    ASSERT_EQ(b.resources.size(), static_cast<size_t>(r.resource_profiles_size()));
    for (int i = 0; i < r.resource_profiles_size(); ++i) {
      const auto& rp = r.resource_profiles(i);
      const std::string want = ::proflow::keyValuesIdentity(rp.resource().attributes(), r.dictionary());
      EXPECT_EQ(keyValuesIdentity(b, b.resources[static_cast<size_t>(i)].attributes), want);
      EXPECT_EQ(resourceIdentity(b, b.resources[static_cast<size_t>(i)]), rp.schema_url() + '\n' + want);
    }
  }
}

}  // namespace
}  // namespace proflow::flat
