// Behaviour of the sample processor: replica-stable probabilistic decisions, exemptions, token-bucket
// rate limiting on an injected clock, and unbiased downsampling checked against its own variance.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "tests/support/dictionary_builder.h"
#include "tests/processors/sample/sink.h"
#include "tests/support/profile_builder.h"
#include "tests/support/flat_request.h"

namespace proflow::processors::sample {
namespace {

using testing::makeProfile;
using testing::makeRequest;
using testing::ProfileSpec;

ProfileSpec profileAt(uint64_t i) {
  ProfileSpec p = makeProfile(3, static_cast<int>(i % 7));
  p.time_unix_nano = 1'700'000'000'000'000'000ULL + i * 1'000'000ULL;
  return p;
}

// Times of every profile delivered downstream.
std::set<uint64_t> deliveredTimes(Harness& h) {
  std::set<uint64_t> out;
  for (const auto& b : h.sink->batches)
    for (const otlp::Request r = ::proflow::testing::requestOf(b); const auto& rp : r.resource_profiles())
      for (const auto& sp : rp.scope_profiles())
        for (const auto& p : sp.profiles()) out.insert(p.time_unix_nano());
  return out;
}

double ratioOf(const otlp::Request& req, const otlp::Profile& p) {
  const auto& d = req.dictionary();
  for (int32_t a : p.attribute_indices())
    if (dictString(d, d.attribute_table(a).key_strindex()) == "sampling.ratio")
      return d.attribute_table(a).value().double_value();
  return -1;
}

SampleConfig probabilistic(double pct) {
  SampleConfig c;
  c.mode = "probabilistic";
  c.percentage = pct;
  return c;
}

TEST(SampleProbabilistic, TwoInstancesDecideAlikeAndKeepAboutThePercentage) {
  SampleConfig c = probabilistic(30);
  Harness a(c), b(c);
  constexpr int kN = 2000;
  for (int i = 0; i < kN; ++i) {
    ASSERT_TRUE(a.processor->consume(::proflow::testing::batchOf(makeRequest("checkout", {profileAt(i)}))).isOk());
    ASSERT_TRUE(b.processor->consume(::proflow::testing::batchOf(makeRequest("checkout", {profileAt(i)}))).isOk());
  }
  auto kept = deliveredTimes(a);
  EXPECT_EQ(kept, deliveredTimes(b));
  // Binomial(2000, 0.3): sd ~ 20.5; 5 sigma ~ 103.
  EXPECT_NEAR(static_cast<double>(kept.size()), 0.3 * kN, 103);
  EXPECT_EQ(a.metric("proflow_processor_dropped_profiles_total"), kN - static_cast<double>(kept.size()));
  for (const auto& batch : a.sink->batches)
    for (const otlp::Request r = ::proflow::testing::requestOf(batch); const auto& p : r.resource_profiles(0).scope_profiles(0).profiles())
      EXPECT_DOUBLE_EQ(ratioOf(r, p), 0.3);

  SampleConfig other = c;
  other.hash_seed = 7;
  Harness d(other);
  for (int i = 0; i < kN; ++i) ASSERT_TRUE(d.processor->consume(::proflow::testing::batchOf(makeRequest("checkout", {profileAt(i)}))).isOk());
  EXPECT_NE(kept, deliveredTimes(d)) << "the seed must change the decisions";
}

TEST(SampleProbabilistic, ProfileIdDecidesWhenSet) {
  Harness h(probabilistic(50));
  int kept_first = -1;
  for (int i = 0; i < 40; ++i) {
    otlp::Request req = makeRequest("svc-" + std::to_string(i), {profileAt(i)});
    req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->set_profile_id(
        std::string(15, '\0') + "\x2a");
    size_t before = h.sink->batches.size();
    ASSERT_TRUE(h.processor->consume(::proflow::testing::batchOf(std::move(req))).isOk());
    int kept = h.sink->batches.size() > before ? 1 : 0;
    if (kept_first < 0) kept_first = kept;
    EXPECT_EQ(kept, kept_first) << "same profile id, different service and time: same decision";
  }
}

TEST(SampleProbabilistic, ConfiguredHashKeyGroupsByAttribute) {
  SampleConfig c = probabilistic(50);
  c.hash_key = {"service.name"};
  Harness h(c);
  // Every profile of one service shares the decision; over 64 services both outcomes occur.
  std::set<int> outcomes;
  for (int s = 0; s < 64; ++s) {
    std::set<int> per_service;
    for (int i = 0; i < 5; ++i) {
      size_t before = h.sink->batches.size();
      ASSERT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("svc-" + std::to_string(s), {profileAt(i)}))).isOk());
      per_service.insert(h.sink->batches.size() > before);
    }
    EXPECT_EQ(per_service.size(), 1u);
    outcomes.insert(*per_service.begin());
  }
  EXPECT_EQ(outcomes.size(), 2u);
}

