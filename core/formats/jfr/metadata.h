// The metadata event of a chunk: the class/field tree that says how every event and constant-pool entry is
// laid out. Types are looked up by name (ids differ between producers and files).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/formats/jfr/byte_reader.h"

namespace proflow::jfr {

// How a value of a class is encoded on disk.
enum class Kind : uint8_t { kStruct, kBoolean, kByte, kChar, kShort, kInt, kLong, kFloat, kDouble, kString };

// Unit of a @Timespan / @Timestamp annotation on a field.
enum class TimeUnit : uint8_t { kNone, kTicks, kNanoseconds, kMicroseconds, kMilliseconds, kSeconds };

struct FieldDesc {
  std::string name;
  uint64_t type_id = 0;
  int32_t type = -1;  // index into Metadata::classes(), resolved after parsing
  bool array = false;
  bool constant_pool = false;
  TimeUnit timespan = TimeUnit::kNone;   // @Timespan
  TimeUnit timestamp = TimeUnit::kNone;  // @Timestamp
};

struct ClassDesc {
  uint64_t id = 0;
  std::string name;
  std::string super_type;
  bool simple_type = false;
  Kind kind = Kind::kStruct;
  std::vector<FieldDesc> fields;
  // True for a struct whose encoding takes no bytes (no fields, or only such structs): arrays of it must
  // not be looped over by count.
  bool empty_encoding = false;
  // For a struct whose fields all have a fixed shape (pool references and numbers, no arrays, strings or
  // inline structs): one step per field, 'v' varint, 'b' byte, '4' / '8' fixed bytes. Pool entries
  // such as methods, classes and stack frames are skipped by this instead of walking the metadata.
  // Empty for every other class.
  std::string flat_steps;

  int fieldIndex(std::string_view field_name) const;
};

class Metadata {
 public:
  // Parses the metadata event body. `r` is positioned after the event's size and type id; `end` is the
  // chunk-relative end of the event. On failure returns false and sets `error`.
  bool parse(ByteReader& r, uint64_t end, std::string* error);

  const std::vector<ClassDesc>& classes() const { return classes_; }
  const ClassDesc& at(int32_t index) const { return classes_[static_cast<size_t>(index)]; }
  // -1 when absent.
  int32_t indexByName(std::string_view name) const;
  int32_t indexById(uint64_t id) const;
  uint64_t id() const { return metadata_id_; }

 private:
  // One node of the metadata element tree; names and attribute values index strings_. Attributes
  // are a run of attributes_; children a list through next_sibling (kNone ends it). Thousands of
  // elements per chunk without two vectors each: every chunk's metadata is parsed, and for a small
  // recording that was about 40% of its conversion.
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Element {
    uint32_t name = 0;
    uint32_t attributes_begin = 0, attributes_count = 0;
    uint32_t first_child = kNone, last_child = kNone, next_sibling = kNone;
  };
  std::vector<std::pair<uint32_t, uint32_t>> attributes_;  // (key, value) string indexes
  bool readTree(ByteReader& r, uint64_t end, std::string* error);
  bool buildClasses(std::string* error);
  void resolveTypes();
  void computeEmptyEncodings();
  void computeFlatSteps();

  uint64_t metadata_id_ = 0;
  std::vector<std::string> strings_;
  std::vector<Element> elements_;
  std::vector<ClassDesc> classes_;
  std::unordered_map<uint64_t, int32_t> by_id_;
  std::unordered_map<std::string, int32_t> by_name_;
};

}  // namespace proflow::jfr
