#!/usr/bin/env bash
# Lists the tests the last ctest run in <build dir> skipped, each with the reason it gave
# (GTEST_SKIP's message: the machine refused what the test needs). Run by `make test` after ctest.
# Usage: scripts/skipped-tests.sh <build dir>
set -euo pipefail
log="${1:?usage: $0 <build dir>}/Testing/Temporary/LastTest.log"
[[ -f $log ]] || exit 0
# Each test's block starts with "N/M Test: <name>"; gtest prints "<file>:<line>: Skipped", the
# reason's lines, then (after a blank line, or not) "[  SKIPPED ] <name>".
awk '
  / Test: / && /^[0-9]+\/[0-9]+ / { name = $0; sub(/^[0-9]+\/[0-9]+ Test: /, "", name); reason = ""; inreason = 0; next }
  /: Skipped$/ { inreason = 1; next }
  inreason && (/^$/ || /^\[/) { inreason = 0 }
  inreason { reason = reason (reason == "" ? "" : " ") $0; next }
  /^\[  SKIPPED \] / && name != "" { skipped[name] = (reason == "" ? "(no reason given)" : reason); name = "" }
  END {
    n = 0; for (t in skipped) n++
    if (n == 0) exit
    printf "\n%d test(s) skipped, each with its reason (PROFLOW_REQUIRE_ALL_TESTS=1 makes those that need", n
    printf " what this machine refuses fail instead):\n"
    for (t in skipped) printf "  SKIPPED %s: %s\n", t, skipped[t] | "sort"
  }' "$log"
