// What the JFR conversion (flat_converter.h) is asked to do, and what it reports.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/formats/jfr/chunk.h"
#include "core/formats/jfr/context_labels.h"
#include "core/util/status.h"

namespace proflow::jfr {

struct ConvertOptions {
  // Sampling period of jdk.ExecutionSample in ns; 0 = take it from the recording's settings
  // (jdk.ActiveSetting), falling back to `default_period_nanos`.
  int64_t cpu_period_nanos = 0;
  int64_t default_period_nanos = 10'000'000;
  // Pyroscope dynamic labels, applied by contextId; may be null. Must outlive the conversion.
  const ContextLabels* labels = nullptr;
  // Merges the per-run parts of JVM-generated class names (lambdas, hidden classes, proxies, reflection
  // accessors, CGLIB, ByteBuddy: generated_names.h) so that every run names the same code alike;
  // false keeps the names as recorded.
  bool merge_generated_names = true;
  // Stores the whole input in Profile.original_payload (first profile only; the format "jfr" is set on
  // every profile).
  bool keep_original_payload = false;
  Limits limits;
  // Asked for the total bytes the conversion will hold, first before any chunk is read (from the
  // recording's shape: memory_estimate.h) and then ahead of each step of output growth. A non-OK
  // answer stops the conversion (ConvertResult::refused): receivers pass their in-flight budget so a
  // recording that would amplify past it is refused before it allocates. Unset: no accounting.
  std::function<Status(size_t bytes)> reserve_memory;
};

struct [[nodiscard]] ConvertResult {
  bool ok = true;      // false: the input was malformed; samples of complete chunks are still in the output
  ParseError error;    // set when !ok
  Status refused;      // reserve_memory's refusal (then !ok, and error.message is its message)
  uint64_t chunks = 0;
  uint64_t events = 0;   // events converted
  uint64_t samples = 0;  // distinct OTLP samples created
};

}  // namespace proflow::jfr
