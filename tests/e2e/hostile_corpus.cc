#include "tests/e2e/hostile_corpus.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>

#include "tests/support/otlp_json_protobuf.h"
#include "tests/support/pprof_request.h"
#include "core/formats/pprof/pprof_codec.h"
#include "tests/core/formats/jfr/jfr_writer.h"
#include "tests/support/profile_builder.h"

namespace proflow::testing::hostile {
namespace {

constexpr size_t kChunk = 1 << 20;

otlp::Request baseRequest() {
  ProfileSpec p = makeProfile(40, 1);
  return makeRequest("hostile-svc", {p});
}

void require(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("hostile corpus: cannot build ") + what);
}

// Replaces the first occurrence of `from` in `bytes` by `to` (same length: protobuf framing stays).
std::string patched(std::string bytes, const std::string& from, const std::string& to) {
  size_t at = bytes.find(from);
  require(at != std::string::npos && from.size() == to.size(), "a patched fixture");
  bytes.replace(at, from.size(), to);
  return bytes;
}

pprof::Profile smallPprof() {
  pprof::Profile p;
  p.add_string_table("");
  p.add_string_table("samples");
  p.add_string_table("count");
  p.add_string_table("main");
  auto* fn = p.add_function();
  fn->set_id(1);
  fn->set_name(3);
  auto* loc = p.add_location();
  loc->set_id(1);
  loc->add_line()->set_function_id(1);
  auto* st = p.add_sample_type();
  st->set_type(1);
  st->set_unit(2);
  auto* s = p.add_sample();
  s->add_location_id(1);
  s->add_value(1);
  p.set_time_nanos(1'700'000'000'000'000'000);
  return p;
}

}  // namespace

std::string otlpProto() { return baseRequest().SerializeAsString(); }

std::string otlpJson() { return otlp_json_pb::toOtlpJson(baseRequest()); }

std::string pprofGzip() {
  std::vector<pprof::EncodedPprof> out;
  require(pprof::otlpToPprofBytes(baseRequest(), &out).isOk() && !out.empty(), "the pprof fixture");
  return out[0].data;
}

std::string pprofRaw() {
  pprof::Profile p;
  require(pprof::decodeProfile(pprofGzip(), &p).isOk(), "the raw pprof fixture");
  return p.SerializeAsString();
}

std::string jfrChunk() {
  using proflow::testing::ChunkBuilder;
  using proflow::testing::JfrBytes;
  namespace ids = proflow::testing::ids;
  ChunkBuilder b(1);
  b.addStandardClasses();
  auto enc = [](const JfrBytes& x) { return x.str(); };
  b.checkpoint({
      {ids::kSymbol, {{1, enc(JfrBytes().utf8("app/Main"))}, {2, enc(JfrBytes().utf8("work"))},
                      {3, enc(JfrBytes().utf8("run"))}, {4, enc(JfrBytes().utf8("()V"))}}},
      {ids::kFrameType, {{0, enc(JfrBytes().utf8("Interpreted"))}, {1, enc(JfrBytes().utf8("JIT compiled"))}}},
      {ids::kThreadState, {{0, enc(JfrBytes().utf8("STATE_RUNNABLE"))}}},
  });
  JfrBytes stack;
  stack.u8(0).varint(2);
  stack.varint(1).varint(12).varint(0).varint(1);  // work, JIT compiled
  stack.varint(2).varint(3).varint(0).varint(0);   // run, interpreted
  auto method = [&](uint64_t name) { return enc(JfrBytes().varint(1).varint(name).varint(4).varint(1).u8(0)); };
  b.checkpoint({
      {ids::kClass, {{1, enc(JfrBytes().varint(0).varint(1).varint(0).varint(1))}}},
      {ids::kMethod, {{1, method(2)}, {2, method(3)}}},
      {ids::kStackTrace, {{1, stack.str()}}},
      {ids::kThread, {{1, enc(JfrBytes().utf8("main").varint(11).utf8("main").varint(1))}}},
  });
  for (int i = 0; i < 5; ++i)
    b.event(ids::kExecutionSample, JfrBytes().varint(1500 + i).varint(1).varint(1).varint(0).varint(0)
                                       .varint(0).utf8("").varint(0).varint(0));
  return b.build();
}

