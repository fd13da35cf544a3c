// The data section of perf.data: records sorted by time, a process table (COMM, FORK, EXIT, MMAP,
// MMAP2) replayed in that order, and samples resolved against it into the profile builder.
#include <algorithm>
#include <bitset>
#include <chrono>
#include <map>
#include <unordered_map>

#include "core/formats/perf/perf_file.h"
#include "core/formats/perf/profile_builder.h"
#include "core/util/hex.h"

namespace proflow::perf {
namespace {

using internal::Attr;
using internal::Cursor;
using internal::damaged;
using internal::FileInfo;

enum RecordType : uint32_t {
  kMmap = 1,
  kLost = 2,
  kComm = 3,
  kExit = 4,
  kFork = 7,
  kSample = 9,
  kMmap2 = 10,
  kLostSamples = 13,
  kKsymbol = 17,
  kHeaderAttr = 64,
  kTracingData = 66,
  kHeaderBuildId = 67,
  kAuxtrace = 71,
  kEventUpdate = 78,
  kHeaderFeature = 80,
  kCompressed = 81,
};

constexpr uint64_t kContextMax = static_cast<uint64_t>(-4095);
constexpr uint64_t kContextHv = static_cast<uint64_t>(-32), kContextKernel = static_cast<uint64_t>(-128);
constexpr uint64_t kContextUser = static_cast<uint64_t>(-512), kContextGuest = static_cast<uint64_t>(-2048);
constexpr uint64_t kContextGuestKernel = static_cast<uint64_t>(-2176), kContextGuestUser = static_cast<uint64_t>(-2560);
constexpr uint16_t kMiscCpumodeMask = 7, kMiscKernel = 1, kMiscGuestKernel = 4;
constexpr uint16_t kMiscMmapBuildId = 1 << 14;
constexpr uint16_t kMiscForkSynthesized = 1 << 13;  // PERF_RECORD_MISC_FORK_EXEC, as perf record uses it

struct Map {
  uint64_t end = 0, pgoff = 0;
  std::string file, build_id;
  int32_t mapping = -1;  // flat mapping, made when a sample first hits it
};

struct Process {
  std::string comm;
  std::map<uint64_t, Map> maps;  // by start address
};

struct RecordRef {
  uint64_t time, offset;
};

class Decoder {
 public:
  Decoder(std::string_view data, const Options& o, flat::Batch* out) : data_(data), opts_(o), builder_(out) {}
  Status run(Result* result);

 private:
  Status scan();
  void indexIds(size_t first);
  Status onRecord(uint64_t off, uint32_t type, uint16_t misc, uint64_t size);
  const Attr* attrForSample(Cursor c) const;
  const Attr* attrForOther(uint64_t off, uint64_t size) const;
  bool recordTime(uint64_t off, uint32_t type, uint64_t size, uint64_t* time) const;
  Status sample(uint64_t off, uint16_t misc, uint64_t size);
  Status mmap(uint64_t off, uint16_t misc, uint64_t size, bool v2);
  Status addMap(int64_t pid, uint64_t start, uint64_t len, Map map);
  Process* process(int64_t pid);
  int32_t frame(int64_t pid, uint64_t ip, bool kernel);
  uint32_t eventOf(const Attr* a);
  uint64_t wallTime(uint64_t t) const;

