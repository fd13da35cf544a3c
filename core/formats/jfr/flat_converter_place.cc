// The JFR -> flat converter's placing side: what the events logged becomes the batch's profiles,
// rows and columns.
#include <algorithm>
#include <vector>

#include "core/flat/flat_merge.h"
#include "core/formats/jfr/flat_converter_impl.h"
#include "core/formats/jfr/memory_estimate.h"
#include "core/util/saturating.h"

namespace proflow::jfr {

// async-profiler's native allocations still in use at the end: replayed with the frees in time order
// (file order among equal times; a producer's buffers are not written in time order), an allocation
// is in use when no later free names its address. They become malloc_inuse_objects / _bytes, with
// the allocating sample's stack and attributes, at the allocation's time.
void FlatConverter::Impl::logNativeInUse() {
  if (native_ops_.empty()) return;
  std::vector<uint32_t> order(native_ops_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return native_ops_[x].ts < native_ops_[y].ts; });
  std::unordered_map<uint64_t, uint32_t> live;  // address -> its allocation
  for (uint32_t i : order) {
    const NativeOp& op = native_ops_[i];
    if (op.free) live.erase(op.address);
    else live[op.address] = i;
  }
  std::vector<uint32_t> in_use;
  in_use.reserve(live.size());
  for (const auto& [address, i] : live) in_use.push_back(i);
  std::sort(in_use.begin(), in_use.end());  // file order, as every profile's events
  const Acc& mallocs = accs_[kMallocObjects];
  Acc& acc = accs_[kMallocInuseObjects];
  std::vector<int32_t> row_of(mallocs.rows(), -1);  // malloc row -> in-use row
  for (uint32_t i : in_use) {
    const NativeOp& op = native_ops_[i];
    int32_t& row = row_of[static_cast<size_t>(op.malloc_row)];
    if (row < 0) {
      row = static_cast<int32_t>(acc.rows());
      acc.stack.push_back(mallocs.stack[static_cast<size_t>(op.malloc_row)]);
      acc.link.push_back(mallocs.link[static_cast<size_t>(op.malloc_row)]);
      acc.attributes.push_back(mallocs.attributes[static_cast<size_t>(op.malloc_row)]);
      charge(cost::kSample * 2);
      samples += 2;
    }
    acc.used = accs_[kMallocInuseBytes].used = true;
    accs_[kMallocInuseBytes].primary = kMallocInuseObjects;
    logEvent(row, op.ts, kMallocInuseObjects, 1, kMallocInuseBytes, op.size);
  }
  native_ops_.clear();
}

// A primary's rows and events into the batch: events scattered by row (stable: each row's run keeps
// arrival order), values scaled by `factor`.
void FlatConverter::Impl::placePrimary(Acc& acc, int64_t factor, Placed* placed) {
  flat::Batch& b = out_;
  const size_t rows = acc.rows(), n = acc.event_row.size();
  placed->row_count.assign(rows, 0);
  acc.event_row.forEach([&](uint32_t r) { ++placed->row_count[r]; });
  placed->row_offset.resize(rows);
  uint32_t offset = 0;
  for (size_t r = 0; r < rows; ++r) {
    placed->row_offset[r] = offset;
    offset += placed->row_count[r];
  }
  std::vector<uint32_t> next = placed->row_offset;
  placed->event_slot.resize(n);
  placed->timestamps_base = static_cast<uint32_t>(b.timestamps.size());
  const uint32_t values_base = static_cast<uint32_t>(b.values.size());
  b.timestamps.resize(b.timestamps.size() + n);
  uint64_t* stamps = b.timestamps.data() + placed->timestamps_base;
  if (acc.per_event_values) {
    b.values.resize(b.values.size() + n);
    int64_t* values = b.values.data() + values_base;
    for (size_t k = 0; k < n; ++k) {
      const uint32_t slot = next[acc.event_row[k]]++;
      placed->event_slot[k] = slot;
      stamps[slot] = acc.event_time[k];
      values[slot] = factor != 1 ? saturatingMul(acc.event_value[k], factor) : acc.event_value[k];
    }
  } else {
    for (size_t k = 0; k < n; ++k) {
      const uint32_t slot = next[acc.event_row[k]]++;
      placed->event_slot[k] = slot;
      stamps[slot] = acc.event_time[k];
    }
    b.values.resize(b.values.size() + n, factor != 1 ? saturatingMul(acc.uniform_value, factor) : acc.uniform_value);
  }
  placed->rows = {static_cast<uint32_t>(b.samples.size()), static_cast<uint32_t>(rows)};
  auto& s = b.samples;
  for (size_t r = 0; r < rows; ++r) {
    s.stack_index.push_back(acc.stack[r]);
    s.link_index.push_back(acc.link[r]);
    const flat::Range list = acc.attributes[r];
    s.attributes.push_back({attributes_base_ + list.begin, list.size});
    s.values.push_back({values_base + placed->row_offset[r], placed->row_count[r]});
    s.timestamps.push_back({placed->timestamps_base + placed->row_offset[r], placed->row_count[r]});
  }
}

