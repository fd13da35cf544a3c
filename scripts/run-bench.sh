#!/usr/bin/env bash
# Runs every Google Benchmark binary under BUILD_DIR/bench and the end-to-end drivers in bench/*/.
# Usage: scripts/run-bench.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
for b in "$build"/bench/bench_*; do
  [[ -x $b ]] || continue
  echo "== $b"
  "$b" --benchmark_counters_tabular=true
done
echo "== idle RSS of the default config"
bench/core/idle_rss.sh "$build/proflow"
