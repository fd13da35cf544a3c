// Kernel frames of a perf recording named from a kallsyms table, as `perf script` names them on the
// machine it runs on: perf.data holds kernel addresses only. Used by `proflow convert --symbolize`
// with this machine's /proc/kallsyms when the recording's kernel build id is the running kernel's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/flat/flat_batch.h"

namespace proflow::perf {

// The GNU build id (hex) in an ELF notes blob such as /sys/kernel/notes; "" when there is none.
std::string buildIdFromNotes(std::string_view notes);

// Renames the `[kernel]` frames under a `[kernel.kallsyms]` mapping whose build id is
// `kernel_build_id` to the kallsyms text symbol covering their address (a symbol ends where the
// next one starts). `kallsyms`: the text of /proc/kallsyms. Returns the frames named; 0 when the
// build ids differ or the table hides addresses (kptr_restrict).
uint64_t nameKernelFrames(flat::Batch* batch, std::string_view kallsyms, std::string_view kernel_build_id);

// The same with this machine's /proc/kallsyms and /sys/kernel/notes (the paths are parameters for
// tests). Returns the frames named.
uint64_t nameKernelFramesFromRunningKernel(flat::Batch* batch, const std::string& kallsyms_path = "/proc/kallsyms",
                                           const std::string& notes_path = "/sys/kernel/notes");

}  // namespace proflow::perf