otlp::Request linkedRequest(uint64_t i) {
  otlp::Request req = makeRequest("linked", {profileAt(i)});
  DictionaryBuilder d(req.mutable_dictionary());
  int32_t link = d.link(std::string(16, '\x01'), std::string(8, '\x02'));
  req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(1)->set_link_index(link);
  return req;
}

TEST(SampleProbabilistic, LinkedProfilesAreAlwaysKept) {
  SampleConfig c = probabilistic(0);
  Harness h(c);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(h.processor->consume(::proflow::testing::batchOf(linkedRequest(i))).isOk());
  ASSERT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("plain", {profileAt(99)}))).isOk());
  EXPECT_EQ(h.deliveredProfiles(), 10u);
  EXPECT_DOUBLE_EQ(ratioOf(::proflow::testing::requestOf(h.sink->batches[0]), ::proflow::testing::requestOf(h.sink->batches[0]).resource_profiles(0).scope_profiles(0).profiles(0)), 1.0);

  c.keep_linked = false;
  Harness off(c);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(off.processor->consume(::proflow::testing::batchOf(linkedRequest(i))).isOk());
  EXPECT_EQ(off.deliveredProfiles(), 0u);
}

TEST(SampleProbabilistic, FirstOfEachUniqueCombinationPerInterval) {
  SampleConfig c = probabilistic(0);
  c.keep_unique_by = {"service.name"};
  c.unique_interval = std::chrono::seconds(60);
  Harness h(c);
  auto push = [&](const std::string& svc, int i) {
    size_t before = h.sink->batches.size();
    EXPECT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest(svc, {profileAt(i)}))).isOk());
    return h.sink->batches.size() > before;
  };
  EXPECT_TRUE(push("a", 1));
  EXPECT_FALSE(push("a", 2));
  EXPECT_TRUE(push("b", 3));
  h.now += std::chrono::seconds(59);
  EXPECT_FALSE(push("a", 4));
  h.now += std::chrono::seconds(1);
  EXPECT_TRUE(push("a", 5));
}

TEST(SampleProbabilistic, DroppingFromASharedDictionaryKeepsItConsistent) {
  Harness h(probabilistic(50));
  std::vector<ProfileSpec> specs;
  for (int i = 0; i < 40; ++i) specs.push_back(profileAt(i));  // all share stacks and functions
  ASSERT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("shared", specs))).isOk());
  ASSERT_EQ(h.sink->batches.size(), 1u);
  const auto& req = ::proflow::testing::requestOf(h.sink->batches[0]);
  EXPECT_THAT(testing::dictionaryProblems(req), ::testing::IsEmpty());
  auto kept = deliveredTimes(h);
  EXPECT_GT(kept.size(), 0u);
  EXPECT_LT(kept.size(), 40u);
  for (const auto& p : req.resource_profiles(0).scope_profiles(0).profiles()) {
    ASSERT_EQ(p.samples_size(), 3);
    EXPECT_THAT(testing::stackFrames(req.dictionary(), p.samples(0).stack_index()),
                ::testing::ElementsAre(::testing::_, "handle_request", "main"));
  }
}

SampleConfig rateLimit(double limit, const std::string& on_limit, const std::string& unit = "profiles") {
  SampleConfig c;
  c.mode = "rate_limit";
  c.limit = limit;
  c.on_limit = on_limit;
  c.unit = unit;
  return c;
}

TEST(SampleRateLimit, RefusesRetryablyPerServiceAndRefillsWithTime) {
  Harness h(rateLimit(2, "refuse"));
  EXPECT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", {profileAt(1)}))).isOk());
  EXPECT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", {profileAt(2)}))).isOk());
  Status s = h.processor->consume(::proflow::testing::batchOf(makeRequest("a", {profileAt(3)})));
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(s.retryable());
  EXPECT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("b", {profileAt(4)}))).isOk()) << "buckets are per service";
  h.now += std::chrono::milliseconds(500);  // one token back
  EXPECT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", {profileAt(5)}))).isOk());
  EXPECT_FALSE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", {profileAt(6)}))).isOk());
  EXPECT_EQ(h.deliveredProfiles(), 4u);
  EXPECT_EQ(h.metric("proflow_processor_sample_rate_limited_profiles_total"), 2);
}

TEST(SampleRateLimit, RefusedBatchTakesNothing) {
  Harness h(rateLimit(3, "refuse"));
  EXPECT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", {profileAt(1), profileAt(2)}))).isOk());
  // One token left: a batch of 2 is refused whole and must leave that token for a batch of 1.
  EXPECT_FALSE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", {profileAt(3), profileAt(4)}))).isOk());
  EXPECT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", {profileAt(5)}))).isOk());
  EXPECT_FALSE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", {profileAt(6)}))).isOk());
  EXPECT_EQ(h.deliveredProfiles(), 3u);
}

