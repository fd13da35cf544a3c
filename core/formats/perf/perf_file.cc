#include "core/formats/perf/perf_file.h"

#include <algorithm>

#include "core/formats/perf/profile_builder.h"
#include "core/util/hex.h"

namespace proflow::perf::internal {
namespace {

constexpr uint64_t kMagic = 0x32454c4946524550ull;         // "PERFILE2" read little-endian
constexpr uint64_t kMagicSwapped = 0x50455246494c4532ull;  // written by a big-endian machine
constexpr uint64_t kFileHeaderSize = 104, kPipeHeaderSize = 16;
constexpr uint64_t kMinAttrSize = 64;  // PERF_ATTR_SIZE_VER0
constexpr int kFeatureBits = 256;
constexpr uint32_t kMaxFeatureStrings = 4096;
constexpr uint64_t kMaxIds = 1'000'000;  // one per event, CPU and thread: far above any recording

enum Feature {
  kBuildId = 2,
  kHostname = 3,
  kOsRelease = 4,
  kVersion = 5,
  kArch = 6,
  kNrCpus = 7,
  kCmdline = 11,
  kEventDesc = 12,
  kFeatureSampleTime = 21,
  kClockData = 29,
};

}  // namespace

Status damaged(uint64_t offset, const std::string& what) {
  return Status::invalid("perf.data: offset " + std::to_string(offset) + ": " + what);
}

std::string Cursor::string() {
  const uint32_t len = u32();
  std::string_view s = bytes(len);
  return std::string(s.substr(0, std::min(s.size(), s.find('\0'))));
}

std::string Attr::defaultName() const {
  static constexpr const char* kHardware[] = {
      "cycles",        "instructions", "cache-references",        "cache-misses",           "branches",
      "branch-misses", "bus-cycles",   "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles"};
  static constexpr const char* kSoftware[] = {"cpu-clock",        "task-clock",   "page-faults",  "context-switches",
                                              "cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
                                              "emulation-faults", "dummy",        "bpf-output",   "cgroup-switches"};
  if (type == 0 && config < std::size(kHardware)) return kHardware[config];
  if (type == 1 && config < std::size(kSoftware)) return kSoftware[config];
  if (type == 2) return "tracepoint:" + std::to_string(config);
  return "raw:" + std::to_string(type) + ":" + std::to_string(config);
}

std::string_view Attr::unit() const { return type == 1 && config <= 1 ? "nanoseconds" : "count"; }

bool readAttr(Cursor& c, uint64_t attr_size, Attr* a) {
  const uint64_t start = c.pos();
  if (attr_size < kMinAttrSize || c.left() < attr_size) return false;
  a->type = c.u32();
  c.u32();  // its own size: the fields below all lie in the first 96 bytes when present
  a->config = c.u64();
  a->period = c.u64();
  a->sample_type = c.u64();
  a->read_format = c.u64();
  a->flags = c.u64();
  if (attr_size >= 96) {
    c.skip(92 - (c.pos() - start));
    a->clockid = c.get<int32_t>();
  }
  return c.skip(attr_size - (c.pos() - start));
}

Status readBuildIds(std::string_view data, uint64_t begin, uint64_t end, FileInfo* info) {
  uint64_t pos = begin;
  while (pos + 8 <= end) {
    Cursor c(data, pos, end);
    c.u32();
    const uint16_t misc = c.get<uint16_t>();
    const uint16_t size = c.get<uint16_t>();
    if (size < 36 || size > end - pos) return damaged(pos, "build-id record of size " + std::to_string(size));
    c.u32();  // pid
    std::string_view id = c.bytes(20);
    const uint8_t len = c.get<uint8_t>();
    c.skip(3);
    std::string_view name = c.bytes(size - 36);
    name = name.substr(0, std::min(name.size(), name.find('\0')));
    const size_t n = (misc & 0x8000) && len <= 20 ? len : 20;
    if (!name.empty() && info->build_ids.size() < 1'000'000)
      info->build_ids[std::string(name)] = hexEncode({reinterpret_cast<const uint8_t*>(id.data()), n});
    pos += size;
  }
  return Status::ok();
}

namespace {

Status readEventDesc(Cursor& c, FileInfo* info) {
  const uint32_t nr = c.u32(), attr_size = c.u32();
  if (!c.ok() || nr > 4096) return damaged(c.pos(), "EVENT_DESC with " + std::to_string(nr) + " events");
  // Matched to the attrs by their ids (the attrs section holds the same events in the same order).
  std::unordered_map<uint64_t, size_t> attr_by_id;
  for (size_t k = 0; k < info->attrs.size(); ++k)
    for (uint64_t id : info->attrs[k].ids) attr_by_id.try_emplace(id, k);
  for (uint32_t i = 0; i < nr; ++i) {
    Attr a;
    if (!readAttr(c, attr_size, &a)) return damaged(c.pos(), "EVENT_DESC attr truncated");
    const uint32_t nr_ids = c.u32();
    std::string name = c.string();
    if (nr_ids > c.left() / 8) return damaged(c.pos(), "EVENT_DESC ids past the section");
    const uint64_t first_id = nr_ids > 0 ? c.u64() : 0;
    c.skip(8 * (nr_ids > 0 ? nr_ids - 1 : 0));
    if (!c.ok()) return damaged(c.pos(), "EVENT_DESC truncated");
    if (nr_ids == 0) {
      if (i < info->attrs.size()) info->attrs[i].name = name;
    } else if (auto it = attr_by_id.find(first_id); it != attr_by_id.end()) {
      info->attrs[it->second].name = name;
    }
  }
  return Status::ok();
}

}  // namespace

Status readFeature(std::string_view data, int bit, uint64_t begin, uint64_t end, FileInfo* info) {
  Cursor c(data, begin, end);
  switch (bit) {
    case kBuildId:
      return readBuildIds(data, begin, end, info);
    case kHostname:
      info->hostname = c.string();
      break;
    case kOsRelease:
      info->os_release = c.string();
      break;
    case kVersion:
      info->perf_version = c.string();
      break;
    case kArch:
      info->arch = c.string();
      break;
    case kNrCpus:
      c.u32();
      info->cpus_online = c.u32();
      break;
    case kCmdline: {
      const uint32_t nr = c.u32();
      if (nr > kMaxFeatureStrings) return damaged(begin, "CMDLINE with " + std::to_string(nr) + " strings");
      std::string line;
      for (uint32_t i = 0; i < nr && c.ok(); ++i) line += (i ? " " : "") + c.string();
      info->cmdline = line;
      break;
    }
    case kEventDesc:
      return readEventDesc(c, info);
    case kFeatureSampleTime:
      c.u64();
      info->last_sample_time = c.u64();
      break;
    case kClockData:
      if (c.u32() != 1) break;  // only version 1 is known
      info->clock_data_clockid = c.u32();
      info->clock_wall_ns = c.u64();
      info->clock_clockid_ns = c.u64();
      info->has_clock_data = c.ok();
      break;
    default:
      break;
  }
  if (!c.ok()) return damaged(begin, "feature " + std::to_string(bit) + " truncated");
  return Status::ok();
}

namespace {

Status readAttrs(std::string_view data, const Limits& limits, uint64_t attr_size, uint64_t off, uint64_t size,
                 FileInfo* info) {
  if (attr_size < kMinAttrSize + 16 || attr_size > 4096) return damaged(16, "attr size " + std::to_string(attr_size));
  if (off > data.size() || size > data.size() - off) return damaged(24, "attrs section past the end of the file");
  const uint64_t n = size / attr_size;
  if (n == 0) return damaged(24, "no event attrs");
  if (n > limits.max_events)
    return damaged(24, std::to_string(n) + " events (limit " + std::to_string(limits.max_events) + ")");
  Cursor c(data, off, off + size);
  uint64_t total_ids = 0;
  for (uint64_t i = 0; i < n; ++i) {
    Attr a;
    if (!readAttr(c, attr_size - 16, &a)) return damaged(c.pos(), "attr truncated");
    const uint64_t ids_off = c.u64(), ids_size = c.u64();
    if (ids_off > data.size() || ids_size > data.size() - ids_off)
      return damaged(c.pos() - 16, "attr ids past the end of the file");
    Cursor ids(data, ids_off, ids_off + ids_size);
    total_ids += ids_size / 8;
    if (total_ids > kMaxIds) return damaged(c.pos() - 16, "more than " + std::to_string(kMaxIds) + " sample ids");
    a.ids.reserve(ids_size / 8);
    while (ids.left() >= 8) a.ids.push_back(ids.u64());
    info->attrs.push_back(std::move(a));
  }
  return Status::ok();
}

}  // namespace

Status readFileInfo(std::string_view data, const Limits& limits, FileInfo* info) {
  Cursor c(data, 0, data.size());
  const uint64_t magic = c.u64(), header_size = c.u64();
  if (!c.ok()) return Status::invalid("perf.data: shorter than its 16-byte header");
  if (magic == kMagicSwapped) return Status::invalid("perf.data: recorded on a big-endian machine (not supported)");
  if (magic != kMagic) return Status::invalid("perf.data: no PERFILE2 magic (perf's v1 format is not supported)");
  if (header_size == kPipeHeaderSize) {
    info->pipe = true;
    info->data_offset = kPipeHeaderSize;
    info->data_size = data.size() - kPipeHeaderSize;
    return Status::ok();
  }
  if (header_size != kFileHeaderSize)
    return damaged(8, "header size " + std::to_string(header_size) + " (expected 104 or 16)");
  const uint64_t attr_size = c.u64(), attrs_off = c.u64(), attrs_size = c.u64();
  info->data_offset = c.u64();
  info->data_size = c.u64();
  c.skip(16);  // event_types
  uint64_t features[4];
  for (uint64_t& w : features) w = c.u64();
  if (!c.ok()) return damaged(0, "file header truncated");
  if (info->data_size == 0) return damaged(48, "data size 0: the recording did not finish (perf record was killed)");
  if (info->data_offset > data.size() || info->data_size > data.size() - info->data_offset)
    return damaged(40, "data section [" + std::to_string(info->data_offset) + ", +" + std::to_string(info->data_size) +
                           ") past the end of the file (" + std::to_string(data.size()) + " bytes): truncated");
  if (Status s = readAttrs(data, limits, attr_size, attrs_off, attrs_size, info); !s.isOk()) return s;
  Cursor index(data, info->data_offset + info->data_size, data.size());
  for (int bit = 0; bit < kFeatureBits; ++bit) {
    if (!(features[bit / 64] >> (bit % 64) & 1)) continue;
    const uint64_t off = index.u64(), size = index.u64();
    if (!index.ok()) return damaged(index.pos(), "feature index truncated");
    if (off > data.size() || size > data.size() - off)
      return damaged(index.pos() - 16, "feature " + std::to_string(bit) + " past the end of the file");
    if (Status s = readFeature(data, bit, off, off + size, info); !s.isOk()) return s;
  }
  return Status::ok();
}

}  // namespace proflow::perf::internal
