// A small JFR writer for tests: builds chunks with any metadata, string encodings, pool layout and
// producer quirks (async-profiler events, v2.0 headers, padded varints, split pools, 64-bit keys), so the
// parser is tested on shapes the JDK at hand does not write.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proflow::testing {

// Byte builder with the JFR encodings.
class JfrBytes {
 public:
  JfrBytes& varint(uint64_t v);
  JfrBytes& padded(uint64_t v, int bytes);  // varint with continuation bits, always `bytes` long
  JfrBytes& u8(uint8_t v);
  JfrBytes& be(uint64_t v, int bytes);
  JfrBytes& utf8(std::string_view s);     // encoding 3
  JfrBytes& latin1(std::string_view s);   // encoding 5; `s` holds raw ISO-8859-1 bytes
  JfrBytes& chars(std::u16string_view s);  // encoding 4
  JfrBytes& poolString(uint64_t key);      // encoding 2
  JfrBytes& nullString();                  // encoding 0
  JfrBytes& emptyString();                 // encoding 1
  JfrBytes& raw(std::string_view s);
  const std::string& str() const { return s_; }
  size_t size() const { return s_.size(); }

 private:
  std::string s_;
};

struct FieldSpec {
  std::string name;
  uint64_t type_id;
  bool constant_pool = false;
  bool array = false;
  std::vector<std::pair<uint64_t, std::string>> annotations;  // (annotation class id, value)
};

struct ClassSpec {
  uint64_t id;
  std::string name;
  std::string super_type;
  bool simple_type = false;
  std::vector<FieldSpec> fields;
};

struct PoolSpec {
  uint64_t type_id;
  std::vector<std::pair<uint64_t, std::string>> entries;  // key, encoded value
};

class ChunkBuilder {
 public:
  explicit ChunkBuilder(uint16_t minor = 1) : minor_(minor) {}
  void addClass(ClassSpec c) { classes_.push_back(std::move(c)); }
  // Appends an event (size written as a padded 4-byte varint, like hotspot).
  void event(uint64_t type_id, const JfrBytes& body);
  // Appends a checkpoint event; checkpoints are chained by their deltas in the order added.
  void checkpoint(const std::vector<PoolSpec>& pools);
  // Ticks: 1 tick = 1 µs (ticks_per_second = 1e6), chunk start at start_nanos / start_ticks.
  std::string build(int64_t start_nanos = 1'700'000'000'000'000'000, int64_t start_ticks = 1000) const;

  // The standard classes of async-profiler-style files (ids as async-profiler writes them).
  void addStandardClasses();

 private:
  std::string metadataEvent() const;

  uint16_t minor_;
  std::vector<ClassSpec> classes_;
  std::string body_;                      // events and checkpoints after the metadata
  std::vector<size_t> checkpoint_offsets_;  // within body_
};

// Ids used by addStandardClasses().
namespace ids {
constexpr uint64_t kBoolean = 4, kChar = 5, kFloat = 6, kDouble = 7, kByte = 8, kShort = 9, kInt = 10, kLong = 11;
constexpr uint64_t kString = 20, kClass = 21, kThread = 22, kFrameType = 24, kThreadState = 25;
constexpr uint64_t kStackTrace = 26, kStackFrame = 27, kMethod = 28, kPackage = 30, kSymbol = 31;
constexpr uint64_t kExecutionSample = 101, kMonitorEnter = 104, kActiveSetting = 108, kLiveObject = 118;
constexpr uint64_t kWallClock = 119, kMalloc = 120, kTimespan = 200, kTimestamp = 201;
}  // namespace ids

}  // namespace proflow::testing
