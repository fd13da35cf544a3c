// Chunk loading: header, metadata, constant-pool index, and generic value skipping driven by metadata.
#include "core/formats/jfr/chunk.h"

#include <algorithm>

namespace proflow::jfr {
namespace {

constexpr int kMaxNesting = 32;

uint64_t be(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

// Reads the size and type that open every event at chunk offset `pos`. The size counts its own header,
// so it must cover the bytes just read and end inside the chunk: then [reader position, pos + size) is a
// real window and no remaining() can wrap. On failure `*why` names the size and both bounds.
bool readEventHeader(ByteReader& r, uint64_t pos, uint64_t chunk_size, uint64_t* size, uint64_t* type,
                     std::string* why) {
  *size = r.varint();
  *type = r.varint();
  if (!r.ok()) {
    *why = "truncated event header";
    return false;
  }
  const uint64_t header = r.offset() - pos;
  if (*size < header || *size > chunk_size - pos) {
    *why = "event size " + std::to_string(*size) + " outside [" + std::to_string(header) + ", " +
           std::to_string(chunk_size - pos) + "] (its header, the bytes left in the chunk)";
    return false;
  }
  return true;
}

}  // namespace

std::string ParseError::toString() const { return "offset " + std::to_string(offset) + ": " + message; }

bool parseChunkHeader(const uint8_t* p, size_t available, ChunkHeader* h, std::string* error) {
  if (available < kChunkHeaderSize) {
    *error = "truncated chunk header (" + std::to_string(available) + " of 68 bytes)";
    return false;
  }
  if (be(p, 4) != 0x464C5200) {
    *error = "bad chunk magic (expected FLR\\0)";
    return false;
  }
  h->major = static_cast<uint16_t>(be(p + 4, 2));
  h->minor = static_cast<uint16_t>(be(p + 6, 2));
  if (h->major != 1 && h->major != 2) {
    *error = "unsupported JFR version " + std::to_string(h->major) + "." + std::to_string(h->minor);
    return false;
  }
  h->size = be(p + 8, 8);
  h->cp_offset = be(p + 16, 8);
  h->metadata_offset = be(p + 24, 8);
  h->start_nanos = static_cast<int64_t>(be(p + 32, 8));
  h->duration_nanos = static_cast<int64_t>(be(p + 40, 8));
  h->start_ticks = static_cast<int64_t>(be(p + 48, 8));
  h->ticks_per_second = static_cast<int64_t>(be(p + 56, 8));
  h->features = static_cast<uint32_t>(be(p + 64, 4));
  if (h->size < kChunkHeaderSize) {
    *error = "chunk size " + std::to_string(h->size) + " smaller than its header";
    return false;
  }
  return true;
}

bool Chunk::fail(uint64_t chunk_offset, std::string message) {
  if (!failed_) {
    failed_ = true;
    error_ = {file_offset_ + chunk_offset, std::move(message)};
  }
  return false;
}

bool Chunk::load(std::span<const uint8_t> bytes, uint64_t file_offset, const Limits& limits) {
  bytes_ = bytes;
  file_offset_ = file_offset;
  limits_ = limits;
  failed_ = false;
  error_ = {};
  for (KeyIndex& k : pools_) k.clear();  // nothing of the previous chunk may leak into this one
  event_plans_.clear();
  selector_by_id_.clear();
  selector_sparse_.clear();
  std::string err;
  if (!parseChunkHeader(bytes.data(), bytes.size(), &header_, &err)) return fail(0, err);
  if (header_.size != bytes.size())
    return fail(0, "chunk size " + std::to_string(header_.size) + " does not match the " +
                       std::to_string(bytes.size()) + " bytes given");
  if (header_.size > 0xFFFFFFFEull) return fail(0, "chunk larger than 4 GiB");
  if (header_.minor >= 1 && header_.state() == 255) return fail(64, "chunk header is being updated (unfinished chunk)");
  if (header_.metadata_offset == 0 || header_.cp_offset == 0)
    return fail(16, "unfinished chunk: constant-pool or metadata offset is 0");
  if (header_.metadata_offset < kChunkHeaderSize || header_.metadata_offset >= header_.size)
    return fail(24, "metadata offset " + std::to_string(header_.metadata_offset) + " outside the chunk");
  if (header_.cp_offset < kChunkHeaderSize || header_.cp_offset >= header_.size)
    return fail(16, "constant-pool offset " + std::to_string(header_.cp_offset) + " outside the chunk");
  return loadMetadata() && loadPools();
}

bool Chunk::loadMetadata() {
  const uint8_t* base = bytes_.data();
  uint64_t pos = header_.metadata_offset;
  ByteReader r(base, base + pos, base + header_.size);
  uint64_t size = 0, type = 0;
  std::string why;
  if (!readEventHeader(r, pos, header_.size, &size, &type, &why)) return fail(pos, "bad metadata event: " + why);
  if (type != 0) return fail(pos, "metadata offset does not point at a metadata event");
  // Chunks of one recording usually repeat the same metadata: reuse the parsed tree when the bytes match.
  std::span<const uint8_t> raw(base + pos, size);
  if (raw.size() != metadata_bytes_.size() || !std::equal(raw.begin(), raw.end(), metadata_bytes_.begin())) {
    metadata_bytes_.clear();
    ByteReader body(base, r.pos(), base + pos + size);
    std::string err;
    if (!metadata_.parse(body, pos + size, &err)) return fail(body.ok() ? pos : body.failOffset(), err);
    metadata_bytes_.assign(raw.begin(), raw.end());
  }
  string_cls_ = metadata_.indexByName("java.lang.String");
  return true;
}

bool Chunk::loadPools() {
  pools_.resize(metadata_.classes().size());
  for (KeyIndex& k : pools_) k.clear();
  uint64_t pos = header_.cp_offset;
  for (;;) {
    int64_t delta = 0;
    if (!readCheckpoint(pos, &delta)) return false;
    if (delta == 0) break;
    // Deltas point backwards; anything else could loop forever on a corrupt file. (Negated as unsigned:
    // -INT64_MIN does not exist.)
    const uint64_t back = 0 - static_cast<uint64_t>(delta);
    if (delta > 0 || back > pos - kChunkHeaderSize) return fail(pos, "bad checkpoint delta " + std::to_string(delta));
    pos -= back;
  }
  makePoolPlans();
  return true;
}

bool Chunk::readCheckpoint(uint64_t pos, int64_t* delta) {
  const uint8_t* base = bytes_.data();
  ByteReader r(base, base + pos, base + header_.size);
  uint64_t size = 0, type = 0;
  std::string why;
  if (!readEventHeader(r, pos, header_.size, &size, &type, &why)) return fail(pos, "bad checkpoint event: " + why);
  if (type != 1) return fail(pos, "constant-pool offset does not point at a checkpoint event");
  ByteReader c(base, r.pos(), base + pos + size);
  c.varint();  // start ticks
  c.varint();  // duration
  *delta = static_cast<int64_t>(c.varint());
  c.varint();  // flags
  uint64_t pool_count = c.varint();
  if (!c.ok() || pool_count > c.remaining()) return fail(pos, "bad checkpoint header");
  for (uint64_t p = 0; p < pool_count; ++p) {
    uint64_t pool_pos = c.offset();
    uint64_t class_id = c.varint();
    uint64_t count = c.varint();
    int32_t cls = metadata_.indexById(class_id);
    if (!c.ok() || count > c.remaining()) return fail(pool_pos, "bad constant pool header");
    if (cls < 0) return fail(pool_pos, "constant pool of unknown type id " + std::to_string(class_id));
    KeyIndex& index = pools_[static_cast<size_t>(cls)];
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t key = c.varint();
      index.put(key, static_cast<uint32_t>(c.offset()));
      if (!skipClass(c, cls, 0))
        return fail(c.failOffset(), "malformed " + metadata_.at(cls).name + " constant-pool entry");
    }
  }
  if (c.offset() != pos + size) return fail(pos, "checkpoint size does not match its content");
  return true;
}

bool Chunk::skipClass(ByteReader& r, int32_t cls, int depth) {
  const ClassDesc& c = metadata_.at(cls);
  switch (c.kind) {
    case Kind::kBoolean:
    case Kind::kByte:
      r.u8();
      break;
    case Kind::kChar:
    case Kind::kShort:
    case Kind::kInt:
    case Kind::kLong:
      r.varint();
      break;
    case Kind::kFloat:
      r.skip(4);
      break;
    case Kind::kDouble:
      r.skip(8);
      break;
    case Kind::kString:
      r.skipString();
      break;
    case Kind::kStruct:
      if (c.empty_encoding) break;
      if (!c.flat_steps.empty()) return skipFlat(r, c.flat_steps);
      if (depth >= kMaxNesting) return r.fail(), false;
      for (const FieldDesc& f : c.fields)
        if (!skipField(r, f, depth + 1)) return false;
      break;
  }
  return r.ok();
}

bool Chunk::skipFlat(ByteReader& r, std::string_view steps) {
  // With 9 bytes per step at hand no read can run out, so the unchecked loop reads exactly what the
  // checked one would.
  if (r.remaining() >= 9 * steps.size()) {
    const uint8_t* p = r.pos();
    for (char step : steps) {
      if (step == 'v') {
        decodeVarintUnchecked(p);
      } else {
        p += step == 'b' ? 1 : step - '0';
      }
    }
    return r.skip(static_cast<uint64_t>(p - r.pos()));
  }
  for (char step : steps) {
    if (step == 'v') {
      r.varint();
    } else {
      r.skip(step == 'b' ? 1 : step - '0');
    }
  }
  return r.ok();
}

bool Chunk::skipField(ByteReader& r, const FieldDesc& f, int depth) {
  if (f.type < 0) return r.fail(), false;  // refers to a class the metadata does not define
  if (!f.array) {
    if (f.constant_pool) return r.varint(), r.ok();
    return skipClass(r, f.type, depth);
  }
  uint64_t n = r.varint();
  if (!r.ok()) return false;
  if (!f.constant_pool && metadata_.at(f.type).empty_encoding) return true;
  if (n > r.remaining()) return r.fail(), false;  // every element takes at least one byte
  for (uint64_t i = 0; i < n; ++i) {
    if (f.constant_pool) {
      r.varint();
    } else if (!skipClass(r, f.type, depth)) {
      return false;
    }
  }
  return r.ok();
}

namespace {
enum OpCode : uint8_t { kOpVarint, kOpByte, kOpFloat, kOpDouble, kOpString, kOpSkip };
}  // namespace

bool Chunk::readRecord(ByteReader& r, const Plan& plan, uint64_t* out, uint32_t* present) {
  const ClassDesc& c = metadata_.at(plan.cls);
  for (const Plan::Op& op : plan.ops) {
    uint64_t v = 0;
    switch (op.code) {
      case kOpVarint:
        v = r.varint();
        break;
      case kOpByte:
        v = r.u8();
        break;
      case kOpFloat:
        v = r.beU(4);
        break;
      case kOpDouble:
        v = r.beU(8);
        break;
      case kOpString:
        v = r.offset();
        r.skipString();
        break;
      default:
        if (!skipField(r, c.fields[static_cast<size_t>(op.field)], 1)) return false;
        continue;
    }
    if (op.slot >= 0) {
      out[op.slot] = v;
      *present |= 1u << op.slot;
    }
  }
  return r.ok();
}

const uint8_t* Chunk::decodeEventUnchecked(const uint8_t* p, const Plan& plan, uint64_t* out) {
  for (const Plan::Op& op : plan.ops) out[op.sink] = op.code == kOpByte ? *p++ : decodeVarintUnchecked(p);
  return p;
}

Chunk::Plan Chunk::makePlan(int32_t cls, std::span<const std::pair<std::string_view, int>> fields, bool whole) const {
  Plan p;
  p.cls = cls;
  if (cls < 0) return p;
  const ClassDesc& c = metadata_.at(cls);
  p.slots.assign(c.fields.size(), -1);
  for (auto [name, slot] : fields) {
    int i = c.fieldIndex(name);
    if (i < 0) continue;
    p.slots[static_cast<size_t>(i)] = static_cast<int8_t>(slot);
    p.last_needed = std::max(p.last_needed, i);
    const FieldDesc& f = c.fields[static_cast<size_t>(i)];
    if (!f.array && !f.constant_pool && f.type >= 0 && metadata_.at(f.type).kind == Kind::kString)
      p.string_slots |= 1u << slot;
    if (!f.array && !f.constant_pool && f.type >= 0 && metadata_.at(f.type).kind == Kind::kFloat)
      p.float_slots |= 1u << slot;
  }
  if (whole) p.last_needed = static_cast<int>(c.fields.size()) - 1;
  for (int i = 0; i <= p.last_needed; ++i) {
    const FieldDesc& f = c.fields[static_cast<size_t>(i)];
    uint8_t code = kOpSkip;
    if (!f.array && f.type >= 0) {
      if (f.constant_pool) {
        code = kOpVarint;
      } else {
        switch (metadata_.at(f.type).kind) {
          case Kind::kBoolean:
          case Kind::kByte:
            code = kOpByte;
            break;
          case Kind::kChar:
          case Kind::kShort:
          case Kind::kInt:
          case Kind::kLong:
            code = kOpVarint;
            break;
          case Kind::kFloat:
            code = kOpFloat;
            break;
          case Kind::kDouble:
            code = kOpDouble;
            break;
          case Kind::kString:
            code = kOpString;
            break;
          case Kind::kStruct:
            break;  // inline structs are skipped, not captured
        }
      }
    }
    int8_t slot = code == kOpSkip ? -1 : p.slots[static_cast<size_t>(i)];
    p.ops.push_back({code, slot, slot >= 0 ? static_cast<uint8_t>(slot) : kDiscardSlot, i});
    if (slot >= 0) p.captured |= 1u << slot;
  }
  p.varints_only = std::all_of(p.ops.begin(), p.ops.end(),
                               [](const Plan::Op& op) { return op.code == kOpVarint || op.code == kOpByte; });
  return p;
}

std::vector<uint64_t> Chunk::poolKeys(std::string_view type_name) const {
  std::vector<uint64_t> keys;
  int32_t cls = metadata_.indexByName(type_name);
  if (cls < 0 || static_cast<size_t>(cls) >= pools_.size()) return keys;
  pools_[static_cast<size_t>(cls)].forEachKey([&](uint64_t k) { keys.push_back(k); });
  return keys;
}

}  // namespace proflow::jfr
