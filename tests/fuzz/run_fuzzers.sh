#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build dir $1, default build-fuzz) and runs each for
# FUZZ_SECONDS on a scratch copy of its corpus. Findings land in $BUILD/findings/<target>/ and the
# final libFuzzer line of each run is appended to $BUILD/fuzz-summary.txt.
# Usage: tests/fuzz/run_fuzzers.sh [build-dir] [target...]
#   env: FUZZ_SECONDS, FUZZ_JOBS, FUZZ_RSS_MB, FUZZ_MALLOC_MB (largest single allocation, default
#   FUZZ_RSS_MB: set it low, e.g. 64, to catch a decoder whose memory outgrows its input), FUZZ_TIMEOUT (seconds per input, wall clock: raise it when the
#   fuzzers run at low priority on a busy machine, where a starved run is reported as a timeout),
#   FUZZ_PREBUILT (a GCC build tree to link the framework from, see fuzz_build.cmake)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-fuzz}
shift || true
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-2}
rss=${FUZZ_RSS_MB:-2048}
malloc_limit=${FUZZ_MALLOC_MB:-$rss}
input_timeout=${FUZZ_TIMEOUT:-10}
export CCACHE_BASEDIR=$PWD

if [[ ! -f $build/build.ninja ]]; then
  CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROFLOW_FUZZ=ON \
    ${FUZZ_PREBUILT:+-DPROFLOW_FUZZ_PREBUILT=$(realpath "$FUZZ_PREBUILT")}
fi

targets=("$@")
if ((${#targets[@]} == 0)); then
  for f in tests/fuzz/*_fuzz.cc; do targets+=("$(basename "$f" _fuzz.cc)"); done
fi

summary=$build/fuzz-summary.txt  # appended to: several runs may go on side by side
for t in "${targets[@]}"; do
  if ! cmake --build "$build" -j "$jobs" --target "${t}_fuzz" >"$build/build-$t.log" 2>&1; then
    echo "$t: build failed, see $build/build-$t.log" | tee -a "$summary"
    continue
  fi
  work=$build/corpus/$t findings=$build/findings/$t
  mkdir -p "$work" "$findings"
  cp -n tests/fuzz/corpus/"$t"/* "$work"/ 2>/dev/null || true
  echo "== $t: ${seconds}s"
  log=$build/findings/$t.log
  status=0
  # CPU seconds beside the wall-clock budget: on a shared machine they say how much fuzzing was done.
  TIMEFORMAT='%U %S' cpu_file=$build/findings/$t.cpu
  { time "$build/tests/fuzz/${t}_fuzz" "$work" -max_total_time="$seconds" -rss_limit_mb="$rss" -malloc_limit_mb="$malloc_limit" -timeout="$input_timeout" \
      -max_len=65536 -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1 || status=$?; } 2>"$cpu_file"
  cpu=$(awk '{printf "%.0f", $1 + $2}' "$cpu_file")
  final=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$log" | tail -1 || true)
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
  echo "$(date -u +%FT%TZ) $t ${seconds}s cpu=${cpu}s exit=$status execs=${runs:-?} corpus=$(ls "$work" | wc -l) | $final" |
    tee -a "$summary"
done
ls "$build"/findings/*/ 2>/dev/null | grep -E 'crash-|leak-|timeout-|oom-' && echo "findings above" || true
