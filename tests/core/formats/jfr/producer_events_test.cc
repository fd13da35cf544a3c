// Events and markings of other producers, on chunks written field by field as they write them:
// Datadog's profiler (datadog.ExecutionSample, MethodSample, ObjectSample with its float weight,
// HeapLiveObject), wall-clock samples' thread states, and stacks the producer cut at its depth limit.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/support/flat_request.h"
#include "core/formats/jfr/flat_converter.h"
#include "tests/support/dictionary_builder.h"
#include "tests/core/formats/jfr/jfr_writer.h"
#include "tests/core/formats/jfr/recordings.h"
#include "tests/core/formats/jfr/wild_recordings.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow::jfr {
namespace {

using testing::ChunkBuilder;
using testing::JfrBytes;
namespace ids = testing::ids;

constexpr uint64_t kDdExecution = 130, kDdMethod = 131, kDdObject = 132, kDdLive = 133, kDdConfig = 134;
constexpr uint64_t kFullStack = 1, kCutStack = 2;
constexpr uint64_t kRunnable = 0, kSleeping = 1;

std::string enc(const JfrBytes& b) { return b.str(); }

// One chunk: 10 ms CPU period, 20 ms wall interval (async-profiler's settings, then Datadog's
// configuration saying the same); thread 1; stack 1 whole, stack 2 truncated.
std::string producerChunk(bool intervals = true) {
  ChunkBuilder b;
  b.addStandardClasses();
  const std::vector<std::pair<uint64_t, std::string>> ticks = {{ids::kTimestamp, "TICKS"}};
  auto sampleClass = [&](uint64_t id, const char* name) {
    b.addClass({id, name, "jdk.jfr.Event", false,
                {{"startTime", ids::kLong, false, false, ticks}, {"eventThread", ids::kThread, true},
                 {"stackTrace", ids::kStackTrace, true}, {"state", ids::kThreadState, true}, {"weight", ids::kLong},
                 {"spanId", ids::kLong}, {"localRootSpanId", ids::kLong}}});
  };
  sampleClass(kDdExecution, "datadog.ExecutionSample");
  sampleClass(kDdMethod, "datadog.MethodSample");
  auto objectClass = [&](uint64_t id, const char* name) {
    b.addClass({id, name, "jdk.jfr.Event", false,
                {{"startTime", ids::kLong, false, false, ticks}, {"eventThread", ids::kThread, true},
                 {"stackTrace", ids::kStackTrace, true}, {"objectClass", ids::kClass, true}, {"size", ids::kLong},
                 {"weight", ids::kFloat}, {"spanId", ids::kLong}, {"localRootSpanId", ids::kLong}}});
  };
  objectClass(kDdObject, "datadog.ObjectSample");
  objectClass(kDdLive, "datadog.HeapLiveObject");
  const std::vector<std::pair<uint64_t, std::string>> millis = {{ids::kTimespan, "MILLISECONDS"}};
  b.addClass({kDdConfig, "datadog.DatadogProfilerConfig", "jdk.jfr.Event", false,
              {{"startTime", ids::kLong, false, false, ticks}, {"duration", ids::kLong},
               {"eventThread", ids::kThread, true}, {"cpuInterval", ids::kLong, false, false, millis},
               {"wallInterval", ids::kLong, false, false, millis}, {"allocInterval", ids::kLong}}});

  auto setting = [&](const char* name, const char* value) {
    b.event(ids::kActiveSetting, JfrBytes().varint(1000).varint(0).varint(0).varint(0).utf8(name).utf8(value));
  };
  if (intervals) {
    setting("interval", "5000000");
    setting("wall", "7000000");
    b.event(kDdConfig, JfrBytes().varint(1001).varint(0).varint(0).varint(10).varint(20).varint(65536));
  } else {
    setting("interval", "0");  // async-profiler: the default
  }
  auto stack = [](bool truncated) {
    JfrBytes s;
    s.u8(truncated ? 1 : 0).varint(2);
    s.varint(2).varint(7).varint(0).varint(1);  // app.Main.work, JIT compiled
    s.varint(1).varint(3).varint(0).varint(0);  // app.Main.main, interpreted
    return s.str();
  };
  auto method = [](uint64_t name) { return enc(JfrBytes().varint(1).varint(name).varint(3).varint(1).u8(0)); };
  b.checkpoint({
      {ids::kSymbol, {{1, enc(JfrBytes().utf8("app/Main"))}, {2, enc(JfrBytes().utf8("main"))},
                      {3, enc(JfrBytes().utf8("()V"))}, {4, enc(JfrBytes().utf8("work"))}}},
      {ids::kFrameType, {{0, enc(JfrBytes().utf8("Interpreted"))}, {1, enc(JfrBytes().utf8("JIT compiled"))}}},
      {ids::kThreadState, {{kRunnable, enc(JfrBytes().utf8("STATE_RUNNABLE"))},
                           {kSleeping, enc(JfrBytes().utf8("STATE_SLEEPING"))}}},
      {ids::kClass, {{1, enc(JfrBytes().varint(0).varint(1).varint(0).varint(1))}}},
      {ids::kMethod, {{1, method(2)}, {2, method(4)}}},
      {ids::kStackTrace, {{kFullStack, stack(false)}, {kCutStack, stack(true)}}},
      {ids::kThread, {{1, enc(JfrBytes().utf8("worker").varint(11).utf8("worker").varint(21))}}},
  });
  // async-profiler's wall clock: the same stack and thread in two states.
  auto wall = [&](uint64_t t, uint64_t state, uint64_t samples) {
    b.event(ids::kWallClock, JfrBytes().varint(t).varint(1).varint(kFullStack).varint(state).varint(samples).varint(0));
  };
  wall(1100, kRunnable, 2);
  wall(1101, kSleeping, 3);
  wall(1102, kRunnable, 1);
  // The JDK's CPU sample on a whole and on a truncated stack.
  auto cpu = [&](uint64_t t, uint64_t stack) {
    b.event(ids::kExecutionSample, JfrBytes().varint(t).varint(1).varint(stack).varint(kRunnable).varint(0).varint(0)
                                       .nullString().varint(0).varint(0));
  };
  cpu(1200, kFullStack);
  cpu(1201, kCutStack);
  cpu(1202, kCutStack);
  // Datadog's profiler.
  b.event(kDdExecution, JfrBytes().varint(1300).varint(1).varint(kFullStack).varint(kRunnable).varint(2).varint(0).varint(0));
  b.event(kDdMethod, JfrBytes().varint(1301).varint(1).varint(kFullStack).varint(kSleeping).varint(1).varint(0).varint(0));
  b.event(kDdObject, JfrBytes().varint(1302).varint(1).varint(kFullStack).varint(1).varint(100).be(0x40200000, 4)  // 2.5f
                         .varint(0).varint(0));
  b.event(kDdLive, JfrBytes().varint(1303).varint(1).varint(kFullStack).varint(1).varint(64).be(0x40800000, 4)  // 4.0f
                       .varint(0).varint(0));
  return b.build();
}

// Per sample of one profile: its sorted "key=value" attributes (thread.name left out) -> its values.
std::map<std::string, std::vector<int64_t>> samplesOf(const otlp::Request& r, std::string_view type) {
  std::map<std::string, std::vector<int64_t>> out;
  const auto& d = r.dictionary();
  for (const auto& p : r.resource_profiles(0).scope_profiles(0).profiles()) {
    if (dictString(d, p.sample_type().type_strindex()) != type) continue;
    for (const auto& s : p.samples()) {
      std::string attrs;
      for (int32_t i : s.attribute_indices()) {
        const auto& kv = d.attribute_table(i);
        const std::string_view key = dictString(d, kv.key_strindex());
        if (key == "thread.name") continue;
        attrs += std::string(key) + "=" +
                 (kv.value().has_bool_value() ? (kv.value().bool_value() ? "true" : "false") : kv.value().string_value()) +
                 " ";
      }
      auto& values = out[attrs];
      values.insert(values.end(), s.values().begin(), s.values().end());
    }
  }
  return out;
}

class ProducerEventsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string chunk = producerChunk();
    flat::Batch batch;
    const ConvertResult r = convertToFlat(std::span(reinterpret_cast<const uint8_t*>(chunk.data()), chunk.size()), {}, &batch);
    ASSERT_TRUE(r.ok) << r.error.toString();
    ASSERT_TRUE(flat::toRequest(batch, &req_).isOk());
  }
  otlp::Request req_;
};

