// One JFR chunk, parsed: header, metadata, and an index of every constant-pool entry (key -> offset of its
// value). Pool values are decoded lazily, when an event refers to them, so a stack trace, method or symbol
// costs nothing until used. Events are read one at a time; only event types selected by name are decoded,
// the rest are skipped by their declared size.
//
// A Chunk does not own its bytes: they must stay valid while the chunk is used (ChunkReader keeps them).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/jfr/byte_reader.h"
#include "core/formats/jfr/key_index.h"
#include "core/formats/jfr/metadata.h"

namespace proflow::jfr {

constexpr size_t kChunkHeaderSize = 68;

struct ChunkHeader {
  uint16_t major = 0;
  uint16_t minor = 0;
  uint64_t size = 0;             // includes the header
  uint64_t cp_offset = 0;        // last checkpoint event, chunk-relative
  uint64_t metadata_offset = 0;  // chunk-relative
  int64_t start_nanos = 0;       // epoch ns
  int64_t duration_nanos = 0;
  int64_t start_ticks = 0;
  int64_t ticks_per_second = 0;
  uint32_t features = 0;  // bytes 64..67 as one big-endian u32 (v2.1: state byte, pad, flags)

  uint8_t state() const { return static_cast<uint8_t>(features >> 24); }
  bool compressedIntegers() const { return features & 1; }
  bool finalChunk() const { return minor >= 1 && (features & 2); }
};

// Decodes and validates the fixed 68-byte header; `available` is how many bytes of the chunk are at hand
// (only the magic and version are needed to decide it is a chunk at all).
bool parseChunkHeader(const uint8_t* p, size_t available, ChunkHeader* out, std::string* error);

// A parse failure: what went wrong and where (byte offset in the whole file).
struct ParseError {
  uint64_t offset = 0;
  std::string message;
  std::string toString() const;
};

struct Limits {
  uint64_t max_chunk_size = 1ull << 31;  // bytes; memory use is bounded by this
  uint32_t max_stack_depth = 8192;       // frames per stack trace
};

// Event fields captured by name. Several on-disk names map to one slot (the thread of an execution sample
// is `sampledThread`, of an allocation `eventThread`).
enum class EventField : uint8_t {
  kStartTime,
  kDuration,
  kThread,       // eventThread, sampledThread
  kStackTrace,
  kState,
  kWeight,
  kAllocationSize,
  kTlabSize,
  kObjectClass,  // objectClass, monitorClass, parkedClass
  kContextId,
  kSpanId,
  kSpanName,
  kTraceIdHi,
  kTraceIdLo,
  kSamples,
  kTimeSpan,
  kSize,
  kId,
  kName,
  kValue,
  kAddress,
  kCpuInterval,   // Datadog's profiler configuration, in ms
  kWallInterval,
  kCount
};

// One decoded event of a selected type. Integer and pool-key fields hold their value; string fields hold
// the chunk offset of the string (decode with Chunk::stringAt).
struct Event {
  int32_t selector = -1;  // index into the names given to Chunk::select()
  uint64_t offset = 0;    // chunk-relative start of the event
  uint32_t present = 0;   // bit per EventField
  // One extra slot past the fields: the fast decoder stores the fields it skips there instead of branching.
  uint64_t values[static_cast<size_t>(EventField::kCount) + 1] = {};

  bool has(EventField f) const { return present & (1u << static_cast<unsigned>(f)); }
  uint64_t get(EventField f) const { return values[static_cast<size_t>(f)]; }
};

struct Frame {
  uint64_t method = 0;  // jdk.types.Method key
  int32_t line = 0;
  int32_t bytecode_index = 0;
  uint64_t type = 0;  // jdk.types.FrameType key
  bool has_type = false;
};

struct StackTrace {
  bool truncated = false;
  std::vector<Frame> frames;  // leaf first
};

struct MethodInfo {
  uint64_t class_key = 0;
  uint64_t name_symbol = 0;
  uint64_t descriptor_symbol = 0;
  bool hidden = false;
};

struct ThreadInfo {
  std::string os_name;
  std::string java_name;
  int64_t os_thread_id = 0;
  int64_t java_thread_id = 0;
};

class Chunk {
 public:
  Chunk() = default;
  Chunk(const Chunk&) = delete;
  Chunk& operator=(const Chunk&) = delete;

  // Parses header, metadata and constant pools of the chunk held in `bytes` (exactly one chunk), which
  // starts at `file_offset` in its file. On failure returns false and error() says why.
  bool load(std::span<const uint8_t> bytes, uint64_t file_offset, const Limits& limits = {});

  const ChunkHeader& header() const { return header_; }
  const Metadata& metadata() const { return metadata_; }
  uint64_t fileOffset() const { return file_offset_; }
  const ParseError& error() const { return error_; }
  bool failed() const { return failed_; }

  // Chooses the event types nextEvent() decodes, by name; Event::selector is the index into `names`.
  // Must be called after load(). Names absent from this chunk's metadata are ignored. `fields` (bit per
  // EventField) limits what is captured: decoding stops after the last wanted field of each type;
  // `more_fields[i]`, when given, adds fields for names[i] only.
  static constexpr uint32_t kAllEventFields = (1u << static_cast<unsigned>(EventField::kCount)) - 1;
  void select(std::span<const std::string_view> names, uint32_t fields = kAllEventFields,
              std::span<const uint32_t> more_fields = {});

