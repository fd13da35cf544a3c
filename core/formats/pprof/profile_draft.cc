#include "core/formats/pprof/profile_draft.h"

#include <cstring>

namespace proflow::pprof::internal {

std::string_view StringPool::add(std::string_view s) {
  if (s.empty()) return {};
  if (s.size() > kChunk / 4) {
    // A chunk of its own, kept before the chunk being filled.
    auto big = std::make_unique<char[]>(s.size());
    char* dst = big.get();
    std::memcpy(dst, s.data(), s.size());
    chunks_.insert(chunks_.empty() ? chunks_.end() : chunks_.end() - 1, std::move(big));
    return {dst, s.size()};
  }
  if (kChunk - used_ < s.size()) {
    chunks_.push_back(std::make_unique<char[]>(kChunk));
    used_ = 0;
  }
  char* dst = chunks_.back().get() + used_;
  std::memcpy(dst, s.data(), s.size());
  used_ += s.size();
  return {dst, s.size()};
}

void ProfileDraft::beginSample() {
  closeSample();
  Sample s;
  s.locations.offset = static_cast<uint32_t>(location_ids.size());
  s.values.offset = static_cast<uint32_t>(values.size());
  s.labels.offset = static_cast<uint32_t>(labels.size());
  samples.push_back(s);
}

void ProfileDraft::beginRepeatSample(size_t from) {
  closeSample();  // `from` has its final ranges
  const Sample& src = samples[from];
  Sample s;
  s.repeat = true;
  s.locations = src.locations;
  s.labels = {src.labels.offset, src.labels.count > 0 ? src.labels.count - 1 : 0};
  s.values.offset = static_cast<uint32_t>(values.size());
  s.tail_labels.offset = static_cast<uint32_t>(labels.size());
  samples.push_back(s);
}

void ProfileDraft::closeSample() {
  if (samples.empty()) return;
  Sample& s = samples.back();
  s.values.count = static_cast<uint32_t>(values.size() - s.values.offset);
  if (s.repeat) {
    s.tail_labels.count = static_cast<uint32_t>(labels.size() - s.tail_labels.offset);
    return;
  }
  s.locations.count = static_cast<uint32_t>(location_ids.size() - s.locations.offset);
  s.labels.count = static_cast<uint32_t>(labels.size() - s.labels.offset);
}

namespace {

template <class F>
void forEachLabel(const ProfileDraft& d, const ProfileDraft::Sample& s, F f) {
  for (uint32_t k = 0; k < s.labels.count; ++k) f(d.labels[s.labels.offset + k]);
  for (uint32_t k = 0; k < s.tail_labels.count; ++k) f(d.labels[s.tail_labels.offset + k]);
}

// 7 payload bits per byte: branch-free, this runs for every location id of every sample.
size_t varintSize(uint64_t v) { return (64 - static_cast<size_t>(__builtin_clzll(v | 1)) + 6) / 7; }

// Size of "tag + varint" for a proto3 scalar: nothing when it is the default.
size_t scalarSize(uint64_t v) { return v == 0 ? 0 : 1 + varintSize(v); }
size_t scalarSize(int64_t v) { return scalarSize(static_cast<uint64_t>(v)); }

template <class T>
size_t packedPayload(const T* v, uint32_t n) {
  size_t total = 0;
  for (uint32_t i = 0; i < n; ++i) total += varintSize(static_cast<uint64_t>(v[i]));
  return total;
}
// Field tags here are all below 16: one byte.
size_t lengthDelimited(size_t payload) { return 1 + varintSize(payload) + payload; }

class Out {
 public:
  explicit Out(std::string* s, size_t size) : s_(s) {
    s_->resize(size);
    p_ = s_->data();
  }
  void varint(uint64_t v) {
    while (v >= 0x80) {
      *p_++ = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    *p_++ = static_cast<char>(v);
  }
  void tag(uint32_t field, uint32_t wire_type) { *p_++ = static_cast<char>(field << 3 | wire_type); }
  void scalar(uint32_t field, uint64_t v) {
    if (v == 0) return;
    tag(field, 0);
    varint(v);
  }
  void scalar(uint32_t field, int64_t v) { scalar(field, static_cast<uint64_t>(v)); }
  void scalar(uint32_t field, bool v) { scalar(field, static_cast<uint64_t>(v)); }
  void header(uint32_t field, size_t payload) {
    tag(field, 2);
    varint(payload);
  }
  // `payload` is packedPayload(v, n), computed once by the size pass.
  template <class T>
  void packed(uint32_t field, const T* v, uint32_t n, size_t payload) {
    if (n == 0) return;
    header(field, payload);
    for (uint32_t i = 0; i < n; ++i) varint(static_cast<uint64_t>(v[i]));
  }
  void bytes(uint32_t field, std::string_view b) {
    header(field, b.size());
    if (!b.empty()) std::memcpy(p_, b.data(), b.size());
    p_ += b.size();
  }
  size_t written() const { return static_cast<size_t>(p_ - s_->data()); }

 private:
  std::string* s_;
  char* p_;
};

size_t valueTypeSize(const view::ValueType& v) { return scalarSize(v.type_) + scalarSize(v.unit_); }
size_t labelSize(const view::Label& l) {
  return scalarSize(l.key_) + scalarSize(l.str_) + scalarSize(l.num_) + scalarSize(l.num_unit_);
}
size_t lineSize(const view::Line& l) {
  return scalarSize(l.function_id_) + scalarSize(l.line_) + scalarSize(l.column_);
}
size_t boolSize(bool b) { return b ? 2 : 0; }
size_t mappingSize(const view::Mapping& m) {
  return scalarSize(m.id_) + scalarSize(m.memory_start_) + scalarSize(m.memory_limit_) + scalarSize(m.file_offset_) +
         scalarSize(m.filename_) + scalarSize(m.build_id_) + boolSize(m.has_functions_) +
         boolSize(m.has_filenames_) + boolSize(m.has_line_numbers_) + boolSize(m.has_inline_frames_);
}
size_t functionSize(const view::Function& f) {
  return scalarSize(f.id_) + scalarSize(f.name_) + scalarSize(f.system_name_) + scalarSize(f.filename_) +
         scalarSize(f.start_line_);
}

class DraftWriter {
 public:
  explicit DraftWriter(const ProfileDraft& d) : d_(d) {}

