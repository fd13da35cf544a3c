// Bounded streaming codecs. Every decoder writes into a BoundedOutput that grows geometrically up to
// the allowed size and then hands out a one-byte probe: a decoder that still produces output at
// that point has exceeded a limit. So a bomb costs at most the cap in memory, whatever the frame
// headers (gzip ISIZE, zstd content size) claim.
#include "core/compression/compression.h"

#include "core/compression/isal_gzip.h"
#include "core/util/ascii.h"

#include <libdeflate.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>

namespace proflow::compression {
namespace {

std::string formatBytes(size_t n) {
  if (n >= (1u << 20) && n % (1u << 20) == 0) return std::to_string(n >> 20) + "MiB";
  if (n >= (1u << 10) && n % (1u << 10) == 0) return std::to_string(n >> 10) + "KiB";
  return std::to_string(n) + " bytes";
}

std::string formatRatio(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", r);
  return buf;
}

// The output string plus the limits. Decoders ask for space, write, and commit what they wrote.
class BoundedOutput {
 public:
  BoundedOutput(std::string& out, size_t input_size, const Limits& limits) : out_(out), limits_(limits) {
    double by_ratio = static_cast<double>(input_size) * limits.max_inflate_ratio;
    size_t ratio_cap = by_ratio >= static_cast<double>(SIZE_MAX) ? SIZE_MAX : static_cast<size_t>(by_ratio);
    ratio_cap = std::max(ratio_cap, limits.ratio_floor_bytes);
    ratio_binds_ = ratio_cap < limits.max_output_bytes;
    allowed_ = std::min(ratio_cap, limits.max_output_bytes);
    // Typical profile payloads inflate 3-10x; start there and double.
    initial_ = std::min(allowed_, std::max<size_t>(input_size * 4, 16u << 10));
    out_.clear();
  }
  ~BoundedOutput() {
    if (!released_) out_.resize(used_);
  }
  // The most `out` may hold; release() leaves `out` to the caller (the one-shot fast path).
  size_t allowed() const { return allowed_; }
  void release() { released_ = true; }

  // Free space to decode into. At the cap this is a one-byte probe outside `out`.
  std::pair<char*, size_t> space() {
    if (used_ == out_.size()) grow();
    if (used_ < out_.size()) return {out_.data() + used_, out_.size() - used_};
    return {&probe_, 1};
  }
  void commit(size_t n) {
    if (n == 0) return;
    if (used_ < out_.size()) {
      used_ += n;
    } else {
      exceeded_ = true;
    }
  }
  bool exceeded() const { return exceeded_; }
  size_t used() const { return used_; }

  Status limitError(const char* codec) const {
    if (ratio_binds_) {
      return Status::tooLarge(std::string(codec) + ": inflate ratio exceeds " +
                              formatRatio(limits_.max_inflate_ratio) + ":1");
    }
    return Status::tooLarge(std::string(codec) + ": decompressed size exceeds limit of " +
                            formatBytes(limits_.max_output_bytes));
  }

 private:
  void grow() {
    if (out_.size() >= allowed_) return;
    size_t next = std::min(std::max(out_.size() * 2, initial_), allowed_);
    // std::string::resize may round capacity up to twice the old one, past the cap; a fresh string
    // reserved to the exact size does not.
    std::string bigger;
    bigger.reserve(next);
    bigger.append(out_.data(), used_);
    bigger.resize(next);
    out_.swap(bigger);
  }

