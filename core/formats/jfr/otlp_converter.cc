#include "core/formats/jfr/otlp_converter.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <unordered_map>
#include <vector>

#include "core/dictionary_builder.h"
#include "core/formats/jfr/chunk_reader.h"
#include "core/formats/jfr/converter_tables.h"
#include "core/formats/jfr/memory_estimate.h"
#include "core/formats/jfr/saturating.h"
#include "core/formats/jfr/sample_index.h"

namespace proflow::jfr {
namespace {

using namespace internal;  // NOLINT: the converter tables
using internal::EventKey;
using internal::EventSampleIndex;
using internal::SampleIndex;
using internal::SampleKey;

}  // namespace

class OtlpConverter::Impl {
 public:
  Impl(otlp::Request* out, const ConvertOptions& o) : out_(out), opts_(o), dict_(out->mutable_dictionary()) {
    for (int i = 0; i < 3; ++i) frame_type_attrs_[i] = dict_.stringAttribute("profile.frame.type", kFrameTypes[i]);
  }

  bool addChunk(Chunk& chunk);
  void finish(std::span<const uint8_t> original);

  uint64_t events = 0;
  uint64_t samples = 0;

  // Starts the memory accounting with what was claimed before conversion.
  void setClaimed(size_t bytes) { claimed_ = charged_ = bytes; }
  const Status& refused() const { return refused_; }

 private:
  // Adds `bytes` (by the cost table of memory_estimate.h) to what the output holds, claiming ahead
  // through reserve_memory when it passes the claim. A refusal stops the conversion after the event
  // at hand.
  void charge(size_t bytes);
  struct Acc {
    std::unique_ptr<otlp::Profile> profile;
    SampleIndex index;
    // Primary profiles: while every event of the profile carried the same value (count profiles always
    // add 1), values are not appended per event but written once at finish, at their final size.
    int64_t uniform_value = 0;
    bool per_event_values = false;
    // A companion profile (bytes, delay) gets the same events as its primary (objects, count): its
    // timestamps are copied from the primary at finish instead of being appended per event.
    ProfileId primary = kProfileCount;
  };
  void startPerEventValues(Acc& acc, otlp::Sample* s, int64_t value);
  void materializeDeferred();

  void startChunk(Chunk& chunk);
  void onEvent(const Event& e);
  void onSetting(const Event& e);
  void add(const Event& e, int64_t ts, ProfileId a, int64_t va, ProfileId b = kProfileCount, int64_t vb = 0);
  int32_t sampleIndex(const Event& e, ProfileId a, ProfileId b);
  [[gnu::noinline]] int32_t newSampleIndex(const Event& e, ProfileId a, ProfileId b);
  SampleKey keyOf(const Event& e);
  int32_t stackIndex(uint64_t key);
  int32_t buildStack();
  int32_t threadAttr(uint64_t key);
  int32_t spanAttr(const Event& e);
  int32_t linkIndex(const Event& e);
  FrameClass frameClass(const Frame& f);
  std::pair<int32_t, int32_t> function(uint64_t method_key, const FrameClass& fc);
  void appendAttributes(otlp::Sample* s, const SampleKey& k);