  void run(std::string* out) {
    Out o(out, totalSize());
    for (const auto& vt : d_.sample_type) valueType(o, 1, vt);
    for (size_t i = 0; i < d_.samples.size(); ++i) {
      const auto& s = d_.samples[i];
      const SampleSizes& z = sample_sizes_[i];
      o.header(2, z.total);
      o.packed(1, d_.location_ids.data() + s.locations.offset, s.locations.count, z.locations);
      o.packed(2, d_.values.data() + s.values.offset, s.values.count, z.values);
      forEachLabel(d_, s, [&](const view::Label& l) { label(o, l); });
    }
    for (const auto& m : d_.mappings) mapping(o, m);
    for (size_t i = 0; i < d_.locations.size(); ++i) {
      const auto& l = d_.locations[i];
      o.header(4, location_sizes_[i]);
      o.scalar(1, l.id);
      o.scalar(2, l.mapping_id);
      o.scalar(3, l.address);
      for (uint32_t k = 0; k < l.lines.count; ++k) line(o, d_.lines[l.lines.offset + k]);
      o.scalar(5, l.is_folded);
    }
    for (const auto& f : d_.functions) function(o, f);
    for (std::string_view s : d_.strings) o.bytes(6, s);
    o.scalar(7, d_.drop_frames);
    o.scalar(8, d_.keep_frames);
    o.scalar(9, d_.time_nanos);
    o.scalar(10, d_.duration_nanos);
    if (d_.has_period_type) valueType(o, 11, d_.period_type);
    o.scalar(12, d_.period);
    const auto ncomments = static_cast<uint32_t>(d_.comment.size());
    o.packed(13, d_.comment.data(), ncomments, packedPayload(d_.comment.data(), ncomments));
    o.scalar(14, d_.default_sample_type);
    o.scalar(15, d_.doc_url);
    out->resize(o.written());  // equal to totalSize(); resize only guards a miscount
  }

 private:
  size_t totalSize() {
    size_t n = 0;
    for (const auto& vt : d_.sample_type) n += lengthDelimited(valueTypeSize(vt));
    sample_sizes_.reserve(d_.samples.size());
    for (const auto& s : d_.samples) {
      SampleSizes z;
      z.locations = packedPayload(d_.location_ids.data() + s.locations.offset, s.locations.count);
      z.values = packedPayload(d_.values.data() + s.values.offset, s.values.count);
      if (s.locations.count > 0) z.total += lengthDelimited(z.locations);
      if (s.values.count > 0) z.total += lengthDelimited(z.values);
      forEachLabel(d_, s, [&](const view::Label& l) { z.total += lengthDelimited(labelSize(l)); });
      sample_sizes_.push_back(z);
      n += lengthDelimited(z.total);
    }
    for (const auto& m : d_.mappings) n += lengthDelimited(mappingSize(m));
    location_sizes_.reserve(d_.locations.size());
    for (const auto& l : d_.locations) {
      size_t payload = scalarSize(l.id) + scalarSize(l.mapping_id) + scalarSize(l.address) + boolSize(l.is_folded);
      for (uint32_t k = 0; k < l.lines.count; ++k) payload += lengthDelimited(lineSize(d_.lines[l.lines.offset + k]));
      location_sizes_.push_back(payload);
      n += lengthDelimited(payload);
    }
    for (const auto& f : d_.functions) n += lengthDelimited(functionSize(f));
    for (std::string_view s : d_.strings) n += lengthDelimited(s.size());
    n += scalarSize(d_.drop_frames) + scalarSize(d_.keep_frames) + scalarSize(d_.time_nanos) +
         scalarSize(d_.duration_nanos) + scalarSize(d_.period) + scalarSize(d_.default_sample_type) +
         scalarSize(d_.doc_url);
    if (d_.has_period_type) n += lengthDelimited(valueTypeSize(d_.period_type));
    if (!d_.comment.empty())
      n += lengthDelimited(packedPayload(d_.comment.data(), static_cast<uint32_t>(d_.comment.size())));
    return n;
  }

