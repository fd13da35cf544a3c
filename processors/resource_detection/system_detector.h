// The `system` detector: host.name, host.id, os.type and host.arch of the machine the daemon runs on.
#pragma once

#include <string>
#include <string_view>

#include "processors/resource_detection/config.h"
#include "processors/resource_detection/detected.h"

namespace proflow::processors::resourcedetection {

// OTel semconv host.arch value for a uname machine string: x86_64 -> amd64, aarch64 -> arm64, ...;
// machines semconv does not list are passed through as they are.
std::string hostArchFromMachine(std::string_view machine);

// OTel semconv os.type value for a uname sysname: Linux -> linux (lower case).
std::string osTypeFromSysname(std::string_view sysname);

// The first non-empty line of the first readable file of `files` (trimmed), "" when none.
std::string readMachineId(const std::vector<std::string>& files);

DetectedList detectSystem(const SystemConfig& config);

}  // namespace proflow::processors::resourcedetection
