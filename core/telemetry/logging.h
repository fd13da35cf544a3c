// Process-wide logging set-up from service.telemetry.logs: level and text or JSON lines on stderr,
// stdout or files.
#pragma once

#include <string>
#include <vector>

#include "core/util/status.h"

namespace proflow::telemetry {

// level: trace|debug|info|warn|error|off; encoding: text|json.
// `outputs`: "stderr", "stdout" or file paths (appended to); a file that cannot be opened is an
// error naming it.
Status setupLogging(const std::string& level, const std::string& encoding,
                    const std::vector<std::string>& outputs = {"stderr"});

}  // namespace proflow::telemetry
