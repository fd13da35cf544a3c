// Reading the JDK's own decoding of a recording (`jfr print --json`) in tests: its time and duration
// spellings, its frames as the converter names them, and its events one at a time, so that outputs of
// hundreds of megabytes never sit in memory whole.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "tests/core/formats/jfr/mini_json.h"

namespace proflow::testing {

// "PT0.004393908S" (java.time.Duration) -> ns.
int64_t jdkDurationNanos(const std::string& s);
// "2026-11-29T22:02:02.769196953Z" -> epoch ns (-1 when unreadable).
int64_t jdkInstantNanos(const std::string& s);
// "package.Class.method[:line]" of one `stackTrace.frames` element, the line only when known, with
// the generated class names merged as the converter does by default.
std::string jdkFrameName(const Json& frame);

// Runs `jfr print --json --stack-depth 8192 --events EVENTS FILE` and calls `each` with every event
// ({"type": ..., "values": {...}}) as it is printed. Returns "" or what failed (the tool's exit code).
std::string forEachJdkEvent(const std::string& file, const std::string& events,
                            const std::function<void(const Json& event)>& each);

}  // namespace proflow::testing