  std::string& out_;
  const Limits& limits_;
  size_t allowed_ = 0;
  size_t initial_ = 0;
  size_t used_ = 0;
  bool ratio_binds_ = false;
  bool exceeded_ = false;
  bool released_ = false;
  char probe_ = 0;
};

// "deflate" on the wire is meant to be zlib-wrapped (RFC 9110) but many clients send raw deflate.
bool looksLikeZlibHeader(std::string_view in) {
  if (in.size() < 2) return false;
  auto b0 = static_cast<unsigned char>(in[0]);
  auto b1 = static_cast<unsigned char>(in[1]);
  return (b0 & 0x0f) == 8 && (b0 >> 4) <= 7 && ((b0 << 8) | b1) % 31 == 0;
}

bool isGzipMagic(std::string_view in) {
  return in.size() >= 2 && static_cast<unsigned char>(in[0]) == 0x1f && static_cast<unsigned char>(in[1]) == 0x8b;
}

// libdeflate decodes a whole buffer 2-3x faster than zlib's streaming inflate, but needs the output
// size up front. The gzip trailer's ISIZE is a hint only (it can be forged, and is mod 2^32): decode
// into min(hint, cap) and double on "insufficient space" up to the cap, so a bomb costs at most about
// twice the cap in work and the cap in memory. Anything else it rejects (corrupt, truncated,
// trailing bytes) is handed back to the zlib path, which says what and where.
enum class FastResult { kDone, kLimit, kFallback };

// resize() may round capacity up to twice the old one, past the cap; a fresh exact reserve does not.
void resizeExact(std::string& s, size_t n) {
  if (n > s.capacity()) {
    std::string bigger;
    bigger.reserve(n);
    bigger.append(s);
    s.swap(bigger);
  }
  s.resize(n);
}

FastResult gzipFast(std::string_view in, std::string& out, size_t allowed) {
  thread_local std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)> d(
      libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
  if (!d || in.size() < 18) return FastResult::kFallback;
  out.clear();
  size_t used = 0, offset = 0;
  while (offset < in.size()) {
    std::string_view member = in.substr(offset);
    if (!isGzipMagic(member)) return FastResult::kFallback;
    // ISIZE of the last member in the buffer: exact for the common single-member payload, so it is
    // taken as the first size to try (a profile inflates 3-10x; four times the input was zeroed and
    // faulted in for nothing). A forged or wrapped (mod 2^32) one only costs retries at doubling
    // sizes, from at least the member's own size; a zero one says nothing: four times the input.
    uint32_t isize;
    std::memcpy(&isize, in.data() + in.size() - 4, 4);  // little-endian on the platforms we build for
    const size_t guess = isize != 0 ? std::max<size_t>(isize, member.size()) : member.size() * 4;
    size_t want = std::min(allowed - used, guess);
    while (true) {
      resizeExact(out, used + want);
      size_t in_used = 0, produced = 0;
      auto rc = libdeflate_gzip_decompress_ex(d.get(), member.data(), member.size(), out.data() + used, want,
                                              &in_used, &produced);
      if (rc == LIBDEFLATE_SUCCESS) {
        used += produced;
        offset += in_used;
        break;
      }
      if (rc != LIBDEFLATE_INSUFFICIENT_SPACE) return FastResult::kFallback;
      if (used + want >= allowed) {
        out.clear();
        return FastResult::kLimit;
      }
      want = std::min(allowed - used, want * 2);
    }
  }
  out.resize(used);
  return FastResult::kDone;
}

struct ZStream {
  z_stream s{};
  bool inited = false;
  ~ZStream() {
    if (inited) inflateEnd(&s);
  }
};

Status inflateAll(Codec codec, std::string_view in, std::string& out, const Limits& limits) {
  const char* name = codec == Codec::kGzip ? "gzip" : "deflate";
  if (codec == Codec::kGzip) {
    BoundedOutput bounds(out, in.size(), limits);  // only for its caps and messages
    bounds.release();
    switch (gzipFast(in, out, bounds.allowed())) {
      case FastResult::kDone: return Status::ok();
      case FastResult::kLimit: return bounds.limitError(name);
      case FastResult::kFallback: break;
    }
  }
  int window_bits = codec == Codec::kGzip ? 15 + 16 : (looksLikeZlibHeader(in) ? 15 : -15);
  ZStream z;
  if (inflateInit2(&z.s, window_bits) != Z_OK) return Status::internal(std::string(name) + ": inflateInit failed");
  z.inited = true;
  BoundedOutput sink(out, in.size(), limits);
  size_t offset = 0;  // consumed input, across gzip members
  while (true) {
    size_t chunk = std::min<size_t>(in.size() - offset, 1u << 30);
    z.s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + offset));
    z.s.avail_in = static_cast<uInt>(chunk);
    auto [dst, cap] = sink.space();
    z.s.next_out = reinterpret_cast<Bytef*>(dst);
    z.s.avail_out = static_cast<uInt>(std::min<size_t>(cap, UINT_MAX));
    uInt out_before = z.s.avail_out;
    int rc = inflate(&z.s, Z_NO_FLUSH);
    offset += chunk - z.s.avail_in;
    sink.commit(out_before - z.s.avail_out);
    if (sink.exceeded()) return sink.limitError(name);
    if (rc == Z_STREAM_END) {
      // gzip allows several members back to back (RFC 1952 2.2); anything else after the end is garbage.
      if (offset == in.size()) return Status::ok();
      if (codec == Codec::kGzip && isGzipMagic(in.substr(offset))) {
        inflateReset(&z.s);
        continue;
      }
      return Status::invalid(std::string(name) + ": trailing garbage after stream at input offset " +
                             std::to_string(offset));
    }
    if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR) {
      return Status::invalid(std::string(name) + ": corrupt deflate stream at input offset " + std::to_string(offset) +
                             (z.s.msg ? std::string(" (") + z.s.msg + ")" : std::string()));
    }
    if (rc == Z_MEM_ERROR) return Status::internal(std::string(name) + ": out of memory");
    bool no_progress = rc == Z_BUF_ERROR || (out_before == z.s.avail_out && chunk == z.s.avail_in);
    if (no_progress && offset == in.size()) {
      return Status::invalid(std::string(name) + ": truncated input (stream ends early after " +
                             std::to_string(in.size()) + " bytes)");
    }
  }
}