  static void valueType(Out& o, uint32_t field, const view::ValueType& vt) {
    o.header(field, valueTypeSize(vt));
    o.scalar(1, vt.type_);
    o.scalar(2, vt.unit_);
  }
  static void label(Out& o, const view::Label& l) {
    o.header(3, labelSize(l));
    o.scalar(1, l.key_);
    o.scalar(2, l.str_);
    o.scalar(3, l.num_);
    o.scalar(4, l.num_unit_);
  }
  static void line(Out& o, const view::Line& l) {
    o.header(4, lineSize(l));
    o.scalar(1, l.function_id_);
    o.scalar(2, l.line_);
    o.scalar(3, l.column_);
  }
  static void mapping(Out& o, const view::Mapping& m) {
    o.header(3, mappingSize(m));
    o.scalar(1, m.id_);
    o.scalar(2, m.memory_start_);
    o.scalar(3, m.memory_limit_);
    o.scalar(4, m.file_offset_);
    o.scalar(5, m.filename_);
    o.scalar(6, m.build_id_);
    o.scalar(7, m.has_functions_);
    o.scalar(8, m.has_filenames_);
    o.scalar(9, m.has_line_numbers_);
    o.scalar(10, m.has_inline_frames_);
  }
  static void function(Out& o, const view::Function& f) {
    o.header(5, functionSize(f));
    o.scalar(1, f.id_);
    o.scalar(2, f.name_);
    o.scalar(3, f.system_name_);
    o.scalar(4, f.filename_);
    o.scalar(5, f.start_line_);
  }

  struct SampleSizes {
    size_t total = 0, locations = 0, values = 0;  // message, packed location ids, packed values
  };

  const ProfileDraft& d_;
  std::vector<SampleSizes> sample_sizes_;
  std::vector<size_t> location_sizes_;
};

}  // namespace

void writeProfile(const ProfileDraft& d, std::string* out) { DraftWriter(d).run(out); }

void toProfile(const ProfileDraft& d, Profile* out) {
  out->Clear();
  auto valueType = [](perftools::profiles::ValueType* vt, const view::ValueType& v) {
    vt->set_type(v.type_);
    vt->set_unit(v.unit_);
  };
  for (const auto& vt : d.sample_type) valueType(out->add_sample_type(), vt);
  for (const auto& s : d.samples) {
    auto* ps = out->add_sample();
    for (uint32_t k = 0; k < s.locations.count; ++k) ps->add_location_id(d.location_ids[s.locations.offset + k]);
    for (uint32_t k = 0; k < s.values.count; ++k) ps->add_value(d.values[s.values.offset + k]);
    forEachLabel(d, s, [&](const view::Label& l) {
      auto* pl = ps->add_label();
      pl->set_key(l.key_);
      pl->set_str(l.str_);
      pl->set_num(l.num_);
      pl->set_num_unit(l.num_unit_);
    });
  }
  for (const auto& m : d.mappings) {
    auto* pm = out->add_mapping();
    pm->set_id(m.id_);
    pm->set_memory_start(m.memory_start_);
    pm->set_memory_limit(m.memory_limit_);
    pm->set_file_offset(m.file_offset_);
    pm->set_filename(m.filename_);
    pm->set_build_id(m.build_id_);
    pm->set_has_functions(m.has_functions_);
    pm->set_has_filenames(m.has_filenames_);
    pm->set_has_line_numbers(m.has_line_numbers_);
    pm->set_has_inline_frames(m.has_inline_frames_);
  }
  for (const auto& l : d.locations) {
    auto* pl = out->add_location();
    pl->set_id(l.id);
    pl->set_mapping_id(l.mapping_id);
    pl->set_address(l.address);
    pl->set_is_folded(l.is_folded);
    for (uint32_t k = 0; k < l.lines.count; ++k) {
      const auto& ln = d.lines[l.lines.offset + k];
      auto* pln = pl->add_line();
      pln->set_function_id(ln.function_id_);
      pln->set_line(ln.line_);
      pln->set_column(ln.column_);
    }
  }
  for (const auto& f : d.functions) {
    auto* pf = out->add_function();
    pf->set_id(f.id_);
    pf->set_name(f.name_);
    pf->set_system_name(f.system_name_);
    pf->set_filename(f.filename_);
    pf->set_start_line(f.start_line_);
  }
  for (std::string_view s : d.strings) out->add_string_table(s.data(), s.size());
  out->set_drop_frames(d.drop_frames);
  out->set_keep_frames(d.keep_frames);
  out->set_time_nanos(d.time_nanos);
  out->set_duration_nanos(d.duration_nanos);
  if (d.has_period_type) valueType(out->mutable_period_type(), d.period_type);
  out->set_period(d.period);
  for (int64_t c : d.comment) out->add_comment(c);
  out->set_default_sample_type(d.default_sample_type);
  out->set_doc_url(d.doc_url);
}

}  // namespace proflow::pprof::internal
