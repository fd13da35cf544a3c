// The flat batch: one OTLP profiles request (resources -> scopes -> profiles, plus the dictionary
// they share) held in contiguous arrays instead of protobuf messages. Every string and byte field
// lives once in one byte arena; entries refer to it by offset. Variable-length children (stack
// location lists, location lines, attribute index lists, sample values) are ranges into shared
// columns, and samples are columns themselves. Building, copying and freeing a batch therefore
// costs a handful of allocations, whatever the number of entries. See core/flat/README.md.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace proflow::flat {

inline constexpr uint32_t kNone = UINT32_MAX;

// Bytes of the batch's arena: [offset, offset + size).
struct Bytes {
  uint32_t offset = 0, size = 0;
};

// Elements of one column: [begin, begin + size).
struct Range {
  uint32_t begin = 0, size = 0;
  uint32_t end() const { return begin + size; }
};

// Which member of common.v1.AnyValue is set. kAbsent: the message itself is absent (protobuf
// presence of a singular message field); kEmpty: present with no member set.
enum class ValueKind : uint8_t { kAbsent, kEmpty, kString, kBool, kInt, kDouble, kArray, kKvList, kBytes, kStrindex };

// An AnyValue. Scalars are inline; strings and bytes are in the arena; arrays and key-value lists
// are kept as their encoded ArrayValue / KeyValueList bytes (they are rare and read as a whole), with
// a flag telling whether they hold reference-based strings that a merge has to re-point.
struct Value {
  ValueKind kind = ValueKind::kAbsent;
  bool nested_refs = false;  // kArray / kKvList: holds key_strindex or string_value_strindex
  int64_t scalar = 0;        // kBool (0/1), kInt, kDouble (bit pattern), kStrindex
  Bytes bytes;               // kString, kBytes, kArray, kKvList

  bool boolValue() const { return scalar != 0; }
  int64_t intValue() const { return scalar; }
  double doubleValue() const { return std::bit_cast<double>(scalar); }
  int32_t strindex() const { return static_cast<int32_t>(scalar); }
};

// common.v1.KeyValue of resource and scope attributes: an inline key, or key_strindex (v1.10).
struct KeyValue {
  Bytes key;
  int32_t key_strindex = 0;
  Value value;
};

// Dictionary entries. Index 0 of every table is the zero value (OTLP rule).
struct Attribute {  // KeyValueAndUnit
  int32_t key_strindex = 0, unit_strindex = 0;
  Value value;
};
struct Mapping {
  uint64_t memory_start = 0, memory_limit = 0, file_offset = 0;
  int32_t filename_strindex = 0;
  Range attributes;  // Batch::indices
};
struct Line {
  int64_t line = 0, column = 0;
  int32_t function_index = 0;
};
struct Location {
  uint64_t address = 0;
  int32_t mapping_index = 0;
  Range lines;       // Batch::lines
  Range attributes;  // Batch::indices
};
struct Function {
  int32_t name_strindex = 0, system_name_strindex = 0, filename_strindex = 0;
  int64_t start_line = 0;
};
struct Link {
  Bytes trace_id, span_id;
};
struct Stack {
  Range locations;  // Batch::indices
};

struct ValueType {
  bool present = false;
  int32_t type_strindex = 0, unit_strindex = 0;
};

struct Profile {
  ValueType sample_type, period_type;
  uint64_t time_unix_nano = 0, duration_nano = 0;
  int64_t period = 0;
  Bytes profile_id;
  uint32_t dropped_attributes_count = 0;
  Bytes original_payload_format, original_payload;
  Range attributes;  // Batch::indices
  Range samples;     // rows of Batch::samples
};

struct Scope {  // ScopeProfiles with its InstrumentationScope
  bool present = false;  // the `scope` message is set
  Bytes name, version;
  Range attributes;  // Batch::key_values
  uint32_t dropped_attributes_count = 0;
  Bytes schema_url;
  Range profiles;              // Batch::profiles
  uint32_t next_scope = kNone;  // next scope of the same resource
};

