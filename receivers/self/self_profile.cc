#include "receivers/self/self_profile.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <vector>

#include "core/formats/perf/profile_builder.h"

namespace proflow::receivers::self {

namespace {

int64_t nowNs(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::string hostName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "";
  return host;
}

std::string executableName() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return "";
  const std::string p(path, static_cast<size_t>(n));
  return p.substr(p.rfind('/') + 1);
}

}  // namespace

SelfProfileWriter::SelfProfileWriter(std::map<std::string, std::string> attributes, std::string mode)
    : attributes_(std::move(attributes)), mode_(std::move(mode)) {}

const std::string& SelfProfileWriter::buildId(const MapEntry& m) {
  auto [it, inserted] = build_ids_.try_emplace({m.path, m.inode});
  // Files the kernel names in brackets ([vdso]) or that were replaced on disk have none to read.
  if (inserted && !m.path.empty() && m.path[0] == '/' && !m.path.ends_with(" (deleted)"))
    it->second = gnuBuildId(m.path);
  return it->second;
}

flat::Batch SelfProfileWriter::write(const SampleSet& samples, const std::unordered_map<int32_t, std::string>& names,
                                     const HeapFigures* heap) {
  flat::Batch out;
  if (samples.records.empty()) return out;
  perf::internal::ProfileBuilder b(&out);
  const uint32_t cpu = b.event("cpu", "nanoseconds");

  std::vector<MapEntry> code;
  for (MapEntry& m : readMaps())
    if (m.exec && !m.path.empty()) code.push_back(std::move(m));
  std::sort(code.begin(), code.end(), [](const MapEntry& a, const MapEntry& x) { return a.start < x.start; });
  std::vector<int32_t> mapping(code.size(), -1);  // builder's index, made when first used
  auto mappingOf = [&](uint64_t address) -> int32_t {
    auto it = std::upper_bound(code.begin(), code.end(), address,
                               [](uint64_t a, const MapEntry& m) { return a < m.start; });
    if (it == code.begin() || address >= std::prev(it)->limit) return 0;
    const size_t i = static_cast<size_t>(std::prev(it) - code.begin());
    if (mapping[i] < 0) mapping[i] = b.mapping(code[i].path, code[i].start, code[i].limit, code[i].offset, buildId(code[i]));
    return mapping[i];
  };

  std::vector<int32_t> locations;
  for (const SampleSet::Record& r : samples.records) {
    locations.clear();
    for (uint64_t pc : samples.stack(r)) locations.push_back(b.location(pc, mappingOf(pc), false, ""));
    perf::internal::SampleContext where;
    where.tid = r.tid;
    if (auto n = names.find(r.tid); n != names.end()) where.thread_name = n->second;
    b.addSample(cpu, where, r.time_ns, r.period_ns, locations);
  }
  b.shiftTimes(nowNs(CLOCK_REALTIME) - nowNs(CLOCK_MONOTONIC));

  b.resourceAttribute("service.name", "proflow");
  b.resourceAttribute("service.version", PROFLOW_VERSION);
  b.resourceAttribute("process.pid", std::to_string(getpid()));
  b.resourceAttribute("process.executable.name", executableName());
  b.resourceAttribute("host.name", hostName());
  for (const auto& [k, v] : attributes_) b.resourceAttribute(k, v);
  b.profileAttribute("proflow.self.mode", mode_);
  if (heap) {
    b.profileAttribute("proflow.heap.in_use_bytes", static_cast<int64_t>(heap->in_use_bytes));
    b.profileAttribute("proflow.heap.arena_bytes", static_cast<int64_t>(heap->arena_bytes));
    b.profileAttribute("proflow.heap.mmap_bytes", static_cast<int64_t>(heap->mmap_bytes));
    b.profileAttribute("proflow.heap.free_bytes", static_cast<int64_t>(heap->free_bytes));
    b.profileAttribute("process.memory.rss_bytes", static_cast<int64_t>(heap->rss_bytes));
  }
  b.finish("", "", samples.lost);
  return out;
}

}  // namespace proflow::receivers::self
