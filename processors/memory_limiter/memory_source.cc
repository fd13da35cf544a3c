#include "processors/memory_limiter/memory_source.h"

#include <malloc.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace proflow::processors::memory_limiter {
namespace {

std::optional<uint64_t> readLimitFile(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  uint64_t v = 0;
  try {
    v = std::stoull(text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  // cgroup v1 reports "no limit" as a page-rounded INT64_MAX; anything near it means unlimited.
  if (v == 0 || v >= (uint64_t{1} << 62)) return std::nullopt;
  return v;
}

}  // namespace

std::optional<uint64_t> readProcessRss(const std::string& statm) {
  std::ifstream in(statm);
  uint64_t size = 0, resident = 0;
  if (!(in >> size >> resident)) return std::nullopt;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

std::optional<uint64_t> readCgroupLimit(const std::string& root) {
  if (auto v2 = readLimitFile(root + "/memory.max")) return v2;
  return readLimitFile(root + "/memory/memory.limit_in_bytes");
}

std::optional<uint64_t> readTotalMemory(const std::string& meminfo) {
  std::ifstream in(meminfo);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key;
    uint64_t kib = 0;
    if (ls >> key >> kib && key == "MemTotal:" && kib > 0) return kib * 1024;
  }
  return std::nullopt;
}

bool releaseFreeMemory() { return malloc_trim(0) != 0; }

MemoryReader systemMemoryReader() {
  return {.rss = [] { return readProcessRss(); },
          .cgroup_limit = [] { return readCgroupLimit(); },
          .total_memory = [] { return readTotalMemory(); }};
}

}  // namespace proflow::processors::memory_limiter
