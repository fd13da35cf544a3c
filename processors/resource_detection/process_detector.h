// The `process` detector: what procfs says about the process a resource names with process.pid.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "processors/resource_detection/config.h"
#include "processors/resource_detection/detected.h"

namespace proflow::processors::resourcedetection {

// argv from a /proc/<pid>/cmdline body (NUL-separated, usually NUL-terminated).
std::vector<std::string> splitCmdline(std::string_view body);

// Value of a "Name:\tvalue" line of /proc/<pid>/status, "" when absent (first field only for Uid).
std::string statusField(std::string_view status, std::string_view name);

// User name of `uid`, or the number as text when the user database does not know it.
std::string userName(uint32_t uid);

// process.executable.path/name, process.command, process.command_line, process.command_args,
// process.owner, process.parent_pid and process.runtime.* (runtime_detector.h) of
// `<proc_root>/<pid>`; empty when the process is gone.
DetectedList detectProcess(const std::string& proc_root, int64_t pid, const ProcessConfig& config);

}  // namespace proflow::processors::resourcedetection
