// Recordings of other producers (testdata/wild: async-profiler on Linux and macOS, in cpu, ctimer,
// wall and nativemem modes, pyroscope-java with span context, dd-trace-java on the JDK's recorder)
// converted by proflow and decoded by the JDK's own `jfr print --json`. Every event of every profiling
// type must land in the profile its users know, on the same thread, at the same nanosecond, on the
// same Java stack (frames with their line numbers; generated class names merged on both sides) and
// with the same value; and no function name may keep a per-run part.
//
// Which frames are Java's: the JDK's frame types Interpreted, JIT compiled, C1 compiled and Inlined,
// and Native when its descriptor is a real one. async-profiler writes every C, C++ and kernel frame
// with the descriptor "()L;" and the types Native, C++ or Kernel; the JDK's recorder writes a Java
// native method (Unsafe.park, Object.wait) as Native with its own descriptor. The converter marks the
// former `profile.frame.type` native or kernel and the latter jvm.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tests/support/flat_request.h"
#include "core/formats/jfr/flat_converter.h"
#include "tests/support/dictionary_builder.h"
#include "tests/core/formats/jfr/jdk_json.h"
#include "tests/core/formats/jfr/recordings.h"
#include "tests/core/formats/jfr/wild_recordings.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow::jfr {
namespace {

using testing::Json;

// How the value of one event is found on the JDK's side.
enum class Value { kOne, kPeriod, kSamplesTimesPeriod, kLong, kDuration };

struct Mapping {
  std::string_view event, sample_type, period_type;
  Value value;
  std::string_view field = {};
};
constexpr Mapping kMappings[] = {
    {"jdk.ExecutionSample", "cpu", "", Value::kPeriod},
    {"jdk.NativeMethodSample", "native_method", "", Value::kPeriod},
    {"profiler.WallClockSample", "wall", "", Value::kSamplesTimesPeriod, "samples"},
    {"jdk.ObjectAllocationInNewTLAB", "alloc_in_new_tlab_objects", "", Value::kOne},
    {"jdk.ObjectAllocationInNewTLAB", "alloc_in_new_tlab_bytes", "", Value::kLong, "tlabSize"},
    {"jdk.ObjectAllocationOutsideTLAB", "alloc_outside_tlab_objects", "", Value::kOne},
    {"jdk.ObjectAllocationOutsideTLAB", "alloc_outside_tlab_bytes", "", Value::kLong, "allocationSize"},
    {"jdk.ObjectAllocationSample", "alloc_sample_objects", "", Value::kOne},
    {"jdk.ObjectAllocationSample", "alloc_sample_bytes", "", Value::kLong, "weight"},
    {"jdk.JavaMonitorEnter", "contentions", "mutex", Value::kOne},
    {"jdk.JavaMonitorEnter", "delay", "mutex", Value::kDuration, "duration"},
    {"jdk.ThreadPark", "contentions", "block", Value::kOne},
    {"jdk.ThreadPark", "delay", "block", Value::kDuration, "duration"},
    {"profiler.LiveObject", "live", "", Value::kOne},
    {"profiler.Malloc", "malloc_objects", "", Value::kOne},
    {"profiler.Malloc", "malloc_bytes", "", Value::kLong, "size"},
    // Allocations no later profiler.Free names (computed below from the JDK's events).
    {"", "malloc_inuse_objects", "", Value::kOne},
    {"", "malloc_inuse_bytes", "", Value::kLong, "size"},
};


// "time|thread|root;...;leaf" -> the values of the events with that key, sorted.
using Events = std::map<std::string, std::vector<int64_t>>;

// async-profiler's native allocations and frees as the JDK decodes them, in file order.
struct NativeOp {
  int64_t ts;
  uint64_t address;
  bool free;
  std::string key;
  int64_t size;
};

// The allocations still in use at the end: replayed in time order (file order among equal times),
// an allocation is freed by a later free of its address.
void addInUse(const std::vector<NativeOp>& ops, std::map<std::string, Events>* jdk) {
  std::vector<size_t> order(ops.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return ops[x].ts < ops[y].ts; });
  std::map<uint64_t, size_t> live;
  for (size_t i : order) {
    if (ops[i].free) live.erase(ops[i].address);
    else live[ops[i].address] = i;
  }
  for (const auto& [address, i] : live) {
    (*jdk)["malloc_inuse_objects/"][ops[i].key].push_back(1);
    (*jdk)["malloc_inuse_bytes/"][ops[i].key].push_back(ops[i].size);
  }
}

bool javaFrame(const Json& f) {
  const std::string& type = f["type"].text;
  if (type == "Native") return f["method"]["descriptor"].text != "()L;";
  return type == "Interpreted" || type == "JIT compiled" || type == "C1 compiled" || type == "Inlined";
}

