#include "core/formats/pprof/pprof_view.h"

#include <algorithm>
#include <climits>
#include <string>

#include "core/formats/pprof/profile_validator.h"
#include "core/formats/varint_bits.h"

namespace proflow::pprof {

// Protobuf wire format: every field is a varint key (field number << 3 | wire type) followed by a
// varint (type 0), 8 bytes (1), a varint length and that many bytes (2), a group (3..4, obsolete,
// skipped) or 4 bytes (5).
class ViewParser {
 public:
  ViewParser(std::string_view raw, ProfileView* out)
      : begin_(reinterpret_cast<const uint8_t*>(raw.data())), end_(begin_ + raw.size()), out_(out) {}

  Status run() {
    out_->clear();
    out_->raw_ = {reinterpret_cast<const char*>(begin_), static_cast<size_t>(end_ - begin_)};
    reserveTopLevel();
    const uint8_t* p = begin_;
    while (p < end_) {
      Field f;
      if (!readField(p, end_, &f)) return error();
      if (!profileField(f)) return error();
    }
    // Every flat array is complete: point the samples and locations at their view.
    for (auto& s : out_->sample_) s.owner_ = out_;
    for (auto& l : out_->location_) l.owner_ = out_;
    return {};
  }

 private:
  enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kBytes = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

  struct Field {
    uint32_t number = 0;
    uint32_t type = 0;
    uint64_t value = 0;                  // kVarint
    const uint8_t *data = nullptr, *data_end = nullptr;  // kBytes
  };

  // --- primitives -------------------------------------------------------------------------------

  bool fail(const uint8_t* at, const char* what) {
    if (what_ == nullptr) {
      what_ = what;
      offset_ = static_cast<size_t>(at - begin_);
    }
    return false;
  }

  Status error() const {
    return Status::invalid(std::string("pprof: not a valid perftools.profiles.Profile protobuf: ") + what_ +
                           " at byte " + std::to_string(offset_) + " (" +
                           std::to_string(end_ - begin_) + " bytes after decompression)");
  }