  // Decodes the next selected event at or after `*pos` (start with pos = 0). Returns false at the end of
  // the chunk or on a malformed event (then failed() is true and error() names the offset).
  bool nextEvent(uint64_t* pos, Event* out);

  // Typed constant-pool lookups; false when the key is absent or the entry is malformed.
  bool stackTrace(uint64_t key, StackTrace* out);
  bool method(uint64_t key, MethodInfo* out);
  bool classNameSymbol(uint64_t class_key, uint64_t* symbol_key);
  bool thread(uint64_t key, ThreadInfo* out);
  // Decoded text of a Symbol / FrameType / ThreadState entry ("" when absent).
  std::string_view symbol(uint64_t key, std::string& scratch);
  std::string_view frameType(uint64_t key, std::string& scratch);
  std::string_view threadState(uint64_t key, std::string& scratch);
  // Decodes the string whose encoding byte is at chunk offset `off` (pool references resolved).
  std::string_view stringAt(uint64_t off, std::string& scratch);
  // True when event field `f` of an event of this selector is a string (its value is an offset).
  bool isStringField(int32_t selector, EventField f) const;
  // The value of event field `f` as a number: a float field's bits are read as a float (Datadog's
  // sample weights), others as the integer they hold.
  double numberOf(const Event& e, EventField f) const;
  // The name of the event type behind a type id (for jdk.ActiveSetting's `id`), "" when unknown.
  std::string_view typeNameById(uint64_t id) const;
  // All keys of a pool type, by name (e.g. "jdk.types.FrameType"); empty when absent.
  std::vector<uint64_t> poolKeys(std::string_view type_name) const;

  // Tick conversions with this chunk's clock.
  int64_t ticksToEpochNanos(uint64_t ticks) const;
  int64_t ticksToNanos(int64_t ticks) const;
  int64_t timespanToNanos(int64_t value, TimeUnit unit) const;
  // Unit of a selected event's duration field (ticks for JDK events).
  TimeUnit durationUnit(int32_t selector) const;

 private:
  // How to read one record: for every field of the class, the slot to store it in (-1 = skip).
  struct Plan {
    // One step per field up to the last needed one, precomputed so the hot loop does not consult the
    // metadata for primitive fields.
    struct Op {
      uint8_t code;  // OpCode
      int8_t slot;   // -1 = not captured
      uint8_t sink;  // slot, or kDiscardSlot when not captured (for the branch-free event decoder)
      int32_t field;
    };
    int32_t cls = -1;
    std::vector<int8_t> slots;
    int last_needed = -1;  // decoding can stop after this field
    uint32_t string_slots = 0;
    uint32_t float_slots = 0;  // 32-bit floats: the value holds their IEEE bits
    uint32_t captured = 0;        // bit per slot some op stores
    bool varints_only = false;    // every op is a varint or a byte: decodeEventUnchecked applies
    std::vector<Op> ops;
  };
  static constexpr uint8_t kDiscardSlot = static_cast<uint8_t>(EventField::kCount);
  struct RecordPlans;

  bool fail(uint64_t chunk_offset, std::string message);
  bool loadMetadata();
  bool loadPools();
  bool readCheckpoint(uint64_t pos, int64_t* delta);
  bool skipField(ByteReader& r, const FieldDesc& f, int depth);
  bool skipClass(ByteReader& r, int32_t cls, int depth);
  static bool skipFlat(ByteReader& r, std::string_view steps);
  bool readRecord(ByteReader& r, const Plan& plan, uint64_t* out, uint32_t* present);
  // Decodes a varints_only event body at `p` without per-field checks; the caller guarantees 9 readable
  // bytes per op and checks afterwards that `p` stayed inside the event.
  static const uint8_t* decodeEventUnchecked(const uint8_t* p, const Plan& plan, uint64_t* out);
  // `whole`: decode every field (inline structs must be consumed completely).
  Plan makePlan(int32_t cls, std::span<const std::pair<std::string_view, int>> fields, bool whole = false) const;
  void makePoolPlans();
  // Reader positioned at the value of pool entry `key` of class `cls`, or a failed reader.
  ByteReader entry(int32_t cls, uint64_t key) const;
  std::string_view simpleString(int32_t cls, uint64_t key, std::string& scratch, int depth = 0);
  std::string_view stringAtDepth(uint64_t off, std::string& scratch, int depth);
  int32_t selectorOf(uint64_t type_id) const;

  std::span<const uint8_t> bytes_;
  uint64_t file_offset_ = 0;
  Limits limits_;
  ChunkHeader header_;
  Metadata metadata_;
  std::vector<uint8_t> metadata_bytes_;  // the event metadata_ was parsed from
  std::vector<KeyIndex> pools_;  // per class index
  bool failed_ = false;
  ParseError error_;

  // Known classes, -1 when absent.
  int32_t string_cls_ = -1;
  int32_t stack_trace_cls_ = -1, stack_frame_cls_ = -1, method_cls_ = -1, class_cls_ = -1;
  int32_t thread_cls_ = -1, symbol_cls_ = -1, frame_type_cls_ = -1, thread_state_cls_ = -1;
  Plan stack_trace_plan_, stack_frame_plan_, method_plan_, class_plan_, thread_plan_;
  int stack_frames_field_ = -1;

  // Selected events.
  std::vector<Plan> event_plans_;        // per selector
  std::vector<int32_t> selector_by_id_;  // dense table for small type ids
  std::vector<std::pair<uint64_t, int32_t>> selector_sparse_;
  std::vector<TimeUnit> duration_units_;
};

}  // namespace proflow::jfr