TEST(SampleRateLimit, DropModeDropsTheExcessAndCountsIt) {
  Harness h(rateLimit(2, "drop"));
  std::vector<ProfileSpec> five;
  for (int i = 0; i < 5; ++i) five.push_back(profileAt(i));
  EXPECT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", five))).isOk());
  EXPECT_EQ(h.deliveredProfiles(), 2u);
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 3);
  EXPECT_EQ(h.metric("proflow_processor_sample_rate_limited_profiles_total"), 3);
  EXPECT_THAT(testing::dictionaryProblems(::proflow::testing::requestOf(h.sink->batches[0])), ::testing::IsEmpty());
}

TEST(SampleRateLimit, SamplesUnitCountsSamples) {
  Harness h(rateLimit(10, "drop", "samples"));
  std::vector<ProfileSpec> ps;
  for (int i = 0; i < 5; ++i) ps.push_back(profileAt(i));  // 3 samples each
  EXPECT_TRUE(h.processor->consume(::proflow::testing::batchOf(makeRequest("a", ps))).isOk());
  EXPECT_EQ(h.deliveredProfiles(), 3u);  // 9 of 10 tokens
}

// Sum of every sample value of every delivered profile.
double deliveredTotal(Harness& h) {
  double t = 0;
  for (const auto& b : h.sink->batches)
    for (const otlp::Request r = ::proflow::testing::requestOf(b); const auto& rp : r.resource_profiles())
      for (const auto& sp : rp.scope_profiles())
        for (const auto& p : sp.profiles())
          for (const auto& s : p.samples())
            for (int64_t v : s.values()) t += static_cast<double>(v);
  return t;
}

TEST(SampleDownsample, TotalsStayWithinFiveSigmaAndReplicasAgree) {
  SampleConfig c;
  c.mode = "downsample";
  c.probability = 0.1;
  c.seed = 42;
  Harness a(c), b(c);
  ProfileSpec spec;
  double total = 0, sum_sq = 0;
  for (int i = 0; i < 20000; ++i) {
    int64_t v = 1 + (i * 7919) % 997;
    spec.samples.push_back({{"f" + std::to_string(i % 50), "main"}, v});
    total += static_cast<double>(v);
    sum_sq += static_cast<double>(v) * static_cast<double>(v);
  }
  ASSERT_TRUE(a.processor->consume(::proflow::testing::batchOf(makeRequest("d", {spec}))).isOk());
  ASSERT_TRUE(b.processor->consume(::proflow::testing::batchOf(makeRequest("d", {spec}))).isOk());
  // Var(sum of v/p * Bernoulli(p)) = sum v^2 (1-p)/p, plus at most 1/4 per kept sample from rounding.
  double sigma = std::sqrt(sum_sq * (1 - c.probability) / c.probability + 20000 * 0.25);
  double got = deliveredTotal(a);
  EXPECT_NEAR(got, total, 5 * sigma);
  EXPECT_EQ(got, deliveredTotal(b));
  uint64_t kept = a.sink->batches[0].counts().samples;
  EXPECT_NEAR(static_cast<double>(kept), 2000, 5 * std::sqrt(20000 * 0.1 * 0.9));
  EXPECT_EQ(a.metric("proflow_processor_dropped_samples_total"), 20000.0 - static_cast<double>(kept));
  EXPECT_THAT(testing::dictionaryProblems(::proflow::testing::requestOf(a.sink->batches[0])), ::testing::IsEmpty());
}

TEST(SampleDownsample, LinkedSamplesStayUnscaledAndTimestampsGetValues) {
  SampleConfig c;
  c.mode = "downsample";
  c.probability = 0.5;
  Harness h(c);
  otlp::Request req = linkedRequest(1);
  auto* p = req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0);
  const int64_t linked_value = p->samples(1).values(0);
  for (int i = 0; i < 200; ++i) {
    auto* s = p->add_samples();
    s->set_stack_index(p->samples(0).stack_index());
    s->add_timestamps_unix_nano(p->time_unix_nano() + static_cast<uint64_t>(i));
  }
  ASSERT_TRUE(h.processor->consume(::proflow::testing::batchOf(std::move(req))).isOk());
  const otlp::Request delivered = ::proflow::testing::requestOf(h.sink->batches.at(0));
  const auto& out = delivered.resource_profiles(0).scope_profiles(0).profiles(0);
  int linked = 0, timestamped = 0;
  for (const auto& s : out.samples()) {
    if (s.link_index() != 0) {
      ++linked;
      EXPECT_EQ(s.values(0), linked_value);
    } else if (s.timestamps_unix_nano_size() > 0) {
      ++timestamped;
      ASSERT_EQ(s.values_size(), 1) << "values and timestamps must have the same length";
      EXPECT_EQ(s.values(0), 2);  // 1 / 0.5
    }
  }
  EXPECT_EQ(linked, 1);
  EXPECT_GT(timestamped, 50);
  EXPECT_LT(timestamped, 150);
}

}  // namespace
}  // namespace proflow::processors::sample
