#!/bin/sh
# Makes the JFR test recordings with the JDK, once per build directory (the tests call this; a stamp
# makes later runs instant). Usage: make_recordings.sh TESTDATA_DIR OUT_DIR
#   default.jfr     settings=default (20 ms CPU sampling)
#   profile.jfr     settings=profile (10 ms CPU sampling, allocation samples)
#   contention.jfr  contention.jfc: TLAB events on, monitor/park threshold 0
#   rotated.jfr     contention.jfc, chunk rotated mid-run: several chunks from one JVM
#   two_chunks.jfr  profile.jfr followed by contention.jfr (`cat`: chunks of two JVMs)
# and, for each, <name>.json = `jfr print --json` of the profiling events: the JDK's own decoding. (The
# JDK's reader carries constant pools over from chunk to chunk, so its decoding of two_chunks.jfr mixes the
# two JVMs' pools; the tests compare that file with profile.json + contention.json instead.)
set -eu
src=$1
out=$2
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
stamp="$out/stamp"
if [ -f "$stamp" ] && [ "$stamp" -nt "$src/Workload.java" ] && [ "$stamp" -nt "$src/contention.jfc" ] &&
   [ "$stamp" -nt "$src/make_recordings.sh" ]; then
  exit 0
fi
for tool in javac java jfr flock; do
  command -v "$tool" >/dev/null 2>&1 || { echo "make_recordings.sh: '$tool' not found (install openjdk-17-jdk-headless)" >&2; exit 3; }
done
rm -f "$stamp"
javac -d "$out/classes" "$src/Workload.java"
record() {
  java -XX:StartFlightRecording=settings="$2",filename="$out/$1.jfr" -cp "$out/classes" Workload "$3" ${4:-} \
    > "$out/$1.log" 2>&1 || { echo "recording $1 failed:" >&2; cat "$out/$1.log" >&2; exit 4; }
}
record default default 2 &
p1=$!
record profile profile 3 &
p2=$!
record contention "$src/contention.jfc" 3 &
p3=$!
record rotated "$src/contention.jfc" 3 rotate
wait $p1
wait $p2
wait $p3
cat "$out/profile.jfr" "$out/contention.jfr" > "$out/two_chunks.jfr"
events=jdk.ExecutionSample,jdk.NativeMethodSample,jdk.ObjectAllocationSample,jdk.ObjectAllocationInNewTLAB
events=$events,jdk.ObjectAllocationOutsideTLAB,jdk.JavaMonitorEnter,jdk.ThreadPark
for f in default profile contention rotated; do
  jfr print --json --stack-depth 4096 --events "$events" "$out/$f.jfr" > "$out/$f.json"
done
touch "$stamp"