struct ZstdDCtxDeleter {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

// The decoder's window buffer is sized from the frame header; bound it so a forged header can't
// make us allocate far more than the output cap. 2^23 covers every non-"long" compression level.
int zstdWindowLogMax(size_t max_output) {
  int log = 10;
  while (log < 27 && (size_t{1} << log) < max_output) ++log;
  return std::clamp(log, 23, 27);
}

Status zstdAll(std::string_view in, std::string& out, const Limits& limits) {
  std::unique_ptr<ZSTD_DCtx, ZstdDCtxDeleter> ctx(ZSTD_createDCtx());
  if (!ctx) return Status::internal("zstd: cannot create context");
  ZSTD_DCtx_setParameter(ctx.get(), ZSTD_d_windowLogMax, zstdWindowLogMax(limits.max_output_bytes));
  BoundedOutput sink(out, in.size(), limits);
  ZSTD_inBuffer src{in.data(), in.size(), 0};
  size_t last = 1;  // 0 once a frame is complete
  int stalls = 0;
  while (true) {
    auto [dst, cap] = sink.space();
    ZSTD_outBuffer o{dst, cap, 0};
    size_t in_before = src.pos;
    last = ZSTD_decompressStream(ctx.get(), &o, &src);
    if (ZSTD_isError(last)) {
      return Status::invalid("zstd: corrupt stream at input offset " + std::to_string(src.pos) + " (" +
                             ZSTD_getErrorName(last) + ")");
    }
    sink.commit(o.pos);
    if (sink.exceeded()) return sink.limitError("zstd");
    // 0 = the last frame is decoded and flushed. Anything else may just mean "call again"; only a
    // call that makes no progress on exhausted input proves truncation.
    if (src.pos == src.size) {
      if (last == 0) return Status::ok();
      if (src.pos == in_before && o.pos == 0) {
        return Status::invalid("zstd: truncated input (frame incomplete after " + std::to_string(in.size()) +
                               " bytes)");
      }
    }
    // zstd itself reports noForwardProgress after repeated stalls; this only guards our loop.
    stalls = (src.pos == in_before && o.pos == 0) ? stalls + 1 : 0;
    if (stalls > 16) return Status::internal("zstd: decoder stalled");
  }
}

struct Lz4DCtx {
  LZ4F_dctx* c = nullptr;
  ~Lz4DCtx() {
    if (c) LZ4F_freeDecompressionContext(c);
  }
};

Status lz4All(std::string_view in, std::string& out, const Limits& limits) {
  Lz4DCtx ctx;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx.c, LZ4F_VERSION))) {
    return Status::internal("lz4: cannot create context");
  }
  BoundedOutput sink(out, in.size(), limits);
  size_t offset = 0;
  size_t hint = 1;  // 0 once a frame is complete
  int stalls = 0;
  while (true) {
    auto [dst, cap] = sink.space();
    size_t dst_size = cap;
    size_t src_size = in.size() - offset;
    hint = LZ4F_decompress(ctx.c, dst, &dst_size, in.data() + offset, &src_size, nullptr);
    if (LZ4F_isError(hint)) {
      return Status::invalid("lz4: corrupt frame at input offset " + std::to_string(offset) + " (" +
                             LZ4F_getErrorName(hint) + ")");
    }
    offset += src_size;
    sink.commit(dst_size);
    if (sink.exceeded()) return sink.limitError("lz4");
    if (offset == in.size()) {
      if (hint == 0) return Status::ok();
      if (src_size == 0 && dst_size == 0) {
        return Status::invalid("lz4: truncated input (frame incomplete after " + std::to_string(in.size()) +
                               " bytes)");
      }
    }
    stalls = (src_size == 0 && dst_size == 0) ? stalls + 1 : 0;
    if (stalls > 16) return Status::internal("lz4: decoder stalled");
  }
}