  otlp::Request* out_;
  ConvertOptions opts_;
  DictionaryBuilder dict_;
  Chunk* chunk_ = nullptr;
  int32_t frame_type_attrs_[3] = {};
  Acc accs_[kProfileCount];
  int64_t start_nanos_ = std::numeric_limits<int64_t>::max();
  int64_t end_nanos_ = std::numeric_limits<int64_t>::min();
  // Settings seen so far (per file).
  int64_t cpu_period_ = 0, native_period_ = 0, wall_interval_ = 0;
  bool wall_mode_ = false;
  // Per-chunk caches: pool keys are only meaningful inside their chunk.
  KeyIndex stacks_;
  KeyIndex threads_;  // thread key -> thread.name attribute
  EventSampleIndex event_samples_;  // {stack key, thread key, context, profile} -> sample index
  std::unordered_map<uint64_t, std::pair<int32_t, int32_t>> functions_;  // method -> (function, mapping)
  std::unordered_map<uint64_t, FrameClass> frame_classes_;
  bool c_native_frames_ = false;  // async-profiler: "Native" means C code
  // Per-file caches.
  std::unordered_map<int64_t, std::vector<int32_t>> context_attrs_;
  StackTrace trace_;
  struct ResolvedFrame {
    int32_t function, mapping, line, type;  // type: OTLP frame type | 16 when inlined
  };
  std::vector<ResolvedFrame> resolved_;
  std::string signature_;  // resolved_ as bytes
  std::unordered_map<std::string, int32_t> stacks_by_frames_;
  std::vector<int32_t> locations_;
  std::vector<std::pair<int32_t, int32_t>> pending_lines_;  // (function, line) of inlined frames
  std::string scratch_, scratch2_;
  size_t claimed_ = 0, charged_ = 0;
  Status refused_;
};

void OtlpConverter::Impl::charge(size_t bytes) {
  if (!opts_.reserve_memory || !refused_.isOk()) return;
  charged_ += bytes;
  if (charged_ <= claimed_) return;
  const size_t want = charged_ + std::max(cost::kReserveStep, charged_ / 4);
  if (Status s = opts_.reserve_memory(want); !s.isOk()) refused_ = std::move(s);
  else claimed_ = want;
}

void OtlpConverter::Impl::startChunk(Chunk& chunk) {
  chunk_ = &chunk;
  stacks_.clear();
  threads_.clear();
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
  chunk.select(kEventNames, kConvertedFields);
}

bool OtlpConverter::Impl::addChunk(Chunk& chunk) {
  startChunk(chunk);
  uint64_t pos = 0;
  Event e;
  while (refused_.isOk() && chunk.nextEvent(&pos, &e)) onEvent(e);
  chunk_ = nullptr;
  return !chunk.failed();
}

void OtlpConverter::Impl::onSetting(const Event& e) {
  if (!e.has(EventField::kName) || !e.has(EventField::kValue)) return;
  std::string_view name = chunk_->stringAt(e.get(EventField::kName), scratch_);
  // A recording holds hundreds of settings per chunk; only these names matter.
  if (name != "period" && name != "interval" && name != "wall" && name != "event") return;
  std::string_view value = chunk_->stringAt(e.get(EventField::kValue), scratch2_);
  std::string_view type = e.has(EventField::kId) ? chunk_->typeNameById(e.get(EventField::kId)) : "";
  if (name == "period" && type == kEventNames[kExecution]) cpu_period_ = parseDuration(value);
  if (name == "period" && type == kEventNames[kNativeMethod]) native_period_ = parseDuration(value);
  // async-profiler's recording options.
  if (name == "interval") cpu_period_ = parseDuration(value);
  if (name == "wall") wall_interval_ = parseDuration(value);
  if (name == "event") wall_mode_ = value == "wall";
}

void OtlpConverter::Impl::onEvent(const Event& e) {
  using F = EventField;
  if (e.selector == kActiveSetting) return onSetting(e);
  ++events;
  int64_t ts = e.has(F::kStartTime) ? chunk_->ticksToEpochNanos(e.get(F::kStartTime)) : chunk_->header().start_nanos;
  auto i64 = [&](F f) { return static_cast<int64_t>(e.get(f)); };
  switch (e.selector) {
    case kExecution:
      return add(e, ts, wall_mode_ ? kExecWall : kCpu, 1);
    case kNativeMethod:
      return add(e, ts, kNative, 1);
    case kWallClock:
      return add(e, ts, kWall, e.has(F::kSamples) ? i64(F::kSamples) : 1);
    case kInNewTlab:
      return add(e, ts, kTlabObjects, 1, kTlabBytes,
                 e.has(F::kTlabSize) ? i64(F::kTlabSize) : i64(F::kAllocationSize));
    case kOutsideTlab:
      return add(e, ts, kOutsideObjects, 1, kOutsideBytes, i64(F::kAllocationSize));
    case kAllocSample:
      return add(e, ts, kSampleObjects, 1, kSampleBytes, i64(F::kWeight));
    case kMonitorEnter:
    case kThreadPark: {
      bool mon = e.selector == kMonitorEnter;
      int64_t ns = chunk_->timespanToNanos(i64(F::kDuration), chunk_->durationUnit(e.selector));
      return add(e, ts, mon ? kMonitorCount : kParkCount, 1, mon ? kMonitorDelay : kParkDelay, ns);
    }
    case kLiveObject:
      return add(e, ts, kLive, 1);
    case kMalloc:
      return add(e, ts, kMallocObjects, 1, kMallocBytes, i64(F::kSize));
  }
}

SampleKey OtlpConverter::Impl::keyOf(const Event& e) {
  using F = EventField;
  SampleKey k{};
  k.stack = e.has(F::kStackTrace) ? stackIndex(e.get(F::kStackTrace)) : 0;
  k.thread_attr = e.has(F::kThread) ? threadAttr(e.get(F::kThread)) : 0;
  k.context = e.has(F::kContextId) ? static_cast<int64_t>(e.get(F::kContextId)) : 0;
  k.span_attr = spanAttr(e);
  k.link = linkIndex(e);
  return k;
}

// Appends one event to profile `a` (and, when b != kProfileCount, to its companion `b` with value vb).
// Companion profiles (objects/bytes, count/delay) always receive the same events in the same order, so
// their sample lists stay parallel and one index serves both.
void OtlpConverter::Impl::add(const Event& e, int64_t ts, ProfileId a, int64_t va, ProfileId b, int64_t vb) {
  int32_t index = sampleIndex(e, a, b);
  Acc& acc = accs_[a];
  otlp::Sample* s = acc.profile->mutable_samples(index);
  if (acc.per_event_values) s->add_values(va);
  else if (va != acc.uniform_value) [[unlikely]] startPerEventValues(acc, s, va);
  s->add_timestamps_unix_nano(static_cast<uint64_t>(ts));
  if (b != kProfileCount) accs_[b].profile->mutable_samples(index)->add_values(vb);
  end_nanos_ = std::max(end_nanos_, saturatingAdd(ts, 1));
}

// A value other than the profile's uniform one (call before the event's timestamp is appended): the
// first event of the profile sets the uniform value; a later one writes out every sample's run and
// switches the profile to one value per event.
void OtlpConverter::Impl::startPerEventValues(Acc& acc, otlp::Sample* s, int64_t value) {
  otlp::Profile& p = *acc.profile;
  if (p.samples_size() == 1 && s->timestamps_unix_nano_size() == 0) {
    acc.uniform_value = value;
    return;
  }
  for (otlp::Sample& x : *p.mutable_samples())
    x.mutable_values()->Resize(x.timestamps_unix_nano_size(), acc.uniform_value);
  acc.per_event_values = true;
  s->add_values(value);
}

// Writes out what add() deferred: the values of uniform profiles and the timestamps of companion profiles.
void OtlpConverter::Impl::materializeDeferred() {
  for (Acc& acc : accs_) {
    if (!acc.profile || acc.primary != kProfileCount || acc.per_event_values) continue;
    for (otlp::Sample& s : *acc.profile->mutable_samples())
      s.mutable_values()->Resize(s.timestamps_unix_nano_size(), acc.uniform_value);
  }
  for (Acc& acc : accs_) {
    if (!acc.profile || acc.primary == kProfileCount) continue;
    const otlp::Profile& primary = *accs_[acc.primary].profile;
    for (int i = 0; i < acc.profile->samples_size(); ++i)
      *acc.profile->mutable_samples(i)->mutable_timestamps_unix_nano() = primary.samples(i).timestamps_unix_nano();
  }
}

// The sample of profile `a` (and `b`) an event belongs to, created when new. Within a chunk, an event
// without span or link is identified by its raw pool keys, so the common case is one lookup in
// event_samples_; only the first event of each {stack, thread, context} resolves them (keyOf).
int32_t OtlpConverter::Impl::sampleIndex(const Event& e, ProfileId a, ProfileId b) {
  using F = EventField;
  bool keyed_by_pool_keys = !e.has(F::kSpanName) && (!e.has(F::kSpanId) || e.get(F::kSpanId) == 0);
  EventKey raw{};
  if (keyed_by_pool_keys) {
    auto field = [&](F f) { return e.has(f) ? e.get(f) : 0; };
    constexpr uint32_t kPresence = 1u << static_cast<int>(F::kStackTrace) | 1u << static_cast<int>(F::kThread) |
                                   1u << static_cast<int>(F::kContextId);
    raw = {field(F::kStackTrace), field(F::kThread), static_cast<int64_t>(field(F::kContextId)),
           (e.present & kPresence) | static_cast<uint32_t>(a) << 24};
    int32_t cached = event_samples_.find(raw);
    if (cached >= 0) return cached;
    charge(cost::kEventKey);
  }
  int32_t index = newSampleIndex(e, a, b);
  if (keyed_by_pool_keys) event_samples_.findOrInsert(raw, index);
  return index;
}

// First event of its pool keys in this chunk: resolves stack and attributes, finds or creates the sample.
int32_t OtlpConverter::Impl::newSampleIndex(const Event& e, ProfileId a, ProfileId b) {
  SampleKey key = keyOf(e);
  Acc& acc = accs_[a];
  if (!acc.profile) acc.profile = std::make_unique<otlp::Profile>();
  int32_t index = acc.index.findOrInsert(key, acc.profile->samples_size());
  if (index < 0) {
    charge(cost::kSample * (b != kProfileCount ? 2 : 1));
    index = acc.profile->samples_size();
    if (b != kProfileCount) accs_[b].primary = a;
    for (ProfileId id : {a, b}) {
      if (id == kProfileCount) continue;
      Acc& x = accs_[id];
      if (!x.profile) x.profile = std::make_unique<otlp::Profile>();
      otlp::Sample* s = x.profile->add_samples();
      s->set_stack_index(key.stack);
      s->set_link_index(key.link);
      appendAttributes(s, key);
      ++samples;
    }
  }
  return index;
}

void OtlpConverter::Impl::appendAttributes(otlp::Sample* s, const SampleKey& k) {
  if (k.thread_attr) s->add_attribute_indices(k.thread_attr);
  if (k.context != 0 && opts_.labels) {
    auto [it, inserted] = context_attrs_.try_emplace(k.context);
    if (inserted) {
      if (const LabelPairs* labels = opts_.labels->find(k.context)) {
        // Each label: an attribute (key/value strings, interning) once per context.
        charge(labels->size() * cost::kFunction);
        for (const auto& [name, value] : *labels) it->second.push_back(dict_.stringAttribute(name, value));
      }
    }
    charge(it->second.size() * cost::kAttribute);
    for (int32_t a : it->second) s->add_attribute_indices(a);
  }
  if (k.span_attr) s->add_attribute_indices(k.span_attr);
}

int32_t OtlpConverter::Impl::threadAttr(uint64_t key) {
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

int32_t OtlpConverter::Impl::spanAttr(const Event& e) {
  if (!e.has(EventField::kSpanName) || !chunk_->isStringField(e.selector, EventField::kSpanName)) return 0;
  std::string_view name = chunk_->stringAt(e.get(EventField::kSpanName), scratch_);
  return name.empty() ? 0 : dict_.stringAttribute("span_name", name);
}

int32_t OtlpConverter::Impl::linkIndex(const Event& e) {
  if (!e.has(EventField::kSpanId) || e.get(EventField::kSpanId) == 0) return 0;
  auto be = [](uint64_t v, int bytes) {
    std::string s(static_cast<size_t>(bytes), '\0');
    for (int i = bytes - 1; i >= 0; --i, v >>= 8) s[static_cast<size_t>(i)] = static_cast<char>(v & 0xff);
    return s;
  };
  std::string trace = be(e.get(EventField::kTraceIdHi), 8) + be(e.get(EventField::kTraceIdLo), 8);
  return dict_.link(trace, be(e.get(EventField::kSpanId), 8));
}

FrameClass OtlpConverter::Impl::frameClass(const Frame& f) {
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

// Function (and, for native code, the library's Mapping) of a method, cached per chunk.
std::pair<int32_t, int32_t> OtlpConverter::Impl::function(uint64_t method_key, const FrameClass& fc) {
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
      otlp::Mapping mp;
      mp.set_filename_strindex(dict_.string(cls));
      mapping = dict_.mapping(mp);
    }
  } else {
    std::replace(cls.begin(), cls.end(), '/', '.');
    full = cls.empty() ? name : cls + "." + name;
  }
  it->second = {dict_.function(full, {}, {}), mapping};
  return it->second;
}

// Stacks are resolved once per chunk (pool keys are chunk-scoped), but a long recording repeats the same
// stacks in every chunk: the resolved frames (function, line, type) are the cross-chunk cache key, so a
// repeated stack skips building and interning its Locations.
int32_t OtlpConverter::Impl::stackIndex(uint64_t key) {
  uint32_t cached = stacks_.get(key);
  if (cached != KeyIndex::kAbsent) return static_cast<int32_t>(cached);
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
  }
  stacks_.put(key, static_cast<uint32_t>(result));
  return result;
}