// "time|thread|state|truncated|stack"; the state of wall-clock samples only.
std::string jdkKey(const Json& v, bool wall) {
  const Json& thread = v["sampledThread"].isNull() ? v["eventThread"] : v["sampledThread"];
  std::string key = std::to_string(testing::jdkInstantNanos(v["startTime"].text)) + "|" +
                    (thread["javaName"].isNull() ? thread["osName"].text : thread["javaName"].text) + "|" +
                    (wall ? v["state"].text : "") + "|" + (v["stackTrace"]["truncated"].boolean ? "cut" : "") + "|";
  const auto& frames = v["stackTrace"]["frames"].items;
  bool first = true;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (!javaFrame(*it)) continue;
    key += (first ? "" : ";") + testing::jdkFrameName(*it);
    first = false;
  }
  return key;
}

// The converted profile of one mapping, with its events keyed as the JDK's are.
struct Converted {
  const otlp::Profile* profile = nullptr;
  Events events;
};

std::string attributeOf(const otlp::Dictionary& d, const google::protobuf::RepeatedField<int32_t>& indices,
                        std::string_view key) {
  for (int32_t i : indices) {
    const auto& kv = d.attribute_table(i);
    if (dictString(d, kv.key_strindex()) != key) continue;
    return kv.value().has_bool_value() ? (kv.value().bool_value() ? "true" : "") : kv.value().string_value();
  }
  return "";
}

Converted converted(const otlp::Request& r, const Mapping& m) {
  Converted out;
  const auto& d = r.dictionary();
  for (const auto& sp : r.resource_profiles(0).scope_profiles())
    for (const auto& p : sp.profiles())
      if (dictString(d, p.sample_type().type_strindex()) == m.sample_type &&
          (m.period_type.empty() || dictString(d, p.period_type().type_strindex()) == m.period_type))
        out.profile = &p;
  if (out.profile == nullptr) return out;
  for (const auto& s : out.profile->samples()) {
    std::vector<std::string> leaf_first;
    for (int32_t li : d.stack_table(s.stack_index()).location_indices()) {
      const auto& loc = d.location_table(li);
      if (attributeOf(d, loc.attribute_indices(), "profile.frame.type") != "jvm") continue;
      for (const auto& line : loc.lines()) {
        std::string name(dictString(d, d.function_table(line.function_index()).name_strindex()));
        if (line.line() > 0) name += ":" + std::to_string(line.line());
        leaf_first.push_back(std::move(name));
      }
    }
    std::string stack;
    for (auto it = leaf_first.rbegin(); it != leaf_first.rend(); ++it) stack += (stack.empty() ? "" : ";") + *it;
    const std::string tags = attributeOf(d, s.attribute_indices(), "thread.name") + "|" +
                             attributeOf(d, s.attribute_indices(), "thread.state") + "|" +
                             (attributeOf(d, s.attribute_indices(), "jfr.stack_trace.truncated").empty() ? "" : "cut");
    for (int i = 0; i < s.timestamps_unix_nano_size(); ++i)
      out.events[std::to_string(s.timestamps_unix_nano(i)) + "|" + tags + "|" + stack].push_back(s.values(i));
  }
  for (auto& [key, values] : out.events) std::sort(values.begin(), values.end());
  return out;
}

int64_t jdkValue(const Json& v, const Mapping& m, int64_t period) {
  switch (m.value) {
    case Value::kOne: return 1;
    case Value::kPeriod: return period;
    case Value::kSamplesTimesPeriod: return static_cast<int64_t>(v[m.field].number) * period;
    case Value::kLong: return static_cast<int64_t>(v[m.field].number);
    case Value::kDuration: return testing::jdkDurationNanos(v[m.field].text);
  }
  return 0;
}

// Events of one side missing from the other, as "key [values]" lines (the first few).
std::string missingFrom(const Events& have, const Events& other, size_t* count) {
  std::string out;
  *count = 0;
  for (const auto& [key, values] : have) {
    auto it = other.find(key);
    if (it != other.end() && it->second == values) continue;
    *count += values.size();
    if (out.size() < 4000) {
      out += "  " + key + " [";
      for (int64_t x : values) out += std::to_string(x) + " ";
      out += "] vs [";
      if (it != other.end())
        for (int64_t x : it->second) out += std::to_string(x) + " ";
      out += "]\n";
    }
  }
  return out;
}

struct Wild {
  const char* name;
  // The sampled profile and its period, as the recording's own settings say (jfr print --events
  // jdk.ActiveSetting): the values above are checked against the profile's period, this checks it.
  const char* sampled;
  int64_t period;
};

