// setThreadName() and the names the runtime gives its threads, as /proc shows them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <thread>

#include "core/runtime/runtime.h"
#include "core/runtime/thread_name.h"

namespace proflow {
namespace {

std::string commOf(long tid) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/comm");
  std::string name;
  std::getline(in, name);
  return name;
}

std::multiset<std::string> allNames() {
  std::multiset<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task"))
    out.insert(commOf(std::stol(e.path().filename().string())));
  return out;
}

std::string nameSetOnAThread(const std::function<void()>& set) {
  std::string name;
  std::thread t([&] {
    set();
    name = commOf(syscall(SYS_gettid));
  });
  t.join();
  return name;
}

TEST(ThreadName, SetsTheCallingThreadsNameCutTo15Bytes) {
  EXPECT_EQ(nameSetOnAThread([] { setThreadName("batch"); }), "batch");
  EXPECT_EQ(nameSetOnAThread([] { setThreadName("a-name-longer-than-fifteen"); }), "a-name-longer-t");
}

TEST(ThreadName, PrefixIdAndIndexKeepTheIndexWhole) {
  EXPECT_EQ(nameSetOnAThread([] { setThreadName("exp-", "otlp", 3); }), "exp-otlp-3");
  EXPECT_EQ(nameSetOnAThread([] { setThreadName("exp-", "otlphttp/backend", 12); }), "exp-otlphttp-12");
  EXPECT_EQ(nameSetOnAThread([] { setThreadName("batch-", "batch/very-long-name"); }), "batch-batch/ver");
}

TEST(ThreadName, TheRuntimeNamesItsIoAndWorkerThreads) {
  Runtime runtime(2, 3);
  // Worker threads are named before the constructor returns; I/O threads name themselves first thing.
  auto names = allNames();
  for (const char* n : {"worker-0", "worker-1", "worker-2"}) EXPECT_EQ(names.count(n), 1u) << n;
  for (int i = 0; i < 500 && (names.count("io-0") == 0 || names.count("io-1") == 0); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    names = allNames();
  }
  EXPECT_EQ(names.count("io-0"), 1u);
  EXPECT_EQ(names.count("io-1"), 1u);
  runtime.stop();
}

}  // namespace
}  // namespace proflow
