#!/bin/sh
# Daemon CPU per request for OTLP/JSON against protobuf: one proflow `otlp (HTTP) -> file` sent the
# same Go CPU profile REQUESTS times, one request at a time, as OTLP/HTTP protobuf exported as
# `format: otlp_proto`, then as OTLP/JSON exported as `format: otlp_json` (JSON lines). The daemon's
# CPU time (/proc/<pid>/stat utime + stime) over the requests, divided by their number.
#
#   bench/otlp_json/run.sh [BUILD_DIR] [REQUESTS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
requests=${2:-200}
tmp=$(mktemp -d)
pid=""
cleanup() { [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

profile="$here/../load/testdata/go_cpu.pb.gz"
"$build/proflow" convert "$profile" "$tmp/body.pb" --to otlp_proto
"$build/proflow" convert "$profile" "$tmp/body.json" --to otlp_json

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

run() {  # $1: content type, $2: body, $3: file exporter format
  cat >"$tmp/proflow.yaml" <<YAML
receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:14428 } } } }
exporters: { file: { path: $tmp/out.$3, format: $3 } }
service:
  telemetry:
    metrics: { address: 127.0.0.1:18908 }
    logs: { level: warn }
    status: { enabled: false, flamegraph: { enabled: false } }
  pipelines: { profiles: { receivers: [otlp], exporters: [file] } }
YAML
  "$build/proflow" --config "$tmp/proflow.yaml" >"$tmp/proflow.log" 2>&1 &
  pid=$!
  i=0
  until curl -sf http://127.0.0.1:18908/healthz >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 200 ] || { echo "proflow did not become healthy" >&2; cat "$tmp/proflow.log" >&2; exit 1; }
    sleep 0.1
  done
  post() { curl -sf -o /dev/null -H "Content-Type: $1" --data-binary "@$2" http://127.0.0.1:14428/v1development/profiles; }
  for _ in 1 2 3 4 5; do post "$1" "$2"; done  # warm-up
  before=$(cpu_ticks "$pid")
  n=0
  while [ $n -lt "$requests" ]; do post "$1" "$2"; n=$((n + 1)); done
  after=$(cpu_ticks "$pid")
  hz=$(getconf CLK_TCK)
  awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" -v what="$3" -v size="$(stat -c %s "$2")" \
    'BEGIN { printf "%-11s body %8d bytes: %6.3f ms daemon CPU per request (%d requests, %.2f CPU-s)\n", what, size, 1000 * t / hz / n, n, t / hz }'
  kill "$pid"; wait "$pid" 2>/dev/null || true
  pid=""
}

run application/x-protobuf "$tmp/body.pb" otlp_proto
run application/json "$tmp/body.json" otlp_json
