// Where the memory limiter's numbers come from: the process RSS and the memory available to it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace proflow::processors::memory_limiter {

// Resident set size of this process from /proc/self/statm; nullopt when unreadable.
std::optional<uint64_t> readProcessRss(const std::string& statm = "/proc/self/statm");

// The cgroup memory limit under `root`: v2 `memory.max`, else v1 `memory/memory.limit_in_bytes`.
// nullopt when absent or unlimited ("max", or v1's huge page-rounded sentinel).
std::optional<uint64_t> readCgroupLimit(const std::string& root = "/sys/fs/cgroup");

// MemTotal from /proc/meminfo in bytes; nullopt when unreadable.
std::optional<uint64_t> readTotalMemory(const std::string& meminfo = "/proc/meminfo");

// Gives freed heap memory back to the OS (glibc malloc_trim). Returns true when some was released.
bool releaseFreeMemory();

// The figures the limiter reads, each nullopt when it cannot be read; tests substitute them.
struct MemoryReader {
  std::function<std::optional<uint64_t>()> rss;           // the process RSS
  std::function<std::optional<uint64_t>()> cgroup_limit;  // nullopt: no limit set (or unreadable)
  std::function<std::optional<uint64_t>()> total_memory;  // the machine's memory
};

// The real sources above at their default paths.
MemoryReader systemMemoryReader();

}  // namespace proflow::processors::memory_limiter