class WildConformanceTest : public ::testing::TestWithParam<Wild> {};

TEST_P(WildConformanceTest, EveryEventMatchesTheJdkDecoder) {
  testing::TempDir dir;
  const std::string jfr = dir.file("recording.jfr");
  std::string log;
  ASSERT_EQ(testing::runCommand({"sh", "-c", "gzip -dc '" + testing::wildRecording(GetParam().name) + "' > '" + jfr + "'"}, &log),
            0)
      << log;
  const std::vector<uint8_t> bytes = testing::readBytes(jfr);
  flat::Batch batch;
  const ConvertResult r = convertToFlat(bytes, {}, &batch);
  ASSERT_TRUE(r.ok) << r.error.toString();
  otlp::Request req;
  ASSERT_TRUE(flat::toRequest(batch, &req).isOk());

  std::map<std::string, Converted> ours;  // by sample type / period type
  std::map<std::string, Events> jdk;
  std::string events;
  for (const Mapping& m : kMappings) {
    const std::string id = std::string(m.sample_type) + "/" + std::string(m.period_type);
    ours[id] = converted(req, m);
    if (!m.event.empty() && events.find(m.event) == std::string::npos)
      events += (events.empty() ? "" : ",") + std::string(m.event);
  }
  events += ",profiler.Free";
  std::vector<NativeOp> native;
  size_t jdk_events = 0;
  const std::string failed = testing::forEachJdkEvent(jfr, events, [&](const Json& e) {
    ++jdk_events;
    const Json& v = e["values"];
    const std::string key = jdkKey(v, e["type"].text == "profiler.WallClockSample");
    if (e["type"].text == "profiler.Malloc" || e["type"].text == "profiler.Free")
      native.push_back({testing::jdkInstantNanos(v["startTime"].text), static_cast<uint64_t>(std::stoull(v["address"].text)),
                        e["type"].text == "profiler.Free", key, static_cast<int64_t>(v["size"].number)});
    for (const Mapping& m : kMappings) {
      if (e["type"].text != m.event) continue;
      const std::string id = std::string(m.sample_type) + "/" + std::string(m.period_type);
      const otlp::Profile* p = ours[id].profile;
      jdk[id][key].push_back(jdkValue(v, m, p != nullptr ? p->period() : 0));
    }
  });
  ASSERT_EQ(failed, "");
  addInUse(native, &jdk);
  EXPECT_GT(jdk_events, 0u);
  EXPECT_EQ(r.events, jdk_events);  // every profiling event the JDK decodes was converted, no other

  for (const Mapping& m : kMappings) {
    const std::string id = std::string(m.sample_type) + "/" + std::string(m.period_type);
    SCOPED_TRACE(std::string(m.event) + " -> " + id);
    Events& want = jdk[id];
    for (auto& [key, values] : want) std::sort(values.begin(), values.end());
    const Events& got = ours[id].events;
    EXPECT_EQ(want.empty(), ours[id].profile == nullptr);
    size_t missing = 0, extra = 0;
    const std::string missing_text = missingFrom(want, got, &missing);
    const std::string extra_text = missingFrom(got, want, &extra);
    EXPECT_EQ(missing, 0u) << "JDK events not in proflow's profile (JDK values vs proflow's):\n" << missing_text;
    EXPECT_EQ(extra, 0u) << "proflow events the JDK does not have:\n" << extra_text;
  }
  if (GetParam().sampled != nullptr) {
    const std::string id = std::string(GetParam().sampled) + "/";
    ASSERT_NE(ours[id].profile, nullptr) << id;
    EXPECT_EQ(ours[id].profile->period(), GetParam().period);
  }
  for (const auto& f : req.dictionary().function_table()) {
    const std::string_view name = dictString(req.dictionary(), f.name_strindex());
    EXPECT_FALSE(testing::hasPerRunPart(name)) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Producers, WildConformanceTest,
                         ::testing::Values(
                             // async-profiler 4.0, event=wall, interval=10000000 (the wall interval).
                             Wild{"wall", "wall", 10'000'000}, Wild{"nativemem", nullptr, 0},
                             // The JDK's recorder: jdk.ExecutionSample period "9 ms".
                             Wild{"dd-trace-java", "cpu", 9'000'000},
                             // async-profiler 2.9, event=cpu, interval=0: its documented default, 10 ms.
                             Wild{"cortex-dev-01__kafka-0__cpu_lock0_alloc0__0", "cpu", 10'000'000},
                             // ctimer, interval=10000000.
                             Wild{"new_spancontext", "cpu", 10'000'000}, Wild{"example", "cpu", 10'000'000}),
                         [](const auto& info) {
                           std::string name = info.param.name;
                           for (char& c : name)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace proflow::jfr
