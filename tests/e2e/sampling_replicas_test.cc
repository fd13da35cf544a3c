// Two proflow processes with the same `sample` config, fed the same profiles, keep the same ones:
// probabilistic sampling is a pure function of the data, so replicas behind a load balancer (or a
// restarted daemon) agree without talking to each other.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tests/e2e/pprof_pipeline.h"

namespace proflow {
namespace {

// service.name -> sample types kept.
std::map<std::string, std::set<std::string>> keptByService(const std::vector<otlp::Request>& written) {
  std::map<std::string, std::set<std::string>> kept;
  for (const auto& p : testing::seenProfiles(written)) kept[p.resource.at("service.name")].insert(p.type);
  return kept;
}

TEST(SamplingReplicas, TwoDaemonsKeepTheSameSubset) {
  std::string error;
  const std::string profiles = testing::goProfilesDir(&error);
  ASSERT_FALSE(profiles.empty()) << error;
  testing::TempDir dir;
  const std::string config = "  sample: { mode: probabilistic, percentage: 50, hash_seed: 7 }\n";
  testing::PprofPipeline a(dir, "replica-a", config, "[sample]");
  testing::PprofPipeline b(dir, "replica-b", config, "[sample]");
  ASSERT_TRUE(a.healthy()) << a.log();
  ASSERT_TRUE(b.healthy()) << b.log();

  // 24 distinct captures (one service each), CPU and heap: each capture is 2 or 4 OTLP profiles.
  constexpr int kServices = 24;
  for (int i = 0; i < kServices; ++i) {
    const std::string query = "?service.name=svc-" + std::to_string(i);
    const std::string file = profiles + (i % 2 ? "/heap.pb.gz" : "/cpu.pb.gz");
    ASSERT_EQ(a.post(file, query), 200);
    ASSERT_EQ(b.post(file, query), 200);
  }
  auto kept_a = keptByService(a.stop());
  auto kept_b = keptByService(b.stop());

  EXPECT_EQ(kept_a, kept_b);
  // Not vacuous: some captures were kept and some dropped (each fails with odds 2^-24 per run).
  EXPECT_GT(kept_a.size(), 0u);
  EXPECT_LT(kept_a.size(), static_cast<size_t>(kServices));
  // A capture is kept or dropped whole: every sample type of its pprof shares the decision.
  for (const auto& [service, types] : kept_a) EXPECT_TRUE(types.size() == 2 || types.size() == 4) << service;
}

}  // namespace
}  // namespace proflow
