#include "core/formats/pprof/profile_draft.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

#include "core/compression/compression.h"
#include "core/formats/varint_bits.h"

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
  s.events.offset = static_cast<uint32_t>(event_times.size());
  samples.push_back(s);
}

void ProfileDraft::closeSample() {
  if (samples.empty()) return;
  Sample& s = samples.back();
  s.locations.count = static_cast<uint32_t>(location_ids.size() - s.locations.offset);
  s.values.count = static_cast<uint32_t>(values.size() - s.values.offset);
  s.labels.count = static_cast<uint32_t>(labels.size() - s.labels.offset);
  s.events.count = static_cast<uint32_t>(event_times.size() - s.events.offset);
}

namespace {

using formats::putVarint;
using formats::varintSize;

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

// A proto3 varint field: nothing when `v` is the default.
char* putScalar(char* p, uint32_t field, uint64_t v) {
  if (v == 0) return p;
  *p++ = static_cast<char>(field << 3);
  return putVarint(p, v);
}

// A piece of a sample up to this size is copied as one fixed-size block (two vector moves, no
// call) whatever its length: its source is readable and its destination writable for that many
// bytes. Samples are copied from such pieces once per event of a split sample.
inline constexpr size_t kCopySlack = 32;

// Copies `n` bytes; reads and writes kCopySlack bytes when n is at most that.
inline char* copyBlock(char* dst, const char* src, size_t n) {
  if (n <= kCopySlack) {
    if (n != 0) std::memcpy(dst, src, kCopySlack);
  } else {
    std::memcpy(dst, src, n);
  }
  return dst + n;
}

// Writes a Label (field 3 of Sample) at `p`. Its payload is at most 4 x 11 bytes: its length is one
// byte, filled in once the fields are written.
char* putLabel(char* p, const view::Label& l) {
  *p++ = static_cast<char>(3 << 3 | 2);
  char* length = p++;
  p = putScalar(p, 1, static_cast<uint64_t>(l.key_));
  p = putScalar(p, 2, static_cast<uint64_t>(l.str_));
  p = putScalar(p, 3, static_cast<uint64_t>(l.num_));
  p = putScalar(p, 4, static_cast<uint64_t>(l.num_unit_));
  *length = static_cast<char>(p - length - 1);
  return p;
}

// Memory to write into, allocated without being initialized: a small profile touches (and makes
// resident) only the part it writes.
struct Chunk {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  void allocate(size_t n) {
    data.reset(new char[n]);
    size = n;
  }
};

// The bytes being written, a chunk at a time: when the next field does not fit, what the chunk
// holds goes to the sink and the chunk is reused. Callers ask for room (ensure) for a whole
// top-level field, whose size they know, before writing it.
class Out {
 public:
  Out(Chunk& chunk, const ChunkSink& sink) : chunk_(chunk), sink_(sink) {
    if (chunk_.size < kWriteChunk) chunk_.allocate(kWriteChunk);
    p_ = begin();
  }
  void ensure(size_t n) {
    if (static_cast<size_t>(end() - p_) >= n) return;
    if (p_ != begin()) emit(false);
    if (chunk_.size < n) {  // one field larger than a chunk (a huge string): a chunk its size
      chunk_.allocate(n);
      p_ = begin();
    }
  }
  void finish() { emit(true); }

  // Through a local pointer: a loop over the member pointer would reload and store it at every
  // byte (the char stores may alias it).
  void varint(uint64_t v) { p_ = putVarint(p_, v); }
  void tag(uint32_t field, uint32_t wire_type) { *p_++ = static_cast<char>(field << 3 | wire_type); }
  void scalar(uint32_t field, uint64_t v) { p_ = putScalar(p_, field, v); }
  void scalar(uint32_t field, int64_t v) { scalar(field, static_cast<uint64_t>(v)); }
  void scalar(uint32_t field, bool v) { scalar(field, static_cast<uint64_t>(v)); }
  void header(uint32_t field, size_t payload) {
    tag(field, 2);
    varint(payload);
  }
  // `payload` is packedPayload(v, n).
  template <class T>
  void packed(uint32_t field, const T* v, uint32_t n, size_t payload) {
    if (n == 0) return;
    header(field, payload);
    for (uint32_t i = 0; i < n; ++i) varint(static_cast<uint64_t>(v[i]));
  }
  void bytes(uint32_t field, std::string_view b) {
    header(field, b.size());
    raw(b);
  }
  void raw(std::string_view b) {
    if (!b.empty()) std::memcpy(p_, b.data(), b.size());
    p_ += b.size();
  }
  // See copyBlock: `b` is readable for at least kCopySlack bytes (a Piece's, or a buffer that
  // size), and the caller ensured kCopySlack bytes of room past what it writes.
  void block(std::string_view b) { p_ = copyBlock(p_, b.data(), b.size()); }
  // The first `n` (at most kCopySlack) bytes of `b`, copied as one block.
  void block(const char (&b)[kCopySlack], size_t n) {
    std::memcpy(p_, b, kCopySlack);
    p_ += n;
  }