std::string foldedText() { return "main;handle;parse 10\nmain;handle;hash 5\nmain;idle 1\n"; }

std::vector<std::string> truncations(const std::string& valid, int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> out;
  if (valid.size() < 2) return out;
  for (int i = 0; i < n; ++i) out.push_back(valid.substr(0, 1 + rng() % (valid.size() - 1)));
  return out;
}

std::vector<std::string> bitFlips(const std::string& valid, int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> out;
  for (int i = 0; i < n && !valid.empty(); ++i) {
    std::string s = valid;
    for (int f = 1 + static_cast<int>(rng() % 8); f > 0; --f) s[rng() % s.size()] ^= static_cast<char>(1u << (rng() % 8));
    out.push_back(std::move(s));
  }
  return out;
}

std::string randomBytes(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::string s(n, '\0');
  for (size_t i = 0; i + 8 <= n; i += 8) {
    uint64_t v = rng();
    std::memcpy(&s[i], &v, 8);
  }
  if (!s.empty()) s[0] = 'R';  // neither gzip, zstd nor JFR magic
  return s;
}

std::string gzipBomb(size_t inflated) {
  z_stream z{};
  require(deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 9, Z_RLE) == Z_OK, "a gzip bomb");
  const std::string zeros(kChunk, '\0');
  std::string out;
  char buf[1 << 16];
  size_t fed = 0;
  int flush = Z_NO_FLUSH;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (z.avail_in == 0 && flush == Z_NO_FLUSH) {
      if (fed < inflated) {
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(zeros.data()));
        z.avail_in = static_cast<uInt>(std::min(kChunk, inflated - fed));
        fed += z.avail_in;
      } else {
        flush = Z_FINISH;
      }
    }
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = deflate(&z, flush);
    require(rc != Z_STREAM_ERROR, "a gzip bomb");
    out.append(buf, sizeof buf - z.avail_out);
  }
  deflateEnd(&z);
  return out;
}

std::string zstdBomb(size_t inflated) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1);
  ZSTD_CCtx_setPledgedSrcSize(cctx, inflated);  // the frame header announces the real size
  const std::string zeros(kChunk, '\0');
  std::string out;
  std::string buf(ZSTD_CStreamOutSize(), '\0');
  for (size_t fed = 0; fed < inflated;) {
    const size_t n = std::min(kChunk, inflated - fed);
    fed += n;
    ZSTD_inBuffer in{zeros.data(), n, 0};
    const ZSTD_EndDirective mode = fed == inflated ? ZSTD_e_end : ZSTD_e_continue;
    size_t left = 0;
    do {
      ZSTD_outBuffer o{buf.data(), buf.size(), 0};
      left = ZSTD_compressStream2(cctx, &o, &in, mode);
      require(!ZSTD_isError(left), "a zstd bomb");
      out.append(buf.data(), o.pos);
    } while (mode == ZSTD_e_end ? left != 0 : in.pos < in.size);
  }
  ZSTD_freeCCtx(cctx);
  return out;
}

std::string deeplyNestedJsonArrays(int depth) {
  return "{\"resourceProfiles\":" + std::string(static_cast<size_t>(depth), '[') +
         std::string(static_cast<size_t>(depth), ']') + "}";
}

std::string deeplyNestedAnyValueJson(int depth) {
  std::string open, close;
  for (int i = 0; i < depth; ++i) {
    open += R"({"kvlistValue":{"values":[{"key":"k","value":)";
    close += "}]}}";
  }
  return R"({"resourceProfiles":[{"resource":{"attributes":[{"key":"deep","value":)" + open +
         R"({"stringValue":"bottom"})" + close + R"(}]},"scopeProfiles":[]}]})";
}

