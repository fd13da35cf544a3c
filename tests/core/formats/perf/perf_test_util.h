// Shared by the perf format, receiver and CLI tests: the committed fixture, a live recording of the
// workload made at test time, and folds of `perf script` text and of converted batches. The live
// recordings need Debian's linux-perf and the right to record: root, or kernel.perf_event_paranoid
// at most 1 (0 for the system-wide one), and a readable /proc/kallsyms for kernel names.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/flat/flat_batch.h"

namespace proflow::testing {

using Folded = std::map<std::string, int64_t>;  // "root;...;leaf" -> samples

// tests/core/formats/perf/testdata/<name>
std::string perfFixture(const std::string& name);

// A recording of tests/core/formats/perf/perf_workload.cc made in a private directory of this
// process: compiled with -g and frame pointers, copied and stripped, `perf record -g -e cpu-clock
// -k CLOCK_MONOTONIC` of the stripped copy.
struct PerfRecording {
  std::string dir;
  std::string binary;      // the stripped workload, at the path the recording names
  std::string unstripped;  // same build id, with symbols and DWARF
  std::string debug_dir;   // <debug_dir>/.build-id/xx/rest.debug = unstripped
  std::string symfs;       // <symfs>/<binary> = unstripped (for perf script --symfs)
  std::string data;        // the perf.data file
  std::string build_id;
  uint64_t started_unix_nano = 0, ended_unix_nano = 0;  // wall clock around perf record
};
const PerfRecording& perfRecording();

// testdata/goparent (a Go program: a non-PIE executable that runs a child and works until it
// exits), built once per test process, offline (a module with no dependencies);
// "" with `error` set when go is missing or the build fails.
std::string goParentBinary(std::string* error);

// perf script of the recording with the workload's symbols (as perf resolves them through --symfs)
// and this machine's kernel symbols (--kallsyms=/proc/kallsyms: the symfs would hide them).
std::string perfScriptOf(const PerfRecording& r);

// How foldPerfScript names a frame. kAddress: "<hex>" as printed. kName: the symbol without its
// +0x offset, user `[unknown]` frames left out, unnamed kernel frames "[kernel]". kNameNoKernel: the
// same with every kernel frame "[kernel]" (what the pipeline's symbolize processor leaves them).
enum class FoldBy { kAddress, kName, kNameNoKernel };
Folded foldPerfScript(const std::string& text, FoldBy by);

// Folds a converted batch's `samples` profiles by address: each frame's address as perf script
// prints it (file-relative `ip - start + pgoff` for user frames in a file's mapping, else the raw
// ip: kernel, no mapping, or a map without a file such as JIT code in //anon).
Folded foldBatchByAddress(const flat::Batch& b);

// Renames each function to the first (sorted) of the names the symbol table gives its address
// (aliases such as __libc_start_main / __libc_start_main_impl), from `nm` of `binary`.
Folded canonicalNames(const Folded& in, const std::string& binary);

}  // namespace proflow::testing
