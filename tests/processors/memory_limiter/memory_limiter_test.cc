#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "core/config/config_loader.h"
#include "processors/memory_limiter/factory.h"
#include "processors/memory_limiter/memory_limiter_processor.h"
#include "processors/memory_limiter/memory_source.h"
#include "tests/support/component_config.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow::processors::memory_limiter {
namespace {

using ::testing::HasSubstr;
constexpr uint64_t kMiB = uint64_t{1} << 20;

config::ConfigErrors validate(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig(*makeMemoryLimiterProcessorFactory(), yaml, "processors.memory_limiter");
}

TEST(MemoryLimiterConfig, ErrorsPointAtTheField) {
  EXPECT_THAT(validate("{}\n").format(), HasSubstr("set exactly one of limit_mib or limit_percentage"));
  EXPECT_THAT(validate("limit_mib: 100\nlimit_percentage: 50\n").format(), HasSubstr("set exactly one"));
  auto e = validate("limit_mib: 100\nspike_limit_mib: 100\n").format();
  EXPECT_THAT(e, HasSubstr("t.yaml:2:"));
  EXPECT_THAT(e, HasSubstr("spike_limit_mib (100) must be below limit_mib (100)"));
  EXPECT_THAT(validate("limit_mib: 100\ncheck_interval: 0s\n").format(), HasSubstr("check_interval must be > 0"));
  EXPECT_THAT(validate("limit_percentage: 120\n").format(), HasSubstr("limit_percentage must be 1..100"));
  EXPECT_THAT(validate("limit_percentage: 50\nspike_limit_percentage: 60\n").format(),
              HasSubstr("spike_limit_percentage (60) must be below limit_percentage (50)"));
  EXPECT_THAT(validate("limit_mib: 100\nspike_limit_percentage: 10\n").format(),
              HasSubstr("goes with limit_percentage"));
  EXPECT_THAT(validate("limit_mib: -5\n").format(), HasSubstr("expected an integer >= 0"));
  EXPECT_THAT(validate("limit: 5\n").format(), HasSubstr("unknown key 'limit'"));
  EXPECT_TRUE(validate("limit_mib: 400\nspike_limit_mib: 80\ncheck_interval: 1s\n").empty());
  EXPECT_TRUE(validate("limit_percentage: 80\nspike_limit_percentage: 20\n").empty());
}

TEST(MemoryLimiterConfig, Thresholds) {
  MemoryLimiterConfig c;
  c.limit_mib = 100;
  auto t = computeThresholds(c, 0);
  EXPECT_EQ(t.hard, 100 * kMiB);
  EXPECT_EQ(t.soft, 80 * kMiB);  // spike defaults to 20 %
  c.spike_limit_mib = 30;
  EXPECT_EQ(computeThresholds(c, 0).soft, 70 * kMiB);
  MemoryLimiterConfig p;
  p.limit_percentage = 50;
  p.spike_limit_percentage = 10;
  t = computeThresholds(p, 1000 * kMiB);
  EXPECT_EQ(t.hard, 500 * kMiB);
  EXPECT_EQ(t.soft, 400 * kMiB);
}

TEST(MemorySource, ReadsCgroupV2ThenV1AndStatm) {
  testing::TempDir dir;
  auto write = [&](const std::string& rel, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(dir.file(rel)).parent_path());
    std::ofstream(dir.file(rel)) << text;
  };
  EXPECT_FALSE(readCgroupLimit(dir.path().string()));
  write("memory/memory.limit_in_bytes", "9223372036854771712\n");  // v1 "unlimited"
  EXPECT_FALSE(readCgroupLimit(dir.path().string()));
  write("memory/memory.limit_in_bytes", "536870912\n");
  EXPECT_EQ(readCgroupLimit(dir.path().string()), 512 * kMiB);
  write("memory.max", "max\n");  // v2 unlimited: fall back to v1
  EXPECT_EQ(readCgroupLimit(dir.path().string()), 512 * kMiB);
  write("memory.max", "268435456\n");
  EXPECT_EQ(readCgroupLimit(dir.path().string()), 256 * kMiB);
  write("statm", "1000 250 10 1 0 100 0\n");
  EXPECT_EQ(readProcessRss(dir.file("statm")), 250 * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)));
  EXPECT_GT(readProcessRss().value_or(0), 0u);
  write("meminfo", "MemTotal:       16384 kB\nMemFree: 1 kB\n");
  EXPECT_EQ(readTotalMemory(dir.file("meminfo")), 16384u * 1024);
  // Unreadable is told apart from zero.
  EXPECT_FALSE(readProcessRss(dir.file("absent")));
  write("garbage", "not numbers\n");
  EXPECT_FALSE(readProcessRss(dir.file("garbage")));
  EXPECT_FALSE(readTotalMemory(dir.file("garbage")));
}

