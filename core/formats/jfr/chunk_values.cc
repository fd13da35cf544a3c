// Lazy constant-pool lookups, event selection and decoding, and clock conversions of a loaded Chunk.
#include <array>
#include <cstring>

#include "core/formats/jfr/chunk.h"
#include "core/util/saturating.h"

namespace proflow::jfr {
namespace {

using FieldSlots = std::span<const std::pair<std::string_view, int>>;

constexpr std::pair<std::string_view, int> kStackTraceFields[] = {{"truncated", 0}};
constexpr std::pair<std::string_view, int> kStackFrameFields[] = {
    {"method", 0}, {"lineNumber", 1}, {"bytecodeIndex", 2}, {"type", 3}};
constexpr std::pair<std::string_view, int> kMethodFields[] = {
    {"type", 0}, {"name", 1}, {"descriptor", 2}, {"hidden", 3}};
constexpr std::pair<std::string_view, int> kClassFields[] = {{"name", 0}};
constexpr std::pair<std::string_view, int> kThreadFields[] = {
    {"osName", 0}, {"osThreadId", 1}, {"javaName", 2}, {"javaThreadId", 3}};

constexpr auto F(EventField f) { return static_cast<int>(f); }
constexpr std::pair<std::string_view, int> kEventFields[] = {
    {"startTime", F(EventField::kStartTime)},
    {"duration", F(EventField::kDuration)},
    {"eventThread", F(EventField::kThread)},
    {"sampledThread", F(EventField::kThread)},
    {"stackTrace", F(EventField::kStackTrace)},
    {"state", F(EventField::kState)},
    {"weight", F(EventField::kWeight)},
    {"allocationSize", F(EventField::kAllocationSize)},
    {"tlabSize", F(EventField::kTlabSize)},
    {"objectClass", F(EventField::kObjectClass)},
    {"monitorClass", F(EventField::kObjectClass)},
    {"parkedClass", F(EventField::kObjectClass)},
    {"contextId", F(EventField::kContextId)},
    {"spanId", F(EventField::kSpanId)},
    {"spanName", F(EventField::kSpanName)},
    {"traceIdHi", F(EventField::kTraceIdHi)},
    {"traceIdLo", F(EventField::kTraceIdLo)},
    {"samples", F(EventField::kSamples)},
    {"timeSpan", F(EventField::kTimeSpan)},
    {"size", F(EventField::kSize)},
    {"id", F(EventField::kId)},
    {"name", F(EventField::kName)},
    {"value", F(EventField::kValue)},
    {"address", F(EventField::kAddress)},
    {"cpuInterval", F(EventField::kCpuInterval)},
    {"wallInterval", F(EventField::kWallInterval)},
};

constexpr size_t kDenseIds = 1 << 16;

}  // namespace

void Chunk::makePoolPlans() {
  stack_trace_cls_ = metadata_.indexByName("jdk.types.StackTrace");
  stack_frame_cls_ = metadata_.indexByName("jdk.types.StackFrame");
  method_cls_ = metadata_.indexByName("jdk.types.Method");
  class_cls_ = metadata_.indexByName("java.lang.Class");
  thread_cls_ = metadata_.indexByName("java.lang.Thread");
  symbol_cls_ = metadata_.indexByName("jdk.types.Symbol");
  frame_type_cls_ = metadata_.indexByName("jdk.types.FrameType");
  thread_state_cls_ = metadata_.indexByName("jdk.types.ThreadState");
  stack_trace_plan_ = makePlan(stack_trace_cls_, kStackTraceFields);
  // Frames are inline structs: every field must be consumed to reach the next frame.
  stack_frame_plan_ = makePlan(stack_frame_cls_, kStackFrameFields, /*whole=*/true);
  method_plan_ = makePlan(method_cls_, kMethodFields);
  class_plan_ = makePlan(class_cls_, kClassFields);
  thread_plan_ = makePlan(thread_cls_, kThreadFields);
  stack_frames_field_ = stack_trace_cls_ >= 0 ? metadata_.at(stack_trace_cls_).fieldIndex("frames") : -1;
}

ByteReader Chunk::entry(int32_t cls, uint64_t key) const {
  ByteReader r;
  uint32_t off = cls >= 0 ? pools_[static_cast<size_t>(cls)].get(key) : KeyIndex::kAbsent;
  if (off == KeyIndex::kAbsent) {
    r.fail();
    return r;
  }
  const uint8_t* base = bytes_.data();
  return ByteReader(base, base + off, base + header_.size);
}

bool Chunk::stackTrace(uint64_t key, StackTrace* out) {
  out->frames.clear();
  out->truncated = false;
  ByteReader r = entry(stack_trace_cls_, key);
  if (!r.ok() || stack_frames_field_ < 0 || stack_frame_cls_ < 0) return false;
  const ClassDesc& c = metadata_.at(stack_trace_cls_);
  for (int i = 0; i < static_cast<int>(c.fields.size()); ++i) {
    const FieldDesc& f = c.fields[static_cast<size_t>(i)];
    if (i != stack_frames_field_) {
      if (stack_trace_plan_.slots[static_cast<size_t>(i)] == 0 && !f.array && f.type >= 0 &&
          metadata_.at(f.type).kind == Kind::kBoolean) {
        out->truncated = r.u8() != 0;
      } else if (!skipField(r, f, 1)) {
        return false;
      }
      continue;
    }
    const uint64_t at = r.offset();
    uint64_t n = r.varint();
    if (!r.ok() || !f.array || n > r.remaining()) return false;
    if (n > limits_.max_stack_depth)
      return fail(at, "stack trace of " + std::to_string(n) + " frames exceeds max_stack_depth " +
                          std::to_string(limits_.max_stack_depth));
    out->frames.resize(n);
    for (uint64_t k = 0; k < n; ++k) {
      uint64_t v[4] = {};
      uint32_t present = 0;
      if (f.constant_pool) {  // not written by known producers, but allowed by the metadata
        ByteReader fr = entry(stack_frame_cls_, r.varint());
        if (!fr.ok() || !readRecord(fr, stack_frame_plan_, v, &present)) return false;
      } else if (!readRecord(r, stack_frame_plan_, v, &present)) {
        return false;
      }
      Frame& fr = out->frames[k];
      fr.method = v[0];
      fr.line = static_cast<int32_t>(v[1]);
      fr.bytecode_index = static_cast<int32_t>(v[2]);
      fr.type = v[3];
      fr.has_type = present & 8;
    }
    return r.ok();
  }
  return r.ok();
}

bool Chunk::method(uint64_t key, MethodInfo* out) {
  ByteReader r = entry(method_cls_, key);
  uint64_t v[4] = {};
  uint32_t present = 0;
  if (!r.ok() || !readRecord(r, method_plan_, v, &present)) return false;
  *out = {v[0], v[1], v[2], v[3] != 0};
  return true;
}

bool Chunk::classNameSymbol(uint64_t class_key, uint64_t* symbol_key) {
  ByteReader r = entry(class_cls_, class_key);
  uint64_t v[1] = {};
  uint32_t present = 0;
  if (!r.ok() || !readRecord(r, class_plan_, v, &present) || !(present & 1)) return false;
  *symbol_key = v[0];
  return true;
}

bool Chunk::thread(uint64_t key, ThreadInfo* out) {
  ByteReader r = entry(thread_cls_, key);
  uint64_t v[4] = {};
  uint32_t present = 0;
  if (!r.ok() || !readRecord(r, thread_plan_, v, &present)) return false;
  std::string scratch;
  out->os_name = (present & 1) && (thread_plan_.string_slots & 1) ? std::string(stringAt(v[0], scratch)) : "";
  out->java_name = (present & 4) && (thread_plan_.string_slots & 4) ? std::string(stringAt(v[2], scratch)) : "";
  out->os_thread_id = static_cast<int64_t>(v[1]);
  out->java_thread_id = static_cast<int64_t>(v[3]);
  return true;
}

std::string_view Chunk::symbol(uint64_t key, std::string& scratch) { return simpleString(symbol_cls_, key, scratch); }
std::string_view Chunk::frameType(uint64_t key, std::string& scratch) {
  return simpleString(frame_type_cls_, key, scratch);
}
std::string_view Chunk::threadState(uint64_t key, std::string& scratch) {
  return simpleString(thread_state_cls_, key, scratch);
}

// Entries of simple types (Symbol, FrameType, ThreadState) and of java.lang.String itself: the text is
// the value or its first String field.
std::string_view Chunk::simpleString(int32_t cls, uint64_t key, std::string& scratch, int depth) {
  ByteReader r = entry(cls, key);
  if (!r.ok()) return {};
  const ClassDesc& c = metadata_.at(cls);
  if (c.kind == Kind::kString) return stringAtDepth(r.offset(), scratch, depth);
  for (const FieldDesc& f : c.fields) {
    bool is_string = f.type >= 0 && metadata_.at(f.type).kind == Kind::kString && !f.array;
    if (is_string && f.constant_pool) return depth > 0 ? "" : simpleString(string_cls_, r.varint(), scratch, 1);
    if (is_string) return stringAtDepth(r.offset(), scratch, depth);
    if (!skipField(r, f, 1)) return {};
  }
  return {};
}

std::string_view Chunk::stringAt(uint64_t off, std::string& scratch) { return stringAtDepth(off, scratch, 0); }

std::string_view Chunk::stringAtDepth(uint64_t off, std::string& scratch, int depth) {
  const uint8_t* base = bytes_.data();
  if (off >= header_.size) return {};
  ByteReader r(base, base + off, base + header_.size);
  std::string_view s;
  uint64_t key = 0;
  bool is_ref = false;
  if (!readString(r, scratch, &s, &key, &is_ref)) return {};
  if (is_ref) return depth > 0 ? std::string_view() : simpleString(string_cls_, key, scratch, 1);
  return s;
}

std::string_view Chunk::typeNameById(uint64_t id) const {
  int32_t i = metadata_.indexById(id);
  return i < 0 ? std::string_view() : std::string_view(metadata_.at(i).name);
}

void Chunk::select(std::span<const std::string_view> names, uint32_t fields, std::span<const uint32_t> more_fields) {
  auto fieldsOf = [](uint32_t mask) {
    std::vector<std::pair<std::string_view, int>> wanted;
    for (const auto& f : kEventFields)
      if (mask & (1u << f.second)) wanted.push_back(f);
    return wanted;
  };
  const std::vector<std::pair<std::string_view, int>> wanted = fieldsOf(fields);
  event_plans_.clear();
  duration_units_.clear();
  selector_by_id_.assign(0, -1);
  selector_sparse_.clear();
  for (size_t s = 0; s < names.size(); ++s) {
    int32_t cls = metadata_.indexByName(names[s]);
    const uint32_t more = s < more_fields.size() ? more_fields[s] & ~fields : 0;
    event_plans_.push_back(makePlan(cls, more != 0 ? fieldsOf(fields | more) : wanted));
    TimeUnit unit = TimeUnit::kTicks;
    if (cls >= 0) {
      const ClassDesc& c = metadata_.at(cls);
      int d = c.fieldIndex("duration");
      if (d >= 0 && c.fields[static_cast<size_t>(d)].timespan != TimeUnit::kNone)
        unit = c.fields[static_cast<size_t>(d)].timespan;
    }
    duration_units_.push_back(unit);
    if (cls < 0) continue;
    uint64_t id = metadata_.at(cls).id;
    if (id < kDenseIds) {
      if (selector_by_id_.size() <= id) selector_by_id_.resize(id + 1, -1);
      selector_by_id_[id] = static_cast<int32_t>(s);
    } else {
      selector_sparse_.emplace_back(id, static_cast<int32_t>(s));
    }
  }
}

int32_t Chunk::selectorOf(uint64_t type_id) const {
  if (type_id < selector_by_id_.size()) return selector_by_id_[type_id];
  for (auto [id, s] : selector_sparse_)
    if (id == type_id) return s;
  return -1;
}

bool Chunk::nextEvent(uint64_t* pos, Event* out) {
  if (failed_) return false;
  const uint8_t* base = bytes_.data();
  const uint64_t end = header_.size;
  if (*pos < kChunkHeaderSize) *pos = kChunkHeaderSize;
  while (*pos < end) {
    const uint64_t start = *pos;
    ByteReader r(base, base + start, base + end);
    uint64_t size = 0, type = 0;
    if (r.remaining() >= 18) {  // both varints readable whatever their length: no checks needed
      const uint8_t* p = r.pos();
      size = decodeVarintUnchecked(p);
      type = decodeVarintUnchecked(p);
      r.skip(static_cast<uint64_t>(p - r.pos()));
    } else {
      size = r.varint();
      type = r.varint();
    }
    if (!r.ok() || size == 0 || size > end - start || r.offset() > start + size)
      return fail(start, "bad event size " + std::to_string(size) + " (" + std::to_string(end - start) +
                             " bytes left in the chunk)");
    *pos = start + size;
    int32_t sel = selectorOf(type);
    if (sel < 0) continue;
    const Plan& plan = event_plans_[static_cast<size_t>(sel)];
    out->selector = sel;
    out->offset = start;
    // Fast path: events sit before the chunk's metadata and pools, so 9 bytes per field are nearly always
    // readable; an event whose fields ran past its size is decoded again by the checked reader below,
    // which reports the error at the exact offset.
    if (plan.varints_only && r.remaining() >= 9 * plan.ops.size()) {
      const uint8_t* body_end = decodeEventUnchecked(r.pos(), plan, out->values);
      if (body_end <= base + start + size) {
        out->present = plan.captured;
        return true;
      }
    }
    ByteReader body(base, r.pos(), base + start + size);
    out->present = 0;
    if (!readRecord(body, plan, out->values, &out->present))
      return fail(body.failOffset(), "malformed " + metadata_.at(plan.cls).name + " event at chunk offset " +
                                         std::to_string(start));
    return true;
  }
  return false;
}

bool Chunk::isStringField(int32_t selector, EventField f) const {
  if (selector < 0 || static_cast<size_t>(selector) >= event_plans_.size()) return false;
  return event_plans_[static_cast<size_t>(selector)].string_slots & (1u << static_cast<unsigned>(f));
}

double Chunk::numberOf(const Event& e, EventField f) const {
  const uint64_t v = e.get(f);
  if (e.selector < 0 || static_cast<size_t>(e.selector) >= event_plans_.size() ||
      !(event_plans_[static_cast<size_t>(e.selector)].float_slots & (1u << static_cast<unsigned>(f))))
    return static_cast<double>(static_cast<int64_t>(v));
  const uint32_t bits = static_cast<uint32_t>(v);
  float x = 0;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

TimeUnit Chunk::durationUnit(int32_t selector) const {
  if (selector < 0 || static_cast<size_t>(selector) >= duration_units_.size()) return TimeUnit::kTicks;
  return duration_units_[static_cast<size_t>(selector)];
}

int64_t Chunk::ticksToNanos(int64_t ticks) const {
  // Most JVMs tick in nanoseconds; skip the 128-bit division then.
  if (header_.ticks_per_second <= 0 || header_.ticks_per_second == 1000000000) return ticks;
  return clampToInt64(static_cast<__int128>(ticks) * 1000000000 / header_.ticks_per_second);
}

int64_t Chunk::ticksToEpochNanos(uint64_t ticks) const {
  return saturatingAdd(header_.start_nanos, ticksToNanos(saturatingSub(static_cast<int64_t>(ticks), header_.start_ticks)));
}

int64_t Chunk::timespanToNanos(int64_t value, TimeUnit unit) const {
  switch (unit) {
    case TimeUnit::kNone:
    case TimeUnit::kTicks:
      return ticksToNanos(value);
    case TimeUnit::kNanoseconds:
      return value;
    case TimeUnit::kMicroseconds:
      return saturatingMul(value, 1000);
    case TimeUnit::kMilliseconds:
      return saturatingMul(value, 1000000);
    case TimeUnit::kSeconds:
      return saturatingMul(value, 1000000000);
  }
  return value;
}

}  // namespace proflow::jfr