 private:
  char* begin() { return chunk_.data.get(); }
  char* end() { return chunk_.data.get() + chunk_.size; }
  void emit(bool last) {
    sink_(std::string_view(begin(), static_cast<size_t>(p_ - begin())), last);
    p_ = begin();
  }

  Chunk& chunk_;
  const ChunkSink& sink_;
  char* p_;
};

// A part of a message encoded on its own, in a buffer kept from one use to the next.
class Piece {
 public:
  void clear() { size_ = 0; }
  size_t size() const { return size_; }
  std::string_view view() const { return {buf_.data(), size_}; }

  template <class T>
  void packed(uint32_t field, const T* v, uint32_t n) {
    if (n == 0) return;
    const size_t payload = packedPayload(v, n);
    char* p = room(1 + 10 + payload);
    *p++ = static_cast<char>(field << 3 | 2);
    p = putVarint(p, payload);
    for (uint32_t i = 0; i < n; ++i) p = putVarint(p, static_cast<uint64_t>(v[i]));
    size_ = static_cast<size_t>(p - buf_.data());
  }
  void label(const view::Label& l) {
    char* p = putLabel(room(2 + 4 * 11), l);
    size_ = static_cast<size_t>(p - buf_.data());
  }

 private:
  // Leaves kCopySlack bytes past what is written: Out::block reads them.
  char* room(size_t n) {
    if (buf_.size() < size_ + n + kCopySlack) buf_.resize(std::max(2 * buf_.size(), size_ + n + kCopySlack));
    return buf_.data() + size_;
  }

  std::string buf_;
  size_t size_ = 0;
};

// Room for a whole top-level field: tag, length and payload.
size_t fieldRoom(size_t payload) { return 1 + 10 + payload; }

size_t valueTypeSize(const view::ValueType& v) { return scalarSize(v.type_) + scalarSize(v.unit_); }
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

// Writes each top-level field as soon as its size is known: no pass over the whole profile to
// size it first, and no buffer of the whole serialized profile.
class DraftWriter {
 public:
  DraftWriter(const ProfileDraft& d, Chunk& chunk, const ChunkSink& sink) : d_(d), o_(chunk, sink) {}

  void run() {
    for (const auto& vt : d_.sample_type) valueType(1, vt);
    for (const auto& s : d_.samples) sample(s);
    for (const auto& m : d_.mappings) mapping(m);
    for (const auto& l : d_.locations) location(l);
    for (const auto& f : d_.functions) function(f);
    for (std::string_view s : d_.strings) {
      o_.ensure(fieldRoom(s.size()));
      o_.bytes(6, s);
    }
    o_.ensure(6 * fieldRoom(0));
    o_.scalar(7, d_.drop_frames);
    o_.scalar(8, d_.keep_frames);
    o_.scalar(9, d_.time_nanos);
    o_.scalar(10, d_.duration_nanos);
    if (d_.has_period_type) valueType(11, d_.period_type);
    o_.ensure(fieldRoom(0));
    o_.scalar(12, d_.period);
    const auto ncomments = static_cast<uint32_t>(d_.comment.size());
    const size_t comments = packedPayload(d_.comment.data(), ncomments);
    o_.ensure(fieldRoom(comments) + 2 * fieldRoom(0));
    o_.packed(13, d_.comment.data(), ncomments, comments);
    o_.scalar(14, d_.default_sample_type);
    o_.scalar(15, d_.doc_url);
    o_.finish();
  }

