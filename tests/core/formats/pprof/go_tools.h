// Test-time producers and readers for pprof: the profgen Go program from testdata/ and Google's pprof
// tool (tests/support/go_programs.h), and running them.
#pragma once

#include <string>

#include "tests/support/go_programs.h"

namespace proflow::testing {

// Runs `cmd` with /bin/sh; stdout (and stderr unless `stdout_only`) go to `output`. Returns the exit
// status (-1 if not run).
int runCommand(const std::string& cmd, std::string* output, bool stdout_only = false);

// GNU build id profgen is linked with, so its mapping carries one like a C/C++ binary's would.
inline constexpr const char* kProfgenBuildId = "7e9a1c2f33c4b1d0e2a6f9b8c7d6e5f4a3b2c1d0";

// Builds profgen and writes cpu/heap/allocs/mutex/block/goroutine .pb.gz into `dir`.
bool generateGoProfiles(const std::string& dir, std::string* error);

// `pprof -raw` of a profile file (no symbolization), or "" with `error` set.
std::string pprofRaw(const std::string& tool, const std::string& file, std::string* error);

}  // namespace proflow::testing
