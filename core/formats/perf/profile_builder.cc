#include "core/formats/perf/profile_builder.h"

#include <algorithm>
#include <cstring>

#include "core/flat/flat_attributes.h"
#include "core/formats/pprof/pprof_ids.h"
#include "core/util/utf8.h"

namespace proflow::perf::internal {

// Recordings hold whatever bytes programs named themselves and their files; OTLP strings must be
// UTF-8 (protobuf refuses the whole request otherwise), so invalid bytes become U+FFFD.
std::string_view ProfileBuilder::text(std::string_view s) {
  if (isValidUtf8(s)) return s;
  utf8_ = sanitizeUtf8(s);
  return utf8_;
}

ProfileBuilder::ProfileBuilder(flat::Batch* out) : out_(*out), dict_(out) {
  frame_type_[0] = dict_.stringAttribute("profile.frame.type", "native");
  frame_type_[1] = dict_.stringAttribute("profile.frame.type", "kernel");
}

uint32_t ProfileBuilder::event(std::string_view name, std::string_view unit) {
  Event e;
  e.type = dict_.string(text(name));
  e.unit = dict_.string(unit);
  events_.push_back(std::move(e));
  return static_cast<uint32_t>(events_.size() - 1);
}

int32_t ProfileBuilder::mapping(std::string_view file, uint64_t start, uint64_t limit, uint64_t pgoff,
                                std::string_view build_id) {
  flat::Mapping m;
  m.memory_start = start;
  m.memory_limit = limit;
  m.file_offset = pgoff;
  m.filename_strindex = dict_.string(text(file));
  int32_t attr = 0;
  if (!build_id.empty()) attr = dict_.stringAttribute("process.executable.build_id.gnu", text(build_id));
  return dict_.mapping(m, attr ? std::span<const int32_t>(&attr, 1) : std::span<const int32_t>());
}

int32_t ProfileBuilder::location(uint64_t address, int32_t mapping, bool kernel, std::string_view name) {
  key_.assign(reinterpret_cast<const char*>(&address), sizeof address);
  key_.append(reinterpret_cast<const char*>(&mapping), sizeof mapping);
  key_.push_back(kernel ? 'k' : 'u');
  key_.append(name);
  auto [it, inserted] = locations_.try_emplace(key_, 0);
  if (!inserted) return it->second;
  flat::Location loc;
  loc.address = address;
  loc.mapping_index = mapping;
  flat::Line line;
  if (!name.empty()) {
    flat::Function f;
    f.name_strindex = dict_.string(text(name));
    line.function_index = dict_.function(f);
  }
  const int32_t type = frame_type_[kernel ? 1 : 0];
  it->second = dict_.location(loc, name.empty() ? std::span<const flat::Line>() : std::span<const flat::Line>(&line, 1),
                              std::span<const int32_t>(&type, 1));
  return it->second;
}

int32_t ProfileBuilder::intAttribute(std::string_view key, int64_t value) {
  flat::Attribute a;
  a.key_strindex = dict_.string(key);
  a.value.kind = flat::ValueKind::kInt;
  a.value.scalar = value;
  return dict_.attribute(a);
}

uint64_t ProfileBuilder::shifted(uint64_t t) const {
  const int64_t v = static_cast<int64_t>(t) + shift_;
  return v < 0 ? 0 : static_cast<uint64_t>(v);
}

uint32_t ProfileBuilder::attributeList(const SampleContext& w) {
  key_.clear();
  key_.append(reinterpret_cast<const char*>(&w.pid), sizeof w.pid);
  key_.append(reinterpret_cast<const char*>(&w.tid), sizeof w.tid);
  key_.append(reinterpret_cast<const char*>(&w.cpu), sizeof w.cpu);
  key_.append(w.process_name);
  key_.push_back('\0');
  key_.append(w.thread_name);
  auto [it, inserted] = attr_list_index_.try_emplace(key_, 0);
  if (!inserted) return it->second;
  flat::Range r{static_cast<uint32_t>(attr_indices_.size()), 0};
  if (w.tid >= 0) attr_indices_.push_back(intAttribute("thread.id", w.tid));
  if (!w.thread_name.empty()) attr_indices_.push_back(dict_.stringAttribute("thread.name", text(w.thread_name)));
  if (w.pid >= 0) attr_indices_.push_back(intAttribute("process.pid", w.pid));
  if (!w.process_name.empty())
    attr_indices_.push_back(dict_.stringAttribute("process.executable.name", text(w.process_name)));
  if (w.cpu >= 0) attr_indices_.push_back(intAttribute("cpu.logical_number", w.cpu));
  r.size = static_cast<uint32_t>(attr_indices_.size()) - r.begin;
  attr_lists_.push_back(r);
  it->second = static_cast<uint32_t>(attr_lists_.size() - 1);
  return it->second;
}

void ProfileBuilder::addSample(uint32_t event, const SampleContext& where, uint64_t time, int64_t period,
                               std::span<const int32_t> locations) {
  Event& e = events_[event];
  const int32_t stack = dict_.stack(locations);
  const uint32_t attrs = attributeList(where);
  const uint64_t key = static_cast<uint64_t>(static_cast<uint32_t>(stack)) << 32 | attrs;
  auto [it, inserted] = e.rows.try_emplace(key, static_cast<uint32_t>(e.row_stack.size()));
  if (inserted) {
    e.row_stack.push_back(stack);
    e.row_attrs.push_back(attrs);
  }
  e.sample_row.push_back(it->second);
  e.sample_time.push_back(time);
  e.sample_period.push_back(period);
  first_time_ = std::min(first_time_, time);
  last_time_ = std::max(last_time_, time);
  ++samples_;
}

void ProfileBuilder::resourceAttribute(std::string_view key, std::string_view value) {
  if (!value.empty()) resource_.emplace_back(key, text(value));
}

void ProfileBuilder::profileAttribute(std::string_view key, std::string_view value) {
  profile_attrs_.push_back(dict_.stringAttribute(key, text(value)));
}

void ProfileBuilder::profileAttribute(std::string_view key, int64_t value) {
  profile_attrs_.push_back(intAttribute(key, value));
}

// One profile's rows: the events of each row contiguous (arrival order kept inside a row). The
// periods profile fills `row_stamps`; the counts profile (all values 1) reuses those ranges.
void ProfileBuilder::place(const Event& e, bool counts, std::vector<flat::Range>* row_stamps) {
  flat::Batch& b = out_;
  const size_t rows = e.row_stack.size(), n = e.sample_row.size();
  std::vector<uint32_t> count(rows, 0), offset(rows, 0);
  for (uint32_t r : e.sample_row) ++count[r];
  for (size_t r = 1; r < rows; ++r) offset[r] = offset[r - 1] + count[r - 1];
  const uint32_t values_base = static_cast<uint32_t>(b.values.size());
  b.values.resize(b.values.size() + n, 1);
  if (!counts) {
    const uint32_t stamps_base = static_cast<uint32_t>(b.timestamps.size());
    b.timestamps.resize(b.timestamps.size() + n);
    std::vector<uint32_t> next = offset;
    for (size_t k = 0; k < n; ++k) {
      const uint32_t slot = next[e.sample_row[k]]++;
      b.timestamps[stamps_base + slot] = shifted(e.sample_time[k]);
      b.values[values_base + slot] = e.sample_period[k];
    }
    row_stamps->resize(rows);
    for (size_t r = 0; r < rows; ++r) (*row_stamps)[r] = {stamps_base + offset[r], count[r]};
  }
  for (size_t r = 0; r < rows; ++r) {
    b.samples.stack_index.push_back(e.row_stack[r]);
    b.samples.link_index.push_back(0);
    const flat::Range list = attr_lists_[e.row_attrs[r]];
    b.samples.attributes.push_back({attrs_base_ + list.begin, list.size});
    b.samples.values.push_back({values_base + offset[r], count[r]});
    b.samples.timestamps.push_back((*row_stamps)[r]);
  }
}

void ProfileBuilder::finish(std::string_view format, std::string_view original, uint64_t lost) {
  flat::Batch& b = out_;
  attrs_base_ = static_cast<uint32_t>(b.indices.size());
  b.indices.insert(b.indices.end(), attr_indices_.begin(), attr_indices_.end());
  const uint32_t resource = static_cast<uint32_t>(b.resources.size());
  b.resources.emplace_back();
  for (const auto& [k, v] : resource_) flat::addResourceAttribute(b, resource, k, v, /*replace=*/true);
  int32_t lost_attr =
      lost > 0 ? intAttribute("perf.lost_samples", static_cast<int64_t>(std::min<uint64_t>(lost, INT64_MAX))) : 0;
  const uint32_t first_profile = static_cast<uint32_t>(b.profiles.size());
  const flat::Bytes format_bytes = b.addBytes(format);
  if (first_time_ > last_time_) first_time_ = last_time_ = 0;
  const int32_t samples_type = dict_.string("samples"), count_unit = dict_.string("count");
  bool first = true;
  for (const Event& e : events_) {
    if (e.sample_row.empty()) continue;
    std::vector<flat::Range> stamps;
    for (int kind = 0; kind < 2; ++kind) {
      flat::Profile p;
      const uint32_t row_begin = static_cast<uint32_t>(b.samples.size());
      place(e, kind == 1, &stamps);
      p.samples = {row_begin, static_cast<uint32_t>(b.samples.size()) - row_begin};
      p.sample_type =
          kind == 0 ? flat::ValueType{true, e.type, e.unit} : flat::ValueType{true, samples_type, count_unit};
      p.period_type = {true, e.type, e.unit};
      p.time_unix_nano = shifted(first_time_);
      p.duration_nano = last_time_ - first_time_;
      p.original_payload_format = format_bytes;
      if (first && !original.empty()) p.original_payload = b.addBytes(original);
      first = false;
      p.attributes = {static_cast<uint32_t>(b.indices.size()), 0};
      if (lost_attr) b.indices.push_back(lost_attr);
      b.indices.insert(b.indices.end(), profile_attrs_.begin(), profile_attrs_.end());
      p.attributes.size = static_cast<uint32_t>(b.indices.size()) - p.attributes.begin;
      if (p.attributes.size == 0) p.attributes.begin = 0;
      b.profiles.push_back(p);
    }
  }
  flat::Scope scope;
  scope.profiles = {first_profile, static_cast<uint32_t>(b.profiles.size()) - first_profile};
  b.addScope(resource, scope);
}

}  // namespace proflow::perf::internal
