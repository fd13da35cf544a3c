// Cutting a flat batch: by profile count (the batch processor's send_batch_max_size) and by
// resource (its shards), each part with only the dictionary entries its profiles reference.
#include <google/protobuf/util/message_differencer.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/model/batch.h"
#include "tests/support/flat_request.h"
#include "core/flat/flat_merge.h"
#include "core/flat/flat_split.h"
#include "tests/support/request_merger.h"
#include "tests/core/flat/test_requests.h"
#include "tests/support/profile_builder.h"

namespace proflow::flat {
namespace {

using ::proflow::testing::dictionaryProblems;
using ::proflow::testing::ProfileSpec;
using ::testing::IsEmpty;

// Two resources: "a" with 6 profiles, "b" with 4, every profile with one distinct leaf function.
otlp::Request tenProfiles() {
  auto profile = [](int i) {
    ProfileSpec p;
    p.samples.push_back({{"leaf" + std::to_string(i), "main"}, i});
    return p;
  };
  std::vector<ProfileSpec> a, b;
  for (int i = 0; i < 6; ++i) a.push_back(profile(i));
  for (int i = 6; i < 10; ++i) b.push_back(profile(i));
  otlp::Request r = ::proflow::testing::makeRequest("a", a);
  RequestMerger(&r).append(::proflow::testing::makeRequest("b", b));
  return r;
}

Batch flatOf(const otlp::Request& r) {
  Batch b;
  EXPECT_TRUE(fromRequest(r, &b).isOk());
  return b;
}

otlp::Request requestOf(const Batch& b) {
  otlp::Request r;
  EXPECT_TRUE(toRequest(b, &r).isOk());
  return r;
}

TEST(FlatSplit, CutsIntoPartsOfAtMostNProfilesInOrder) {
  // [a0..a3] [a4 a5 | b6 b7] [b8 b9]: the middle part straddles both resources.
  auto parts = splitByProfiles(flatOf(tenProfiles()), 4);
  ASSERT_EQ(parts.size(), 3u);
  std::vector<std::string> services;
  int next_value = 0;
  for (const auto& flat_part : parts) {
    const otlp::Request part = requestOf(flat_part);
    EXPECT_THAT(dictionaryProblems(part), IsEmpty());
    EXPECT_LE(flat_part.counts().profiles, 4u);
    for (int r = 0; r < part.resource_profiles_size(); ++r) {
      services.push_back(::proflow::testing::serviceName(part, r));
      ASSERT_EQ(part.resource_profiles(r).scope_profiles_size(), 1);  // no scope without profiles
      for (const auto& p : part.resource_profiles(r).scope_profiles(0).profiles()) {
        const auto& s = p.samples(0);
        EXPECT_EQ(s.values(0), next_value);
        EXPECT_EQ(::proflow::testing::stackFrames(part.dictionary(), s.stack_index()),
                  (std::vector<std::string>{"leaf" + std::to_string(next_value), "main"}));
        ++next_value;
      }
    }
  }
  EXPECT_EQ(next_value, 10);
  EXPECT_EQ(services, (std::vector<std::string>{"a", "a", "b", "b"}));
}

TEST(FlatSplit, EachPartCarriesOnlyWhatItsProfilesReference) {
  auto parts = splitByProfiles(flatOf(tenProfiles()), 3);
  const otlp::Request first = requestOf(parts[0]);
  const auto& strings = first.dictionary().string_table();
  auto has = [&](const std::string& s) { return std::find(strings.begin(), strings.end(), s) != strings.end(); };
  EXPECT_TRUE(has("leaf0"));
  EXPECT_TRUE(has("leaf2"));
  EXPECT_FALSE(has("leaf3"));
  EXPECT_FALSE(has("leaf9"));
}

TEST(FlatSplit, SmallBatchesPassThroughUntouched) {
  Batch b = flatOf(tenProfiles());
  const std::string before = tenProfiles().SerializeAsString();
  auto parts = splitByProfiles(std::move(b), 10);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(requestOf(parts[0]).SerializeAsString(), before);
  EXPECT_EQ(splitByProfiles(flatOf(tenProfiles()), 0).size(), 1u);
}

TEST(FlatSplit, ByResourceGivesWhatRequestMergerGivesForThoseResources) {
  // Three services (one of them reference-based) over the corpus' every-field request.
  otlp::Request src = testing::everyFieldRequest();
  RequestMerger merger(&src);
  merger.append(testing::agentRequest(2, 40, 1));
  merger.append(tenProfiles());
  const Batch flat_src = flatOf(src);
  ASSERT_GE(flat_src.resources.size(), 3u);
  std::vector<uint32_t> group(flat_src.resources.size());
  for (size_t r = 0; r < group.size(); ++r) group[r] = static_cast<uint32_t>(r % 2);
  std::vector<Batch> parts = splitByResource(flat_src, group, 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2].counts().profiles, 0u);  // a group without resources
  for (uint32_t g = 0; g < 2; ++g) {
    std::vector<int> resources;
    for (size_t r = 0; r < group.size(); ++r)
      if (group[r] == g) resources.push_back(static_cast<int>(r));
    otlp::Request want;
    RequestMerger(&want).appendResources(src, resources);
    std::string diff;
    google::protobuf::util::MessageDifferencer d;
    d.ReportDifferencesToString(&diff);
    EXPECT_TRUE(d.Compare(want, requestOf(parts[g]))) << "group " << g << ": " << diff.substr(0, 2000);
  }
}

bool hasString(const otlp::Request& r, const std::string& s) {
  const auto& strings = r.dictionary().string_table();
  return std::find(strings.begin(), strings.end(), s) != strings.end();
}

TEST(FlatSelection, ProfileMaskLeavesOutProfilesAndWhatOnlyTheyUsed) {
  const Batch src = flatOf(tenProfiles());
  Merger::Selection keep;
  keep.profiles.assign(src.profiles.size(), false);
  keep.profiles[6] = keep.profiles[9] = true;  // two of b's profiles; none of a's
  Batch out;
  Merger(&out).append(src, keep);
  const otlp::Request r = requestOf(out);
  EXPECT_THAT(dictionaryProblems(r), IsEmpty());
  ASSERT_EQ(r.resource_profiles_size(), 1);  // "a" lost every profile: it goes with its scope
  EXPECT_EQ(::proflow::testing::serviceName(r, 0), "b");
  EXPECT_EQ(r.resource_profiles(0).scope_profiles(0).profiles_size(), 2);
  EXPECT_TRUE(hasString(r, "leaf6"));
  EXPECT_TRUE(hasString(r, "leaf9"));
  EXPECT_FALSE(hasString(r, "leaf7"));
  EXPECT_FALSE(hasString(r, "leaf0"));
}

// One profile with samples of values 1..5 on distinct leaves, and a second one with one sample.
otlp::Request fiveAndOne() {
  ProfileSpec five, one;
  for (int i = 1; i <= 5; ++i) five.samples.push_back({{"f" + std::to_string(i), "main"}, i});
  one.samples.push_back({{"g", "main"}, 7});
  return ::proflow::testing::makeRequest("svc", {five, one});
}

std::vector<int64_t> valuesOf(const otlp::Profile& p) {
  std::vector<int64_t> out;
  for (const auto& s : p.samples()) out.push_back(s.values(0));
  return out;
}

TEST(FlatSelection, SampleMaskKeepsTheSelectedRowsOnly) {
  const Batch src = flatOf(fiveAndOne());
  ASSERT_EQ(src.samples.size(), 6u);
  Merger::Selection keep;
  keep.samples = {true, false, true, false, true, false};  // the second profile loses its only row
  Batch out;
  Merger(&out).append(src, keep);
  const otlp::Request r = requestOf(out);
  EXPECT_THAT(dictionaryProblems(r), IsEmpty());
  const auto& profiles = r.resource_profiles(0).scope_profiles(0).profiles();
  ASSERT_EQ(profiles.size(), 2);  // an emptied profile is kept
  EXPECT_EQ(valuesOf(profiles[0]), (std::vector<int64_t>{1, 3, 5}));
  EXPECT_EQ(profiles[1].samples_size(), 0);
  EXPECT_TRUE(hasString(r, "f3"));
  EXPECT_FALSE(hasString(r, "f2"));
  EXPECT_FALSE(hasString(r, "g"));
}

TEST(FlatSelection, KeepRowsRemovesRowsInPlace) {
  Batch b = flatOf(fiveAndOne());
  keepRows(b, {false, true, true, false, true, false});
  EXPECT_EQ(b.samples.size(), 3u);
  const otlp::Request r = requestOf(b);
  const auto& profiles = r.resource_profiles(0).scope_profiles(0).profiles();
  ASSERT_EQ(profiles.size(), 2);
  EXPECT_EQ(valuesOf(profiles[0]), (std::vector<int64_t>{2, 3, 5}));
  EXPECT_EQ(profiles[1].samples_size(), 0);
  keepRows(b, {});  // an empty mask keeps everything
  EXPECT_EQ(b.samples.size(), 3u);
}

}  // namespace
}  // namespace proflow::flat