int32_t OtlpConverter::Impl::buildStack() {
  locations_.clear();
  pending_lines_.clear();
  for (size_t i = 0; i < resolved_.size(); ++i) {
    const ResolvedFrame& f = resolved_[i];
    pending_lines_.emplace_back(f.function, f.line);
    // An inlined frame lives inside the next (calling) physical frame's Location.
    if ((f.type & 16) && i + 1 < resolved_.size()) continue;
    otlp::Location loc;
    loc.set_mapping_index(f.mapping);
    for (auto [lf, line] : pending_lines_) {
      otlp::Line* l = loc.add_lines();
      l->set_function_index(lf);
      l->set_line(line);
    }
    loc.add_attribute_indices(frame_type_attrs_[f.type & 15]);
    locations_.push_back(dict_.location(loc));
    pending_lines_.clear();
  }
  return dict_.stack(locations_);
}

void OtlpConverter::Impl::finish(std::span<const uint8_t> original) {
  int64_t cpu = opts_.cpu_period_nanos > 0 ? opts_.cpu_period_nanos
                : cpu_period_ > 0          ? cpu_period_
                                           : opts_.default_period_nanos;
  int64_t native = native_period_ > 0 ? native_period_ : opts_.default_period_nanos;
  int64_t wall = wall_interval_ > 0 ? wall_interval_ : cpu;
  auto* scope = out_->add_resource_profiles()->add_scope_profiles();
  if (start_nanos_ > end_nanos_) start_nanos_ = end_nanos_ = 0;
  materializeDeferred();
  bool first = true;
  for (int id = 0; id < kProfileCount; ++id) {
    Acc& acc = accs_[id];
    if (!acc.profile) continue;
    const ProfileSpec& spec = kSpecs[id];
    int64_t factor = spec.scale == kCpuPeriod ? cpu : spec.scale == kNativePeriod ? native
                   : spec.scale == kWallInterval ? wall : 1;
    otlp::Profile& p = *acc.profile;
    if (factor != 1)
      for (auto& s : *p.mutable_samples())
        for (auto& v : *s.mutable_values()) v = saturatingMul(v, factor);
    p.mutable_sample_type()->set_type_strindex(dict_.string(spec.type));
    p.mutable_sample_type()->set_unit_strindex(dict_.string(spec.unit));
    p.mutable_period_type()->set_type_strindex(dict_.string(spec.period_type));
    p.mutable_period_type()->set_unit_strindex(dict_.string(spec.period_unit));
    if (spec.scale != kNoScale) p.set_period(factor);
    p.set_time_unix_nano(static_cast<uint64_t>(start_nanos_));
    p.set_duration_nano(static_cast<uint64_t>(saturatingSub(end_nanos_, start_nanos_)));
    p.set_original_payload_format("jfr");
    if (first && opts_.keep_original_payload && !original.empty())
      p.set_original_payload(original.data(), original.size());
    first = false;
    scope->mutable_profiles()->AddAllocated(acc.profile.release());
    acc.index.clear();
  }
}

