// The JFR -> flat batch converter's state, shared by its event side (flat_converter.cc) and its
// placing side (flat_converter_place.cc). Internal to core/formats/jfr.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/flat/flat_merge.h"
#include "core/formats/jfr/chunk_reader.h"
#include "core/formats/jfr/converter_tables.h"
#include "core/formats/jfr/event_log.h"
#include "core/formats/jfr/flat_converter.h"
#include "core/formats/jfr/sample_index.h"

namespace proflow::jfr {

using namespace internal;  // NOLINT(google-build-using-namespace): the converter tables

class FlatConverter::Impl {
 public:
  Impl(flat::Batch* out, const ConvertOptions& o) : out_(*out), opts_(o), dict_(out) {
    for (int i = 0; i < 3; ++i) frame_type_attrs_[i] = dict_.stringAttribute("profile.frame.type", kFrameTypes[i]);
  }

  bool addChunk(Chunk& chunk);
  void finish(std::span<const uint8_t> original);

  uint64_t events = 0;
  uint64_t samples = 0;

  void setClaimed(size_t bytes) { claimed_ = charged_ = bytes; }
  const Status& refused() const { return refused_; }

 private:
  void charge(size_t bytes);
  // One profile being built. Rows (samples) are columns here; events are logged in arrival order
  // and scattered into contiguous per-row runs at finish. A companion profile (bytes, delay) has the
  // rows of its primary (objects, count) and only logs its values.
  struct Acc {
    bool used = false;
    ProfileId primary = kProfileCount;  // set on companions
    SampleIndex index;
    std::vector<int32_t> stack, link;
    std::vector<flat::Range> attributes;  // into attribute_lists_
    EventLog<uint32_t> event_row;
    EventLog<uint64_t> event_time;
    EventLog<int64_t> event_value;  // per event once values differ (always on companions)
    // While every event of a primary carried the same value (count profiles add 1), no value is logged.
    int64_t uniform_value = 0;
    bool per_event_values = false;
    size_t rows() const { return stack.size(); }
  };
  // Where each profile's rows and events went at finish (a companion reuses its primary's).
  struct Placed {
    flat::Range rows;
    std::vector<uint32_t> row_offset, row_count;  // per row, relative to the run's base
    std::vector<uint32_t> event_slot;             // per event: its position in the run
    uint32_t timestamps_base = 0;
  };
  void startPerEventValues(Acc& acc, int64_t value);
  void placePrimary(Acc& acc, int64_t factor, Placed* placed);
  void placeCompanion(const Acc& acc, int64_t factor, const Placed& primary);
  void reserveColumns();

  void startChunk(Chunk& chunk);
  void onEvent(const Event& e);
  void onSetting(const Event& e);
  void onDatadogConfig(const Event& e);
  // Logs one event of profile `a` (and of its companion `b`) in its sample's row.
  void add(const Event& e, int64_t ts, ProfileId a, int64_t va, ProfileId b = kProfileCount, int64_t vb = 0);
  void logEvent(int32_t row, int64_t ts, ProfileId a, int64_t va, ProfileId b, int64_t vb);
  void logNativeInUse();
  int32_t sampleIndex(const Event& e, ProfileId a, ProfileId b);
  [[gnu::noinline]] int32_t newSampleIndex(const Event& e, ProfileId a, ProfileId b);
  SampleKey keyOf(const Event& e);
  int64_t weight(const Event& e) const;
  int32_t stackIndex(uint64_t key, bool* truncated);
  int32_t stateAttr(uint64_t key);
  int32_t buildStack();
  int32_t threadAttr(uint64_t key);
  int32_t spanAttr(const Event& e);
  int32_t linkIndex(const Event& e);
  FrameClass frameClass(const Frame& f);
  std::pair<int32_t, int32_t> function(uint64_t method_key, const FrameClass& fc);
  flat::Range attributeList(const SampleKey& k, int profiles);

  flat::Batch& out_;
  ConvertOptions opts_;
  flat::DictionaryIndex dict_;
  Chunk* chunk_ = nullptr;
  int32_t frame_type_attrs_[3] = {};
  int32_t truncated_attr_ = 0;  // made on the first truncated stack
  Acc accs_[kProfileCount];
  std::vector<int32_t> attribute_lists_;
  uint32_t attributes_base_ = 0;  // where attribute_lists_ starts in the batch's indices
  int64_t start_nanos_ = std::numeric_limits<int64_t>::max();
  int64_t end_nanos_ = std::numeric_limits<int64_t>::min();
  int64_t cpu_period_ = 0, native_period_ = 0, wall_interval_ = 0;
  bool wall_mode_ = false;
  // Per-chunk caches: pool keys are only meaningful inside their chunk.
  KeyIndex stacks_;
  KeyIndex threads_;
  KeyIndex states_;
  EventSampleIndex event_samples_;
  std::unordered_map<uint64_t, std::pair<int32_t, int32_t>> functions_;
  std::unordered_map<uint64_t, FrameClass> frame_classes_;
  bool c_native_frames_ = false;
  // Native allocations and frees (async-profiler's nativemem), in file order, for the in-use profiles.
  struct NativeOp {
    int64_t ts;
    uint64_t address;
    int64_t size;
    int32_t malloc_row;
    bool free;
  };
  std::vector<NativeOp> native_ops_;
  // Per-file caches.
  std::unordered_map<int64_t, std::vector<int32_t>> context_attrs_;
  StackTrace trace_;
  struct ResolvedFrame {
    int32_t function, mapping, line, type;  // type: OTLP frame type | 16 when inlined
  };
  std::vector<ResolvedFrame> resolved_;
  std::string signature_;
  std::unordered_map<std::string, int32_t> stacks_by_frames_;
  std::vector<int32_t> locations_;
  std::vector<flat::Line> pending_lines_;
  std::string scratch_, scratch2_;
  size_t claimed_ = 0, charged_ = 0;
  Status refused_;
};

}  // namespace proflow::jfr