TEST_F(ProducerEventsTest, WallSamplesKeepTheirThreadState) {
  using V = std::vector<int64_t>;
  const auto wall = samplesOf(req_, "wall");
  // samples x 20 ms; Datadog's MethodSample: weight x 20 ms.
  EXPECT_EQ(wall, (std::map<std::string, V>{{"thread.state=STATE_RUNNABLE ", V{40'000'000, 20'000'000}},
                                            {"thread.state=STATE_SLEEPING ", V{60'000'000, 20'000'000}}}));
}

// async-profiler's wall clock without an interval: its default, 50 ms.
TEST(ProducerEventsDefaultsTest, WallClockDefaultsToFiftyMilliseconds) {
  using V = std::vector<int64_t>;
  const std::string chunk = producerChunk(/*intervals=*/false);
  flat::Batch batch;
  ASSERT_TRUE(convertToFlat(std::span(reinterpret_cast<const uint8_t*>(chunk.data()), chunk.size()), {}, &batch).ok);
  otlp::Request req;
  ASSERT_TRUE(flat::toRequest(batch, &req).isOk());
  EXPECT_EQ(samplesOf(req, "wall"), (std::map<std::string, V>{{"thread.state=STATE_RUNNABLE ", V{100'000'000, 50'000'000}},
                                                             {"thread.state=STATE_SLEEPING ", V{150'000'000, 50'000'000}}}));
  EXPECT_EQ(samplesOf(req, "cpu"), (std::map<std::string, V>{{"", V{10'000'000, 20'000'000}},
                                                            {"jfr.stack_trace.truncated=true ", V{10'000'000, 10'000'000}}}));
}

