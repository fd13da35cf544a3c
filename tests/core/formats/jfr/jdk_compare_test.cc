// Real JDK 17 recordings (made at test time) decoded by proflow and by the JDK's own `jfr print --json`:
// per event type, the stacks (frame lists with line numbers, per thread) and their counts must match
// exactly, and so must value totals and event timestamps.
#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "tests/support/dictionary_builder.h"
#include "core/formats/jfr/folded.h"
#include "tests/support/fold_request.h"
#include "tests/support/jfr_request.h"
#include "tests/core/formats/jfr/jdk_json.h"
#include "tests/core/formats/jfr/mini_json.h"
#include "tests/core/formats/jfr/recordings.h"
#include "tests/support/temp_dir.h"

namespace proflow::jfr {
namespace {

using testing::Json;

struct Mapping {
  std::string_view event, sample_type, period_type, value_field;
  std::string_view value_type;  // the second profile of the event, whose total must equal value_field's sum
};
constexpr Mapping kMappings[] = {
    {"jdk.ExecutionSample", "cpu", "", "", ""},
    {"jdk.NativeMethodSample", "native_method", "", "", ""},
    {"jdk.ObjectAllocationSample", "alloc_sample_objects", "", "weight", "alloc_sample_bytes"},
    {"jdk.ObjectAllocationInNewTLAB", "alloc_in_new_tlab_objects", "", "tlabSize", "alloc_in_new_tlab_bytes"},
    {"jdk.ObjectAllocationOutsideTLAB", "alloc_outside_tlab_objects", "", "allocationSize", "alloc_outside_tlab_bytes"},
    {"jdk.JavaMonitorEnter", "contentions", "mutex", "duration", "delay"},
    {"jdk.ThreadPark", "contentions", "block", "duration", "delay"},
};

// What the JDK decoded for one event type.
struct Expected {
  std::map<std::string, int64_t> stacks;  // "thread;root;...;leaf" -> events
  int64_t value_total = 0;
  std::vector<int64_t> timestamps;
};

void addJdkDecoding(const std::string& json_path, std::map<std::string, Expected>* decoded) {
  std::map<std::string, Expected>& out = *decoded;
  std::vector<uint8_t> bytes = testing::readBytes(json_path);
  Json doc;
  std::string err;
  EXPECT_TRUE(testing::parseJson(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), &doc, &err))
      << json_path << ": " << err;
  for (const Json& e : doc["recording"]["events"].items) {
    const Json& v = e["values"];
    Expected& x = out[e["type"].text];
    const Json& thread = v["sampledThread"].isNull() ? v["eventThread"] : v["sampledThread"];
    std::string stack = thread["javaName"].isNull() ? thread["osName"].text : thread["javaName"].text;
    const auto& frames = v["stackTrace"]["frames"].items;
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) stack += ";" + testing::jdkFrameName(*it);
    ++x.stacks[stack];
    x.timestamps.push_back(testing::jdkInstantNanos(v["startTime"].text));
    for (const Mapping& m : kMappings) {
      if (m.event != e["type"].text || m.value_field.empty()) continue;
      const Json& f = v[m.value_field];
      x.value_total += f.type == Json::Type::kString ? testing::jdkDurationNanos(f.text) : static_cast<int64_t>(f.number);
    }
  }
}

std::map<std::string, Expected> jdkDecoding(const std::string& json_path) {
  std::map<std::string, Expected> out;
  addJdkDecoding(json_path, &out);
  return out;
}

const otlp::Profile* findProfile(const otlp::Request& r, std::string_view type, std::string_view period_type) {
  const auto& d = r.dictionary();
  for (const auto& p : r.resource_profiles(0).scope_profiles(0).profiles())
    if (dictString(d, p.sample_type().type_strindex()) == type &&
        (period_type.empty() || dictString(d, p.period_type().type_strindex()) == period_type))
      return &p;
  return nullptr;
}

struct Case {
  const char* jfr;
  std::vector<const char*> json;  // the JDK's decodings whose union is expected
  uint64_t min_chunks;
};

class JfrJdkCompareTest : public ::testing::TestWithParam<Case> {};

