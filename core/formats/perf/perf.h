// Linux perf recordings -> OTLP profiles in the pipeline's flat batch (core/flat).
//
// Two inputs: perf.data as `perf record` writes it (file mode and pipe mode `-o -`, the recording
// machine's byte order when it is little-endian) and the text of `perf script` (default fields:
// `comm tid [cpu] time: period event:` then one indented `addr sym+off (dso)` line per frame, a
// blank line between samples). Both end in the same shape: one profile per event (value = period,
// sample type = the event name) plus a `samples`/`count` profile per event (value 1 per sample),
// every sample's timestamp kept, sample attributes thread.id / thread.name / process.pid /
// process.executable.name / cpu.logical_number, mappings per process with file offsets and build
// ids (so the symbolize processor resolves user frames), kernel frames named `[kernel]` when the
// input carries no name for them. See README.md.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "core/flat/flat_batch.h"
#include "core/util/status.h"

namespace proflow::perf {

struct Limits {
  uint64_t max_samples = 50'000'000;   // sample records converted
  uint32_t max_stack_depth = 4096;     // callchain entries of one sample (the kernel's default cap is 127)
  uint32_t max_events = 256;           // attrs (event types)
  uint32_t max_processes = 1'000'000;  // pids and tids tracked
  uint64_t max_maps = 10'000'000;      // memory maps tracked, all processes together (a fork copies its parent's)
};

struct Options {
  Limits limits;
  // Wall-clock time (Unix ns) of the last sample when the recording has no clock anchor of its own
  // (perf record -k CLOCK_REALTIME, or the CLOCK_DATA header that -k writes): perf's clock is the
  // kernel's local clock, so sample times are placed relative to it. 0 = now.
  uint64_t end_time_unix_nano = 0;
  bool keep_original_payload = false;
  // Asked once for the bytes the conversion will hold (an estimate from the input size) before it
  // starts; a refusal is returned as is. Unset: no accounting.
  std::function<Status(size_t bytes)> reserve_memory;
};

struct Result {
  uint64_t samples = 0;         // sample records converted
  uint64_t lost = 0;            // samples the kernel reported lost (PERF_RECORD_LOST / LOST_SAMPLES)
  uint64_t records = 0;         // records read
  bool clock_anchored = false;  // sample times are exact wall-clock times
};

// Which of the two forms `data` is: "perf" (magic PERFILE2), "perf-script" (text whose first
// sample header and frame line parse), or "" (neither).
std::string_view detect(std::string_view data);

// perf.data -> `out` (one resource, one scope). INVALID_ARGUMENT with the offset and the reason for
// damaged, truncated, big-endian or compressed (-z) recordings; nothing is added to `out` then.
Status perfDataToFlat(std::string_view data, const Options& options, flat::Batch* out, Result* result = nullptr);

// `perf script` text -> `out`. INVALID_ARGUMENT with the line number for text that is not perf
// script output.
Status perfScriptToFlat(std::string_view text, const Options& options, flat::Batch* out, Result* result = nullptr);

// Either form, by detect().
Status perfToFlat(std::string_view data, const Options& options, flat::Batch* out, Result* result = nullptr);

}  // namespace proflow::perf