 private:
  // A sample is assembled from encoded pieces: its packed location ids, its values, its labels
  // and, for each event of a split sample, the event's timestamp label. The stack and labels are
  // encoded once for all the events of a split sample.
  void sample(const ProfileDraft::Sample& s) {
    stack_.clear();
    stack_.packed(1, d_.location_ids.data() + s.locations.offset, s.locations.count);
    labels_.clear();
    for (uint32_t k = 0; k < s.labels.count; ++k) labels_.label(d_.labels[s.labels.offset + k]);
    if (s.events.count == 0) return whole(d_.values.data() + s.values.offset, s.values.count);
    events(s);
  }
  // One pprof sample, written straight into the output: the current sample's encoded stack and
  // labels around these values. The pieces are copied as blocks of fixed size (both sides have
  // kCopySlack bytes to spare).
  void whole(const int64_t* values, uint32_t nvalues) {
    const size_t values_payload = packedPayload(values, nvalues);
    const size_t values_field = nvalues == 0 ? 0 : lengthDelimited(values_payload);
    const size_t total = stack_.size() + values_field + labels_.size();
    o_.ensure(fieldRoom(total) + kCopySlack);
    o_.header(2, total);
    o_.block(stack_.view());
    o_.packed(2, values, nvalues, values_payload);
    o_.block(labels_.view());
  }
  // The pprof samples of a split sample, one per event: the same stack and labels, the event's
  // values, and a last label with the event's time. A profile of many events (JFR) is mostly
  // these, so the loop does little per event: the time label's key and unit fields are encoded
  // once, and the rest is copied as blocks.
  void events(const ProfileDraft::Sample& s) {
    const uint32_t per_event = s.values.count / s.events.count;
    char key[kCopySlack] = {}, unit[kCopySlack] = {};
    const auto key_size = static_cast<size_t>(putScalar(key, 1, static_cast<uint64_t>(d_.event_key)) - key);
    const auto unit_size = static_cast<size_t>(putScalar(unit, 4, static_cast<uint64_t>(d_.event_unit)) - unit);
    const std::string_view stack = stack_.view(), labels = labels_.view();
    const size_t fixed = stack.size() + labels.size() + 2 + key_size + unit_size;
    const int64_t* values = d_.values.data() + s.values.offset;
    const int64_t* times = d_.event_times.data() + s.events.offset;
    for (uint32_t e = 0; e < s.events.count; ++e, values += per_event) {
      const size_t values_payload = packedPayload(values, per_event);
      const size_t values_field = per_event == 0 ? 0 : lengthDelimited(values_payload);
      const size_t time_field = scalarSize(times[e]);
      const size_t total = fixed + values_field + time_field;
      o_.ensure(fieldRoom(total) + kCopySlack);
      o_.header(2, total);
      o_.block(stack);
      o_.packed(2, values, per_event, values_payload);
      o_.block(labels);
      o_.header(3, key_size + time_field + unit_size);  // Sample.label: key, num, num_unit
      o_.block(key, key_size);
      o_.scalar(3, times[e]);
      o_.block(unit, unit_size);
    }
  }
  void location(const ProfileDraft::Location& l) {
    size_t payload = scalarSize(l.id) + scalarSize(l.mapping_id) + scalarSize(l.address) + boolSize(l.is_folded);
    for (uint32_t k = 0; k < l.lines.count; ++k) payload += lengthDelimited(lineSize(d_.lines[l.lines.offset + k]));
    o_.ensure(fieldRoom(payload));
    o_.header(4, payload);
    o_.scalar(1, l.id);
    o_.scalar(2, l.mapping_id);
    o_.scalar(3, l.address);
    for (uint32_t k = 0; k < l.lines.count; ++k) {
      const view::Line& line = d_.lines[l.lines.offset + k];
      o_.header(4, lineSize(line));
      o_.scalar(1, line.function_id_);
      o_.scalar(2, line.line_);
      o_.scalar(3, line.column_);
    }
    o_.scalar(5, l.is_folded);
  }
  void valueType(uint32_t field, const view::ValueType& vt) {
    o_.ensure(fieldRoom(valueTypeSize(vt)));
    o_.header(field, valueTypeSize(vt));
    o_.scalar(1, vt.type_);
    o_.scalar(2, vt.unit_);
  }
  void mapping(const view::Mapping& m) {
    o_.ensure(fieldRoom(mappingSize(m)));
    o_.header(3, mappingSize(m));
    o_.scalar(1, m.id_);
    o_.scalar(2, m.memory_start_);
    o_.scalar(3, m.memory_limit_);
    o_.scalar(4, m.file_offset_);
    o_.scalar(5, m.filename_);
    o_.scalar(6, m.build_id_);
    o_.scalar(7, m.has_functions_);
    o_.scalar(8, m.has_filenames_);
    o_.scalar(9, m.has_line_numbers_);
    o_.scalar(10, m.has_inline_frames_);
  }
  void function(const view::Function& f) {
    o_.ensure(fieldRoom(functionSize(f)));
    o_.header(5, functionSize(f));
    o_.scalar(1, f.id_);
    o_.scalar(2, f.name_);
    o_.scalar(3, f.system_name_);
    o_.scalar(4, f.filename_);
    o_.scalar(5, f.start_line_);
  }