Status copyBounded(std::string_view in, std::string& out, const Limits& limits) {
  if (in.size() > limits.max_output_bytes) {
    return Status::tooLarge("body size exceeds limit of " + formatBytes(limits.max_output_bytes));
  }
  out.assign(in.data(), in.size());
  return Status::ok();
}

Status deflateAll(Codec codec, std::string_view in, std::string& out, int level) {
  z_stream s{};
  int bits = codec == Codec::kGzip ? 15 + 16 : 15;
  if (deflateInit2(&s, level == 0 ? 6 : level, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Status::invalid("deflate: bad compression level " + std::to_string(level));
  }
  out.resize(deflateBound(&s, static_cast<uLong>(in.size())) + 64);
  size_t in_off = 0, out_off = 0;
  int rc = Z_OK;
  while (rc == Z_OK) {
    // avail_in/avail_out are 32-bit: feed inputs above 4 GiB in slices.
    size_t in_chunk = std::min<size_t>(in.size() - in_off, 1u << 30);
    if (out.size() - out_off < 64) out.resize(out.size() * 2);
    size_t out_chunk = std::min<size_t>(out.size() - out_off, 1u << 30);
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + in_off));
    s.avail_in = static_cast<uInt>(in_chunk);
    s.next_out = reinterpret_cast<Bytef*>(out.data() + out_off);
    s.avail_out = static_cast<uInt>(out_chunk);
    rc = deflate(&s, in_off + in_chunk == in.size() ? Z_FINISH : Z_NO_FLUSH);
    in_off += in_chunk - s.avail_in;
    out_off += out_chunk - s.avail_out;
    if (rc == Z_BUF_ERROR) rc = Z_OK;  // no room this round: grow and go on
  }
  deflateEnd(&s);
  out.resize(out_off);
  if (rc != Z_STREAM_END) return Status::internal("deflate: compression failed");
  return Status::ok();
}

// Whole-buffer gzip: the fast levels (1-3) through ISA-L, the others through libdeflate (about 2.5x
// faster than zlib at the same level and a few percent smaller). One libdeflate compressor
// per thread and level (they hold large match-finder tables).
Status gzipCompress(std::string_view in, std::string& out, int level) {
  level = level == 0 ? 6 : level;
  if (level < 1 || level > 12) return Status::invalid("gzip: bad compression level " + std::to_string(level));
  if (level <= internal::kIsalMaxLevel) return internal::isalGzipCompress(in, out, level);
  struct Compressors {
    libdeflate_compressor* by_level[13] = {};
    ~Compressors() {
      for (auto* c : by_level)
        if (c) libdeflate_free_compressor(c);
    }
  };
  thread_local Compressors cache;
  auto*& c = cache.by_level[level];
  if (c == nullptr) c = libdeflate_alloc_compressor(level);
  if (c == nullptr) return Status::internal("gzip: cannot allocate compressor");
  out.resize(libdeflate_gzip_compress_bound(c, in.size()));
  size_t n = libdeflate_gzip_compress(c, in.data(), in.size(), out.data(), out.size());
  if (n == 0) return Status::internal("gzip: compression failed");
  out.resize(n);
  return Status::ok();
}

Status zstdCompress(std::string_view in, std::string& out, int level) {
  out.resize(ZSTD_compressBound(in.size()));
  size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), level == 0 ? 3 : level);
  if (ZSTD_isError(n)) return Status::internal(std::string("zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return Status::ok();
}

Status lz4Compress(std::string_view in, std::string& out, int level) {
  LZ4F_preferences_t prefs{};
  prefs.compressionLevel = level;
  prefs.frameInfo.contentSize = in.size();
  out.resize(LZ4F_compressFrameBound(in.size(), &prefs));
  size_t n = LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), &prefs);
  if (LZ4F_isError(n)) return Status::internal(std::string("lz4: ") + LZ4F_getErrorName(n));
  out.resize(n);
  return Status::ok();
}

}  // namespace