std::string manyPartMultipart(int parts, const std::string& profile, std::string* content_type) {
  const std::string boundary = "hostile-boundary-7d1f";
  *content_type = "multipart/form-data; boundary=" + boundary;
  std::string body;
  body.reserve(static_cast<size_t>(parts) * 100 + profile.size() + 256);
  for (int i = 0; i < parts; ++i)
    body += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"p" + std::to_string(i) +
            "\"; filename=\"p\"\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n";
  body += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"profile\"; filename=\"profile.pprof\"\r\n" +
          "Content-Type: application/octet-stream\r\n\r\n" + profile + "\r\n--" + boundary + "--\r\n";
  return body;
}

std::string pprofManySampleTypes(int types, int samples) {
  pprof::Profile p = smallPprof();
  p.clear_sample_type();
  p.clear_sample();
  for (int t = 0; t < types; ++t) {
    auto* st = p.add_sample_type();
    st->set_type(p.string_table_size());
    p.add_string_table("type_" + std::to_string(t));
    st->set_unit(2);
  }
  for (int i = 0; i < samples; ++i) {
    auto* s = p.add_sample();
    s->add_location_id(1);
    for (int t = 0; t < types; ++t) s->add_value(i + t + 1);
  }
  return p.SerializeAsString();
}

std::string pprofHugeStringTable(int strings) {
  pprof::Profile p = smallPprof();
  for (int i = 0; i < strings; ++i) p.add_string_table("s" + std::to_string(i));
  return p.SerializeAsString();
}

std::vector<std::string> jfrLyingSizes() {
  const std::string valid = jfrChunk();
  auto be64 = [](std::string s, size_t at, uint64_t v) {
    for (int i = 7; i >= 0; --i, v >>= 8) s[at + static_cast<size_t>(i)] = static_cast<char>(v & 0xff);
    return s;
  };
  auto readBe64 = [&](size_t at) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | static_cast<uint8_t>(valid[at + static_cast<size_t>(i)]);
    return v;
  };
  std::vector<std::string> out;
  out.push_back(be64(valid, 8, UINT64_MAX));                // chunk size: 16 EiB
  out.push_back(be64(valid, 8, uint64_t(1) << 40));         // chunk size: 1 TiB
  out.push_back(be64(valid, 8, 20));                        // chunk size: inside the header
  out.push_back(be64(valid, 16, uint64_t(1) << 50));        // constant pool offset past the end
  out.push_back(be64(valid, 24, uint64_t(1) << 50));        // metadata offset past the end
  out.push_back(be64(valid, 24, 0));                        // metadata at offset 0 (the header)
  out.push_back(valid + be64(valid, 8, uint64_t(1) << 40));  // a second chunk that lies
  // Event sizes: the first event of the metadata and of the first constant pool claim 256 MiB.
  for (size_t at : {static_cast<size_t>(readBe64(24)), static_cast<size_t>(readBe64(16))}) {
    if (at + 4 > valid.size()) continue;
    std::string s = valid;
    s[at] = s[at + 1] = s[at + 2] = static_cast<char>(0xff);
    s[at + 3] = 0x7f;
    out.push_back(std::move(s));
  }
  return out;
}

std::string otlpInvalidUtf8Proto() {
  return patched(otlpProto(), "hostile-svc", "hostile\xff\xfe\xc3\x28");
}

std::string otlpInvalidUtf8Json() {
  return patched(otlpJson(), "hostile-svc", "hostile\xff\xfe\xc3\x28");
}

std::string pprofInvalidUtf8() {
  pprof::Profile p = smallPprof();
  p.set_string_table(3, "ma\xff\xfein");
  return p.SerializePartialAsString();
}

}  // namespace proflow::testing::hostile