TEST_F(ProducerEventsTest, TruncatedStacksAreMarked) {
  using V = std::vector<int64_t>;
  const auto cpu = samplesOf(req_, "cpu");
  // The JDK's samples, then Datadog's (weight 2) on the whole stack.
  EXPECT_EQ(cpu, (std::map<std::string, V>{{"", V{10'000'000, 20'000'000}},
                                           {"jfr.stack_trace.truncated=true ", V{10'000'000, 10'000'000}}}));
}

TEST_F(ProducerEventsTest, DatadogAllocationsAndLiveObjectsCountTheirWeight) {
  using V = std::vector<int64_t>;
  EXPECT_EQ(samplesOf(req_, "alloc_sample_objects"), (std::map<std::string, V>{{"", V{3}}}));   // 2.5 rounded
  EXPECT_EQ(samplesOf(req_, "alloc_sample_bytes"), (std::map<std::string, V>{{"", V{250}}}));   // 100 x 2.5
  EXPECT_EQ(samplesOf(req_, "live"), (std::map<std::string, V>{{"", V{4}}}));
}

// pyroscope-java's span context (new_spancontext: 235 samples each of span ids 239 and 4242, span names
// 1 and 2 as ids into the upload's LabelsSnapshot strings): names from the snapshot, ids as links.
TEST(PyroscopeSpanContextTest, SpanNamesComeFromTheLabelsStrings) {
  testing::TempDir dir;
  std::string log;
  ASSERT_EQ(testing::runCommand({"sh", "-c", "gzip -dc '" + testing::wildRecording("new_spancontext") + "' > '" +
                                                 dir.file("r.jfr") + "'"},
                                &log),
            0)
      << log;
  // LabelsSnapshot { strings { 1: "GET /a" } strings { 2: "GET /b" } }
  auto entry = [](uint64_t id, const std::string& text) {
    const std::string kv = JfrBytes().varint(1 << 3).varint(id).varint(2 << 3 | 2).varint(text.size()).raw(text).str();
    return JfrBytes().varint(2 << 3 | 2).varint(kv.size()).raw(kv).str();
  };
  ContextLabels labels;
  std::string error;
  ASSERT_TRUE(labels.parse(entry(1, "GET /a") + entry(2, "GET /b"), &error)) << error;
  ConvertOptions options;
  options.labels = &labels;
  const std::vector<uint8_t> bytes = testing::readBytes(dir.file("r.jfr"));
  flat::Batch batch;
  ASSERT_TRUE(convertToFlat(bytes, options, &batch).ok);
  otlp::Request req;
  ASSERT_TRUE(flat::toRequest(batch, &req).isOk());
  std::map<std::string, size_t> events_by_span;  // "span name/span id" -> events
  const auto& d = req.dictionary();
  for (const auto& p : req.resource_profiles(0).scope_profiles(0).profiles())
    for (const auto& s : p.samples()) {
      std::string name;
      for (int32_t i : s.attribute_indices())
        if (dictString(d, d.attribute_table(i).key_strindex()) == "span_name") name = d.attribute_table(i).value().string_value();
      std::string span;
      for (unsigned char c : d.link_table(s.link_index()).span_id()) span += std::to_string(c) + ".";
      events_by_span[name + "/" + span] += static_cast<size_t>(s.timestamps_unix_nano_size());
    }
  EXPECT_EQ(events_by_span, (std::map<std::string, size_t>{{"/0.0.0.0.0.0.0.0.", 2},
                                                           {"GET /a/0.0.0.0.0.0.0.239.", 235},
                                                           {"GET /b/0.0.0.0.0.0.16.146.", 235}}));
}

}  // namespace
}  // namespace proflow::jfr
