// The JFR -> flat converter's event side: each event of a chunk becomes a logged sample of its
// profile, with its stack, thread and context attributes interned into the batch's dictionary.
#include "core/formats/jfr/flat_converter.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/formats/jfr/flat_converter_impl.h"
#include "core/formats/jfr/generated_names.h"
#include "core/formats/jfr/memory_estimate.h"
#include "core/util/saturating.h"

namespace proflow::jfr {

namespace {

// A weighted count or size (Datadog writes float weights), rounded and kept inside int64.
int64_t roundedCount(double x) {
  if (!(x > 0)) return 0;
  if (x >= 9.2e18) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(std::llround(x));
}

}  // namespace


void FlatConverter::Impl::charge(size_t bytes) {
  if (!opts_.reserve_memory || !refused_.isOk()) return;
  charged_ += bytes;
  if (charged_ <= claimed_) return;
  const size_t want = charged_ + std::max(cost::kReserveStep, charged_ / 4);
  if (Status s = opts_.reserve_memory(want); !s.isOk()) refused_ = std::move(s);
  else claimed_ = want;
}

void FlatConverter::Impl::startChunk(Chunk& chunk) {
  chunk_ = &chunk;
  stacks_.clear();
  threads_.clear();
  states_.clear();
  event_samples_.clear();
  functions_.clear();
  frame_classes_.clear();
  c_native_frames_ = false;
  for (uint64_t k : chunk.poolKeys("jdk.types.FrameType")) {
    std::string_view t = chunk.frameType(k, scratch_);
    if (t == "C++" || t == "Kernel") c_native_frames_ = true;
  }
  const ChunkHeader& h = chunk.header();
  start_nanos_ = std::min(start_nanos_, h.start_nanos);
  end_nanos_ = std::max(end_nanos_, saturatingAdd(h.start_nanos, h.duration_nanos));
  chunk.select(kEventNames, kConvertedFields, kMoreFields);
}

bool FlatConverter::Impl::addChunk(Chunk& chunk) {
  startChunk(chunk);
  uint64_t pos = 0;
  Event e;
  while (refused_.isOk() && chunk.nextEvent(&pos, &e)) onEvent(e);
  chunk_ = nullptr;
  return !chunk.failed();
}

void FlatConverter::Impl::onSetting(const Event& e) {
  if (!e.has(EventField::kName) || !e.has(EventField::kValue)) return;
  std::string_view name = chunk_->stringAt(e.get(EventField::kName), scratch_);
  if (name != "period" && name != "interval" && name != "wall" && name != "event") return;
  std::string_view value = chunk_->stringAt(e.get(EventField::kValue), scratch2_);
  std::string_view type = e.has(EventField::kId) ? chunk_->typeNameById(e.get(EventField::kId)) : "";
  if (name == "period" && type == kEventNames[kExecution]) cpu_period_ = parseDuration(value);
  if (name == "period" && type == kEventNames[kNativeMethod]) native_period_ = parseDuration(value);
  if (name == "interval") cpu_period_ = parseDuration(value);
  if (name == "wall") wall_interval_ = parseDuration(value);
  if (name == "event") wall_mode_ = value == "wall";
}

// Datadog's profiler states its intervals in milliseconds (-1: that mode is off).
void FlatConverter::Impl::onDatadogConfig(const Event& e) {
  auto ms = [&](EventField f) { return e.has(f) ? static_cast<int64_t>(e.get(f)) : 0; };
  if (ms(EventField::kCpuInterval) > 0) cpu_period_ = saturatingMul(ms(EventField::kCpuInterval), 1'000'000);
  if (ms(EventField::kWallInterval) > 0) wall_interval_ = saturatingMul(ms(EventField::kWallInterval), 1'000'000);
}

void FlatConverter::Impl::onEvent(const Event& e) {
  using F = EventField;
  if (e.selector == kActiveSetting) return onSetting(e);
  if (e.selector == kDdConfig) return onDatadogConfig(e);
  ++events;
  int64_t ts = e.has(F::kStartTime) ? chunk_->ticksToEpochNanos(e.get(F::kStartTime)) : chunk_->header().start_nanos;
  auto i64 = [&](F f) { return static_cast<int64_t>(e.get(f)); };
  switch (e.selector) {
    case kExecution: return add(e, ts, wall_mode_ ? kExecWall : kCpu, 1);
    case kNativeMethod: return add(e, ts, kNative, 1);
    case kWallClock: return add(e, ts, kWall, e.has(F::kSamples) ? i64(F::kSamples) : 1);
    case kInNewTlab:
      return add(e, ts, kTlabObjects, 1, kTlabBytes, e.has(F::kTlabSize) ? i64(F::kTlabSize) : i64(F::kAllocationSize));
    case kOutsideTlab: return add(e, ts, kOutsideObjects, 1, kOutsideBytes, i64(F::kAllocationSize));
    case kAllocSample: return add(e, ts, kSampleObjects, 1, kSampleBytes, i64(F::kWeight));
    case kMonitorEnter:
    case kThreadPark: {
      bool mon = e.selector == kMonitorEnter;
      int64_t ns = chunk_->timespanToNanos(i64(F::kDuration), chunk_->durationUnit(e.selector));
      return add(e, ts, mon ? kMonitorCount : kParkCount, 1, mon ? kMonitorDelay : kParkDelay, ns);
    }
    case kLiveObject: return add(e, ts, kLive, 1);
    case kMalloc: {
      const int32_t row = sampleIndex(e, kMallocObjects, kMallocBytes);
      logEvent(row, ts, kMallocObjects, 1, kMallocBytes, i64(F::kSize));
      if (e.has(F::kAddress)) {
        charge(sizeof(NativeOp));
        native_ops_.push_back({ts, e.get(F::kAddress), i64(F::kSize), row, false});
      }
      return;
    }
    case kFree:
      if (e.has(F::kAddress)) {
        charge(sizeof(NativeOp));
        native_ops_.push_back({ts, e.get(F::kAddress), 0, -1, true});
      }
      return;
    // Datadog's events stand for `weight` samples or objects (a float for allocations and live objects).
    case kDdExecution: return add(e, ts, kCpu, weight(e));
    case kDdMethod: return add(e, ts, kWall, weight(e));
    case kDdObject: {
      const double w = e.has(F::kWeight) ? chunk_->numberOf(e, F::kWeight) : 1;
      return add(e, ts, kSampleObjects, weight(e), kSampleBytes, roundedCount(static_cast<double>(i64(F::kSize)) * w));
    }
    case kDdLive: return add(e, ts, kLive, weight(e));
  }
}

// The samples or objects a Datadog event stands for: its weight rounded, at least 1.
int64_t FlatConverter::Impl::weight(const Event& e) const {
  if (!e.has(EventField::kWeight)) return 1;
  return std::max<int64_t>(1, roundedCount(chunk_->numberOf(e, EventField::kWeight)));
}

SampleKey FlatConverter::Impl::keyOf(const Event& e) {
  using F = EventField;
  SampleKey k{};
  bool truncated = false;
  k.stack = e.has(F::kStackTrace) ? stackIndex(e.get(F::kStackTrace), &truncated) : 0;
  if (truncated) {
    if (truncated_attr_ == 0) truncated_attr_ = dict_.boolAttribute(kTruncatedKey, true);
    k.truncated_attr = truncated_attr_;
  }
  if (hasThreadState(e.selector) && e.has(F::kState)) k.state_attr = stateAttr(e.get(F::kState));
  k.thread_attr = e.has(F::kThread) ? threadAttr(e.get(F::kThread)) : 0;
  k.context = e.has(F::kContextId) ? static_cast<int64_t>(e.get(F::kContextId)) : 0;
  k.span_attr = spanAttr(e);
  k.link = linkIndex(e);
  return k;
}

// Logs one event of profile `a` (and of its companion `b` with value vb: same rows, same events).
void FlatConverter::Impl::add(const Event& e, int64_t ts, ProfileId a, int64_t va, ProfileId b, int64_t vb) {
  logEvent(sampleIndex(e, a, b), ts, a, va, b, vb);
}

void FlatConverter::Impl::logEvent(int32_t row, int64_t ts, ProfileId a, int64_t va, ProfileId b, int64_t vb) {
  Acc& acc = accs_[a];
  if (acc.per_event_values) acc.event_value.push_back(va);
  else if (va != acc.uniform_value) [[unlikely]] startPerEventValues(acc, va);
  acc.event_row.push_back(static_cast<uint32_t>(row));
  acc.event_time.push_back(static_cast<uint64_t>(ts));
  if (b != kProfileCount) accs_[b].event_value.push_back(vb);
  end_nanos_ = std::max(end_nanos_, saturatingAdd(ts, 1));
}

// A value other than the profile's uniform one (before the event is logged): the first event sets
// the uniform value; a later one writes out the values so far and logs one value per event.
void FlatConverter::Impl::startPerEventValues(Acc& acc, int64_t value) {
  if (acc.event_row.empty()) {
    acc.uniform_value = value;
    return;
  }
  acc.event_value.assign(acc.event_row.size(), acc.uniform_value);
  acc.per_event_values = true;
  acc.event_value.push_back(value);
}

int32_t FlatConverter::Impl::sampleIndex(const Event& e, ProfileId a, ProfileId b) {
  using F = EventField;
  auto field = [&](F f) { return e.has(f) ? e.get(f) : 0; };
  // A wall event's thread state (a small pool key) is part of its identity, in the tag's free bits.
  constexpr uint64_t kStateKeys = 1u << 13;
  const uint64_t state = hasThreadState(e.selector) ? field(F::kState) + 1 : 0;
  bool keyed_by_pool_keys =
      !e.has(F::kSpanName) && (!e.has(F::kSpanId) || e.get(F::kSpanId) == 0) && state < kStateKeys;
  EventKey raw{};
  if (keyed_by_pool_keys) {
    constexpr uint32_t kPresence = 1u << static_cast<int>(F::kStackTrace) | 1u << static_cast<int>(F::kThread) |
                                   1u << static_cast<int>(F::kContextId);
    raw = {field(F::kStackTrace), field(F::kThread), static_cast<int64_t>(field(F::kContextId)),
           (e.present & kPresence) | static_cast<uint32_t>(state) << 10 | static_cast<uint32_t>(a) << 24};
    int32_t cached = event_samples_.find(raw);
    if (cached >= 0) return cached;
    charge(cost::kEventKey);
  }
  int32_t index = newSampleIndex(e, a, b);
  if (keyed_by_pool_keys) event_samples_.findOrInsert(raw, index);
  return index;
}

int32_t FlatConverter::Impl::newSampleIndex(const Event& e, ProfileId a, ProfileId b) {
  SampleKey key = keyOf(e);
  Acc& acc = accs_[a];
  acc.used = true;
  int32_t index = acc.index.findOrInsert(key, static_cast<int32_t>(acc.rows()));
  if (index < 0) {
    const int profiles = b != kProfileCount ? 2 : 1;
    charge(cost::kSample * static_cast<size_t>(profiles));
    index = static_cast<int32_t>(acc.rows());
    if (b != kProfileCount) {
      accs_[b].primary = a;
      accs_[b].used = true;
    }
    acc.stack.push_back(key.stack);
    acc.link.push_back(key.link);
    acc.attributes.push_back(attributeList(key, profiles));
    samples += static_cast<uint64_t>(profiles);
  }
  return index;
}

// The sample's attribute list (thread, context labels, span name), shared by a primary's row and
// its companion's.
flat::Range FlatConverter::Impl::attributeList(const SampleKey& k, int profiles) {
  flat::Range r{static_cast<uint32_t>(attribute_lists_.size()), 0};
  if (k.thread_attr) attribute_lists_.push_back(k.thread_attr);
  if (k.context != 0 && opts_.labels) {
    auto [it, inserted] = context_attrs_.try_emplace(k.context);
    if (inserted) {
      if (const LabelPairs* labels = opts_.labels->find(k.context)) {
        charge(labels->size() * cost::kFunction);
        for (const auto& [name, value] : *labels) it->second.push_back(dict_.stringAttribute(name, value));
      }
    }
    charge(it->second.size() * cost::kAttribute * static_cast<size_t>(profiles));
    attribute_lists_.insert(attribute_lists_.end(), it->second.begin(), it->second.end());
  }
  if (k.span_attr) attribute_lists_.push_back(k.span_attr);
  if (k.state_attr) attribute_lists_.push_back(k.state_attr);
  if (k.truncated_attr) attribute_lists_.push_back(k.truncated_attr);
  r.size = static_cast<uint32_t>(attribute_lists_.size()) - r.begin;
  return r;
}

int32_t FlatConverter::Impl::threadAttr(uint64_t key) {
  uint32_t cached = threads_.get(key);
  if (cached != KeyIndex::kAbsent) return static_cast<int32_t>(cached);
  int32_t attr = 0;
  ThreadInfo t;
  charge(cost::kThread);
  if (chunk_->thread(key, &t)) {
    const std::string& name = t.java_name.empty() ? t.os_name : t.java_name;
    if (!name.empty()) attr = dict_.stringAttribute("thread.name", name);
  }
  threads_.put(key, static_cast<uint32_t>(attr));
  return attr;
}

int32_t FlatConverter::Impl::stateAttr(uint64_t key) {
  uint32_t cached = states_.get(key);
  if (cached != KeyIndex::kAbsent) return static_cast<int32_t>(cached);
  charge(cost::kThread);
  std::string_view name = chunk_->threadState(key, scratch_);
  const int32_t attr = name.empty() ? 0 : dict_.stringAttribute(kThreadStateKey, name);
  states_.put(key, static_cast<uint32_t>(attr));
  return attr;
}

// span_name: a string field (the JDK-context events), or pyroscope-java's id into its labels' strings.
int32_t FlatConverter::Impl::spanAttr(const Event& e) {
  if (!e.has(EventField::kSpanName)) return 0;
  std::string_view name;
  if (chunk_->isStringField(e.selector, EventField::kSpanName))
    name = chunk_->stringAt(e.get(EventField::kSpanName), scratch_);
  else if (opts_.labels != nullptr && e.get(EventField::kSpanName) != 0)
    name = opts_.labels->string(static_cast<int64_t>(e.get(EventField::kSpanName)));
  return name.empty() ? 0 : dict_.stringAttribute("span_name", name);
}

int32_t FlatConverter::Impl::linkIndex(const Event& e) {
  if (!e.has(EventField::kSpanId) || e.get(EventField::kSpanId) == 0) return 0;
  auto be = [](uint64_t v, int bytes) {
    std::string s(static_cast<size_t>(bytes), '\0');
    for (int i = bytes - 1; i >= 0; --i, v >>= 8) s[static_cast<size_t>(i)] = static_cast<char>(v & 0xff);
    return s;
  };
  std::string trace = be(e.get(EventField::kTraceIdHi), 8) + be(e.get(EventField::kTraceIdLo), 8);
  return dict_.link(trace, be(e.get(EventField::kSpanId), 8));
}

FrameClass FlatConverter::Impl::frameClass(const Frame& f) {
  if (!f.has_type) return {};
  auto [it, inserted] = frame_classes_.try_emplace(f.type);
  if (inserted) {
    std::string_view t = chunk_->frameType(f.type, scratch_);
    FrameClass& c = it->second;
    c.inlined = t == "Inlined";
    if (t == "C++" || (t == "Native" && c_native_frames_)) c.otlp_type = 1;
    if (t == "Kernel") c.otlp_type = 2;
  }
  return it->second;
}

std::pair<int32_t, int32_t> FlatConverter::Impl::function(uint64_t method_key, const FrameClass& fc) {
  auto [it, inserted] = functions_.try_emplace(method_key);
  if (!inserted) return it->second;
  MethodInfo m;
  std::string cls, name;
  if (chunk_->method(method_key, &m)) {
    uint64_t sym = 0;
    if (chunk_->classNameSymbol(m.class_key, &sym)) cls = chunk_->symbol(sym, scratch_);
    name = chunk_->symbol(m.name_symbol, scratch_);
  }
  if (name.empty()) name = "<unknown>";
  charge(cost::kFunction + 2 * (cls.size() + name.size()));
  int32_t mapping = 0;
  std::string full;
  if (fc.otlp_type != 0) {  // C/C++/kernel: the "class" is the library
    full = name;
    if (!cls.empty()) {
      flat::Mapping mp;
      mp.filename_strindex = dict_.string(cls);
      mapping = dict_.mapping(mp, {});
    }
  } else {
    // Once per method entry of the chunk, not per event: generated names merged before interning.
    if (opts_.merge_generated_names) mergeGeneratedNames(cls, &cls);
    std::replace(cls.begin(), cls.end(), '/', '.');
    full = cls.empty() ? name : cls + "." + name;
  }
  flat::Function fn;
  fn.name_strindex = dict_.string(full);
  it->second = {dict_.function(fn), mapping};
  return it->second;
}

// The stack of pool key `key`; `*truncated` when the producer cut it at its depth limit (cached in
// the top bit: stack indices stay below 2^31).
int32_t FlatConverter::Impl::stackIndex(uint64_t key, bool* truncated) {
  constexpr uint32_t kTruncatedBit = 1u << 31;
  uint32_t cached = stacks_.get(key);
  if (cached != KeyIndex::kAbsent) {
    *truncated = cached & kTruncatedBit;
    return static_cast<int32_t>(cached & ~kTruncatedBit);
  }
  int32_t result = 0;
  charge(cost::kStackKey);
  if (chunk_->stackTrace(key, &trace_)) {
    charge(trace_.frames.size() * cost::kFrame);
    resolved_.clear();
    signature_.clear();
    for (const Frame& f : trace_.frames) {
      FrameClass fc = frameClass(f);
      auto [fn, mapping] = function(f.method, fc);
      ResolvedFrame r{fn, mapping, f.line > 0 ? f.line : 0, static_cast<int32_t>(fc.otlp_type | (fc.inlined ? 16 : 0))};
      resolved_.push_back(r);
      signature_.append(reinterpret_cast<const char*>(&r), sizeof(r));
    }
    auto it = stacks_by_frames_.find(signature_);
    if (it != stacks_by_frames_.end()) {
      result = it->second;
    } else {
      result = buildStack();
      stacks_by_frames_.emplace(signature_, result);
    }
    *truncated = trace_.truncated;
  }
  stacks_.put(key, static_cast<uint32_t>(result) | (*truncated ? kTruncatedBit : 0));
  return result;
}

int32_t FlatConverter::Impl::buildStack() {
  locations_.clear();
  pending_lines_.clear();
  for (size_t i = 0; i < resolved_.size(); ++i) {
    const ResolvedFrame& f = resolved_[i];
    flat::Line line;
    line.function_index = f.function;
    line.line = f.line;
    pending_lines_.push_back(line);
    // An inlined frame lives inside the next (calling) physical frame's Location.
    if ((f.type & 16) && i + 1 < resolved_.size()) continue;
    flat::Location loc;
    loc.mapping_index = f.mapping;
    const int32_t type_attr = frame_type_attrs_[f.type & 15];
    locations_.push_back(dict_.location(loc, pending_lines_, std::span<const int32_t>(&type_attr, 1)));
    pending_lines_.clear();
  }
  return dict_.stack(locations_);
}

FlatConverter::FlatConverter(flat::Batch* out, const ConvertOptions& options)
    : impl_(std::make_unique<Impl>(out, options)) {}
FlatConverter::~FlatConverter() = default;
bool FlatConverter::addChunk(Chunk& chunk) { return impl_->addChunk(chunk); }
void FlatConverter::finish(std::span<const uint8_t> original) { impl_->finish(original); }
uint64_t FlatConverter::events() const { return impl_->events; }
uint64_t FlatConverter::samples() const { return impl_->samples; }
void FlatConverter::setClaimed(size_t bytes) { impl_->setClaimed(bytes); }
const Status& FlatConverter::refused() const { return impl_->refused(); }

namespace {

ConvertResult run(ChunkReader& reader, const ConvertOptions& options, flat::Batch* out,
                  std::span<const uint8_t> original, size_t upfront) {
  ConvertResult r;
  auto refused = [&r](Status s) {
    r.ok = false;
    r.error.message = s.message();
    r.refused = std::move(s);
    return r;
  };
  if (options.reserve_memory)
    if (Status s = options.reserve_memory(upfront); !s.isOk()) return refused(std::move(s));
  FlatConverter conv(out, options);
  conv.setClaimed(upfront);
  Chunk chunk;
  while (reader.next(chunk)) {
    ++r.chunks;
    // A malformed event ends its chunk only: later chunks are self-contained and still converted.
    if (!conv.addChunk(chunk) && r.ok) {
      r.ok = false;
      r.error = chunk.error();
    }
    if (!conv.refused().isOk()) return refused(conv.refused());
  }
  if (r.ok && reader.failed()) {
    r.ok = false;
    r.error = reader.error();
  }
  conv.finish(original);
  r.events = conv.events();
  r.samples = conv.samples();
  return r;
}

}  // namespace

ConvertResult convertToFlat(std::span<const uint8_t> jfr, const ConvertOptions& options, flat::Batch* out) {
  ChunkReader reader(jfr, options.limits);
  size_t upfront = 0;
  if (options.reserve_memory) {
    upfront = estimateUpfrontBytes(scanShape(jfr));
    if (options.keep_original_payload) upfront += jfr.size();  // copied into the first profile
  }
  return run(reader, options, out, jfr, upfront);
}

ConvertResult convertToFlat(std::istream& jfr, const ConvertOptions& options, flat::Batch* out) {
  ChunkReader reader(jfr, options.limits);
  return run(reader, options, out, {}, 0);
}

}  // namespace proflow::jfr
