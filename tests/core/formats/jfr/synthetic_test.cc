// Hand-built chunks (tests/core/formats/jfr/jfr_writer.h) for what the local JDK does not write:
// async-profiler events and frame types, v2.0 headers, every string encoding, 64-bit keys, pools split over
// chained checkpoints, unknown pool types and events, Pyroscope context labels and span links.
#include <gtest/gtest.h>

#include "tests/support/dictionary_builder.h"
#include "core/formats/jfr/byte_reader.h"
#include "core/formats/jfr/chunk_reader.h"
#include "core/formats/jfr/folded.h"
#include "tests/support/fold_request.h"
#include "tests/support/jfr_request.h"
#include "tests/core/formats/jfr/jfr_writer.h"

namespace proflow::jfr {
namespace {

using testing::ChunkBuilder;
using testing::JfrBytes;
using testing::PoolSpec;
namespace ids = testing::ids;

constexpr uint64_t kWeird = 300, kWeirdPart = 301, kUnknownEvent = 150;
constexpr uint64_t kRunMethod = 1ull << 40, kThreadClass = ~0ull, kStack1 = 0x123456789ABCull;
constexpr int64_t kStartNanos = 1'700'000'000'000'000'000;

std::string enc(JfrBytes b) { return b.str(); }

std::vector<uint8_t> bytesOf(const std::string& s) { return {s.begin(), s.end()}; }

// An async-profiler-like chunk (see the expectations in the tests below); `wall` appends wall-clock
// events of thread 2 as {stack trace, samples}.
std::string asyncProfilerChunk(uint16_t minor, const std::vector<std::pair<uint64_t, uint64_t>>& wall = {}) {
  ChunkBuilder b(minor);
  b.addStandardClasses();
  b.addClass({kWeirdPart, "jdk.types.WeirdPart", "", false, {{"x", ids::kInt}, {"name", ids::kString}}});
  b.addClass({kWeird, "jdk.types.Weird", "", false,
              {{"f", ids::kFloat}, {"d", ids::kDouble}, {"s", ids::kShort}, {"c", ids::kChar}, {"b", ids::kByte},
               {"parts", kWeirdPart, false, true}, {"refs", ids::kSymbol, true, true}}});
  b.addClass({kUnknownEvent, "custom.Unknown", "jdk.jfr.Event", false, {{"startTime", ids::kLong}, {"v", ids::kDouble}}});

  auto settings = [&](const char* name, const char* value) {
    b.event(ids::kActiveSetting, JfrBytes().varint(1000).varint(0).varint(0).varint(0).utf8(name).utf8(value));
  };
  settings("event", "cpu");
  settings("interval", "5000000");
  settings("wall", "20000000");

  // First checkpoint: symbols in every encoding, frame types, thread states, strings, an unknown pool type.
  std::u16string work = u"work";
  work += char16_t(0xD83D);  // U+1F600 as a surrogate pair
  work += char16_t(0xDE00);
  b.checkpoint({
      {ids::kSymbol,
       {{1, enc(JfrBytes().utf8("java/lang/Thread"))}, {2, enc(JfrBytes().chars(u"run"))},
        {3, enc(JfrBytes().latin1("Caf\xE9"))}, {4, enc(JfrBytes().poolString(100))}, {5, enc(JfrBytes().chars(work))},
        {6, enc(JfrBytes().utf8("libc.so.6"))}, {7, enc(JfrBytes().utf8("malloc"))},
        {8, enc(JfrBytes().utf8("do_syscall_64"))}, {9, enc(JfrBytes().utf8("[kernel]"))}, {10, enc(JfrBytes().emptyString())}}},
      {ids::kFrameType,
       {{0, enc(JfrBytes().utf8("Interpreted"))}, {1, enc(JfrBytes().utf8("JIT compiled"))},
        {2, enc(JfrBytes().utf8("Inlined"))}, {3, enc(JfrBytes().utf8("Native"))}, {4, enc(JfrBytes().utf8("C++"))},
        {5, enc(JfrBytes().utf8("Kernel"))}}},
      {ids::kThreadState, {{0, enc(JfrBytes().utf8("STATE_DEFAULT"))}}},
      {ids::kString, {{100, enc(JfrBytes().utf8("app/Main"))}}},
      {kWeird,
       {{1, enc(JfrBytes().be(0x3F800000, 4).be(0x4000000000000000ull, 8).varint(7).varint(0x263A).u8(9)
                    .varint(2).varint(1).utf8("p1").varint(2).chars(u"p2").varint(3).varint(1).varint(2).varint(3))}}},
  });
  // Second checkpoint (chained by delta): classes, methods, stacks, threads, 64-bit keys.
  auto frame = [](JfrBytes& f, uint64_t method, int line, uint64_t type) { f.varint(method).varint(line).varint(0).varint(type); };
  JfrBytes st1;
  st1.u8(0).varint(3);
  frame(st1, 3, 7, 2);            // app.Main.Café, inlined into the next frame
  frame(st1, 2, 12, 1);           // app.Main.work😀, JIT compiled
  frame(st1, kRunMethod, 0, 0);   // java.lang.Thread.run, interpreted
  JfrBytes st2;
  st2.u8(0).varint(3);
  frame(st2, 5, 0, 5);  // kernel
  frame(st2, 4, 0, 3);  // C code (async-profiler "Native")
  frame(st2, 2, 0, 1);
  auto method = [](uint64_t cls, uint64_t name) { return enc(JfrBytes().varint(cls).varint(name).varint(10).varint(1).u8(0)); };
  auto cls = [](uint64_t name) { return enc(JfrBytes().varint(0).varint(name).varint(0).varint(1)); };
  b.checkpoint({
      {ids::kClass, {{kThreadClass, cls(1)}, {2, cls(4)}, {3, cls(6)}, {4, cls(9)}}},
      {ids::kMethod, {{kRunMethod, method(kThreadClass, 2)}, {2, method(2, 5)}, {3, method(2, 3)}, {4, method(3, 7)},
                      {5, method(4, 8)}}},
      {ids::kStackTrace, {{kStack1, st1.str()}, {2, st2.str()}}},
      {ids::kThread, {{1, enc(JfrBytes().latin1("w\xF6rker").varint(11).nullString().varint(21))},
                      {2, enc(JfrBytes().utf8("os-2").varint(12).utf8("java-2").varint(22))}}},
  });

  for (int i = 0; i < 3; ++i)  // ticks are µs: startTime 1500 = chunk start + 500 µs
    b.event(ids::kExecutionSample, JfrBytes().varint(1500 + i).varint(1).varint(kStack1).varint(0).varint(7)
                                       .varint(0xABCDEF).utf8("GET /x").varint(1).varint(2));
  b.event(kUnknownEvent, JfrBytes().varint(1600).be(0, 8));
  b.event(9999, JfrBytes().varint(1).varint(2).varint(3));  // type id the metadata does not know
  b.event(ids::kWallClock, JfrBytes().varint(1700).varint(2).varint(2).varint(0).varint(3).varint(100));
  b.event(ids::kMonitorEnter, JfrBytes().varint(1800).varint(12345).varint(1).varint(2).varint(2).varint(0).varint(0));
  b.event(ids::kLiveObject, JfrBytes().varint(1900).varint(1).varint(2).varint(2).varint(64).varint(1000));
  b.event(ids::kMalloc, JfrBytes().varint(2000).varint(1).varint(2).varint(0x7f00).varint(4096));
  for (size_t i = 0; i < wall.size(); ++i)
    b.event(ids::kWallClock, JfrBytes().varint(2100 + i).varint(2).varint(wall[i].first).varint(0).varint(wall[i].second).varint(100));
  return b.build(kStartNanos, 1000);
}

std::string asyncProfilerChunkForFolded() { return asyncProfilerChunk(1); }

// LabelsSnapshot { contexts { 7: { labels { 1: 2 } } } strings { 1: "endpoint", 2: "/x" } } in protobuf.
std::string labelsSnapshot() {
  auto tagged = [](int field, const std::string& body) {
    JfrBytes b;  // protobuf varints are LEB128 like JFR's below 2^56
    b.varint(static_cast<uint64_t>(field) << 3 | 2).varint(body.size()).raw(body);
    return b.str();
  };
  auto kvInt = [](uint64_t k, uint64_t v) { return JfrBytes().varint(1 << 3).varint(k).varint(2 << 3).varint(v).str(); };
  auto kvStr = [&](uint64_t k, const std::string& v) { return JfrBytes().varint(1 << 3).varint(k).str() + tagged(2, v); };
  std::string context = tagged(1, kvInt(1, 2));
  std::string contexts_entry = JfrBytes().varint(1 << 3).varint(7).str() + tagged(2, context);
  return tagged(1, contexts_entry) + tagged(2, kvStr(1, "endpoint")) + tagged(2, kvStr(2, "/x"));
}

const otlp::Profile* profile(const otlp::Request& r, std::string_view type) {
  for (const auto& p : r.resource_profiles(0).scope_profiles(0).profiles())
    if (dictString(r.dictionary(), p.sample_type().type_strindex()) == type) return &p;
  return nullptr;
}

std::string attrString(const otlp::Dictionary& d, int32_t index, std::string* key) {
  const auto& kv = d.attribute_table(index);
  *key = std::string(dictString(d, kv.key_strindex()));
  return kv.value().string_value();
}

class JfrSyntheticTest : public ::testing::TestWithParam<uint16_t> {};

TEST_P(JfrSyntheticTest, AsyncProfilerStyleChunkConverts) {
  std::string chunk = asyncProfilerChunk(GetParam());
  ContextLabels labels;
  std::string err;
  ASSERT_TRUE(labels.parse(labelsSnapshot(), &err)) << err;
  ConvertOptions o;
  o.labels = &labels;
  otlp::Request req;
  ConvertResult r = convertToOtlp(bytesOf(chunk), o, &req);
  ASSERT_TRUE(r.ok) << r.error.toString();
  EXPECT_EQ(r.chunks, 1u);
  EXPECT_EQ(r.events, 7u);  // 3 execution + wall + monitor + live + malloc; unknown events skipped

  // Every string encoding decoded; inlined frame folded into its caller's location; lines kept.
  using M = std::map<std::string, int64_t>;
  EXPECT_EQ(foldStacks(req, {"cpu", {}, true, true, true}),
            (M{{"w\xC3\xB6rker;java.lang.Thread.run;app.Main.work\xF0\x9F\x98\x80:12;app.Main.Caf\xC3\xA9:7", 3}}));
  const otlp::Profile* cpu = profile(req, "cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->period(), 5'000'000);  // ActiveSetting interval
  ASSERT_EQ(cpu->samples_size(), 1);
  const auto& s = cpu->samples(0);
  EXPECT_EQ(std::vector<int64_t>(s.values().begin(), s.values().end()), (std::vector<int64_t>{5'000'000, 5'000'000, 5'000'000}));
  EXPECT_EQ(s.timestamps_unix_nano(0), static_cast<uint64_t>(kStartNanos + 500'000));
  EXPECT_EQ(s.timestamps_unix_nano(2), static_cast<uint64_t>(kStartNanos + 502'000));
  const auto& d = req.dictionary();
  std::map<std::string, std::string> attrs;
  for (int32_t a : s.attribute_indices()) {
    std::string k;
    std::string v = attrString(d, a, &k);
    attrs[k] = v;
  }
  EXPECT_EQ(attrs, (std::map<std::string, std::string>{{"thread.name", "w\xC3\xB6rker"}, {"endpoint", "/x"}, {"span_name", "GET /x"}}));
  ASSERT_GT(s.link_index(), 0);
  const auto& link = d.link_table(s.link_index());
  EXPECT_EQ(link.trace_id(), std::string("\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0\x02", 16));
  EXPECT_EQ(link.span_id(), std::string("\0\0\0\0\0\xAB\xCD\xEF", 8));
  const auto& stack = d.stack_table(s.stack_index());
  ASSERT_EQ(stack.location_indices_size(), 2);
  EXPECT_EQ(d.location_table(stack.location_indices(0)).lines_size(), 2);

  // Wall samples: samples x wall interval; native and kernel frames typed, the library as mapping.
  EXPECT_EQ(foldStacks(req, {"wall", {}, false, false, true}), (M{{"java-2;app.Main.work\xF0\x9F\x98\x80;malloc;do_syscall_64", 60'000'000}}));
  const otlp::Profile* wall = profile(req, "wall");
  ASSERT_NE(wall, nullptr);
  const auto& wstack = d.stack_table(wall->samples(0).stack_index());
  std::vector<std::string> types;
  for (int32_t li : wstack.location_indices()) {
    std::string k;
    types.push_back(attrString(d, d.location_table(li).attribute_indices(0), &k));
    EXPECT_EQ(k, "profile.frame.type");
  }
  EXPECT_EQ(types, (std::vector<std::string>{"kernel", "native", "jvm"}));
  const auto& malloc_loc = d.location_table(wstack.location_indices(1));
  ASSERT_GT(malloc_loc.mapping_index(), 0);
  EXPECT_EQ(dictString(d, d.mapping_table(malloc_loc.mapping_index()).filename_strindex()), "libc.so.6");

  // A duration annotated NANOSECONDS is not tick-converted (1 tick = 1 µs here).
  EXPECT_EQ(profile(req, "delay")->samples(0).values(0), 12345);
  EXPECT_EQ(profile(req, "contentions")->samples(0).values(0), 1);
  EXPECT_EQ(profile(req, "live")->samples(0).values(0), 1);
  EXPECT_EQ(profile(req, "malloc_bytes")->samples(0).values(0), 4096);
  EXPECT_EQ(profile(req, "malloc_objects")->samples(0).values(0), 1);
}

INSTANTIATE_TEST_SUITE_P(Versions, JfrSyntheticTest, ::testing::Values(uint16_t{0}, uint16_t{1}));

// A profile's values are written once at finish while all its events carry the same value; a different
// value after several events, in several samples, must keep every sample's values in event order.
TEST(JfrSyntheticChunksTest, ValuesThatChangeMidwayStayInEventOrder) {
  // The chunk's own wall event (stack 2, 3 samples) comes first.
  std::string chunk = asyncProfilerChunk(1, {{2, 3}, {kStack1, 3}, {kStack1, 3}, {2, 5}, {kStack1, 7}, {2, 3}});
  otlp::Request req;
  ConvertResult r = convertToOtlp(bytesOf(chunk), {}, &req);
  ASSERT_TRUE(r.ok) << r.error.toString();
  const otlp::Profile* wall = profile(req, "wall");
  ASSERT_NE(wall, nullptr);
  ASSERT_EQ(wall->samples_size(), 2);
  auto values = [&](int i) {
    const auto& s = wall->samples(i);
    EXPECT_EQ(s.values_size(), s.timestamps_unix_nano_size());
    std::vector<int64_t> v;
    for (int64_t x : s.values()) v.push_back(x / 20'000'000);  // wall interval 20 ms
    return v;
  };
  EXPECT_EQ(values(0), (std::vector<int64_t>{3, 3, 5, 3}));  // stack 2
  EXPECT_EQ(values(1), (std::vector<int64_t>{3, 3, 7}));     // stack 1
}

TEST(JfrSyntheticChunksTest, PoolKeysAreScopedToTheirChunk) {
  auto chunk = [](const char* method_name) {
    ChunkBuilder b;
    b.addStandardClasses();
    JfrBytes st;
    st.u8(0).varint(1).varint(1).varint(3).varint(0).varint(0);
    b.checkpoint({{ids::kSymbol, {{1, JfrBytes().utf8("C").str()}, {2, JfrBytes().utf8(method_name).str()}}},
                  {ids::kFrameType, {{0, JfrBytes().utf8("Interpreted").str()}}},
                  {ids::kClass, {{1, JfrBytes().varint(0).varint(1).varint(0).varint(0).str()}}},
                  {ids::kMethod, {{1, JfrBytes().varint(1).varint(2).varint(0).varint(0).u8(0).str()}}},
                  {ids::kStackTrace, {{1, st.str()}}}});
    b.event(ids::kExecutionSample,
            JfrBytes().varint(1001).varint(0).varint(1).varint(0).varint(0).varint(0).nullString().varint(0).varint(0));
    return b.build();
  };
  std::string file = chunk("first") + chunk("second");
  otlp::Request req;
  ConvertResult r = convertToOtlp(bytesOf(file), {}, &req);
  ASSERT_TRUE(r.ok) << r.error.toString();
  EXPECT_EQ(r.chunks, 2u);
  EXPECT_EQ(foldStacks(req, {"cpu", {}, true, true, false}),
            (std::map<std::string, int64_t>{{"C.first:3", 1}, {"C.second:3", 1}}));
}

TEST(JfrSyntheticChunksTest, SelfReferentialStructInAPoolFailsWithoutRecursingForever) {
  ChunkBuilder b;
  b.addStandardClasses();
  b.addClass({kWeird, "jdk.types.Loop", "", false, {{"x", ids::kInt}, {"next", kWeird}}});
  JfrBytes deep;
  for (int i = 0; i < 100; ++i) deep.varint(1);
  b.checkpoint({{kWeird, {{1, deep.str()}}}});
  Chunk c;
  std::string bytes = b.build();
  EXPECT_FALSE(c.load(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0));
  EXPECT_NE(c.error().message.find("jdk.types.Loop"), std::string::npos) << c.error().toString();
}

TEST(JfrSyntheticChunksTest, FieldOfUndefinedTypeIsAnError) {
  ChunkBuilder b;
  b.addStandardClasses();
  b.addClass({kWeird, "jdk.types.Broken", "", false, {{"x", 777}}});
  b.checkpoint({{kWeird, {{1, JfrBytes().varint(1).str()}}}});
  std::string bytes = b.build();
  otlp::Request req;
  ConvertResult r = convertToOtlp(bytesOf(bytes), {}, &req);
  EXPECT_FALSE(r.ok);
  EXPECT_GT(r.error.offset, 68u);
}

TEST(JfrByteReaderTest, VarintsFollowTheNineByteRule) {
  auto read = [](std::vector<uint8_t> b) {
    ByteReader r(b.data(), b.data(), b.data() + b.size());
    uint64_t v = r.varint();
    EXPECT_TRUE(r.ok());
    EXPECT_TRUE(r.atEnd());
    return v;
  };
  EXPECT_EQ(read({0x05}), 5u);
  EXPECT_EQ(read({0x92, 0xE5, 0x85, 0x00}), 0x92 - 0x80 + (0x65 << 7) + (0x05 << 14));  // padded u4
  EXPECT_EQ(read({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}), ~0ull);
  EXPECT_EQ(read({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}), 1ull << 56);
  std::vector<uint8_t> cut = {0x80, 0x80};
  ByteReader r(cut.data(), cut.data(), cut.data() + cut.size());
  r.varint();
  EXPECT_FALSE(r.ok());
}

TEST(JfrContextLabelsTest, MalformedSnapshotIsRejected) {
  ContextLabels l;
  std::string err;
  EXPECT_FALSE(l.parse(std::string("\x0a\x05\x08", 3), &err));
  EXPECT_FALSE(err.empty());
  ASSERT_TRUE(l.parse(labelsSnapshot(), &err));
  ASSERT_NE(l.find(7), nullptr);
  EXPECT_EQ(*l.find(7), (LabelPairs{{"endpoint", "/x"}}));
  EXPECT_EQ(l.find(0), nullptr);
  EXPECT_EQ(l.find(8), nullptr);
}

}  // namespace
}  // namespace proflow::jfr

namespace proflow::jfr {
namespace {

TEST(JfrFoldedTest, JfrToFoldedWritesOneSortedLinePerStack) {
  std::string chunk = asyncProfilerChunkForFolded();
  std::string out, err;
  ASSERT_TRUE(jfrToFolded(bytesOf(chunk), {"malloc_bytes"}, &out, &err)) << err;
  EXPECT_EQ(out, "app.Main.work\xF0\x9F\x98\x80;malloc;do_syscall_64 4096\n");
  // A damaged file still yields what was decoded, plus the error.
  std::string cut = chunk.substr(0, chunk.size() - 3);
  EXPECT_FALSE(jfrToFolded(bytesOf(cut), {"malloc_bytes"}, &out, &err));
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  EXPECT_EQ(out, "");
}

}  // namespace
}  // namespace proflow::jfr
