#!/usr/bin/env bash
# proflow's pprof round trip (pprof_bench) against Go's github.com/google/pprof/profile Parse+Write
# (gobench), interleaved ROUNDS times on the same files; prints the best and median CPU ms/op of each
# side and the ratios Go / proflow, for proflow through the protobuf request ("request") and through
# the flat model ("flat"). On a shared machine only the ratios of one run mean anything.
# Usage: [GZIP_LEVEL=6] bench/pprof/side_by_side.sh BUILD_DIR [ROUNDS] [PROFILE.pb.gz ...]
#   (no files: the generated large profile and, when present, the Go corpus of ../shared/corpus/go)
#   proflow writes gzip at its default level (1) unless GZIP_LEVEL=6, Go's profile.Write level.
set -euo pipefail
build=${1:?usage: side_by_side.sh BUILD_DIR [ROUNDS] [FILES...]}
rounds=${2:-3}
shift $(($# < 2 ? $# : 2))
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$here" && GOFLAGS=-mod=readonly go build -o "$work/gobench" ./gobench)
"$build/bench/pprof_bench" --write-large="$work/large.pb.gz"
files=("$work/large.pb.gz" "$@")
if (($# == 0)); then
  for f in "$here"/../../../shared/corpus/go/go_{cpu,heap,allocs,block,mutex,goroutine}.pb.gz; do
    [[ -f $f ]] && files+=("$f")
  done
fi
rest=$(IFS=:; echo "${files[*]:1}")  # the large profile is generated in-process by pprof_bench

case ${GZIP_LEVEL:-default} in
  default) filter='^BM_Large_RoundTrip(Flat)?$|^BM_File_RoundTrip/[^/]*(/flat)?$' ;;
  6) filter='^BM_Large_RoundTrip(Flat)?Gzip6$|^BM_File_RoundTrip/[^/]*(/flat)?/gzip6$' ;;
  *) echo "GZIP_LEVEL: only 6 (Go's level) or unset (proflow's default)" >&2; exit 2 ;;
esac

for ((r = 1; r <= rounds; r++)); do
  PROFLOW_BENCH_PPROF_FILES=$rest "$build/bench/pprof_bench" --benchmark_min_time=1 \
    --benchmark_filter="$filter" --benchmark_format=csv 2>/dev/null |
    awk -F, -v large="$(basename "${files[0]}")" '/^"BM_/ {
      name = $1; gsub(/"/, "", name); sub(/^BM_File_RoundTrip\//, "", name); sub(/\/gzip6$/, "", name)
      side = "request"; if (name ~ /\/flat$|^BM_Large_RoundTripFlat/) side = "flat"
      sub(/\/flat$/, "", name); sub(/^BM_Large_RoundTrip(Flat)?(Gzip6)?$/, large, name)
      cpu = $4; unit = $5; gsub(/"/, "", unit); if (unit == "us") cpu /= 1000; if (unit == "ns") cpu /= 1e6
      print side, name, cpu }' >>"$work/results"
  "$work/gobench" -time 1s "${files[@]}" |
    awk '{ name = $1; sub(/:$/, "", name); n = split(name, parts, "/"); print "go", parts[n], $10 }' >>"$work/results"
done

# Best and median of the rounds per side (this machine's noise is bimodal: look at both).
printf "%-22s %22s %22s %22s %16s %16s\n" profile "request ms best/median" "flat ms best/median" \
  "Go ms best/median" "Go/request b/m" "Go/flat b/m"
sort -k1,1 -k2,2 -k3,3g "$work/results" |
  awk '{ key = $1 " " $2; v[key, ++n[key]] = $3; files[$2] = 1 }
    function best(k) { return v[k, 1] }
    function median(k,   m) { m = n[k]; return m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2 }
    END {
      for (f in files) {
        p = "request " f; q = "flat " f; g = "go " f
        printf "%-22s %10.3f / %9.3f %10.3f / %9.3f %10.3f / %9.3f %7.1fx / %5.1fx %7.1fx / %5.1fx\n", f,
          best(p), median(p), best(q), median(q), best(g), median(g),
          best(g) / best(p), median(g) / median(p), best(g) / best(q), median(g) / median(q)
      }
    }' | sort
