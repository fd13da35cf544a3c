// Each processor type in the real daemon, between the pprof receiver and the file exporter, on Go
// runtime profiles written at test time: what the processor is for shows in the exported data.
#include <gtest/gtest.h>
#include <unistd.h>

#include <regex>
#include <set>

#include "core/compression/compression.h"
#include "processors/sample/sampler.h"
#include "tests/e2e/pprof_pipeline.h"
#include "tests/receivers/pprof/go_app.h"

namespace proflow {
namespace {

using testing::PprofPipeline;
using testing::SeenProfile;

class ProcessorsE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    profiles_ = testing::goProfilesDir(&error);
    ASSERT_FALSE(profiles_.empty()) << error;
  }
  std::string profile(const std::string& kind) const { return profiles_ + "/" + kind + ".pb.gz"; }

  // Starts the daemon; the caller ASSERTs on healthy().
  std::unique_ptr<PprofPipeline> start(const std::string& processors, const std::string& chain,
                                       const testing::Daemon::Env& env = {}) {
    return std::make_unique<PprofPipeline>(dir_, "proflow", processors, chain, env);
  }

  // Every pprof sample type arrived as one profile with all its samples (no processor removed any).
  static void expectAllSamples(const std::vector<SeenProfile>& seen, const testing::PprofTotals& in) {
    ASSERT_EQ(seen.size(), in.by_type.size());
    for (const auto& p : seen) {
      ASSERT_TRUE(in.by_type.count(p.type)) << p.type;
      EXPECT_EQ(p.values.size(), in.by_type.at(p.type).first) << p.type;
      EXPECT_EQ(p.total(), in.by_type.at(p.type).second) << p.type;
    }
  }

  testing::TempDir dir_;
  std::string profiles_;
};

