// `format=jfr` over real HTTP, sent the way pyroscope-java sends it (multipart parts `jfr` and `labels`,
// gzip'd or not, or a raw body): JDK recordings made at test time by the JFR format tests' script, and a
// hand-built chunk carrying Pyroscope's contextId field so the LabelsSnapshot can be seen applied.
#include <map>
#include <span>

#include "core/compression/compression.h"
#include "tests/support/jfr_request.h"
#include "receivers/pyroscope/jfr_input.h"
#include "tests/core/formats/jfr/jfr_writer.h"
#include "tests/core/formats/jfr/wild_recordings.h"
#include "tests/receivers/pyroscope/receiver_harness.h"
#include "tests/support/flat_request.h"

namespace proflow::receivers::pyroscope::testing {
namespace {

using proflow::testing::ChunkBuilder;
using proflow::testing::JfrBytes;
namespace ids = proflow::testing::ids;

// What pyroscope-java puts in the query (from/until in seconds; sampleRate for cpu/itimer/wall).
const std::string kJavaQuery =
    "/ingest?name=java-app%7Benv%3Dprod%7D&units=samples&aggregationType=sum&sampleRate=250"
    "&from=1795987028&until=1795987038&spyName=javaspy&format=jfr";
constexpr int64_t kFromNs = 1795987028LL * 1'000'000'000;
constexpr int64_t kPeriod250Hz = 4'000'000;

// JDK recordings shared with tests/core/formats/jfr (made once per build directory).
std::string recording(const std::string& name) {
  const std::string src = std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/jfr/testdata";
  const std::string out = std::string(PROFLOW_BINARY_DIR) + "/tests/core/formats/jfr/recordings";
  std::string log;
  int rc = proflow::testing::runCommand({"sh", src + "/make_recordings.sh", src, out}, &log);
  EXPECT_EQ(rc, 0) << "making JDK recordings failed (needs openjdk-17-jdk-headless): " << log;
  return out + "/" + name;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string gzip(const std::string& s) {
  std::string out;
  EXPECT_TRUE(compression::compress(compression::Codec::kGzip, s, out).isOk());
  return out;
}

// Protobuf wire helpers for the LabelsSnapshot (jfr.md §8: contexts = 1 map<int64, Context>,
// strings = 2 map<int64, string>; Context.labels = 1 map<int64, int64>; map entries key = 1, value = 2).
std::string varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  return out + static_cast<char>(v);
}
std::string lenField(int field, const std::string& body) { return varint(field << 3 | 2) + varint(body.size()) + body; }
std::string intField(int field, uint64_t v) { return varint(field << 3) + varint(v); }

std::string labelsSnapshot(const std::map<int64_t, std::vector<std::pair<std::string, std::string>>>& contexts) {
  std::map<std::string, int64_t> ids;
  std::string out;
  auto id = [&](const std::string& s) { return ids.emplace(s, static_cast<int64_t>(ids.size()) + 1).first->second; };
  for (const auto& [context_id, pairs] : contexts) {
    std::string context;
    for (const auto& [k, v] : pairs) context += lenField(1, intField(1, id(k)) + intField(2, id(v)));
    out += lenField(1, intField(1, context_id) + lenField(2, context));
  }
  for (const auto& [s, i] : ids) out += lenField(2, intField(1, i) + lenField(2, s));
  return out;
}

// One async-profiler-style chunk (Pyroscope's fork: ExecutionSample with contextId): samples of one
// stack with contextIds 7, 7, 7, 8, 0, 0, 9.
std::string contextChunk() {
  ChunkBuilder b;
  b.addStandardClasses();
  b.checkpoint({
      {ids::kSymbol, {{1, JfrBytes().utf8("app/Handler").str()}, {2, JfrBytes().utf8("handle").str()},
                      {3, JfrBytes().utf8("()V").str()}}},
      {ids::kFrameType, {{1, JfrBytes().utf8("JIT compiled").str()}}},
      {ids::kThreadState, {{0, JfrBytes().utf8("STATE_DEFAULT").str()}}},
      {ids::kClass, {{1, JfrBytes().varint(0).varint(1).varint(0).varint(1).str()}}},
      {ids::kMethod, {{1, JfrBytes().varint(1).varint(2).varint(3).varint(1).u8(0).str()}}},
      {ids::kStackTrace, {{1, JfrBytes().u8(0).varint(1).varint(1).varint(42).varint(0).varint(1).str()}}},
      {ids::kThread, {{1, JfrBytes().utf8("worker").varint(11).utf8("worker").varint(21).str()}}},
  });
  int64_t tick = 1500;
  for (uint64_t context : {7, 7, 7, 8, 0, 0, 9})
    b.event(ids::kExecutionSample, JfrBytes().varint(tick++).varint(1).varint(1).varint(0).varint(context)
                                       .varint(0).nullString().varint(0).varint(0));
  return b.build();
}

const otlp::Profile* findProfile(const otlp::Request& r, std::string_view type) {
  for (const auto& rp : r.resource_profiles())
    for (const auto& sp : rp.scope_profiles())
      for (const auto& p : sp.profiles())
        if (dictString(r.dictionary(), p.sample_type().type_strindex()) == type) return &p;
  return nullptr;
}

struct Totals {
  int64_t events = 0;
  int64_t value = 0;
};
Totals totals(const otlp::Profile& p) {
  Totals t;
  for (const auto& s : p.samples())
    for (int64_t v : s.values()) ++t.events, t.value += v;
  return t;
}

// The CPU profile the JFR library makes of `file` on its own (what the receiver must deliver).
Totals expectedCpu(const std::string& file, int64_t period) {
  const std::string data = slurp(file);
  jfr::ConvertOptions o;
  o.cpu_period_nanos = period;
  otlp::Request req;
  const auto r = jfr::convertToOtlp(std::span(reinterpret_cast<const uint8_t*>(data.data()), data.size()), o, &req);
  EXPECT_TRUE(r.ok) << r.error.toString();
  const otlp::Profile* cpu = findProfile(req, "cpu");
  EXPECT_NE(cpu, nullptr) << "the JDK recording has no CPU samples";
  return cpu ? totals(*cpu) : Totals{};
}

// Sample attributes (key -> value) of a sample.
std::map<std::string, std::string> sampleAttrs(const otlp::Request& r, const otlp::Sample& s) {
  std::map<std::string, std::string> out;
  for (int32_t i : s.attribute_indices()) {
    const auto& kv = r.dictionary().attribute_table(i);
    out[std::string(dictString(r.dictionary(), kv.key_strindex()))] = kv.value().string_value();
  }
  return out;
}

void expectJsonError(const Reply& r, int status, const std::string& code, const std::string& message_part) {
  EXPECT_EQ(r.status, status) << r.body;
  EXPECT_NE(r.headers.find("application/json"), std::string::npos) << r.headers;
  EXPECT_NE(r.body.find("\"code\":\"" + code + "\""), std::string::npos) << r.body;
  EXPECT_NE(r.body.find(message_part), std::string::npos) << r.body;
}

TEST_F(ReceiverTest, JdkRecordingAsPyroscopeJavaSendsIt) {
  const std::string rec = recording("profile.jfr");
  Reply r = post(kJavaQuery, {"-F", "jfr=@" + rec + ";type=application/octet-stream;filename=jfr"});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, "");
  auto got = batches();
  ASSERT_EQ(got.size(), 1u);
  const otlp::Request& req = ::proflow::testing::requestOf(got[0]);
  ASSERT_EQ(req.resource_profiles_size(), 1);
  const auto& rp = req.resource_profiles(0);
  EXPECT_EQ(resourceAttr(rp, "service.name"), "java-app");
  EXPECT_EQ(resourceAttr(rp, "env"), "prod");
  EXPECT_EQ(resourceAttr(rp, "pyroscope.spy_name"), "javaspy");
  EXPECT_EQ(rp.scope_profiles(0).scope().name(), "proflow.receiver.pyroscope");