// A scripted memory: the test sets usage; trimming gives back `trimmable` bytes.
struct FakeMemory {
  uint64_t rss = 0;
  uint64_t trimmable = 0;
  int trims = 0;
  MemoryGuard::Hooks hooks() {
    return {[this] { return rss; }, [this] {
              ++trims;
              rss -= trimmable;
              bool released = trimmable > 0;
              trimmable = 0;
              return released;
            }};
  }
};

TEST(MemoryGuard, SoftRefusesHardTrimsAndResumesBelowSoft) {
  FakeMemory mem;
  MemoryGuard g({.hard = 100, .soft = 80}, std::chrono::seconds(10), std::chrono::seconds(0), mem.hooks());
  auto t0 = MemoryGuard::Clock::now();
  mem.rss = 50;
  EXPECT_FALSE(g.check(t0));
  EXPECT_EQ(g.state(), MemoryState::kNormal);
  mem.rss = 85;
  auto t = g.check(t0);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->to, MemoryState::kSoftLimited);
  EXPECT_EQ(mem.trims, 1);  // entering a limited state trims once
  EXPECT_FALSE(g.check(t0 + std::chrono::seconds(1)));  // soft: next trim only after 10 s
  EXPECT_EQ(mem.trims, 1);
  mem.rss = 120;
  t = g.check(t0 + std::chrono::seconds(2));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->from, MemoryState::kSoftLimited);
  EXPECT_EQ(t->to, MemoryState::kHardLimited);
  EXPECT_EQ(mem.trims, 2);  // hard: every check
  mem.trimmable = 50;  // freed memory the next trim can return: 120 -> 70
  t = g.check(t0 + std::chrono::seconds(3));
  ASSERT_TRUE(t);
  EXPECT_EQ(t->to, MemoryState::kNormal);
  EXPECT_EQ(g.lastRss(), 70u);
  EXPECT_EQ(mem.trims, 3);
  EXPECT_FALSE(g.check(t0 + std::chrono::seconds(4)));
  EXPECT_EQ(mem.trims, 3);  // no trimming while normal
}

struct Sink : ProfilesConsumer {
  Status consume(Batch b) override {
    std::lock_guard lock(mu);
    got.push_back(std::move(b));
    return Status::ok();
  }
  std::mutex mu;
  std::vector<Batch> got;
};

