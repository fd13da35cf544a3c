#include <gtest/gtest.h>

#include <filesystem>

#include "core/config/service_config.h"
#include "core/runtime/cpu_limits.h"
#include "tests/support/fake_components.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

// A fake root with /proc/self/cgroup and cgroup files, as a container or a host would show them.
struct FakeRoot {
  testing::TempDir dir;
  void file(const std::string& path, const std::string& text) {
    std::filesystem::create_directories((dir.path() / path).parent_path());
    dir.write(path, text);
  }
  std::optional<double> quota() { return cgroupCpuQuota(dir.path().string()); }
};

TEST(CgroupCpuQuota, V2QuotaOfTheProcessCgroup) {
  FakeRoot root;
  root.file("proc/self/cgroup", "0::/kubepods/pod1/ctr\n");
  root.file("sys/fs/cgroup/cpu.max", "max 100000\n");
  root.file("sys/fs/cgroup/kubepods/pod1/ctr/cpu.max", "250000 100000\n");
  ASSERT_TRUE(root.quota().has_value());
  EXPECT_DOUBLE_EQ(*root.quota(), 2.5);
  EXPECT_EQ(usableCpus(16, root.quota()), 3u);  // rounded up
}

TEST(CgroupCpuQuota, V2SmallestLimitOnThePathWins) {
  FakeRoot root;
  root.file("proc/self/cgroup", "0::/a/b\n");
  root.file("sys/fs/cgroup/a/cpu.max", "100000 100000\n");
  root.file("sys/fs/cgroup/a/b/cpu.max", "max 100000\n");
  ASSERT_TRUE(root.quota().has_value());
  EXPECT_DOUBLE_EQ(*root.quota(), 1.0);
}

TEST(CgroupCpuQuota, V2NamespacedCgroupReadsTheMountRoot) {
  FakeRoot root;
  // Inside a container with a cgroup namespace the path is "/" and the limit sits at the mount root.
  root.file("proc/self/cgroup", "0::/\n");
  root.file("sys/fs/cgroup/cpu.max", "50000 100000\n");
  ASSERT_TRUE(root.quota().has_value());
  EXPECT_DOUBLE_EQ(*root.quota(), 0.5);
  EXPECT_EQ(usableCpus(8, root.quota()), 1u);  // never 0
}

TEST(CgroupCpuQuota, V2UnlimitedIsNoLimit) {
  FakeRoot root;
  root.file("proc/self/cgroup", "0::/x\n");
  root.file("sys/fs/cgroup/cpu.max", "max 100000\n");
  root.file("sys/fs/cgroup/x/cpu.max", "max 100000\n");
  EXPECT_FALSE(root.quota().has_value());
  EXPECT_EQ(usableCpus(6, root.quota()), 6u);
}

TEST(CgroupCpuQuota, V1CfsQuotaAndPeriod) {
  FakeRoot root;
  root.file("proc/self/cgroup", "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n");
  root.file("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
  root.file("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
  root.file("sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "400000\n");
  root.file("sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
  ASSERT_TRUE(root.quota().has_value());
  EXPECT_DOUBLE_EQ(*root.quota(), 4.0);
  EXPECT_EQ(usableCpus(2, root.quota()), 2u);  // the affinity mask is smaller
}

TEST(CgroupCpuQuota, V1UnlimitedAndMissingFilesAreNoLimit) {
  FakeRoot root;
  root.file("proc/self/cgroup", "3:cpu:/svc\n");
  root.file("sys/fs/cgroup/cpu/svc/cpu.cfs_quota_us", "-1\n");
  root.file("sys/fs/cgroup/cpu/svc/cpu.cfs_period_us", "100000\n");
  EXPECT_FALSE(root.quota().has_value());
  FakeRoot empty;
  EXPECT_FALSE(empty.quota().has_value());
}

TEST(CgroupCpuQuota, GarbageIsIgnored) {
  FakeRoot root;
  root.file("proc/self/cgroup", "nonsense\n0::/g\n");
  root.file("sys/fs/cgroup/g/cpu.max", "lots of cpus\n");
  EXPECT_FALSE(root.quota().has_value());
}

TEST(RuntimeSize, DefaultsFollowTheUsableCpus) {
  auto r = resolveRuntimeSize({}, 16);
  EXPECT_EQ(r.workers, 16u);
  EXPECT_EQ(r.io_threads, 4u);
  r = resolveRuntimeSize({}, 1);
  EXPECT_EQ(r.workers, 1u);
  EXPECT_EQ(r.io_threads, 1u);
  r = resolveRuntimeSize({.workers = 3, .io_threads = 0}, 64);
  EXPECT_EQ(r.workers, 3u);
  EXPECT_EQ(r.io_threads, 1u);
  r = resolveRuntimeSize({.workers = 0, .io_threads = 2}, 8);
  EXPECT_EQ(r.workers, 8u);
  EXPECT_EQ(r.io_threads, 2u);
}

TEST(RuntimeSize, ThisProcessHasAtLeastOneCpuAndNoMoreThanItsAffinity) {
  EXPECT_GE(usableCpus(), 1u);
  EXPECT_LE(usableCpus(), affinityCpus());
}

class ServiceRuntimeConfig : public ::testing::Test {
 protected:
  void SetUp() override { testing::registerFakes(registry_); }
  std::string load(const std::string& runtime, config::ServiceConfig* cfg) {
    std::string errors;
    Status s = config::loadServiceConfigText("receivers: { fake: {} }\nexporters: { fake: {} }\nservice:\n" + runtime +
                                                 "  pipelines: { profiles: { receivers: [fake], exporters: [fake] } }\n",
                                             "cfg.yaml", registry_, cfg, &errors);
    return s.isOk() || !errors.empty() ? errors : s.message();  // the errors listed, else why it failed
  }
  Registry registry_;
};

TEST_F(ServiceRuntimeConfig, ReadsWorkersAndIoThreads) {
  config::ServiceConfig cfg;
  ASSERT_EQ(load("  runtime: { workers: 6, io_threads: 2 }\n", &cfg), "");
  EXPECT_EQ(cfg.runtime.workers, 6);
  EXPECT_EQ(cfg.runtime.io_threads, 2);
  config::ServiceConfig defaults;
  ASSERT_EQ(load("", &defaults), "");
  EXPECT_EQ(defaults.runtime.workers, 0);
  EXPECT_EQ(defaults.runtime.io_threads, 0);
}

TEST_F(ServiceRuntimeConfig, RejectsNegativeHugeAndUnknownWithLocations) {
  config::ServiceConfig cfg;
  std::string errors = load("  runtime: { workers: -2, io_threads: 5000, threads: 3 }\n", &cfg);
  EXPECT_NE(errors.find("cfg.yaml:4:"), std::string::npos) << errors;
  EXPECT_NE(errors.find("workers must be between 0 (sized to the usable CPUs) and 1024, got -2"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("io_threads must be between 0"), std::string::npos) << errors;
  EXPECT_NE(errors.find("unknown key 'threads'"), std::string::npos) << errors;
}

}  // namespace
}  // namespace proflow
