// /proc/self readers and the batch one interval becomes: resource, profiles, thread attributes,
// mappings with the build id readelf reports, timestamps on the wall clock.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <thread>

#include "core/flat/flat_attributes.h"
#include "core/runtime/thread_name.h"
#include "receivers/self/process_info.h"
#include "receivers/self/self_profile.h"
#include "tests/support/daemon.h"

namespace proflow::receivers::self {
namespace {

using ::testing::HasSubstr;

std::string exePath() {
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  return n > 0 ? std::string(exe, static_cast<size_t>(n)) : "";
}

TEST(ProcessInfo, ParsesMapsLinesAndJoinsAdjacentWritableRanges) {
  const auto maps = parseMaps(
      "55d0c0000000-55d0c0100000 r--p 00000000 fd:01 1234                       /usr/bin/proflow\n"
      "55d0c0100000-55d0c0400000 r-xp 00100000 fd:01 1234                       /usr/bin/proflow\n"
      "7f0000000000-7f0000001000 ---p 00000000 00:00 0 \n"
      "7f0000001000-7f0000801000 rw-p 00000000 00:00 0 \n"
      "7f0000801000-7f0000802000 rw-p 00000000 00:00 0 \n"
      "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]\n"
      "7ffd00100000-7ffd00102000 r--p 00000000 00:00 0                          [vvar]\n");
  ASSERT_EQ(maps.size(), 7u);
  EXPECT_EQ(maps[1].start, 0x55d0c0100000u);
  EXPECT_EQ(maps[1].limit, 0x55d0c0400000u);
  EXPECT_EQ(maps[1].offset, 0x100000u);
  EXPECT_EQ(maps[1].inode, 1234u);
  EXPECT_TRUE(maps[1].exec);
  EXPECT_FALSE(maps[1].write);
  EXPECT_EQ(maps[1].path, "/usr/bin/proflow");
  EXPECT_EQ(maps[2].path, "");
  EXPECT_EQ(maps[5].path, "[stack]");
  const auto ranges = writableRanges(maps);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].lo, 0x7f0000001000u);
  EXPECT_EQ(ranges[0].hi, 0x7f0000802000u);
  EXPECT_EQ(ranges[1].lo, 0x7ffd00000000u);
}

TEST(ProcessInfo, ReadsTheBuildIdReadelfReports) {
  std::string out;
  ASSERT_EQ(proflow::testing::runCommand({"readelf", "-n", exePath()}, &out), 0) << out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out, m, std::regex("Build ID: ([0-9a-f]+)"))) << out;
  EXPECT_EQ(gnuBuildId(exePath()), m[1].str());
  EXPECT_EQ(gnuBuildId("/proc/self/status"), "");
  EXPECT_EQ(gnuBuildId("/nonexistent"), "");
}