TEST_P(JfrJdkCompareTest, StacksCountsValuesAndTimestampsMatchTheJdk) {
  std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty()) << "could not generate JFR recordings with the JDK";
  std::vector<uint8_t> jfr = testing::readBytes(dir + "/" + GetParam().jfr + ".jfr");
  std::map<std::string, Expected> expected;
  for (const char* j : GetParam().json) addJdkDecoding(dir + "/" + j + ".json", &expected);
  ASSERT_FALSE(expected.empty());

  otlp::Request req;
  ConvertResult r = convertToOtlp(jfr, {}, &req);
  ASSERT_TRUE(r.ok) << r.error.toString();
  EXPECT_GE(r.chunks, GetParam().min_chunks);
  int64_t jdk_events = 0;
  for (const Mapping& m : kMappings) {
    SCOPED_TRACE(std::string(m.event));
    const Expected& want = expected[std::string(m.event)];
    FoldOptions fo{m.sample_type, m.period_type, /*count_events=*/true, /*with_lines=*/true, /*with_thread=*/true};
    EXPECT_EQ(foldStacks(req, fo), want.stacks);
    jdk_events += static_cast<int64_t>(want.timestamps.size());
    const otlp::Profile* p = findProfile(req, m.sample_type, m.period_type);
    if (want.timestamps.empty()) {
      EXPECT_EQ(p, nullptr);
      continue;
    }
    ASSERT_NE(p, nullptr);
    std::vector<int64_t> got;
    for (const auto& s : p->samples()) {
      ASSERT_EQ(s.values_size(), s.timestamps_unix_nano_size());
      for (uint64_t t : s.timestamps_unix_nano()) got.push_back(static_cast<int64_t>(t));
    }
    std::vector<int64_t> want_ts = want.timestamps;
    std::sort(got.begin(), got.end());
    std::sort(want_ts.begin(), want_ts.end());
    // Each chunk converts ticks with its own header (start ns/ticks); in later chunks of one JVM's file the
    // JDK's reader keeps an earlier chunk's time base, which drifts by some 100 ns. Allow 1 µs.
    ASSERT_EQ(got.size(), want_ts.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want_ts[i], 1000) << "event " << i;
    if (!m.value_type.empty()) {
      const otlp::Profile* vp = findProfile(req, m.value_type, m.period_type);
      ASSERT_NE(vp, nullptr);
      int64_t total = 0;
      for (const auto& s : vp->samples())
        for (int64_t v : s.values()) total += v;
      EXPECT_EQ(total, want.value_total);
    }
  }
  EXPECT_GT(jdk_events, 0);
  EXPECT_EQ(static_cast<int64_t>(r.events), jdk_events);
}

INSTANTIATE_TEST_SUITE_P(Recordings, JfrJdkCompareTest,
                         ::testing::Values(Case{"default", {"default"}, 1}, Case{"profile", {"profile"}, 1},
                                           Case{"contention", {"contention"}, 1}, Case{"rotated", {"rotated"}, 2},
                                           // cat of two JVMs' files: each chunk is self-contained.
                                           Case{"two_chunks", {"profile", "contention"}, 2}),
                         [](const auto& info) { return std::string(info.param.jfr); });

// The contention settings must actually produce every profiling event type, or the comparison above
// would prove little.
TEST(JfrJdkRecordingTest, ContentionRecordingHasEveryEventType) {
  std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty());
  auto expected = jdkDecoding(dir + "/contention.json");
  for (const Mapping& m : kMappings) EXPECT_GT(expected[std::string(m.event)].timestamps.size(), 0u) << m.event;
}

TEST(JfrJdkRecordingTest, CpuValuesUseTheRecordedPeriodAndFramesCarryTypes) {
  std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty());
  std::vector<uint8_t> jfr = testing::readBytes(dir + "/contention.jfr");
  otlp::Request req;
  ASSERT_TRUE(convertToOtlp(jfr, {}, &req).ok);
  const otlp::Profile* cpu = findProfile(req, "cpu", "");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->period(), 10'000'000);  // contention.jfc: 10 ms
  for (const auto& s : cpu->samples())
    for (int64_t v : s.values()) EXPECT_EQ(v, 10'000'000);
  const otlp::Profile* native = findProfile(req, "native_method", "");
  ASSERT_NE(native, nullptr);
  EXPECT_EQ(native->period(), 20'000'000);
  EXPECT_EQ(cpu->original_payload_format(), "jfr");
  EXPECT_TRUE(cpu->original_payload().empty());
  // Every location is a JVM frame with a function named package.Class.method.
  const auto& d = req.dictionary();
  ASSERT_GT(d.location_table_size(), 1);
  bool saw_inlined = false;  // (checked over all recordings below, so one run without C2 inlining is fine)
  for (int i = 1; i < d.location_table_size(); ++i) {
    const auto& loc = d.location_table(i);
    ASSERT_EQ(loc.attribute_indices_size(), 1);
    const auto& kv = d.attribute_table(loc.attribute_indices(0));
    EXPECT_EQ(dictString(d, kv.key_strindex()), "profile.frame.type");
    EXPECT_EQ(kv.value().string_value(), "jvm");
    saw_inlined |= loc.lines_size() > 1;
    for (const auto& l : loc.lines())
      EXPECT_EQ(dictString(d, d.function_table(l.function_index()).name_strindex()).find('/'), std::string_view::npos);
  }
  for (const char* name : {"default", "profile", "rotated"}) {
    otlp::Request other;
    std::vector<uint8_t> bytes = testing::readBytes(dir + "/" + name + ".jfr");
    ASSERT_TRUE(convertToOtlp(bytes, {}, &other).ok);
    for (const auto& loc : other.dictionary().location_table()) saw_inlined |= loc.lines_size() > 1;
  }
  EXPECT_TRUE(saw_inlined) << "JIT-inlined frames should share their caller's Location";
}

TEST(JfrJdkRecordingTest, KeepsTheOriginalPayloadWhenAsked) {
  std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty());
  std::vector<uint8_t> jfr = testing::readBytes(dir + "/profile.jfr");
  otlp::Request req;
  ConvertOptions o;
  o.keep_original_payload = true;
  ASSERT_TRUE(convertToOtlp(jfr, o, &req).ok);
  const auto& profiles = req.resource_profiles(0).scope_profiles(0).profiles();
  ASSERT_GT(profiles.size(), 0);
  EXPECT_EQ(profiles[0].original_payload(), std::string(jfr.begin(), jfr.end()));
}

}  // namespace
}  // namespace proflow::jfr
