// Process-wide logging set-up from service.telemetry.logs: level and text or JSON lines on stderr.
#pragma once

#include <string>

namespace proflow::telemetry {

// level: trace|debug|info|warn|error|off; encoding: text|json.
void setupLogging(const std::string& level, const std::string& encoding);

}  // namespace proflow::telemetry