struct Resource {  // ResourceProfiles with its Resource
  bool present = false;  // the `resource` message is set
  Range attributes;      // Batch::key_values
  uint32_t dropped_attributes_count = 0;
  Range entity_refs;  // Batch::entity_refs: encoded EntityRef messages (no indexes inside)
  Bytes schema_url;
  uint32_t first_scope = kNone, last_scope = kNone, scope_count = 0;
};

// Samples as columns; row i is one Sample.
struct SampleColumns {
  std::vector<int32_t> stack_index, link_index;
  std::vector<Range> attributes;  // Batch::indices
  std::vector<Range> values;      // Batch::values
  std::vector<Range> timestamps;  // Batch::timestamps

  size_t size() const { return stack_index.size(); }
};

// Throws std::length_error: `adding` bytes do not fit in an arena of `arena` bytes (addBytes).
[[noreturn]] void throwArenaFull(size_t arena, size_t adding);

struct Counts {
  uint64_t resources = 0, profiles = 0, samples = 0;
};

struct Batch {
  std::string arena;  // every string and byte field, each dictionary string once

  bool has_dictionary = false;
  std::vector<Bytes> strings;
  std::vector<Mapping> mappings;
  std::vector<Location> locations;
  std::vector<Function> functions;
  std::vector<Link> links;
  std::vector<Attribute> attributes;
  std::vector<Stack> stacks;
  std::vector<Line> lines;
  std::vector<int32_t> indices;  // stack location lists and every attribute index list

  std::vector<Resource> resources;
  std::vector<Scope> scopes;
  std::vector<Profile> profiles;
  std::vector<KeyValue> key_values;  // resource and scope attributes
  std::vector<Bytes> entity_refs;
  SampleColumns samples;
  std::vector<int64_t> values;
  std::vector<uint64_t> timestamps;

  std::string_view view(Bytes b) const { return std::string_view(arena).substr(b.offset, b.size); }
  // A dictionary string; "" when out of range.
  std::string_view string(int32_t i) const {
    return i >= 0 && static_cast<size_t>(i) < strings.size() ? view(strings[static_cast<size_t>(i)]) : std::string_view();
  }
  // Appends `s` to the arena. Its offsets are 32-bit: bytes that would take the arena past 4 GiB
  // throw std::length_error (as a vector grown past its own limit does), nothing appended, instead
  // of an offset that wraps onto other data.
  Bytes addBytes(std::string_view s) {
    if (s.size() > UINT32_MAX || arena.size() > UINT32_MAX - s.size()) throwArenaFull(arena.size(), s.size());
    Bytes b{static_cast<uint32_t>(arena.size()), static_cast<uint32_t>(s.size())};
    arena.append(s);
    return b;
  }
  template <class T>
  static std::span<const T> slice(const std::vector<T>& column, Range r) {
    return std::span<const T>(column.data() + r.begin, r.size);
  }
  std::span<const int32_t> indexList(Range r) const { return slice(indices, r); }

  // Calls fn(scope_index) for each scope of `r`, in order.
  template <class Fn>
  void forEachScope(const Resource& r, Fn&& fn) const {
    for (uint32_t s = r.first_scope; s != kNone; s = scopes[s].next_scope) fn(s);
  }
  // Appends a scope to resource `r` (its profiles range is the caller's); returns its index.
  uint32_t addScope(uint32_t r, const Scope& scope);

  Counts counts() const;
  bool empty() const { return counts().profiles == 0; }
  // Bytes this batch holds on the heap and inline (capacity of every column): what a memory limit
  // should charge for it.
  size_t memoryBytes() const;
  // Releases spare capacity (after decoding or merging, before sharing).
  void shrinkToFit();
  void clear() { *this = Batch(); }
};

}  // namespace proflow::flat