  bool varint(const uint8_t*& p, const uint8_t* end, uint64_t* v) {
    if (p < end && *p < 0x80) {  // most tags, ids and indexes fit one byte
      *v = *p++;
      return true;
    }
    uint64_t result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p >= end) return fail(p, "truncated varint");
      const uint8_t b = *p++;
      result |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (b < 0x80) {
        *v = result;
        return true;
      }
    }
    return fail(p, "varint longer than 10 bytes");
  }

  // Skips a group up to its end tag (groups are obsolete; protobuf skips unknown ones). `level`:
  // how deep the message holding it is nested (the profile being 0); `groups`: groups already open
  // around it. Messages and groups together nest up to protobuf's recursion limit.
  bool skipGroup(const uint8_t*& p, const uint8_t* end, uint32_t number, int level, int groups) {
    if (level + groups + 1 > formats::kProtobufRecursionLimit) return fail(p, "groups nested too deep");
    while (p < end) {
      Field f;
      const uint8_t* at = p;
      if (!readField(p, end, &f, level, groups + 1)) return false;
      if (f.type == kEndGroup) return f.number == number ? true : fail(at, "mismatched end-group tag");
    }
    return fail(p, "unterminated group");
  }

  // Most fields of a profile have a one-byte key and a varint or length on the common paths of
  // formats::decodeVarintPrefix (ids, addresses, values, line numbers, string indexes, messages):
  // those are decoded inline, everything else by readFieldSlow.
  [[gnu::always_inline]] bool readField(const uint8_t*& p, const uint8_t* end, Field* f, int level = 0,
                                       int groups = 0) {
    if (end - p >= 2 && p[0] >= 8 && p[0] < 0x80) {
      const uint32_t key = p[0];
      uint64_t v;
      const size_t n = formats::decodeVarintPrefix(p + 1, end, &v);
      if (n != 0 && (key & 7) == kVarint) {
        *f = {key >> 3, kVarint, v, nullptr, nullptr};
        p += 1 + n;
        return true;
      }
      if (n != 0 && n <= static_cast<size_t>(formats::kProtobufMaxKeyOrLengthBytes) && (key & 7) == kBytes &&
          v <= static_cast<size_t>(end - p) - 1 - n) {
        const uint8_t* data = p + 1 + n;
        *f = {key >> 3, kBytes, 0, data, data + v};
        p = data + v;
        return true;
      }
    }
    return readFieldSlow(p, end, f, level, groups);
  }

  [[gnu::noinline]] bool readFieldSlow(const uint8_t*& p, const uint8_t* end, Field* f, int level, int groups) {
    const uint8_t* at = p;
    uint64_t wide;
    if (!varint(p, end, &wide)) return false;
    // As protobuf reads a key: at most 5 bytes, and only its low 32 bits count.
    if (p - at > formats::kProtobufMaxKeyOrLengthBytes) return fail(at, "field key longer than 5 bytes");
    const auto key = static_cast<uint32_t>(wide);
    f->number = key >> 3;
    f->type = key & 7;
    if (f->number == 0) return fail(at, "invalid field number");
    switch (f->type) {
      case kVarint:
        return varint(p, end, &f->value);
      case kFixed64:
        if (end - p < 8) return fail(p, "truncated fixed64");
        p += 8;
        return true;
      case kFixed32:
        if (end - p < 4) return fail(p, "truncated fixed32");
        p += 4;
        return true;
      case kBytes: {
        uint64_t n;
        const uint8_t* length_at = p;
        if (!varint(p, end, &n)) return false;
        // As protobuf reads a length: at most 5 bytes, below 2 GiB.
        if (p - length_at > formats::kProtobufMaxKeyOrLengthBytes || n > formats::kProtobufMaxLength)
          return fail(length_at, "invalid length");
        if (n > static_cast<uint64_t>(end - p)) return fail(at, "length past the end of its message");
        f->data = p;
        f->data_end = p + n;
        p += n;
        return true;
      }
      case kStartGroup:
        return skipGroup(p, end, f->number, level, groups);
      case kEndGroup:
        if (groups == 0) return fail(at, "end-group tag outside a group");
        return true;
      default:
        return fail(at, "invalid wire type");
    }
  }

  // A repeated scalar field: one varint, or a packed run of them.
  template <class T, class Out>
  bool repeatedVarint(const Field& f, Out& out) {
    if (f.type == kVarint) {
      out.push_back(static_cast<T>(f.value));
      return true;
    }
    if (f.type != kBytes) return true;  // mismatched wire type: unknown field
    // Packed runs carry most of a profile's varints (location ids of every sample): decode them
    // from 8-byte loads while 8 bytes of the buffer remain, and only take the checked byte loop for
    // the buffer's tail, varints longer than 8 bytes or one that would run past its field.
    const uint8_t* p = f.data;
    while (p < f.data_end) {
      uint64_t v;
      if (end_ - p >= 8) {
        const size_t n = formats::decodeVarintInWord(formats::loadLittleEndian64(p), &v);
        if (n != 0 && n <= static_cast<size_t>(f.data_end - p)) {
          p += n;
          out.push_back(static_cast<T>(v));
          continue;
        }
      }
      if (!varint(p, f.data_end, &v)) return false;
      out.push_back(static_cast<T>(v));
    }
    return true;
  }

  // Parses an embedded message field by field; `on` returns false on error.
  // `Level`: how deep the message is nested, the profile being 0.
  template <int Level, class On>
  bool message(const Field& f, const On& on) {
    if (f.type != kBytes) return true;
    for (const uint8_t* p = f.data; p < f.data_end;) {
      Field inner;
      if (!readField(p, f.data_end, &inner, Level)) return false;
      if (!on(inner)) return false;
    }
    return true;
  }

  static int64_t asInt(const Field& f) { return static_cast<int64_t>(f.value); }
  static bool isVarint(const Field& f) { return f.type == kVarint; }

  // --- messages ---------------------------------------------------------------------------------

  // One pass over the top-level tags to size the tables: no regrowth while parsing.
  void reserveTopLevel() {
    size_t counts[16] = {};
    size_t sample_bytes = 0;
    const uint8_t* p = begin_;
    while (p < end_) {
      Field f;
      if (!readField(p, end_, &f)) {
        what_ = nullptr;  // the real pass reports it
        break;
      }
      if (f.number < 16) ++counts[f.number];
      if (f.number == 2) sample_bytes += static_cast<size_t>(f.data_end - f.data);
    }
    // Location ids take 1-3 bytes each in practice: half the sample bytes covers them without
    // regrowing a vector of millions of ids (only touched pages cost memory).
    // Values: one per sample type per sample, but never more than the sample bytes could hold (a
    // crafted input of empty sample types and samples must not size this from their product).
    out_->location_ids_.reserve(sample_bytes / 2);
    out_->values_.reserve(std::min(counts[1] * counts[2], sample_bytes));
    out_->sample_type_.reserve(counts[1]);
    out_->sample_.reserve(counts[2]);
    out_->mapping_.reserve(counts[3]);
    out_->location_.reserve(counts[4]);
    out_->function_.reserve(counts[5]);
    out_->string_table_.reserve(counts[6]);
    out_->lines_.reserve(counts[4]);
  }

  bool valueType(const Field& f, view::ValueType* vt) {
    return message<1>(f, [&](const Field& x) {
      if (!isVarint(x)) return true;
      if (x.number == 1) vt->type_ = asInt(x);
      if (x.number == 2) vt->unit_ = asInt(x);
      return true;
    });
  }

  bool sample(const Field& f) {
    view::Sample s;
    s.locations_.offset = static_cast<uint32_t>(out_->location_ids_.size());
    s.values_.offset = static_cast<uint32_t>(out_->values_.size());
    s.labels_.offset = static_cast<uint32_t>(out_->labels_.size());
    bool ok = message<1>(f, [&](const Field& x) {
      switch (x.number) {
        case 1: return repeatedVarint<uint64_t>(x, out_->location_ids_);
        case 2: return repeatedVarint<int64_t>(x, out_->values_);
        case 3: return label(x);
        default: return true;
      }
    });
    s.locations_.count = static_cast<uint32_t>(out_->location_ids_.size() - s.locations_.offset);
    s.values_.count = static_cast<uint32_t>(out_->values_.size() - s.values_.offset);
    s.labels_.count = static_cast<uint32_t>(out_->labels_.size() - s.labels_.offset);
    out_->sample_.push_back(s);
    return ok;
  }

  bool label(const Field& f) {
    if (f.type != kBytes) return true;
    // Filled in place: a label built on the stack and copied in was read back before its stores
    // had landed (a store-forwarding stall on every label).
    view::Label& l = out_->labels_.emplace_back();
    return message<2>(f, [&](const Field& x) {
      if (!isVarint(x)) return true;
      switch (x.number) {
        case 1: l.key_ = asInt(x); break;
        case 2: l.str_ = asInt(x); break;
        case 3: l.num_ = asInt(x); break;
        case 4: l.num_unit_ = asInt(x); break;
      }
      return true;
    });
  }

  bool mapping(const Field& f) {
    view::Mapping m;
    bool ok = message<1>(f, [&](const Field& x) {
      if (!isVarint(x)) return true;
      switch (x.number) {
        case 1: m.id_ = x.value; break;
        case 2: m.memory_start_ = x.value; break;
        case 3: m.memory_limit_ = x.value; break;
        case 4: m.file_offset_ = x.value; break;
        case 5: m.filename_ = asInt(x); break;
        case 6: m.build_id_ = asInt(x); break;
        case 7: m.has_functions_ = x.value != 0; break;
        case 8: m.has_filenames_ = x.value != 0; break;
        case 9: m.has_line_numbers_ = x.value != 0; break;
        case 10: m.has_inline_frames_ = x.value != 0; break;
      }
      return true;
    });
    out_->mapping_.push_back(m);
    return ok;
  }

  bool location(const Field& f) {
    view::Location l;
    l.lines_.offset = static_cast<uint32_t>(out_->lines_.size());
    bool ok = message<1>(f, [&](const Field& x) {
      if (x.number == 4) return line(x);
      if (!isVarint(x)) return true;
      switch (x.number) {
        case 1: l.id_ = x.value; break;
        case 2: l.mapping_id_ = x.value; break;
        case 3: l.address_ = x.value; break;
        case 5: l.is_folded_ = x.value != 0; break;
      }
      return true;
    });
    l.lines_.count = static_cast<uint32_t>(out_->lines_.size() - l.lines_.offset);
    out_->location_.push_back(l);
    return ok;
  }

  bool line(const Field& f) {
    if (f.type != kBytes) return true;
    view::Line ln;
    bool ok = message<2>(f, [&](const Field& x) {
      if (!isVarint(x)) return true;
      switch (x.number) {
        case 1: ln.function_id_ = x.value; break;
        case 2: ln.line_ = asInt(x); break;
        case 3: ln.column_ = asInt(x); break;
      }
      return true;
    });
    out_->lines_.push_back(ln);
    return ok;
  }

  bool function(const Field& f) {
    view::Function fn;
    bool ok = message<1>(f, [&](const Field& x) {
      if (!isVarint(x)) return true;
      switch (x.number) {
        case 1: fn.id_ = x.value; break;
        case 2: fn.name_ = asInt(x); break;
        case 3: fn.system_name_ = asInt(x); break;
        case 4: fn.filename_ = asInt(x); break;
        case 5: fn.start_line_ = asInt(x); break;
      }
      return true;
    });
    out_->function_.push_back(fn);
    return ok;
  }

  bool profileField(const Field& f) {
    ProfileView& v = *out_;
    // Embedded messages and strings need wire type 2; a mismatch is an unknown field, as in protobuf.
    const bool bytes = f.type == kBytes;
    switch (f.number) {
      case 1:
        if (!bytes) return true;
        v.sample_type_.emplace_back();
        return valueType(f, &v.sample_type_.back());
      case 2: return bytes ? sample(f) : true;
      case 3: return bytes ? mapping(f) : true;
      case 4: return bytes ? location(f) : true;
      case 5: return bytes ? function(f) : true;
      case 6:
        if (bytes) v.string_table_.emplace_back(reinterpret_cast<const char*>(f.data), f.data_end - f.data);
        return true;
      case 11:
        if (!bytes) return true;
        v.has_period_type_ = true;
        return valueType(f, &v.period_type_);  // repeated occurrences merge, as protobuf does
      case 13: return repeatedVarint<int64_t>(f, v.comment_);
    }
    if (!isVarint(f)) return true;
    switch (f.number) {
      case 7: v.drop_frames_ = asInt(f); break;
      case 8: v.keep_frames_ = asInt(f); break;
      case 9: v.time_nanos_ = asInt(f); break;
      case 10: v.duration_nanos_ = asInt(f); break;
      case 12: v.period_ = asInt(f); break;
      case 14: v.default_sample_type_ = asInt(f); break;
      case 15: v.doc_url_ = asInt(f); break;
    }
    return true;
  }

  const uint8_t* begin_;
  const uint8_t* end_;
  ProfileView* out_;
  const char* what_ = nullptr;
  size_t offset_ = 0;
};

void view::LocationIdColumn::pushWide(uint64_t id) {
  if (!wide_) {
    wide_ids_.reserve(narrow_.capacity());
    wide_ids_.assign(narrow_.begin(), narrow_.end());
    narrow_ = {};
    wide_ = true;
  }
  wide_ids_.push_back(id);
}

Status parseProfileView(std::string_view raw, ProfileView* out) {
  // Offsets into the flat arrays are 32-bit; decodeProfile caps input at 2 GiB, and no array can
  // hold more entries than there are bytes.
  if (raw.size() > static_cast<size_t>(INT32_MAX)) return Status::tooLarge("pprof: decompressed size above 2 GiB");
  return ViewParser(raw, out).run();
}

Status validateProfile(const ProfileView& p, const ProfileLimits& limits) {
  return internal::ProfileValidator<ProfileView>(p, limits).run();
}

}  // namespace proflow::pprof