std::string shellOutput(const std::string& cmd) {
  std::string out;
  EXPECT_EQ(testing::runCommand({"sh", "-c", cmd}, &out), 0) << out;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

TEST_F(ProcessorsE2E, ResourceEditsEveryResourceOfARawPprofBody) {
  auto d = start("  resource:\n    attributes:\n"
                 "      - { key: deployment.environment, value: prod, action: insert }\n"
                 "      - { key: service.name, action: hash }\n"
                 "      - { key: region, action: delete }\n",
                 "[resource]");
  ASSERT_TRUE(d->healthy()) << d->log();
  // An uncompressed pprof body this time (the other tests send what Go wrote: gzip).
  std::string raw;
  ASSERT_TRUE(compression::decompressAuto(testing::readFile(profile("cpu")), raw, {}).isOk());
  EXPECT_EQ(d->post(dir_.write("cpu.pb", raw), "?service.name=checkout&region=eu"), 200);
  auto seen = testing::seenProfiles(d->stop());

  const std::string hashed = shellOutput("printf %s checkout | sha256sum | cut -d' ' -f1");
  ASSERT_EQ(hashed.size(), 64u);
  expectAllSamples(seen, testing::pprofTotals(profile("cpu")));
  for (const auto& p : seen) {
    EXPECT_EQ(p.resource.at("service.name"), hashed);
    EXPECT_EQ(p.resource.at("deployment.environment"), "prod");
    EXPECT_EQ(p.resource.count("region"), 0u);
  }
}

TEST_F(ProcessorsE2E, AttributesEditSamplesOfTheIncludedSampleTypeOnly) {
  auto d = start("  attributes:\n    include: { sample_types: [cpu] }\n"
                 "    actions: [ { key: team, value: payments, action: insert } ]\n",
                 "[attributes]");
  ASSERT_TRUE(d->healthy()) << d->log();
  EXPECT_EQ(d->post(profile("cpu"), "?service.name=checkout"), 200);
  auto seen = testing::seenProfiles(d->stop());

  // Go's CPU profile has two sample types, samples/count and cpu/nanoseconds, sharing every stack.
  expectAllSamples(seen, testing::pprofTotals(profile("cpu")));
  ASSERT_EQ(seen.size(), 2u);
  for (const auto& p : seen) {
    ASSERT_FALSE(p.values.empty());
    for (const auto& attrs : p.sample_attributes) {
      if (p.type == "cpu") EXPECT_EQ(attrs.count("team") ? attrs.at("team") : "", "payments");
      else EXPECT_EQ(attrs.count("team"), 0u) << p.type;
    }
  }
}

TEST_F(ProcessorsE2E, ResourceDetectionAddsEnvSystemAndProcessAttributes) {
  // A live Go process for the `process` detector to look at through /proc.
  std::string error;
  const std::string go_app = testing::pprofAppBinary(&error);
  ASSERT_FALSE(go_app.empty()) << error;
  testing::ServingGoApp app(go_app);
  ASSERT_GT(app.port(), 0) << app.error();

  auto d = start("  resourcedetection: { detectors: [env, system, process], trust_pids: true }\n", "[resourcedetection]",
                 {{"OTEL_RESOURCE_ATTRIBUTES", "team=infra,deployment.environment=staging"}});
  ASSERT_TRUE(d->healthy()) << d->log();
  // The source's own deployment.environment must win (override: false is the default).
  EXPECT_EQ(d->post(profile("cpu"), "?service.name=checkout&deployment.environment=from-source&process.pid=" +
                                        std::to_string(app.pid())),
            200);
  auto seen = testing::seenProfiles(d->stop());

  char host[256] = {};
  ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
  // Another test process may rebuild (atomically replace) the Go app meanwhile: the link then ends in
  // " (deleted)", which the detector drops as well.
  std::string exe = std::filesystem::read_symlink("/proc/" + std::to_string(app.pid()) + "/exe").string();
  if (exe.ends_with(" (deleted)")) exe.resize(exe.size() - 10);
  const std::string go_version = shellOutput("go env GOVERSION");
  expectAllSamples(seen, testing::pprofTotals(profile("cpu")));
  for (const auto& p : seen) {
    auto attr = [&](const std::string& k) { return p.resource.count(k) ? p.resource.at(k) : "<absent>"; };
    EXPECT_EQ(attr("team"), "infra");                      // env
    EXPECT_EQ(attr("deployment.environment"), "from-source");
    EXPECT_EQ(attr("host.name"), host);                    // system
    EXPECT_EQ(attr("os.type"), "linux");
    EXPECT_EQ(attr("process.executable.path"), exe);       // process
    EXPECT_EQ(attr("process.runtime.name"), "go");
    EXPECT_EQ(attr("process.runtime.version"), go_version);
  }
}

TEST_F(ProcessorsE2E, SampleKeepsExactlyTheProfilesItsHashSelects) {
  auto d = start("  sample: { mode: probabilistic, percentage: 50 }\n", "[sample]");
  ASSERT_TRUE(d->healthy()) << d->log();
  const int64_t time = testing::pprofTotals(profile("cpu")).time_nanos;
  std::set<std::string> expected;
  for (int i = 0; i < 16; ++i) {
    const std::string service = "svc-" + std::to_string(i);
    EXPECT_EQ(d->post(profile("cpu"), "?service.name=" + service), 200);
    // The documented default key without a profile id: service.name, 0x1f, time_unix_nano.
    if (processors::sample::keepByHash(service + '\x1f' + std::to_string(time), 0, 50)) expected.insert(service);
  }
  auto seen = testing::seenProfiles(d->stop());

  std::map<std::string, std::set<std::string>> kept;  // service -> sample types
  for (const auto& p : seen) {
    kept[p.resource.at("service.name")].insert(p.type);
    EXPECT_EQ(p.attributes.count("sampling.ratio") ? p.attributes.at("sampling.ratio") : "", "0.500000");
  }
  std::set<std::string> services;
  for (const auto& [service, types] : kept) {
    services.insert(service);
    EXPECT_EQ(types, (std::set<std::string>{"samples", "cpu"})) << service << ": one capture, one decision";
  }
  EXPECT_EQ(services, expected);
}

TEST_F(ProcessorsE2E, CompressKeepsEveryTotalWithFewerSamples) {
  auto d = start("  compress: {}\n", "[compress]");
  ASSERT_TRUE(d->healthy()) << d->log();
  EXPECT_EQ(d->post(profile("heap"), "?service.name=checkout"), 200);
  auto seen = testing::seenProfiles(d->stop());

  const auto in = testing::pprofTotals(profile("heap"));
  ASSERT_EQ(seen.size(), in.by_type.size());
  size_t samples_in = 0, samples_out = 0;
  for (const auto& p : seen) {
    const auto& [count, total] = in.by_type.at(p.type);
    EXPECT_EQ(p.total(), total) << p.type;  // exactly, per sample type
    EXPECT_LE(p.values.size(), count) << p.type;
    for (int64_t v : p.values) EXPECT_NE(v, 0) << p.type << ": zero-value samples are dropped";
    samples_in += count;
    samples_out += p.values.size();
  }
  // After the GC Go ran before writing, most allocation sites have nothing in use: those samples
  // are zero in the inuse_* profiles.
  EXPECT_LT(samples_out, samples_in);
}

TEST_F(ProcessorsE2E, FilterDropsProfilesAndPrunesFrames) {
  const std::regex dropped("crypto/sha256\\..*");
  auto d = start("  filter:\n"
                 "    drop_profiles: [ { key: kind, value: goroutine, in: resource } ]\n"
                 "    drop_frames: 'crypto/sha256\\..*'\n",
                 "[filter]");
  ASSERT_TRUE(d->healthy()) << d->log();
  EXPECT_EQ(d->post(profile("cpu"), "?service.name=checkout&kind=cpu"), 200);
  EXPECT_EQ(d->post(profile("goroutine"), "?service.name=checkout&kind=goroutine"), 200);
  auto seen = testing::seenProfiles(d->stop());

  // The Go program spends its CPU hashing, so the input has the frames the rule removes.
  const auto in = testing::pprofTotals(profile("cpu"));
  size_t with_sha = 0;
  for (const auto& stack : in.stacks)
    for (const auto& f : stack) with_sha += std::regex_match(f, dropped) ? 1 : 0;
  ASSERT_GT(with_sha, 0u);

  ASSERT_EQ(seen.size(), in.by_type.size());  // the goroutine profile is gone, the CPU one is whole
  for (const auto& p : seen) {
    EXPECT_EQ(p.resource.at("kind"), "cpu");
    EXPECT_EQ(p.total(), in.by_type.at(p.type).second) << p.type << ": pruned values go to the caller";
    for (const auto& stack : p.stacks)
      for (const auto& f : stack) EXPECT_FALSE(std::regex_match(f, dropped)) << f;
  }
}

TEST_F(ProcessorsE2E, MemoryLimiterLetsDataThroughUnderTheLimit) {
  auto d = start("  memory_limiter: { limit_mib: 4096, spike_limit_mib: 1024, check_interval: 100ms }\n",
                 "[memory_limiter]");
  ASSERT_TRUE(d->healthy()) << d->log();
  for (const char* kind : {"cpu", "heap"}) EXPECT_EQ(d->post(profile(kind), "?service.name=checkout"), 200) << kind;
  auto seen = testing::seenProfiles(d->stop());

  const auto cpu = testing::pprofTotals(profile("cpu"));
  const auto heap = testing::pprofTotals(profile("heap"));
  ASSERT_EQ(seen.size(), cpu.by_type.size() + heap.by_type.size());
  expectAllSamples({seen.begin(), seen.begin() + static_cast<long>(cpu.by_type.size())}, cpu);
  expectAllSamples({seen.begin() + static_cast<long>(cpu.by_type.size()), seen.end()}, heap);
}

}  // namespace
}  // namespace proflow
