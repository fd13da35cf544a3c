// Pyroscope's metric family (the `__name__` label of a series) for a sample type, shared by the
// Pyroscope receiver (naming what it ingests) and the Pyroscope exporter (naming what it pushes).
#pragma once

#include <string>
#include <string_view>

namespace proflow {

// wall -> wall; *cpu* -> process_cpu; alloc_*/inuse_*/*space*/*objects* -> memory; *mutex* -> mutex;
// *block* -> block; goroutine(s) -> goroutines; "" for anything else. A pprof's family is that of its
// first sample type with one (Go CPU: samples, cpu -> process_cpu).
inline std::string pyroscopeMetricFamily(std::string_view t) {
  auto has = [&](std::string_view part) { return t.find(part) != std::string_view::npos; };
  if (t == "wall") return "wall";
  if (has("cpu")) return "process_cpu";
  if (has("alloc_") || has("inuse_") || has("space") || has("objects")) return "memory";
  if (has("mutex")) return "mutex";
  if (has("block")) return "block";
  if (t == "goroutine" || t == "goroutines") return "goroutines";
  return {};
}

}  // namespace proflow