TEST(MemoryLimiterProcessor, RefusesRetryablyWhileLimitedAndCountsChanges) {
  telemetry::MetricsRegistry metrics;
  telemetry::ComponentTelemetry tel(metrics, ComponentKind::kProcessor, "memory_limiter");
  CreateSettings settings{.id = {"memory_limiter", ""}, .kind = ComponentKind::kProcessor, .logger = nullptr,
                          .telemetry = &tel, .runtime = nullptr};
  MemoryLimiterConfig cfg;
  cfg.limit_mib = 100;
  cfg.check_interval = std::chrono::hours(1);  // only checkNow() measures after the first consume
  FakeMemory mem;
  mem.rss = 10 * kMiB;
  auto sink = std::make_shared<Sink>();
  MemoryLimiterProcessor p(settings, cfg, sink, mem.hooks());
  auto batch = [] { return ::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(2)})); };
  EXPECT_TRUE(p.consume(batch()).isOk());
  mem.rss = 90 * kMiB;
  p.checkNow();
  Status s = p.consume(batch());
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(s.retryable());
  EXPECT_GT(s.retryAfter().count(), 0);
  EXPECT_THAT(s.message(), HasSubstr("above the soft limit 80 MiB"));
  EXPECT_EQ(metrics.value("proflow_processor_memory_limiter_state", {{"processor", "memory_limiter"}}), 1);
  mem.rss = 110 * kMiB;
  p.checkNow();
  EXPECT_EQ(p.state(), MemoryState::kHardLimited);
  EXPECT_FALSE(p.consume(batch()).isOk());
  mem.rss = 20 * kMiB;
  p.checkNow();
  EXPECT_TRUE(p.consume(batch()).isOk());
  EXPECT_EQ(sink->got.size(), 2u);
  EXPECT_EQ(metrics.value("proflow_processor_memory_limiter_state_changes_total", {{"processor", "memory_limiter"}}),
            3);
  EXPECT_EQ(metrics.value("proflow_processor_memory_limiter_rss_bytes", {{"processor", "memory_limiter"}}),
            20 * kMiB);
  EXPECT_GE(metrics.value("proflow_processor_memory_limiter_trims_total", {{"processor", "memory_limiter"}}), 2);
}

struct NoHost : Host {
  void reportFatalError(const ComponentId&, const Status&) override {}
};

CreateSettings quietSettings() {
  return {.id = {"memory_limiter", ""}, .kind = ComponentKind::kProcessor, .logger = nullptr, .telemetry = nullptr,
          .runtime = nullptr};
}

std::optional<uint64_t> unreadable() { return std::nullopt; }

// A limiter that cannot measure would never refuse anything: it must not start.
TEST(MemoryLimiterProcessor, StartFailsWhenRssCannotBeRead) {
  MemoryLimiterConfig cfg;
  cfg.limit_mib = 100;
  NoHost host;
  MemoryLimiterProcessor p(quietSettings(), cfg, std::make_shared<Sink>(), {},
                           {.rss = unreadable, .cgroup_limit = {}, .total_memory = {}});
  Status s = p.start(host);
  EXPECT_FALSE(s.isOk());
  EXPECT_THAT(s.message(), HasSubstr("cannot read the process RSS from /proc/self/statm"));
  MemoryLimiterProcessor fine(quietSettings(), cfg, std::make_shared<Sink>(), {},
                              {.rss = [] { return std::optional<uint64_t>(10 * kMiB); }, .cgroup_limit = {}, .total_memory = {}});
  EXPECT_TRUE(fine.start(host).isOk());
  fine.shutdown(Deadline{});
}

TEST(MemoryLimiterProcessor, PercentageWithoutAReadableTotalFailsAtStart) {
  MemoryLimiterConfig cfg;
  cfg.limit_percentage = 50;
  NoHost host;
  MemoryLimiterProcessor none(quietSettings(), cfg, std::make_shared<Sink>(), {},
                              {.rss = {}, .cgroup_limit = unreadable, .total_memory = unreadable});
  Status s = none.start(host);
  EXPECT_FALSE(s.isOk());
  EXPECT_THAT(s.message(), HasSubstr("no cgroup memory limit"));
  EXPECT_THAT(s.message(), HasSubstr("/proc/meminfo"));
  // The machine's memory is used when the cgroup sets no limit; the cgroup limit wins when it does.
  MemoryLimiterProcessor machine(quietSettings(), cfg, std::make_shared<Sink>(), {},
                                 {.rss = {}, .cgroup_limit = unreadable,
                                  .total_memory = [] { return std::optional<uint64_t>(1000 * kMiB); }});
  EXPECT_EQ(machine.limits().hard, 500 * kMiB);
  EXPECT_TRUE(machine.start(host).isOk());
  machine.shutdown(Deadline{});
  MemoryLimiterProcessor cgroup(quietSettings(), cfg, std::make_shared<Sink>(), {},
                                {.rss = {}, .cgroup_limit = [] { return std::optional<uint64_t>(200 * kMiB); },
                                 .total_memory = unreadable});
  EXPECT_EQ(cgroup.limits().hard, 100 * kMiB);
}

}  // namespace
}  // namespace proflow::processors::memory_limiter
