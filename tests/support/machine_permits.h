// Tests that need what a machine may not allow — recording with perf events (refused to non-root
// users by Debian's kernel.perf_event_paranoid and in unprivileged containers), network access to
// the npm registry — skip with the reason where it is refused. Where PROFLOW_REQUIRE_ALL_TESTS=1 (CI,
// which must run them all) they fail instead. `make test` lists every skipped test with its reason.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace proflow::testing {

// True when PROFLOW_REQUIRE_ALL_TESTS is set to anything but "" or "0".
bool requireAllTests();

// Why this process may not record with `perf record` ("" when it may): perf missing, or
// perf_event_open refused for a CPU-clock event on its own children (`system_wide`: on every
// process of a CPU, as `perf record -a` opens it), with the paranoid level and what would allow it.
std::string perfRecordRefused(bool system_wide = false);

}  // namespace proflow::testing

// Skips the current test when `reason` (an expression giving a std::string) is not empty, or fails
// it when every test is required. Only in the test body (it returns from it).
#define PROFLOW_SKIP_IF_REFUSED(reason)                                                                  \
  do {                                                                                                   \
    if (const std::string proflow_refused_ = (reason); !proflow_refused_.empty()) {                      \
      if (::proflow::testing::requireAllTests())                                                        \
        FAIL() << proflow_refused_ << " (PROFLOW_REQUIRE_ALL_TESTS is set: this machine must allow it)"; \
      GTEST_SKIP() << proflow_refused_;                                                                  \
    }                                                                                                    \
  } while (0)