const char* codecName(Codec c) {
  switch (c) {
    case Codec::kNone: return "none";
    case Codec::kGzip: return "gzip";
    case Codec::kZlib: return "deflate";
    case Codec::kZstd: return "zstd";
    case Codec::kLz4: return "lz4";
  }
  return "unknown";
}

std::optional<Codec> codecFromName(std::string_view name) {
  // Content-Encoding tokens are case-insensitive (RFC 9110 8.4.1).
  std::string n = toLowerAscii(trim(name));
  if (n.empty() || n == "identity" || n == "none") return Codec::kNone;
  if (n == "gzip" || n == "x-gzip") return Codec::kGzip;
  if (n == "deflate" || n == "zlib") return Codec::kZlib;
  if (n == "zstd") return Codec::kZstd;
  if (n == "lz4") return Codec::kLz4;
  return std::nullopt;
}

Codec detectCodec(std::string_view d) {
  auto at = [&](size_t i) { return static_cast<unsigned char>(d[i]); };
  if (isGzipMagic(d)) return Codec::kGzip;
  if (d.size() >= 4 && at(0) == 0x28 && at(1) == 0xb5 && at(2) == 0x2f && at(3) == 0xfd) return Codec::kZstd;
  if (d.size() >= 4 && at(0) == 0x04 && at(1) == 0x22 && at(2) == 0x4d && at(3) == 0x18) return Codec::kLz4;
  return Codec::kNone;
}

Status decompress(Codec codec, std::string_view in, std::string& out, const Limits& limits) {
  switch (codec) {
    case Codec::kNone: return copyBounded(in, out, limits);
    case Codec::kGzip:
    case Codec::kZlib: return inflateAll(codec, in, out, limits);
    case Codec::kZstd: return zstdAll(in, out, limits);
    case Codec::kLz4: return lz4All(in, out, limits);
  }
  return Status::invalid("unknown codec");
}

Status decompressAuto(std::string_view in, std::string& out, const Limits& limits) {
  return decompress(detectCodec(in), in, out, limits);
}

Status inflateOrView(std::string_view in, const Limits& limits, std::string* storage, std::string_view* out) {
  const Codec codec = detectCodec(in);
  if (codec != Codec::kNone) {
    if (Status s = decompress(codec, in, *storage, limits); !s.isOk()) return s;
    *out = *storage;
    return Status::ok();
  }
  if (in.size() > limits.max_output_bytes)
    return Status::tooLarge(std::to_string(in.size()) + " bytes, over the limit of " +
                            formatBytes(limits.max_output_bytes));
  *out = in;
  return Status::ok();
}

Status compress(Codec codec, std::string_view in, std::string& out, int level) {
  switch (codec) {
    case Codec::kNone: out.assign(in.data(), in.size()); return Status::ok();
    case Codec::kGzip: return gzipCompress(in, out, level);
    case Codec::kZlib: return deflateAll(codec, in, out, level);
    case Codec::kZstd: return zstdCompress(in, out, level);
    case Codec::kLz4: return lz4Compress(in, out, level);
  }
  return Status::invalid("unknown codec");
}

StreamCompressor::StreamCompressor(Codec codec, int level, std::string* out)
    : codec_(codec), level_(codec == Codec::kGzip && level == 0 ? 6 : level), out_(out) {
  out_->clear();
}

StreamCompressor::~StreamCompressor() = default;

Status StreamCompressor::write(std::string_view piece, bool last) {
  if (codec_ == Codec::kGzip && level_ >= 1 && level_ <= internal::kIsalMaxLevel) {
    if (!gzip_) {
      gzip_ = std::make_unique<internal::IsalGzipStream>();
      if (Status s = gzip_->begin(level_, out_); !s) return s;
    }
    return gzip_->write(piece, last);
  }
  collected_.append(piece);
  if (!last) return Status::ok();
  Status s = compress(codec_, collected_, *out_, level_);
  std::string().swap(collected_);
  return s;
}

}  // namespace proflow::compression