  const ProfileDraft& d_;
  Out o_;
  Piece stack_, labels_;
};

// This thread's chunk: written in place, reused from one profile to the next.
Chunk& threadChunk() {
  thread_local Chunk chunk;
  return chunk;
}

}  // namespace

void writeProfile(const ProfileDraft& d, const ChunkSink& sink) {
  Chunk& chunk = threadChunk();
  DraftWriter(d, chunk, sink).run();
  // A field larger than a chunk grew it: do not keep that much for every later profile.
  if (chunk.size > kWriteChunk) chunk = Chunk{};
}

void writeProfile(const ProfileDraft& d, std::string* out) {
  out->clear();
  writeProfile(d, [&](std::string_view chunk, bool) { out->append(chunk); });
}

Status writeProfile(const ProfileDraft& d, std::string* out, Encoding encoding, int level) {
  if (encoding == Encoding::kRaw) {
    writeProfile(d, out);
    return {};
  }
  Status st;
  std::optional<compression::StreamCompressor> stream;
  writeProfile(d, [&](std::string_view chunk, bool last) {
    if (!st) return;
    // The whole profile in one chunk (most of them): one call, the same bytes as compressing the
    // serialized profile, and ISA-L's fixed codes for small ones.
    if (!stream && last) {
      st = compressProfileBytes(chunk, out, encoding, level);
      return;
    }
    if (!stream) stream.emplace(encoding == Encoding::kGzip ? compression::Codec::kGzip : compression::Codec::kZstd,
                                level, out);
    st = stream->write(chunk, last);
  });
  return st;
}


void toProfile(const ProfileDraft& d, Profile* out) {
  out->Clear();
  auto valueType = [](perftools::profiles::ValueType* vt, const view::ValueType& v) {
    vt->set_type(v.type_);
    vt->set_unit(v.unit_);
  };
  for (const auto& vt : d.sample_type) valueType(out->add_sample_type(), vt);
  auto addLabel = [](perftools::profiles::Sample* ps, const view::Label& l) {
    auto* pl = ps->add_label();
    pl->set_key(l.key_);
    pl->set_str(l.str_);
    pl->set_num(l.num_);
    pl->set_num_unit(l.num_unit_);
  };
  // One pprof sample: the stack and labels of `s`, `n` values from `values`, and `stamp` if any.
  auto addSample = [&](const ProfileDraft::Sample& s, const int64_t* values, uint32_t n, const view::Label* stamp) {
    auto* ps = out->add_sample();
    for (uint32_t k = 0; k < s.locations.count; ++k) ps->add_location_id(d.location_ids[s.locations.offset + k]);
    for (uint32_t k = 0; k < n; ++k) ps->add_value(values[k]);
    for (uint32_t k = 0; k < s.labels.count; ++k) addLabel(ps, d.labels[s.labels.offset + k]);
    if (stamp != nullptr) addLabel(ps, *stamp);
  };
  for (const auto& s : d.samples) {
    if (s.events.count == 0) {
      addSample(s, d.values.data() + s.values.offset, s.values.count, nullptr);
      continue;
    }
    const uint32_t per_event = s.values.count / s.events.count;
    for (uint32_t e = 0; e < s.events.count; ++e) {
      const view::Label stamp{d.event_key, 0, d.event_times[s.events.offset + e], d.event_unit};
      addSample(s, d.values.data() + s.values.offset + e * per_event, per_event, &stamp);
    }
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
