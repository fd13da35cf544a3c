// Internal to the JFR converters: the events converted, the profiles they make and how frames map.
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <string_view>

#include "core/formats/jfr/chunk.h"
#include "core/util/saturating.h"

namespace proflow::jfr::internal {

enum Kind : int {
  kExecution,
  kNativeMethod,
  kWallClock,
  kInNewTlab,
  kOutsideTlab,
  kAllocSample,
  kMonitorEnter,
  kThreadPark,
  kLiveObject,
  kMalloc,
  kDdExecution,  // Datadog's profiler (dd-trace-java's native library): CPU
  kDdMethod,     // wall clock
  kDdObject,     // sampled allocations
  kDdLive,       // live heap objects
  kFree,
  kDdConfig,  // datadog.DatadogProfilerConfig: the sampling intervals
  kActiveSetting,
  kKindCount
};
constexpr std::string_view kEventNames[kKindCount] = {
    "jdk.ExecutionSample",      "jdk.NativeMethodSample", "profiler.WallClockSample",
    "jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB", "jdk.ObjectAllocationSample",
    "jdk.JavaMonitorEnter",     "jdk.ThreadPark",         "profiler.LiveObject",
    "profiler.Malloc",          "datadog.ExecutionSample", "datadog.MethodSample",
    "datadog.ObjectSample",     "datadog.HeapLiveObject", "profiler.Free",
    "datadog.DatadogProfilerConfig", "jdk.ActiveSetting"};

// The event fields the conversion reads (the rest, e.g. objectClass, are not even decoded); the thread
// state of wall-clock events and the address of native allocations only (kMoreFields).
constexpr uint32_t kConvertedFields =
    Chunk::kAllEventFields & ~(1u << static_cast<unsigned>(EventField::kState) |
                               1u << static_cast<unsigned>(EventField::kAddress) |
                               1u << static_cast<unsigned>(EventField::kObjectClass) |
                               1u << static_cast<unsigned>(EventField::kTimeSpan));

// Values scaled at finish() by a period known only once the settings have been read.
enum Scale : uint8_t { kNoScale, kCpuPeriod, kNativePeriod, kWallInterval };

enum ProfileId : int {
  kCpu, kWall, kExecWall, kNative, kTlabObjects, kTlabBytes, kOutsideObjects, kOutsideBytes, kSampleObjects,
  kSampleBytes, kMonitorCount, kMonitorDelay, kParkCount, kParkDelay, kLive, kMallocObjects, kMallocBytes,
  kMallocInuseObjects, kMallocInuseBytes, kProfileCount
};

struct ProfileSpec {
  std::string_view type, unit, period_type, period_unit;
  Scale scale;
};
constexpr ProfileSpec kSpecs[kProfileCount] = {
    {"cpu", "nanoseconds", "cpu", "nanoseconds", kCpuPeriod},
    {"wall", "nanoseconds", "wall", "nanoseconds", kWallInterval},
    {"wall", "nanoseconds", "wall", "nanoseconds", kWallInterval},  // ExecutionSample with event=wall
    {"native_method", "nanoseconds", "native_method", "nanoseconds", kNativePeriod},
    {"alloc_in_new_tlab_objects", "count", "space", "bytes", kNoScale},
    {"alloc_in_new_tlab_bytes", "bytes", "space", "bytes", kNoScale},
    {"alloc_outside_tlab_objects", "count", "space", "bytes", kNoScale},
    {"alloc_outside_tlab_bytes", "bytes", "space", "bytes", kNoScale},
    {"alloc_sample_objects", "count", "space", "bytes", kNoScale},
    {"alloc_sample_bytes", "bytes", "space", "bytes", kNoScale},
    {"contentions", "count", "mutex", "count", kNoScale},
    {"delay", "nanoseconds", "mutex", "count", kNoScale},
    {"contentions", "count", "block", "count", kNoScale},
    {"delay", "nanoseconds", "block", "count", kNoScale},
    {"live", "count", "objects", "count", kNoScale},
    {"malloc_objects", "count", "space", "bytes", kNoScale},
    {"malloc_bytes", "bytes", "space", "bytes", kNoScale},
    {"malloc_inuse_objects", "count", "space", "bytes", kNoScale},
    {"malloc_inuse_bytes", "bytes", "space", "bytes", kNoScale},
};

// async-profiler's wall-clock interval when none is set (its CPU default is 10 ms, as the converter's).
constexpr int64_t kDefaultWallIntervalNanos = 50'000'000;

// "10 ms", "20ms", "1 s", "500 us", "1000000 ns" or a bare number of ns (async-profiler) -> ns; 0 if unknown.
inline int64_t parseDuration(std::string_view v) {
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  int64_t n = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || n <= 0) return 0;
  std::string_view unit(p, static_cast<size_t>(v.data() + v.size() - p));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (unit.empty() || unit == "ns") return n;
  if (unit == "us") return saturatingMul(n, 1000);
  if (unit == "ms") return saturatingMul(n, 1000000);
  if (unit == "s") return saturatingMul(n, 1000000000);
  return 0;
}

// How a JFR frame type maps onto OTLP.
struct FrameClass {
  uint8_t otlp_type = 0;  // index into kFrameTypes
  bool inlined = false;
};
constexpr std::string_view kFrameTypes[] = {"jvm", "native", "kernel"};

// Wall-clock events carry the sampled thread's state (thread.state).
constexpr bool hasThreadState(int kind) { return kind == kWallClock || kind == kDdMethod; }
constexpr auto kMoreFields = [] {
  std::array<uint32_t, kKindCount> more{};
  for (int k = 0; k < kKindCount; ++k) {
    if (hasThreadState(k)) more[k] = 1u << static_cast<unsigned>(EventField::kState);
    if (k == kMalloc || k == kFree) more[k] = 1u << static_cast<unsigned>(EventField::kAddress);
  }
  return more;
}();

// Sample attributes the converter adds besides thread.name, labels and span_name.
constexpr std::string_view kThreadStateKey = "thread.state";
constexpr std::string_view kTruncatedKey = "jfr.stack_trace.truncated";

}  // namespace proflow::jfr::internal
