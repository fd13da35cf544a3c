// Test inputs made with the real JDK at test time (cached per build directory by make_recordings.sh).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace proflow::testing {

// Directory holding default.jfr, profile.jfr, contention.jfr, two_chunks.jfr and their `jfr print --json`
// output. Generates them on first use; returns "" (after printing why) when the JDK tools fail.
std::string jfrRecordingsDir();

std::vector<uint8_t> readBytes(const std::string& path);

}  // namespace proflow::testing
