#include "core/compression/compression.h"
#include "core/compression/isal_gzip.h"

#include <gtest/gtest.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <random>
#include <string>

namespace proflow::compression {
namespace {

// Compressible but not trivial: repeated words with a random tail, like symbol tables.
std::string sampleData(size_t n) {
  std::mt19937 rng(42);
  static const char* words[] = {"main", "runtime.mallocgc", "net/http.(*conn).serve", "java.lang.Thread.run",
                                "std::vector<int>::push_back", "0x7f3a2b"};
  std::string s;
  while (s.size() < n) {
    s += words[rng() % 6];
    s += static_cast<char>('a' + rng() % 26);
    s += '\n';
  }
  s.resize(n);
  return s;
}

std::string randomBytes(size_t n) {
  std::mt19937 rng(7);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

// `gz` inflated by zlib itself (an independent decoder); `capacity` bounds the output.
std::string zlibGunzip(std::string gz, size_t capacity, int* rc) {
  z_stream z{};
  std::string back(capacity, '\0');
  if (inflateInit2(&z, 15 + 16) != Z_OK) {
    *rc = Z_STREAM_ERROR;
    return {};
  }
  z.next_in = reinterpret_cast<Bytef*>(gz.data());
  z.avail_in = static_cast<uInt>(gz.size());
  z.next_out = reinterpret_cast<Bytef*>(back.data());
  z.avail_out = static_cast<uInt>(back.size());
  *rc = inflate(&z, Z_FINISH);
  back.resize(z.total_out);
  inflateEnd(&z);
  return back;
}

const Codec kCodecs[] = {Codec::kGzip, Codec::kZlib, Codec::kZstd, Codec::kLz4};

TEST(Compression, RoundTripsEveryCodec) {
  for (Codec c : kCodecs) {
    for (const std::string& in : {std::string(), std::string("x"), sampleData(300000), randomBytes(70000)}) {
      std::string z, out;
      ASSERT_TRUE(compress(c, in, z).isOk()) << codecName(c);
      Status s = decompress(c, z, out, Limits{});
      ASSERT_TRUE(s.isOk()) << codecName(c) << " size " << in.size() << ": " << s.toString();
      EXPECT_EQ(out, in) << codecName(c);
      if (c != Codec::kZlib) {
        EXPECT_EQ(detectCodec(z), c) << codecName(c);
        out.clear();
        ASSERT_TRUE(decompressAuto(z, out, Limits{}).isOk());
        EXPECT_EQ(out, in);
      }
    }
  }
}

TEST(Compression, LevelsAreHonoured) {
  std::string in = sampleData(200000), fast, best;
  ASSERT_TRUE(compress(Codec::kZstd, in, fast, 1).isOk());
  ASSERT_TRUE(compress(Codec::kZstd, in, best, 19).isOk());
  EXPECT_LT(best.size(), fast.size());
  EXPECT_FALSE(compress(Codec::kGzip, in, fast, 42).isOk());
}

// Levels 1-3 go through ISA-L (level 1 with fixed Huffman codes below kIsalFixedCodesBelow), the
// others through libdeflate: every path must be plain gzip that zlib itself reads back. Empty and tiny
// inputs, and both sides of the fixed-codes threshold, included.
TEST(Compression, GzipAtEveryLevelIsReadByZlib) {
  constexpr size_t kFixed = internal::kIsalFixedCodesBelow;
  for (size_t n : {size_t{0}, size_t{1}, size_t{100}, size_t{5000}, kFixed - 1, kFixed, size_t{3} << 20}) {
    const std::string in = sampleData(n);
    for (int level : {1, 2, 3, 6, 12}) {
      std::string gz;
      ASSERT_TRUE(compress(Codec::kGzip, in, gz, level).isOk()) << n << " bytes, level " << level;
      ASSERT_GE(gz.size(), 18u);
      if (n >= 5000) {
        EXPECT_LT(gz.size(), in.size());
      }
      int rc = 0;
      EXPECT_EQ(zlibGunzip(gz, in.size() + 1, &rc), in) << n << " bytes, level " << level;
      EXPECT_EQ(rc, Z_STREAM_END) << n << " bytes, level " << level;
    }
  }
}

// Random bytes grow under the fixed codes (9-bit literals): the encoder must still finish, whatever
// room it was given first, and zlib must read it back.
TEST(Compression, IncompressibleInputUnderFixedCodes) {
  for (size_t n : {size_t{4000}, internal::kIsalFixedCodesBelow - 1}) {
    const std::string in = randomBytes(n);
    std::string gz, back;
    ASSERT_TRUE(compress(Codec::kGzip, in, gz, 1).isOk()) << n;
    ASSERT_TRUE(decompress(Codec::kGzip, gz, back, Limits{}).isOk()) << n;
    EXPECT_EQ(back, in) << n;
    int rc = 0;
    EXPECT_EQ(zlibGunzip(gz, n + 1, &rc), in) << n;
    EXPECT_EQ(rc, Z_STREAM_END) << n;
  }
}

TEST(Compression, NoneCopiesWithSizeCheck) {
  std::string out;
  Limits l;
  l.max_output_bytes = 10;
  EXPECT_TRUE(decompress(Codec::kNone, "0123456789", out, l).isOk());
  EXPECT_EQ(out, "0123456789");
  Status s = decompress(Codec::kNone, "0123456789a", out, l);
  EXPECT_EQ(s.code(), StatusCode::kPayloadTooLarge);
  EXPECT_NE(s.message().find("10 bytes"), std::string::npos) << s.message();
}

TEST(Compression, DeflateAcceptsZlibWrappedAndRaw) {
  std::string in = sampleData(50000);
  // Raw deflate (windowBits -15), as some HTTP clients send for "Content-Encoding: deflate".
  z_stream s{};
  ASSERT_EQ(deflateInit2(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string raw(deflateBound(&s, in.size()), '\0');
  s.next_in = reinterpret_cast<Bytef*>(in.data());
  s.avail_in = in.size();
  s.next_out = reinterpret_cast<Bytef*>(raw.data());
  s.avail_out = raw.size();
  ASSERT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
  raw.resize(s.total_out);
  deflateEnd(&s);
  std::string out;
  ASSERT_TRUE(decompress(Codec::kZlib, raw, out, Limits{}).isOk());
  EXPECT_EQ(out, in);

  std::string wrapped;
  ASSERT_TRUE(compress(Codec::kZlib, in, wrapped).isOk());
  EXPECT_EQ(static_cast<unsigned char>(wrapped[0]), 0x78);  // zlib header, not raw
  out.clear();
  ASSERT_TRUE(decompress(Codec::kZlib, wrapped, out, Limits{}).isOk());
  EXPECT_EQ(out, in);
}

TEST(Compression, MultiMemberGzipAndMultiFrameZstdAndLz4) {
  for (Codec c : {Codec::kGzip, Codec::kZstd, Codec::kLz4}) {
    std::string a, b;
    ASSERT_TRUE(compress(c, "hello ", a).isOk());
    ASSERT_TRUE(compress(c, "world", b).isOk());
    std::string out;
    Status s = decompress(c, a + b, out, Limits{});
    ASSERT_TRUE(s.isOk()) << codecName(c) << ": " << s.toString();
    EXPECT_EQ(out, "hello world") << codecName(c);
  }
}

TEST(Compression, ZstdFrameWithoutContentSize) {
  std::string in = sampleData(1 << 20);
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  std::string z(ZSTD_compressBound(in.size()), '\0');
  ZSTD_inBuffer src{in.data(), in.size(), 0};
  ZSTD_outBuffer dst{z.data(), z.size(), 0};
  // As a streaming producer that does not know the size: the frame header carries no content size.
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  while (ZSTD_compressStream2(cctx, &dst, &src, ZSTD_e_end) != 0) {
  }
  ZSTD_freeCCtx(cctx);
  z.resize(dst.pos);
  ASSERT_EQ(ZSTD_getFrameContentSize(z.data(), z.size()), ZSTD_CONTENTSIZE_UNKNOWN);
  std::string out;
  ASSERT_TRUE(decompress(Codec::kZstd, z, out, Limits{}).isOk());
  EXPECT_EQ(out, in);
}

TEST(Compression, TruncatedInputIsInvalidArgument) {
  std::string in = sampleData(100000);
  for (Codec c : kCodecs) {
    std::string z, out;
    ASSERT_TRUE(compress(c, in, z).isOk());
    for (size_t cut : {size_t{0}, size_t{1}, z.size() / 2, z.size() - 1}) {
      Status s = decompress(c, std::string_view(z).substr(0, cut), out, Limits{});
      EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << codecName(c) << " cut " << cut << ": " << s.toString();
      EXPECT_NE(s.message().find(codecName(c)), std::string::npos) << s.message();
    }
  }
}

TEST(Compression, GarbageIsInvalidArgumentWithOffset) {
  std::string garbage = randomBytes(5000);
  for (Codec c : kCodecs) {
    std::string z, out;
    ASSERT_TRUE(compress(c, sampleData(20000), z).isOk());
    // Keep the header, corrupt the body.
    std::string bad = z.substr(0, 12) + garbage;
    Status s = decompress(c, bad, out, Limits{});
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << codecName(c) << ": " << s.toString();
  }
  std::string out;
  const char bad_gzip[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff\xff\xff";
  Status s = decompress(Codec::kGzip, std::string_view(bad_gzip, sizeof bad_gzip - 1), out, Limits{});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("gzip: corrupt deflate stream at input offset"), std::string::npos) << s.message();
}

TEST(Compression, TrailingGarbageAfterGzipIsRejected) {
  std::string z, out;
  ASSERT_TRUE(compress(Codec::kGzip, "payload", z).isOk());
  Status s = decompress(Codec::kGzip, z + "junk", out, Limits{});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("trailing garbage"), std::string::npos) << s.message();
}

// 1 GiB of zeros, compressed chunk by chunk so the test never holds the plain data.
std::string gzipZeros(size_t total) {
  z_stream s{};
  EXPECT_EQ(deflateInit2(&s, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string chunk(1 << 20, '\0'), out, buf(1 << 16, '\0');
  for (size_t done = 0; done < total; done += chunk.size()) {
    s.next_in = reinterpret_cast<Bytef*>(chunk.data());
    s.avail_in = chunk.size();
    int flush = done + chunk.size() >= total ? Z_FINISH : Z_NO_FLUSH;
    do {
      s.next_out = reinterpret_cast<Bytef*>(buf.data());
      s.avail_out = buf.size();
      deflate(&s, flush);
      out.append(buf.data(), buf.size() - s.avail_out);
    } while (s.avail_out == 0);
  }
  deflateEnd(&s);
  return out;
}

std::string zstdZeros(size_t total) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  std::string chunk(1 << 20, '\0'), out, buf(1 << 16, '\0');
  for (size_t done = 0; done < total; done += chunk.size()) {
    ZSTD_inBuffer src{chunk.data(), chunk.size(), 0};
    auto mode = done + chunk.size() >= total ? ZSTD_e_end : ZSTD_e_continue;
    size_t left;
    do {
      ZSTD_outBuffer dst{buf.data(), buf.size(), 0};
      left = ZSTD_compressStream2(cctx, &dst, &src, mode);
      out.append(buf.data(), dst.pos);
    } while (mode == ZSTD_e_end ? left != 0 : src.pos < src.size);
  }
  ZSTD_freeCCtx(cctx);
  return out;
}

TEST(Compression, GzipBombIsRejectedWithinTheCap) {
  std::string bomb = gzipZeros(size_t{1} << 30);
  ASSERT_LT(bomb.size(), 8u << 20);  // level 1: ~230:1
  std::string out;
  Limits l;  // 64 MiB, 100:1
  Status s = decompress(Codec::kGzip, bomb, out, l);
  EXPECT_EQ(s.code(), StatusCode::kPayloadTooLarge);
  EXPECT_NE(s.message().find("decompressed size exceeds limit of 64MiB"), std::string::npos) << s.message();
  EXPECT_LE(out.capacity(), l.max_output_bytes);
  EXPECT_LE(out.size(), l.max_output_bytes);
}

// The gzip fast path sizes its buffer from the last member's ISIZE: a hint that is wrong for every
// other member. Output must still be exact, and the cap must still hold.
TEST(Compression, GzipMembersOfVeryDifferentSizes) {
  std::string big = sampleData(3u << 20), tiny = "x";
  std::string zbig, ztiny, out;
  ASSERT_TRUE(compress(Codec::kGzip, big, zbig).isOk());
  ASSERT_TRUE(compress(Codec::kGzip, tiny, ztiny).isOk());
  ASSERT_TRUE(decompress(Codec::kGzip, zbig + ztiny, out, Limits{}).isOk());
  EXPECT_EQ(out, big + tiny);
  ASSERT_TRUE(decompress(Codec::kGzip, ztiny + zbig + ztiny, out, Limits{}).isOk());
  EXPECT_EQ(out, tiny + big + tiny);
  Limits l;
  l.max_output_bytes = big.size();  // the first member fits exactly, the tiny one no longer does
  std::string fresh;
  Status s = decompress(Codec::kGzip, zbig + ztiny, fresh, l);
  EXPECT_EQ(s.code(), StatusCode::kPayloadTooLarge) << s.toString();
  EXPECT_LE(fresh.capacity(), l.max_output_bytes);
}

// A payload that gzip barely shrinks (a profile's packed ids, already compressed bytes): the fast
// path takes the trailer's size as exact and allocates no more than the output.
TEST(Compression, GzipOfLittleCompressibleDataAllocatesOnlyTheOutput) {
  std::mt19937 rng(7);
  std::string data(2u << 20, '\0');
  for (char& c : data) c = static_cast<char>(rng() % 64);  // 6 bits of entropy per byte
  std::string z, out;
  ASSERT_TRUE(compress(Codec::kGzip, data, z).isOk());
  ASSERT_GT(z.size() * 4, data.size());  // where four times the input used to be the first guess
  ASSERT_TRUE(decompress(Codec::kGzip, z, out, Limits{}).isOk());
  EXPECT_EQ(out, data);
  EXPECT_EQ(out.capacity(), data.size());
}

// A payload handed over in pieces of uneven sizes (empty ones too, and an empty last one)
// decompresses to the pieces joined, for the streaming path (gzip 1-3) and the collecting ones.
TEST(Compression, StreamCompressorOutputInflatesToThePiecesJoined) {
  const std::string data = sampleData(3u << 20);
  for (auto [codec, level] : {std::pair{Codec::kGzip, 1}, {Codec::kGzip, 2}, {Codec::kGzip, 3}, {Codec::kGzip, 0},
                              {Codec::kGzip, 9}, {Codec::kZstd, 0}, {Codec::kLz4, 0}}) {
    SCOPED_TRACE(std::string(codecName(codec)) + " level " + std::to_string(level));
    std::string out = "left over from an earlier use", joined;
    {
      StreamCompressor stream(codec, level, &out);
      std::mt19937 rng(11);
      size_t at = 0;
      while (at < data.size()) {
        const size_t n = std::min<size_t>(data.size() - at, rng() % 3 == 0 ? 0 : rng() % (700u << 10));
        ASSERT_TRUE(stream.write(std::string_view(data).substr(at, n), false).isOk());
        at += n;
      }
      ASSERT_TRUE(stream.write({}, true).isOk());
    }
    ASSERT_TRUE(decompress(codec, out, joined, Limits{.max_output_bytes = 8u << 20, .max_inflate_ratio = 1e6}).isOk());
    EXPECT_TRUE(joined == data);
    EXPECT_LT(out.size(), data.size() / 2);
  }
  // Two streams one after the other on one thread (the second takes over the first's state).
  for (int round = 0; round < 2; ++round) {
    std::string out, joined;
    StreamCompressor stream(Codec::kGzip, 1, &out);
    ASSERT_TRUE(stream.write(std::string_view(data).substr(0, 100000), false).isOk());
    ASSERT_TRUE(stream.write(std::string_view(data).substr(100000, 100000), true).isOk());
    ASSERT_TRUE(decompress(Codec::kGzip, out, joined, Limits{}).isOk());
    EXPECT_TRUE(joined == data.substr(0, 200000));
  }
}

TEST(Compression, GzipWithWrongSizeTrailerIsInvalid) {
  std::string z, out;
  ASSERT_TRUE(compress(Codec::kGzip, sampleData(100000), z).isOk());
  z[z.size() - 4] ^= 0x01;  // ISIZE no longer matches
  Status s = decompress(Codec::kGzip, z, out, Limits{});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.toString();
  EXPECT_NE(s.message().find("gzip"), std::string::npos) << s.message();
}

TEST(Compression, ZstdBombIsRejectedWithinTheCap) {
  std::string bomb = zstdZeros(size_t{1} << 30);
  std::string out;
  Limits l;
  l.max_output_bytes = 8u << 20;
  l.max_inflate_ratio = 1e9;  // only the size cap
  Status s = decompress(Codec::kZstd, bomb, out, l);
  EXPECT_EQ(s.code(), StatusCode::kPayloadTooLarge) << s.toString();
  EXPECT_NE(s.message().find("exceeds limit of 8MiB"), std::string::npos) << s.message();
  EXPECT_LE(out.capacity(), l.max_output_bytes);
}

TEST(Compression, InflateRatioCap) {
  std::string zeros(10u << 20, '\0');
  for (Codec c : kCodecs) {
    std::string z, out;
    ASSERT_TRUE(compress(c, zeros, z).isOk());
    Limits l;  // 64 MiB would fit; the ratio does not (10 MiB from a few KiB)
    Status s = decompress(c, z, out, l);
    EXPECT_EQ(s.code(), StatusCode::kPayloadTooLarge) << codecName(c) << " " << s.toString();
    EXPECT_NE(s.message().find("inflate ratio exceeds 100:1"), std::string::npos) << s.message();
    // Below the floor a high ratio is fine.
    l.ratio_floor_bytes = 16u << 20;
    out.clear();
    EXPECT_TRUE(decompress(c, z, out, l).isOk()) << codecName(c);
    EXPECT_EQ(out.size(), zeros.size());
  }
}

TEST(Compression, ExactlyAtTheCapIsAccepted) {
  std::string in = sampleData(100000);
  for (Codec c : kCodecs) {
    std::string z, out;
    ASSERT_TRUE(compress(c, in, z).isOk());
    Limits l;
    l.max_output_bytes = in.size();
    Status ok = decompress(c, z, out, l);
    EXPECT_TRUE(ok.isOk()) << codecName(c) << " " << ok.toString();
    EXPECT_EQ(out, in);
    l.max_output_bytes = in.size() - 1;
    Status s = decompress(c, z, out, l);
    EXPECT_EQ(s.code(), StatusCode::kPayloadTooLarge) << codecName(c);
    EXPECT_NE(s.message().find("99999 bytes"), std::string::npos) << s.message();
  }
}

TEST(Compression, DetectCodecAndNames) {
  EXPECT_EQ(detectCodec(std::string_view("\x1f\x8b\x08", 3)), Codec::kGzip);
  EXPECT_EQ(detectCodec(std::string_view("\x28\xb5\x2f\xfd\x00", 5)), Codec::kZstd);
  EXPECT_EQ(detectCodec(std::string_view("\x04\x22\x4d\x18", 4)), Codec::kLz4);
  EXPECT_EQ(detectCodec(std::string_view("\x1f", 1)), Codec::kNone);
  EXPECT_EQ(detectCodec(std::string_view("\x28\xb5\x2f", 3)), Codec::kNone);
  EXPECT_EQ(detectCodec(""), Codec::kNone);
  EXPECT_EQ(detectCodec("{\"resourceProfiles\":[]}"), Codec::kNone);

  EXPECT_EQ(codecFromName(""), Codec::kNone);
  EXPECT_EQ(codecFromName("identity"), Codec::kNone);
  EXPECT_EQ(codecFromName("none"), Codec::kNone);
  EXPECT_EQ(codecFromName("GZIP"), Codec::kGzip);
  EXPECT_EQ(codecFromName(" x-gzip "), Codec::kGzip);
  EXPECT_EQ(codecFromName("deflate"), Codec::kZlib);
  EXPECT_EQ(codecFromName("zlib"), Codec::kZlib);
  EXPECT_EQ(codecFromName("zstd"), Codec::kZstd);
  EXPECT_EQ(codecFromName("lz4"), Codec::kLz4);
  EXPECT_EQ(codecFromName("br"), std::nullopt);
  EXPECT_EQ(codecFromName("snappy"), std::nullopt);
  for (Codec c : kCodecs) EXPECT_EQ(codecFromName(codecName(c)), c);
}

}  // namespace
}  // namespace proflow::compression
