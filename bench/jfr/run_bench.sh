#!/bin/sh
# JFR parse + convert throughput: proflow (jfr_bench) vs the JDK's RecordingFile (JdkFold.java) on the same
# >= 20 MB recording, with peak RSS from /usr/bin/time -v.
# Usage: bench/jfr/run_bench.sh BUILD_DIR [WORK_DIR] [SECONDS] [SETTINGS]
#   BUILD_DIR must hold bench/jfr/jfr_bench (cmake --build BUILD_DIR --target jfr_bench).
# The recording: the test workload (tests/core/formats/jfr/testdata) run SECONDS (default 20) with SETTINGS
# (default: the test's contention.jfc — CPU/native sampling, every TLAB allocation, monitor/park threshold 0,
# nothing else, so almost every byte is a profiling event; `profile` gives a typical recording where most
# events are GC/runtime events the converter skips), then its chunk repeated until the file is >= 24 MB (a
# multi-chunk file, as a long-running JVM writes). proflow runs three ways: output request on the heap (as
# `proflow convert`), on a protobuf arena (as the daemon did before the flat batch), and streaming.
set -eu
build=$(cd "$1" && pwd)
work=${2:-$(mktemp -d)}
seconds=${3:-20}
here=$(cd "$(dirname "$0")" && pwd)
testdata=$here/../../tests/core/formats/jfr/testdata
settings=${4:-$testdata/contention.jfc}
mkdir -p "$work/classes"
javac -d "$work/classes" "$testdata/Workload.java" "$here/JdkFold.java"
if [ ! -f "$work/base.jfr" ]; then
  java -XX:StartFlightRecording=settings="$settings",filename="$work/base.jfr" \
    -cp "$work/classes" Workload "$seconds" > "$work/record.log" 2>&1
fi
rm -f "$work/big.jfr"
while [ "$(stat -c %s "$work/big.jfr" 2>/dev/null || echo 0)" -lt 25165824 ]; do cat "$work/base.jfr" >> "$work/big.jfr"; done
echo "recording: $(stat -c %s "$work/base.jfr") bytes per chunk, file $(stat -c %s "$work/big.jfr") bytes"

rss() {
  # Peak RSS, and the whole process's CPU (all threads, all iterations, start-up included).
  awk -F': ' '/Maximum resident/ {r=$2} /User time/ {u=$2} /System time/ {s=$2} END {printf "%s KB, process cpu %.2f s", r, u+s}' "$1"
}
/usr/bin/time -v "$build/bench/jfr/jfr_bench" "$work/big.jfr" --iterations 5 > "$work/proflow.out" 2> "$work/proflow.time"
/usr/bin/time -v "$build/bench/jfr/jfr_bench" "$work/big.jfr" --iterations 5 --arena default > "$work/batch.out" 2> "$work/batch.time"
/usr/bin/time -v "$build/bench/jfr/jfr_bench" "$work/big.jfr" --iterations 5 --stream > "$work/stream.out" 2> "$work/stream.time"
/usr/bin/time -v java -cp "$work/classes" JdkFold "$work/big.jfr" 5 > "$work/jdk.out" 2> "$work/jdk.time"
echo "$(cat "$work/proflow.out")  peak RSS $(rss "$work/proflow.time") (whole file in memory)"
echo "$(cat "$work/batch.out")  peak RSS $(rss "$work/batch.time") (output on an arena, as the daemon)"
echo "$(cat "$work/stream.out")  peak RSS $(rss "$work/stream.time") (streaming, one chunk at a time)"
echo "$(cat "$work/jdk.out")  peak RSS $(rss "$work/jdk.time")"
mbs() { sed "s/.*best $2 [0-9.]* s = \([0-9.]*\) MB\/s.*/\1/" "$1"; }
for kind in wall cpu; do
  for run in proflow batch; do
    echo "ratio $run/jdk ($kind): $(echo "$(mbs "$work/$run.out" $kind) $(mbs "$work/jdk.out" $kind)" | awk '{printf "%.1f", $1 / $2}')x"
  done
done
