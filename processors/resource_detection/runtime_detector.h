// process.runtime.* of a profiled process, from what its executable says about itself: the JDK's
// `release` file next to a `java` binary, the Go build info inside a Go binary, the version in a
// `python3.X` interpreter's name, `node`. No process is run or attached to.
#pragma once

#include <string>
#include <string_view>

#include "processors/resource_detection/detected.h"

namespace proflow::processors::resourcedetection {

// Value of a `KEY="value"` line of a JDK `release` file, quotes removed; "" when absent.
std::string releaseField(std::string_view release, std::string_view key);

// `pid_dir` is `<proc_root>/<pid>`; `exe_path` what its exe link reads (" (deleted)" removed).
// Files are read through `<pid_dir>/exe` and `<pid_dir>/root/...`, so they are the process's own
// even in another mount namespace. Empty when the runtime is not recognised.
DetectedList detectRuntime(const std::string& pid_dir, const std::string& exe_path);

}  // namespace proflow::processors::resourcedetection