// A companion's values, in its primary's slots; rows repeat the primary's (timestamps shared).
void FlatConverter::Impl::placeCompanion(const Acc& acc, int64_t factor, const Placed& primary) {
  flat::Batch& b = out_;
  const uint32_t values_base = static_cast<uint32_t>(b.values.size());
  b.values.resize(b.values.size() + acc.event_value.size());
  int64_t* values = b.values.data() + values_base;
  for (size_t k = 0; k < acc.event_value.size(); ++k)
    values[primary.event_slot[k]] = factor != 1 ? saturatingMul(acc.event_value[k], factor) : acc.event_value[k];
  auto& s = b.samples;
  for (uint32_t i = 0; i < primary.rows.size; ++i) {
    const uint32_t row = primary.rows.begin + i;
    s.stack_index.push_back(s.stack_index[row]);
    s.link_index.push_back(s.link_index[row]);
    s.attributes.push_back(s.attributes[row]);
    s.values.push_back({values_base + primary.row_offset[i], primary.row_count[i]});
    s.timestamps.push_back(s.timestamps[row]);
  }
}

// The batch's columns are sized once for every profile placed next (a companion repeats its
// primary's rows): growing them profile by profile copied them each time, into fresh memory.
void FlatConverter::Impl::reserveColumns() {
  flat::Batch& b = out_;
  size_t stamps = 0, values = 0, rows = 0;
  for (const Acc& acc : accs_) {
    if (!acc.used) continue;
    const bool primary = acc.primary == kProfileCount;
    stamps += primary ? acc.event_row.size() : 0;
    values += primary ? acc.event_row.size() : acc.event_value.size();
    rows += primary ? acc.rows() : accs_[acc.primary].rows();
  }
  b.timestamps.reserve(b.timestamps.size() + stamps);
  b.values.reserve(b.values.size() + values);
  auto& s = b.samples;
  s.stack_index.reserve(s.size() + rows);
  s.link_index.reserve(s.size() + rows);
  for (auto* column : {&s.attributes, &s.values, &s.timestamps}) column->reserve(s.size() + rows);
}

void FlatConverter::Impl::finish(std::span<const uint8_t> original) {
  flat::Batch& b = out_;
  int64_t cpu = opts_.cpu_period_nanos > 0 ? opts_.cpu_period_nanos
                : cpu_period_ > 0          ? cpu_period_
                                           : opts_.default_period_nanos;
  int64_t native = native_period_ > 0 ? native_period_ : opts_.default_period_nanos;
  // Wall clock without an interval of its own: the sampling interval given, else async-profiler's
  // wall-clock default (a `0` interval in its settings means "the default" too).
  int64_t wall = wall_interval_ > 0                                  ? wall_interval_
                 : opts_.cpu_period_nanos > 0 || cpu_period_ > 0 ? cpu
                                                                     : kDefaultWallIntervalNanos;
  if (start_nanos_ > end_nanos_) start_nanos_ = end_nanos_ = 0;
  // Every row's attribute list, once: rows refer to it by offset from here.
  attributes_base_ = static_cast<uint32_t>(b.indices.size());
  b.indices.insert(b.indices.end(), attribute_lists_.begin(), attribute_lists_.end());
  b.resources.emplace_back();
  const uint32_t first_profile = static_cast<uint32_t>(b.profiles.size());
  const flat::Bytes format = b.addBytes("jfr");
  logNativeInUse();
  reserveColumns();
  Placed placed[kProfileCount];
  bool first = true;
  for (int id = 0; id < kProfileCount; ++id) {
    Acc& acc = accs_[id];
    if (!acc.used) continue;
    const ProfileSpec& spec = kSpecs[id];
    int64_t factor = spec.scale == kCpuPeriod ? cpu : spec.scale == kNativePeriod ? native
                   : spec.scale == kWallInterval ? wall : 1;
    const uint32_t row_begin = static_cast<uint32_t>(b.samples.size());
    if (acc.primary == kProfileCount) placePrimary(acc, factor, &placed[id]);
    else placeCompanion(acc, factor, placed[acc.primary]);
    flat::Profile p;
    p.samples = {row_begin, static_cast<uint32_t>(b.samples.size()) - row_begin};
    p.sample_type = {true, dict_.string(spec.type), dict_.string(spec.unit)};
    p.period_type = {true, dict_.string(spec.period_type), dict_.string(spec.period_unit)};
    if (spec.scale != kNoScale) p.period = factor;
    p.time_unix_nano = static_cast<uint64_t>(start_nanos_);
    p.duration_nano = static_cast<uint64_t>(saturatingSub(end_nanos_, start_nanos_));
    p.original_payload_format = format;
    if (first && opts_.keep_original_payload && !original.empty())
      p.original_payload = b.addBytes(std::string_view(reinterpret_cast<const char*>(original.data()), original.size()));
    first = false;
    b.profiles.push_back(p);
  }
  for (Acc& acc : accs_) acc = Acc();
  flat::Scope scope;
  scope.profiles = {first_profile, static_cast<uint32_t>(b.profiles.size()) - first_profile};
  b.addScope(static_cast<uint32_t>(b.resources.size() - 1), scope);
}

}  // namespace proflow::jfr
