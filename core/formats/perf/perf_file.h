// perf.data layout: bounds-checked little-endian reads, the file header, the attrs section and the
// feature sections (build ids, host facts, event names, clock anchor). Internal to
// core/formats/perf; the records of the data section are read by perf_data.cc.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/formats/perf/perf.h"

namespace proflow::perf::internal {

// sample_type bits (include/uapi/linux/perf_event.h).
enum SampleBits : uint64_t {
  kSampleIp = 1u << 0,
  kSampleTid = 1u << 1,
  kSampleTime = 1u << 2,
  kSampleAddr = 1u << 3,
  kSampleRead = 1u << 4,
  kSampleCallchain = 1u << 5,
  kSampleId = 1u << 6,
  kSampleCpu = 1u << 7,
  kSamplePeriod = 1u << 8,
  kSampleStreamId = 1u << 9,
  kSampleIdentifier = 1u << 16,
};

// A cursor over [begin, end) of the input; every read checks the bounds and fails (sticky) past them.
class Cursor {
 public:
  Cursor(std::string_view data, uint64_t begin, uint64_t end) : data_(data), pos_(begin), end_(end) {}
  bool ok() const { return ok_; }
  uint64_t pos() const { return pos_; }
  uint64_t left() const { return ok_ && pos_ <= end_ ? end_ - pos_ : 0; }
  bool skip(uint64_t n) {
    if (!ok_ || n > left()) return ok_ = false;
    pos_ += n;
    return true;
  }
  template <class T>
  T get() {
    T v{};
    if (!ok_ || sizeof(T) > left()) {
      ok_ = false;
      return v;
    }
    std::memcpy(&v, data_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  uint64_t u64() { return get<uint64_t>(); }
  uint32_t u32() { return get<uint32_t>(); }
  std::string_view bytes(uint64_t n) {
    if (!ok_ || n > left()) {
      ok_ = false;
      return {};
    }
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  // A feature string: u32 length (NUL and padding included), then the bytes; cut at the first NUL.
  std::string string();

 private:
  std::string_view data_;
  uint64_t pos_, end_;
  bool ok_ = true;
};

struct Attr {
  uint32_t type = 0;
  uint64_t config = 0, period = 0, sample_type = 0, read_format = 0, flags = 0;
  int32_t clockid = 0;
  std::string name;
  std::vector<uint64_t> ids;

  bool freq() const { return flags >> 10 & 1; }
  bool sampleIdAll() const { return flags >> 18 & 1; }
  bool useClockid() const { return flags >> 25 & 1; }
  // The event's name when the recording does not give one: perf's names for the generic events.
  std::string defaultName() const;
  // Unit of the sample period: nanoseconds for the clock events, else count.
  std::string_view unit() const;
};

struct FileInfo {
  bool pipe = false;
  uint64_t data_offset = 0, data_size = 0;
  std::vector<Attr> attrs;
  std::unordered_map<std::string, std::string> build_ids;  // file name -> hex
  std::string hostname, os_release, perf_version, arch, cmdline;
  uint32_t cpus_online = 0;
  uint64_t last_sample_time = 0;
  bool has_clock_data = false;
  uint32_t clock_data_clockid = 0;
  uint64_t clock_wall_ns = 0, clock_clockid_ns = 0;
};

// Reads the header, attrs and features (file mode) or the 16-byte header (pipe mode).
Status readFileInfo(std::string_view data, const Limits& limits, FileInfo* info);
// One perf_event_attr of `attr_size` bytes (its own size field says how many are meaningful).
bool readAttr(Cursor& c, uint64_t attr_size, Attr* attr);
// Payload of feature `bit` at [begin, end).
Status readFeature(std::string_view data, int bit, uint64_t begin, uint64_t end, FileInfo* info);
// Build-id records back to back in [begin, end) (feature BUILD_ID, record HEADER_BUILD_ID).
Status readBuildIds(std::string_view data, uint64_t begin, uint64_t end, FileInfo* info);

// "perf.data: offset N: what"
Status damaged(uint64_t offset, const std::string& what);

}  // namespace proflow::perf::internal
