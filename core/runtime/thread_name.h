// Names the calling thread (what `top -H`, /proc/<pid>/task/<tid>/comm, perf and the `self`
// receiver's thread.name attribute show), so a profile of the daemon says which component owns a
// thread. Threads the calling thread starts later inherit the name until they set their own.
#pragma once

#include <string_view>

namespace proflow {

// Linux keeps 15 bytes; a longer name is cut there. Best effort: a failure is ignored.
void setThreadName(std::string_view name);

// A per-instance name: `prefix` + `id` cut to fit, e.g. ("exp-", "otlp/backend") -> "exp-otlp/backend"
// -> "exp-otlp/backen". `index` >= 0 is appended after a '-' and kept whole.
void setThreadName(std::string_view prefix, std::string_view id, int index = -1);

}  // namespace proflow