OtlpConverter::OtlpConverter(otlp::Request* out, const ConvertOptions& options)
    : impl_(std::make_unique<Impl>(out, options)) {}
OtlpConverter::~OtlpConverter() = default;
bool OtlpConverter::addChunk(Chunk& chunk) { return impl_->addChunk(chunk); }
void OtlpConverter::finish(std::span<const uint8_t> original) { impl_->finish(original); }
uint64_t OtlpConverter::events() const { return impl_->events; }
uint64_t OtlpConverter::samples() const { return impl_->samples; }
void OtlpConverter::setClaimed(size_t bytes) { impl_->setClaimed(bytes); }
const Status& OtlpConverter::refused() const { return impl_->refused(); }

namespace {

ConvertResult run(ChunkReader& reader, const ConvertOptions& options, otlp::Request* out,
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
  OtlpConverter conv(out, options);
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

ConvertResult convertToOtlp(std::span<const uint8_t> jfr, const ConvertOptions& options, otlp::Request* out) {
  ChunkReader reader(jfr, options.limits);
  size_t upfront = 0;
  if (options.reserve_memory) {
    upfront = estimateUpfrontBytes(scanShape(jfr));
    if (options.keep_original_payload) upfront += jfr.size();  // copied into the first profile
  }
  return run(reader, options, out, jfr, upfront);
}

ConvertResult convertToOtlp(std::istream& jfr, const ConvertOptions& options, otlp::Request* out) {
  // Streamed (files): one chunk is held at a time, its tables bounded by Limits::max_chunk_size;
  // the output is claimed as it grows.
  ChunkReader reader(jfr, options.limits);
  return run(reader, options, out, {}, 0);
}

}  // namespace proflow::jfr