TEST(ProcessInfo, ListsThreadsWithTheirNames) {
  std::atomic<int32_t> tid{0};
  std::atomic<bool> stop{false};
  std::thread t([&] {
    setThreadName("a-rather-long-thread-name");  // cut to 15 bytes
    tid = static_cast<int32_t>(syscall(SYS_gettid));
    while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (tid == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  bool found = false, main_found = false;
  for (const ThreadInfo& info : listThreads()) {
    if (info.id.tid == tid) {
      found = true;
      EXPECT_EQ(info.name, "a-rather-long-t");
      EXPECT_GT(info.id.start_ticks, 0u);
    }
    main_found |= info.id.tid == getpid();
  }
  stop = true;
  t.join();
  EXPECT_TRUE(found);
  EXPECT_TRUE(main_found);
}

TEST(ProcessInfo, HeapFiguresFollowAllocations) {
  const HeapFigures before = readHeap();
  std::vector<std::unique_ptr<char[]>> blocks;
  for (int i = 0; i < 64; ++i) {
    blocks.emplace_back(new char[64 * 1024]);
    blocks.back()[0] = 1;
  }
  const HeapFigures after = readHeap();
  EXPECT_GE(after.in_use_bytes, before.in_use_bytes + 64 * 64 * 1024);
  EXPECT_GT(after.rss_bytes, 0u);
  EXPECT_GT(after.arena_bytes + after.mmap_bytes, 0u);
}

__attribute__((noinline)) void aFunction() { asm volatile(""); }

TEST(SelfProfileWriter, OneResourceTwoProfilesThreadAttributesAndBuildIds) {
  SampleSet samples;
  timespec mono;
  clock_gettime(CLOCK_MONOTONIC, &mono);
  const uint64_t t0 = static_cast<uint64_t>(mono.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(mono.tv_nsec);
  const uint64_t code = reinterpret_cast<uint64_t>(&aFunction);
  const uint64_t stack1[] = {code + 1, code + 2}, stack2[] = {code + 1};
  samples.add(101, t0, 10'000'000, stack1);
  samples.add(101, t0 + 1000, 10'000'000, stack1);
  samples.add(202, t0 + 2000, 20'000'000, stack2);
  samples.lost = 3;
  SelfProfileWriter writer({{"deployment.environment", "test"}, {"service.name", "proflow-gw"}}, "timer");
  const HeapFigures heap{.in_use_bytes = 1000, .arena_bytes = 2000, .mmap_bytes = 0, .free_bytes = 5, .rss_bytes = 9};
  const flat::Batch b = writer.write(samples, {{101, "batch-batch"}, {202, "io-0"}}, &heap);

  ASSERT_EQ(b.resources.size(), 1u);
  EXPECT_EQ(flat::resourceAttribute(b, b.resources[0], "service.name"), "proflow-gw");  // configured wins
  EXPECT_EQ(flat::resourceAttribute(b, b.resources[0], "service.version"), PROFLOW_VERSION);
  EXPECT_EQ(flat::resourceAttribute(b, b.resources[0], "process.pid"), std::to_string(getpid()));
  EXPECT_EQ(flat::resourceAttribute(b, b.resources[0], "deployment.environment"), "test");
  ASSERT_EQ(b.profiles.size(), 2u);
  const flat::Profile& cpu = b.profiles[0];
  EXPECT_EQ(b.view(b.strings[cpu.sample_type.type_strindex]), "cpu");
  EXPECT_EQ(b.view(b.strings[cpu.sample_type.unit_strindex]), "nanoseconds");
  EXPECT_EQ(b.view(b.strings[b.profiles[1].sample_type.type_strindex]), "samples");
  EXPECT_EQ(flat::profileAttribute(b, cpu, "proflow.self.mode"), "timer");
  EXPECT_EQ(flat::profileAttribute(b, cpu, "proflow.heap.in_use_bytes"), "1000");
  EXPECT_EQ(flat::profileAttribute(b, cpu, "perf.lost_samples"), "3");
  // Sample times moved onto the wall clock.
  const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_NEAR(static_cast<double>(cpu.time_unix_nano), static_cast<double>(now), 5e9);
  int64_t total = 0;
  std::set<std::string> thread_names;
  for (uint32_t row = cpu.samples.begin; row < cpu.samples.end(); ++row) {
    const flat::Range v = b.samples.values[row];
    for (uint32_t k = 0; k < v.size; ++k) total += b.values[v.begin + k];
    const flat::Range a = b.samples.attributes[row];
    for (uint32_t k = 0; k < a.size; ++k) {
      const flat::Attribute& attr = b.attributes[b.indices[a.begin + k]];
      if (b.view(b.strings[attr.key_strindex]) == "thread.name") thread_names.insert(std::string(b.view(attr.value.bytes)));
    }
  }
  EXPECT_EQ(total, 40'000'000);
  EXPECT_EQ(thread_names, (std::set<std::string>{"batch-batch", "io-0"}));
  // The frames' mapping is this executable's code, with its build id.
  ASSERT_GE(b.locations.size(), 3u);
  const flat::Location& loc = b.locations[1];
  ASSERT_GT(loc.mapping_index, 0);
  const flat::Mapping& m = b.mappings[static_cast<size_t>(loc.mapping_index)];
  EXPECT_EQ(b.view(b.strings[m.filename_strindex]), exePath());
  EXPECT_LE(m.memory_start, code);
  EXPECT_GT(m.memory_limit, code);
  ASSERT_EQ(m.attributes.size, 1u);
  const flat::Attribute& id = b.attributes[b.indices[m.attributes.begin]];
  EXPECT_EQ(b.view(b.strings[id.key_strindex]), "process.executable.build_id.gnu");
  EXPECT_EQ(b.view(id.value.bytes), gnuBuildId(exePath()));
}

TEST(SelfProfileWriter, AnIntervalWithoutSamplesIsAnEmptyBatch) {
  SelfProfileWriter writer({}, "perf_event");
  EXPECT_TRUE(writer.write({}, {}, nullptr).profiles.empty());
}

}  // namespace
}  // namespace proflow::receivers::self