  const otlp::Profile* cpu = findProfile(req, "cpu");
  ASSERT_NE(cpu, nullptr);
  // sampleRate=250 -> every CPU sample weighs 4 ms, whatever the recording's own period (10 ms).
  EXPECT_EQ(cpu->period(), kPeriod250Hz);
  const Totals t = totals(*cpu);
  EXPECT_GT(t.events, 0);
  EXPECT_EQ(t.value, t.events * kPeriod250Hz);
  const Totals want = expectedCpu(rec, kPeriod250Hz);
  EXPECT_EQ(t.events, want.events);  // every sample of the recording arrived
  EXPECT_EQ(t.value, want.value);
  EXPECT_EQ(profileAttr(req, *cpu, "pyroscope.profile.name"), "process_cpu");
  EXPECT_EQ(cpu->original_payload_format(), "jfr");
  // The upload window from the query.
  EXPECT_EQ(cpu->time_unix_nano(), static_cast<uint64_t>(kFromNs));
  EXPECT_EQ(cpu->duration_nano(), 10'000'000'000ull);
  // profile.jfr has allocation samples too: memory family.
  const otlp::Profile* alloc = findProfile(req, "alloc_sample_bytes");
  ASSERT_NE(alloc, nullptr);
  EXPECT_EQ(profileAttr(req, *alloc, "pyroscope.profile.name"), "memory");
}

// pyroscope-java's own recording: its lambda classes (App$$Lambda.0x…) are merged by default and
// kept as recorded with keep_generated_names.
TEST_F(ReceiverTest, GeneratedClassNamesAreMergedUnlessKept) {
  for (bool keep : {false, true}) {
    PyroscopeReceiverConfig cfg;
    cfg.keep_generated_names = keep;
    start(cfg);
    const std::string rec = proflow::testing::wildRecording("wall");
    Reply r = post(kJavaQuery, {"-F", "jfr=@" + rec + ";type=application/octet-stream;filename=jfr"});
    ASSERT_EQ(r.status, 200) << r.body;
    auto got = batches();
    ASSERT_FALSE(got.empty());
    const otlp::Request last = ::proflow::testing::requestOf(got.back());
    const auto& d = last.dictionary();
    size_t lambdas = 0, per_run = 0;
    for (const auto& f : d.function_table()) {
      const std::string& name = d.string_table(f.name_strindex());
      lambdas += name.find("$$Lambda") != std::string::npos ? 1 : 0;
      per_run += proflow::testing::hasPerRunPart(name) ? 1 : 0;
    }
    EXPECT_GT(lambdas, 0u);
    EXPECT_EQ(per_run > 0, keep) << per_run;
  }
}

TEST_F(ReceiverTest, GzipPartsAndALabelsPartWithJdkRecording) {
  const std::string rec = recording("default.jfr");
  const std::string jfr_gz = dir_.write("jfr.gz", gzip(slurp(rec)));
  // The JDK writes no contextId: a snapshot whose contexts match nothing must parse and change nothing.
  const std::string labels_gz = dir_.write("labels.gz", gzip(labelsSnapshot({{1, {{"endpoint", "/a"}}}})));
  Reply r = post("/ingest?name=java-app&format=jfr&spyName=javaspy&from=1795987028&until=1795987038",
                 {"-F", "jfr=@" + jfr_gz + ";type=application/octet-stream;filename=jfr", "-F",
                  "labels=@" + labels_gz + ";type=application/x-protobuf;filename=labels"});
  ASSERT_EQ(r.status, 200) << r.body;
  auto got = batches();
  ASSERT_EQ(got.size(), 1u);
  const otlp::Request first = ::proflow::testing::requestOf(got[0]);
  const otlp::Profile* cpu = findProfile(first, "cpu");
  ASSERT_NE(cpu, nullptr);
  // No sampleRate: the recording's own period (what the library takes from jdk.ActiveSetting).
  const Totals want = expectedCpu(rec, 0);
  const Totals t = totals(*cpu);
  EXPECT_GT(t.events, 0);
  EXPECT_EQ(t.events, want.events);
  EXPECT_EQ(t.value, want.value);
  EXPECT_EQ(cpu->period(), want.value / want.events);
  for (const auto& s : cpu->samples()) EXPECT_EQ(sampleAttrs(first, s).count("endpoint"), 0u);

  // A raw (non-multipart) body: the JFR bytes themselves, gzip'd here; no `from`: the recording's times.
  r = post("/ingest?name=java-app&format=jfr&sampleRate=100", {"-H", "Content-Type: application/octet-stream",
                                                                "--data-binary", "@" + jfr_gz});
  ASSERT_EQ(r.status, 200) << r.body;
  got = batches();
  ASSERT_EQ(got.size(), 2u);
  const otlp::Request second = ::proflow::testing::requestOf(got[1]);
  cpu = findProfile(second, "cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->period(), 10'000'000);
  EXPECT_EQ(totals(*cpu).events, want.events);
  EXPECT_NE(cpu->time_unix_nano(), static_cast<uint64_t>(kFromNs));
  EXPECT_GT(cpu->time_unix_nano(), 1'600'000'000'000'000'000ull);  // a real recording time, not 1970
  EXPECT_EQ(resourceAttr(second.resource_profiles(0), "service.name"), "java-app");
}

TEST_F(ReceiverTest, LabelsSnapshotIsAppliedByContextId) {
  const std::string chunk = dir_.write("ctx.jfr", contextChunk());
  const std::string labels = labelsSnapshot({{7, {{"endpoint", "/x"}, {"tenant", "t1"}}}, {8, {{"endpoint", "/y"}}}});
  for (bool gzipped : {false, true}) {
    const std::string labels_file = dir_.write("labels.pb", gzipped ? gzip(labels) : labels);
    Reply r = post(kJavaQuery, {"-F", "jfr=@" + chunk + ";type=application/octet-stream;filename=jfr", "-F",
                                "labels=@" + labels_file + ";type=application/x-protobuf;filename=labels"});
    ASSERT_EQ(r.status, 200) << r.body;
  }
  auto got = batches();
  ASSERT_EQ(got.size(), 2u);
  for (const auto& b : got) {
    const otlp::Request& req = ::proflow::testing::requestOf(b);
    const otlp::Profile* cpu = findProfile(req, "cpu");
    ASSERT_NE(cpu, nullptr);
    std::map<std::string, int64_t> events_by_endpoint;  // "" = no dynamic labels
    for (const auto& s : cpu->samples()) {
      auto attrs = sampleAttrs(req, s);
      EXPECT_EQ(attrs["thread.name"], "worker");
      EXPECT_EQ(attrs["tenant"], attrs["endpoint"] == "/x" ? "t1" : "");  // all pairs of context 7, only its
      events_by_endpoint[attrs["endpoint"]] += s.values_size();
      for (int64_t v : s.values()) EXPECT_EQ(v, kPeriod250Hz);
    }
    // contextIds 7 x3 -> /x, 8 -> /y, 0 x2 and the unknown 9 -> none.
    EXPECT_EQ(events_by_endpoint, (std::map<std::string, int64_t>{{"", 3}, {"/x", 3}, {"/y", 1}}));
  }
}

TEST_F(ReceiverTest, BadJfrUploadsGetJsonErrors) {
  const std::string whole = slurp(recording("default.jfr"));
  ASSERT_GT(whole.size(), 1000u);
  const std::string truncated = dir_.write("truncated.jfr", whole.substr(0, whole.size() / 2));
  // A damaged recording: 422 with the parser's message naming the offset.
  expectJsonError(post(kJavaQuery, {"-F", "jfr=@" + truncated + ";filename=jfr"}), 422, "invalid_argument", "offset");
  expectJsonError(post(kJavaQuery, {"--data-binary", "@" + truncated}), 422, "invalid_argument", "offset");
  expectJsonError(post(kJavaQuery, {"--data-binary", "not a recording"}), 422, "invalid_argument", "JFR");
  // pyroscope-java always sends `jfr`; without it the upload is refused.
  const std::string jfr_file = dir_.write("ok.jfr", contextChunk());
  expectJsonError(post(kJavaQuery, {"-F", "labels=@" + jfr_file}), 422, "invalid_argument", "'jfr' part is required");
  // A labels part that is not a LabelsSnapshot (truncated length-delimited field), gzip'd or not.
  const std::string bad_labels = dir_.write("bad.pb", std::string("\x0a\x7f\x08", 3));
  const std::string bad_labels_gz = dir_.write("bad.pb.gz", gzip(std::string("\x0a\x7f\x08", 3)));
  for (const auto& f : {bad_labels, bad_labels_gz})
    expectJsonError(post(kJavaQuery, {"-F", "jfr=@" + jfr_file, "-F", "labels=@" + f}), 422, "invalid_argument",
                    "labels part");
  // A gzip bomb as the jfr part: the inflate ratio limit.
  std::string zeros(64u << 20, '\0');
  const std::string bomb = dir_.write("bomb.gz", gzip(zeros));
  expectJsonError(post(kJavaQuery, {"-F", "jfr=@" + bomb}), 413, "resource_exhausted", "jfr part");
  EXPECT_TRUE(batches().empty());
  // Still serving.
  EXPECT_EQ(post(kJavaQuery, {"-F", "jfr=@" + jfr_file}).status, 200);
  EXPECT_EQ(batches().size(), 1u);
}

TEST_F(ReceiverTest, JfrOverTheProfileSizeLimitGets413) {
  const std::string rec = recording("profile.jfr");
  const std::string data = slurp(rec);
  PyroscopeReceiverConfig cfg;
  cfg.max_profile_size = config::ByteSize(data.size() / 2);
  start(cfg);
  expectJsonError(post(kJavaQuery, {"-F", "jfr=@" + rec}), 413, "resource_exhausted", "over the limit");
  expectJsonError(post(kJavaQuery, {"--data-binary", "@" + rec}), 413, "resource_exhausted", "over the limit");
  // Gzip'd it is small on the wire but still too large once inflated.
  const std::string gz = dir_.write("rec.gz", gzip(data));
  expectJsonError(post(kJavaQuery, {"-F", "jfr=@" + gz}), 413, "resource_exhausted", "");
  EXPECT_TRUE(batches().empty());
}

TEST_F(ReceiverTest, JfrPipelineRefusalsBecome429WithRetryAfterOr422) {
  const std::string chunk = dir_.write("ctx.jfr", contextChunk());
  capture_->answer = Status::exhausted("queue full").withRetryAfter(std::chrono::milliseconds(2500));
  Reply r = post(kJavaQuery, {"-F", "jfr=@" + chunk});
  expectJsonError(r, 429, "resource_exhausted", "queue full");
  EXPECT_NE(r.headers.find("Retry-After: 3"), std::string::npos) << r.headers;
  capture_->answer = Status::invalid("refused for good");
  expectJsonError(post(kJavaQuery, {"-F", "jfr=@" + chunk}), 422, "invalid_argument", "refused for good");
}

TEST(JfrMetricTest, PyroscopeFamilies) {
  EXPECT_EQ(jfrMetricFor("cpu", "cpu"), "process_cpu");
  EXPECT_EQ(jfrMetricFor("wall", "wall"), "wall");
  EXPECT_EQ(jfrMetricFor("alloc_in_new_tlab_bytes", "space"), "memory");
  EXPECT_EQ(jfrMetricFor("contentions", "mutex"), "mutex");
  EXPECT_EQ(jfrMetricFor("delay", "block"), "block");
  EXPECT_EQ(jfrMetricFor("live", "objects"), "memory");
  EXPECT_EQ(jfrMetricFor("malloc_bytes", "space"), "memory");
  EXPECT_EQ(jfrMetricFor("native_method", "native_method"), "");
}

}  // namespace
}  // namespace proflow::receivers::pyroscope::testing
