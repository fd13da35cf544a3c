// The committed Go CPU profile (its CPU work ran under span_id / trace_id pprof labels) as the
// pipeline sees it, converted by the pprof receivers' converter, and what a profilemetrics series
// must show for it, computed from the pprof itself (not from the converted batch).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/flat/flat_batch.h"

namespace proflow::processors::profilemetrics::testing {

// The gzipped pprof bytes.
std::string goCpuPprof();

// goCpuPprof() converted (pprofBytesToFlat) with resource attribute service.name = `service`.
flat::Batch goCpuBatch(const std::string& service);

struct LinkedSample {
  std::string trace_id, span_id;  // hex, as the pprof labels have them
  int64_t value = 0;
  std::string leaf;                   // function of the innermost frame
  std::set<std::string> functions;    // every function of the stack
};

// One sample type of the pprof: sums per function computed from its tables.
struct Expected {
  std::string type, unit;
  int64_t total = 0;
  uint64_t samples = 0;
  std::map<std::string, int64_t> self, inclusive;  // by function name
  std::vector<LinkedSample> linked;                // samples with both labels
};

// Per sample type, in the pprof's order (cpu: samples/count, cpu/nanoseconds).
std::vector<Expected> expectedGoCpu();

// The `n` heaviest of `values` (value descending, name ascending on ties).
std::vector<std::pair<std::string, int64_t>> topN(const std::map<std::string, int64_t>& values, size_t n);

}  // namespace proflow::processors::profilemetrics::testing