  std::string_view data_;
  const Options& opts_;
  internal::ProfileBuilder builder_;
  FileInfo info_;
  std::vector<RecordRef> records_;
  std::unordered_map<uint64_t, size_t> attr_by_id_;
  std::unordered_map<const Attr*, uint32_t> events_;
  std::unordered_map<int64_t, Process> processes_;
  std::unordered_map<int64_t, std::string> thread_comm_;
  std::map<uint64_t, std::pair<uint64_t, std::string>> ksyms_;  // KSYMBOL: start -> (end, name)
  std::vector<int32_t> frames_;
  std::bitset<256> features_seen_;  // pipe mode: HEADER_FEATURE records read
  uint64_t maps_ = 0, lost_ = 0, samples_ = 0, max_time_ = 0;
  // Maps held at once: forks copy their parent's, so a small file could otherwise ask for many.
  // A map costs ~150 bytes; one per 64 input bytes (plus a floor) keeps them within the claim.
  uint64_t max_maps_ = std::min<uint64_t>(opts_.limits.max_maps, 100'000 + data_.size() / 64);
  int64_t clock_offset_ = 0;
  bool anchored_ = false;
};

const Attr* Decoder::attrForSample(Cursor c) const {
  const auto& attrs = info_.attrs;
  if (attrs.size() == 1) return &attrs[0];
  const uint64_t st = attrs[0].sample_type;
  uint64_t id = 0;
  if (st & internal::kSampleIdentifier) {
    id = c.u64();
  } else if (st & internal::kSampleId) {
    c.skip(8 * (!!(st & internal::kSampleIp) + !!(st & internal::kSampleTid) + !!(st & internal::kSampleTime) +
                !!(st & internal::kSampleAddr)));
    id = c.u64();
  } else {
    return &attrs[0];
  }
  auto it = attr_by_id_.find(id);
  return c.ok() && it != attr_by_id_.end() ? &attrs[it->second] : nullptr;
}

const Attr* Decoder::attrForOther(uint64_t off, uint64_t size) const {
  const auto& attrs = info_.attrs;
  if (attrs.size() == 1 || !(attrs[0].sample_type & internal::kSampleIdentifier) || !attrs[0].sampleIdAll())
    return attrs.empty() ? nullptr : &attrs[0];
  Cursor c(data_, off + size - 8, off + size);
  auto it = attr_by_id_.find(c.u64());
  return it != attr_by_id_.end() ? &attrs[it->second] : &attrs[0];
}

// The time of a record: the sample's TIME, FORK/EXIT's own, or the sample_id trailer's.
bool Decoder::recordTime(uint64_t off, uint32_t type, uint64_t size, uint64_t* time) const {
  if (info_.attrs.empty()) return false;
  if (type == kSample) {
    Cursor c(data_, off + 8, off + size);
    const Attr* a = attrForSample(c);
    if (!a || !(a->sample_type & internal::kSampleTime)) return false;
    const uint64_t st = a->sample_type;
    c.skip(8 * (!!(st & internal::kSampleIdentifier) + !!(st & internal::kSampleIp) + !!(st & internal::kSampleTid)));
    *time = c.u64();
    return c.ok();
  }
  if (type == kFork || type == kExit) {
    Cursor c(data_, off + 24, off + size);
    *time = c.u64();
    return c.ok();
  }
  if (type >= kHeaderAttr) return false;
  const Attr* a = attrForOther(off, size);
  if (!a || !a->sampleIdAll() || !(a->sample_type & internal::kSampleTime)) return false;
  const uint64_t st = a->sample_type;
  const uint64_t trailer =
      8 * (!!(st & internal::kSampleTid) + 1 + !!(st & internal::kSampleId) + !!(st & internal::kSampleStreamId) +
           !!(st & internal::kSampleCpu) + !!(st & internal::kSampleIdentifier));
  if (trailer + 8 > size) return false;
  Cursor c(data_, off + size - trailer + 8 * !!(st & internal::kSampleTid), off + size);
  *time = c.u64();
  return c.ok();
}

// Walks the records once: checks every size, reads what later records need (pipe-mode attrs and
// features), and lists the records with their times.
Status Decoder::scan() {
  const uint64_t end = info_.data_offset + info_.data_size;
  uint64_t off = info_.data_offset, last_time = 0, scanned_samples = 0;
  indexIds(0);
  while (off < end) {
    Cursor c(data_, off, end);
    const uint32_t type = c.u32();
    c.get<uint16_t>();
    const uint16_t size = c.get<uint16_t>();
    if (!c.ok()) return damaged(off, "record header truncated");
    if (size < 8 || size > end - off)
      return damaged(off, "record of type " + std::to_string(type) + " and size " + std::to_string(size) +
                              (size < 8 ? "" : " past the end of the data section (truncated)"));
    uint64_t extra = 0;  // bytes that follow the record outside it
    if (type == kCompressed) return damaged(off, "compressed records (perf record -z) are not supported");
    if (type == kHeaderAttr) {
      Cursor a(data_, off + 8, off + size);
      Attr attr;
      if (info_.attrs.size() >= opts_.limits.max_events) return damaged(off, "too many events");
      const uint32_t attr_size = Cursor(data_, off + 12, off + size).u32();
      if (!internal::readAttr(a, attr_size, &attr)) return damaged(off, "HEADER_ATTR truncated");
      while (a.left() >= 8) attr.ids.push_back(a.u64());
      info_.attrs.push_back(std::move(attr));
    } else if (type == kEventUpdate) {
      Cursor u(data_, off + 8, off + size);
      const uint64_t kind = u.u64(), id = u.u64();
      std::string_view name = u.bytes(u.left());
      name = name.substr(0, std::min(name.size(), name.find('\0')));
      auto it = attr_by_id_.find(id);
      if (kind == 2 && u.ok() && it != attr_by_id_.end()) info_.attrs[it->second].name = name;
    } else if (type == kHeaderFeature) {
      Cursor f(data_, off + 8, off + size);
      const uint64_t bit = f.u64();
      // Each feature once (a stream repeating one cannot make the decoder redo its work).
      if (f.ok() && bit < 256 && !features_seen_[bit] && (features_seen_[bit] = true))
        if (Status s = internal::readFeature(data_, static_cast<int>(bit), off + 16, off + size, &info_); !s.isOk())
          return s;
    } else if (type == kHeaderBuildId) {
      if (Status s = internal::readBuildIds(data_, off, off + size, &info_); !s.isOk()) return s;
    } else if (type == kAuxtrace || type == kTracingData) {
      Cursor x(data_, off + 8, off + size);
      extra = type == kAuxtrace ? x.u64() : x.u32();
      if (!x.ok() || extra > end - off - size) return damaged(off, "trailing data past the end of the data section");
    }
    if (type == kHeaderAttr) indexIds(info_.attrs.size() - 1);
    uint64_t t = last_time;
    if (recordTime(off, type, size, &t) && t != 0)
      last_time = t;
    else
      t = last_time;
    if (type == kSample) {
      if (++scanned_samples > opts_.limits.max_samples)
        return damaged(off, "more than " + std::to_string(opts_.limits.max_samples) + " samples (limit)");
      max_time_ = std::max(max_time_, t);
    }
    records_.push_back({t, off});  // 16 bytes per record of at least 8: bounded by the input
    off += size + extra;
  }
  if (info_.attrs.empty()) return damaged(info_.data_offset, "no event attrs");
  return Status::ok();
}

// Sample ids -> attr for the attrs from `first` on (in pipe mode they arrive as HEADER_ATTR records).
void Decoder::indexIds(size_t first) {
  for (size_t i = first; i < info_.attrs.size(); ++i)
    for (uint64_t id : info_.attrs[i].ids) attr_by_id_.try_emplace(id, i);
}

// The process `pid`, created on first use; null past the limit on processes.
Process* Decoder::process(int64_t pid) {
  auto it = processes_.find(pid);
  if (it != processes_.end()) return &it->second;
  if (processes_.size() >= opts_.limits.max_processes) return nullptr;
  return &processes_[pid];
}

Status Decoder::addMap(int64_t pid, uint64_t start, uint64_t len, Map map) {
  if (len == 0 || start + len < start) return Status::ok();
  if (++maps_ > max_maps_) return Status::invalid("perf.data: more memory maps than the limit");
  map.end = start + len;
  Process* p = process(pid);
  if (!p) return Status::invalid("perf.data: more processes than the limit");
  auto& maps = p->maps;
  // A new map replaces what it overlaps; partly covered maps keep their uncovered ends.
  auto it = maps.upper_bound(start);
  if (it != maps.begin()) --it;
  while (it != maps.end() && it->first < map.end) {
    if (it->second.end <= start) {
      ++it;
      continue;
    }
    Map old = it->second;
    const uint64_t old_start = it->first;
    it = maps.erase(it);
    if (old_start < start) {
      Map left = old;
      left.end = start;
      left.mapping = -1;
      maps.emplace(old_start, std::move(left));
    }
    if (old.end > map.end) {
      Map right = old;
      right.pgoff += map.end - old_start;
      right.mapping = -1;
      it = maps.emplace(map.end, std::move(right)).first;
      break;
    }
  }
  maps.insert_or_assign(start, std::move(map));
  return Status::ok();
}

Status Decoder::mmap(uint64_t off, uint16_t misc, uint64_t size, bool v2) {
  Cursor c(data_, off + 8, off + size);
  const int64_t pid = static_cast<int32_t>(c.u32());
  c.u32();
  const uint64_t start = c.u64(), len = c.u64(), pgoff = c.u64();
  Map m;
  m.pgoff = pgoff;
  if (v2) {
    std::string_view id = c.bytes(24);
    if ((misc & kMiscMmapBuildId) && !id.empty()) {
      const size_t n = std::min<size_t>(static_cast<uint8_t>(id[0]), 20);
      m.build_id = hexEncode({reinterpret_cast<const uint8_t*>(id.data()) + 4, n});
    }
    c.skip(8);  // prot, flags
  }
  std::string_view name = c.bytes(c.left());
  if (!c.ok()) return damaged(off, v2 ? "MMAP2 truncated" : "MMAP truncated");
  m.file = std::string(name.substr(0, std::min(name.size(), name.find('\0'))));
  if (m.file.starts_with("[kernel.kallsyms]")) m.file = "[kernel.kallsyms]";
  if (m.build_id.empty()) {
    auto it = info_.build_ids.find(m.file);
    if (it != info_.build_ids.end()) m.build_id = it->second;
  }
  const uint16_t mode = misc & kMiscCpumodeMask;
  return addMap(mode == kMiscKernel || mode == kMiscGuestKernel ? -1 : pid, start, len, std::move(m));
}

int32_t Decoder::frame(int64_t pid, uint64_t ip, bool kernel) {
  auto found = [&](Process& p) -> Map* {
    auto it = p.maps.upper_bound(ip);
    if (it == p.maps.begin()) return nullptr;
    --it;
    return ip < it->second.end ? &it->second : nullptr;
  };
  Map* m = nullptr;
  uint64_t start = 0;
  if (auto p = processes_.find(kernel ? -1 : pid); p != processes_.end()) {
    m = found(p->second);
    if (m) start = std::prev(p->second.maps.upper_bound(ip))->first;
  }
  int32_t mapping = 0;
  if (m) {
    if (m->mapping < 0) m->mapping = builder_.mapping(m->file, start, m->end, m->pgoff, m->build_id);
    mapping = m->mapping;
  }
  std::string_view name = kernel ? "[kernel]" : "";
  if (kernel) {  // BPF programs and trampolines the kernel announced with its own names
    auto k = ksyms_.upper_bound(ip);
    if (k != ksyms_.begin() && ip < std::prev(k)->second.first) name = std::prev(k)->second.second;
  }
  return builder_.location(ip, mapping, kernel, name);
}

uint32_t Decoder::eventOf(const Attr* a) {
  auto [it, inserted] = events_.try_emplace(a, 0);
  if (inserted) it->second = builder_.event(a->name.empty() ? a->defaultName() : a->name, a->unit());
  return it->second;
}

uint64_t Decoder::wallTime(uint64_t t) const {
  // Both come from the file: a time and an offset of any size must not overflow; the result is
  // clamped to what a Unix timestamp in nanoseconds can hold.
  const __int128 w = static_cast<__int128>(t) + clock_offset_;
  if (w < 0) return 0;
  return w > static_cast<__int128>(UINT64_MAX) ? UINT64_MAX : static_cast<uint64_t>(w);
}

Status Decoder::sample(uint64_t off, uint16_t misc, uint64_t size) {
  Cursor c(data_, off + 8, off + size);
  const Attr* a = attrForSample(c);
  if (!a) return damaged(off, "sample of an unknown event id");
  const uint64_t st = a->sample_type;
  internal::SampleContext where;
  uint64_t ip = 0, time = 0;
  int64_t period = a->freq() ? 1 : static_cast<int64_t>(std::min<uint64_t>(a->period, INT64_MAX));
  if (st & internal::kSampleIdentifier) c.u64();
  if (st & internal::kSampleIp) ip = c.u64();
  if (st & internal::kSampleTid) {
    where.pid = static_cast<int32_t>(c.u32());
    where.tid = static_cast<int32_t>(c.u32());
  }
  if (st & internal::kSampleTime) time = c.u64();
  if (st & internal::kSampleAddr) c.u64();
  if (st & internal::kSampleId) c.u64();
  if (st & internal::kSampleStreamId) c.u64();
  if (st & internal::kSampleCpu) {
    where.cpu = static_cast<int32_t>(c.u32() & 0x7fffffff);
    c.u32();
  }
  if (st & internal::kSamplePeriod) period = static_cast<int64_t>(std::min<uint64_t>(c.u64(), INT64_MAX));
  if (st & internal::kSampleRead) {
    const uint64_t rf = a->read_format;
    const uint64_t per_value = 1 + (rf >> 2 & 1) + (rf >> 4 & 1);
    const uint64_t times = (rf & 1) + (rf >> 1 & 1);
    if (rf & 8) {
      const uint64_t nr = c.u64();
      if (nr > c.left() / 8) return damaged(off, "sample read group past the record");
      c.skip(8 * (times + nr * per_value));
    } else {
      c.skip(8 * (times + per_value));
    }
  }
  frames_.clear();
  const uint16_t mode = misc & kMiscCpumodeMask;
  bool kernel = mode == kMiscKernel || mode == kMiscGuestKernel;
  if (st & internal::kSampleCallchain) {
    const uint64_t nr = c.u64();
    if (nr > c.left() / 8) return damaged(off, "callchain of " + std::to_string(nr) + " entries past the record");
    if (nr > opts_.limits.max_stack_depth)
      return damaged(off, "callchain of " + std::to_string(nr) + " entries (limit " +
                              std::to_string(opts_.limits.max_stack_depth) + ")");
    for (uint64_t i = 0; i < nr; ++i) {
      const uint64_t v = c.u64();
      if (v >= kContextMax) {
        if (v != kContextHv && v != kContextKernel && v != kContextUser && v != kContextGuest &&
            v != kContextGuestKernel && v != kContextGuestUser) {
          frames_.clear();  // an unknown marker: the chain cannot be trusted (perf drops it whole too)
          c.skip(8 * (nr - i - 1));
          break;
        }
        kernel = v == kContextKernel || v == kContextGuestKernel;
        continue;
      }
      frames_.push_back(frame(where.pid, v, kernel));
    }
  } else if (st & internal::kSampleIp) {
    frames_.push_back(frame(where.pid, ip, kernel));
  }
  if (!c.ok()) return damaged(off, "sample truncated");
  if (auto p = processes_.find(where.pid); p != processes_.end()) where.process_name = p->second.comm;
  if (auto t = thread_comm_.find(where.tid); t != thread_comm_.end()) where.thread_name = t->second;
  if (where.process_name.empty()) where.process_name = where.thread_name;
  ++samples_;
  builder_.addSample(eventOf(a), where, wallTime(time), period, frames_);
  return Status::ok();
}

Status Decoder::onRecord(uint64_t off, uint32_t type, uint16_t misc, uint64_t size) {
  Cursor c(data_, off + 8, off + size);
  switch (type) {
    case kSample:
      return sample(off, misc, size);
    case kMmap:
      return mmap(off, misc, size, false);
    case kMmap2:
      return mmap(off, misc, size, true);
    case kComm: {
      const int64_t pid = static_cast<int32_t>(c.u32()), tid = static_cast<int32_t>(c.u32());
      std::string_view name = c.bytes(std::min<uint64_t>(c.left(), 16));
      if (!c.ok()) return damaged(off, "COMM truncated");
      name = name.substr(0, std::min(name.size(), name.find('\0')));
      if (thread_comm_.size() >= opts_.limits.max_processes) return damaged(off, "more threads than the limit");
      thread_comm_[tid] = std::string(name);
      if (pid == tid) {
        Process* p = process(pid);
        if (!p) return damaged(off, "more processes than the limit");
        p->comm = std::string(name);
      }
      return Status::ok();
    }
    case kFork: {
      const int64_t pid = static_cast<int32_t>(c.u32()), ppid = static_cast<int32_t>(c.u32());
      const int64_t tid = static_cast<int32_t>(c.u32()), ptid = static_cast<int32_t>(c.u32());
      if (!c.ok()) return damaged(off, "FORK truncated");
      if (processes_.size() >= opts_.limits.max_processes) return damaged(off, "more processes than the limit");
      if (thread_comm_.size() >= opts_.limits.max_processes) return damaged(off, "more threads than the limit");
      if (auto t = thread_comm_.find(ptid); t != thread_comm_.end()) thread_comm_[tid] = std::string(t->second);
      if (pid == ppid) return Status::ok();  // a thread: it shares its process's maps
      // A new process, as perf script sees it: one known under the same pid before (the pid was
      // reused) is gone. The kernel gave it a copy of its parent's maps; but a FORK perf record
      // wrote itself for a process already running when it started (FORK_EXEC) says only who the
      // parent is: the process's own maps follow, and copying the parent's would leave the parts
      // its own do not cover (a Go parent's longer text under a Go child's) mapped to the parent.
      Process child;
      if (auto parent = processes_.find(ppid); parent != processes_.end()) {
        child.comm = parent->second.comm;
        if (!(misc & kMiscForkSynthesized)) {
          maps_ += parent->second.maps.size();
          if (maps_ > max_maps_) return damaged(off, "more memory maps than the limit");
          child.maps = parent->second.maps;
        }
      }
      processes_[pid] = std::move(child);
      return Status::ok();
    }
    case kLost:
      c.u64();
      lost_ += c.u64();
      return c.ok() ? Status::ok() : damaged(off, "LOST truncated");
    case kKsymbol: {
      const uint64_t addr = c.u64(), len = c.u32();
      c.get<uint16_t>();
      const uint16_t flags = c.get<uint16_t>();
      std::string_view name = c.bytes(c.left());
      if (!c.ok()) return damaged(off, "KSYMBOL truncated");
      name = name.substr(0, std::min(name.size(), name.find('\0')));
      if (flags & 1)
        ksyms_.erase(addr);  // unregistered
      else if (ksyms_.size() < opts_.limits.max_maps && !name.empty())
        ksyms_[addr] = {addr + len, std::string(name)};
      return Status::ok();
    }
    case kLostSamples:
      lost_ += c.u64();
      return c.ok() ? Status::ok() : damaged(off, "LOST_SAMPLES truncated");
    default:
      return Status::ok();  // EXIT, FINISHED_ROUND, ...: nothing the profiles need
  }
}

Status Decoder::run(Result* result) {
  if (Status s = internal::readFileInfo(data_, opts_.limits, &info_); !s.isOk()) return s;
  if (Status s = scan(); !s.isOk()) return s;
  // perf's clock is the kernel's local clock unless the recording chose CLOCK_REALTIME; CLOCK_DATA
  // (perf record -k) anchors the chosen clock to the wall clock; else the last sample is placed at
  // the caller's end time.
  const Attr& a0 = info_.attrs[0];
  if (a0.useClockid() && a0.clockid == 0) {
    anchored_ = true;
  } else if (info_.has_clock_data) {
    clock_offset_ = static_cast<int64_t>(info_.clock_wall_ns - info_.clock_clockid_ns);
    anchored_ = true;
  } else {
    uint64_t end = opts_.end_time_unix_nano;
    if (end == 0)
      end = static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count());
    const uint64_t last = std::max(info_.last_sample_time, max_time_);
    clock_offset_ = static_cast<int64_t>(end - last);
  }
  std::stable_sort(records_.begin(), records_.end(),
                   [](const RecordRef& x, const RecordRef& y) { return x.time < y.time; });
  for (const RecordRef& r : records_) {
    Cursor c(data_, r.offset, r.offset + 8);
    const uint32_t type = c.u32();
    const uint16_t misc = c.get<uint16_t>(), size = c.get<uint16_t>();
    if (Status s = onRecord(r.offset, type, misc, size); !s.isOk()) return s;
  }
  builder_.resourceAttribute("host.name", info_.hostname);
  builder_.resourceAttribute("os.type", info_.os_release.empty() ? "" : "linux");
  builder_.resourceAttribute("os.version", info_.os_release);
  builder_.resourceAttribute("host.arch", info_.arch == "x86_64"    ? "amd64"
                                          : info_.arch == "aarch64" ? "arm64"
                                                                    : info_.arch);
  builder_.resourceAttribute("perf.version", info_.perf_version);
  builder_.resourceAttribute("perf.command_line", info_.cmdline);
  if (info_.cpus_online) builder_.resourceAttribute("host.cpu.count", std::to_string(info_.cpus_online));
  builder_.finish("perf", opts_.keep_original_payload ? data_ : std::string_view(), lost_);
  if (result) {
    result->samples = samples_;
    result->lost = lost_;
    result->records = records_.size();
    result->clock_anchored = anchored_;
  }
  return Status::ok();
}

}  // namespace

Status perfDataToFlat(std::string_view data, const Options& options, flat::Batch* out, Result* result) {
  if (options.reserve_memory)
    if (Status s = options.reserve_memory(data.size() * 8 + (1u << 20)); !s.isOk()) return s;
  flat::Batch converted;
  Decoder decoder(data, options, &converted);
  if (Status s = decoder.run(result); !s.isOk()) return s;
  if (out->resources.empty() && out->profiles.empty())
    *out = std::move(converted);
  else {
    flat::Merger merger(out);
    merger.append(converted);
  }
  return Status::ok();
}

}  // namespace proflow::perf
