#!/usr/bin/env bash
# `proflow convert` as a whole process (start-up, reading, conversion, writing, exit) against Go's
# github.com/google/pprof/profile (goconvert: one Parse + Write, the same job) for pprof inputs and
# against the JDK's own reader (JdkFold, bench/jfr) for JFR inputs, interleaved ROUNDS times on the
# same files. CPU is user + system time of each process (/usr/bin/time), RSS its peak.
# Usage: bench/pprof/whole_process.sh BUILD_DIR [ROUNDS] FILE...
#   FILE: .pb.gz (pprof -> pprof) or .jfr (JFR -> pprof). Generated inputs, in WORK (default a
#   temporary directory): large.pb.gz (pprof_bench --write-large), alloc.pb.gz (goconvert
#   -gen-alloc 290000: 4 sample types) when GEN=1.
set -euo pipefail
build=$(cd "${1:?usage: whole_process.sh BUILD_DIR [ROUNDS] FILE...}" && pwd)
rounds=${2:-3}
shift $(($# < 2 ? $# : 2))
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-$(mktemp -d)}
mkdir -p "$work/classes"
(cd "$here" && GOFLAGS=-mod=readonly go build -o "$work/goconvert" ./goconvert)
javac -d "$work/classes" "$here/../jfr/JdkFold.java"
files=("$@")
if [[ ${GEN:-0} == 1 ]]; then
  [[ -f $work/large.pb.gz ]] || "$build/bench/pprof_bench" --write-large="$work/large.pb.gz" >/dev/null
  [[ -f $work/alloc.pb.gz ]] || "$work/goconvert" -gen-alloc 290000 "$work/alloc.pb.gz"
  files+=("$work/large.pb.gz" "$work/alloc.pb.gz")
fi
measure() {  # side file command...: appends "side file cpu_seconds rss_kb"
  local side=$1 file=$2
  shift 2
  /usr/bin/time -f "%U %S %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  awk -v s="$side" -v f="$(basename "$file")" '{ print s, f, $1 + $2, $3 }' "$work/time" >>"$work/results"
}
: >"$work/results"
for ((r = 1; r <= rounds; r++)); do
  for f in "${files[@]}"; do
    measure proflow "$f" "$build/proflow" convert "$f" "$work/out.pb.gz"
    case $f in
      *.jfr) measure other "$f" java -cp "$work/classes" JdkFold "$f" 1 ;;
      *) measure other "$f" "$work/goconvert" "$f" "$work/go.pb.gz" ;;
    esac
  done
done
printf "%-24s %21s %21s %15s %17s\n" input "proflow cpu s b/med" "Go|JDK cpu s b/med" "ratio b/med" "RSS MB proflow/other"
sort -k1,1 -k2,2 -k3,3g "$work/results" |
  awk '{ k = $1 " " $2; v[k, ++n[k]] = $3; if ($4 > rss[k]) rss[k] = $4; files[$2] = 1 }
    function med(k,   m) { m = n[k]; return m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2 }
    END { for (f in files) { p = "proflow " f; o = "other " f
      printf "%-24s %9.3f / %9.3f %9.3f / %9.3f %6.1fx / %5.1fx %8.0f / %6.0f\n", f, v[p, 1], med(p), v[o, 1], med(o),
        v[o, 1] / v[p, 1], med(o) / med(p), rss[p] / 1024, rss[o] / 1024 } }' | sort
