#!/bin/sh
# Gateway-path load: proflow `otlp (HTTP) -> batch (send_batch_size 100) -> otlp` forwarding to a
# second proflow (a sink with the debug exporter), loaded by proflow_load with OTLP/HTTP protobuf
# bodies made from a real Go CPU profile; once with the default runtime (a worker per usable CPU)
# and once with `service.runtime.workers: 1`, to show how the daemon scales (RUNTIMES: both, or
# only `default` or `one`). proflow_load also reports the gateway's resident memory.
#
#   bench/load/run.sh [BUILD_DIR] [SECONDS] [CONNECTIONS] [RUNTIMES]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
seconds=${2:-10}
connections=${3:-16}
runtimes=${4:-both}
case $runtimes in both | default | one) ;; *) echo "RUNTIMES: both, default or one" >&2; exit 2 ;; esac
tmp=$(mktemp -d)
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

"$build/proflow" convert "$here/testdata/go_cpu.pb.gz" "$tmp/body.pb" --to otlp_proto

wait_healthy() {
  i=0
  until curl -sf "http://127.0.0.1:$1/healthz" >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 200 ] || { echo "daemon on :$1 did not become healthy" >&2; exit 1; }
    sleep 0.1
  done
}

cat >"$tmp/sink.yaml" <<YAML
receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:14417, max_recv_msg_size: 256MiB } } } }
exporters: { debug: { verbosity: basic } }
service:
  # The sink stands in for a backend: no status page or flame graph, so it leaves the cores to the gateway.
  telemetry:
    metrics: { address: 127.0.0.1:18898 }
    logs: { level: warn }
    status: { enabled: false, flamegraph: { enabled: false } }
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
YAML
"$build/proflow" --config "$tmp/sink.yaml" >"$tmp/sink.log" 2>&1 &
pids="$pids $!"
wait_healthy 18898

run_gateway() {  # $1: runtime yaml line ("" = defaults)
  cat >"$tmp/gateway.yaml" <<YAML
receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:14418 } } } }
processors: { batch: { send_batch_size: 100, timeout: 1s } }
exporters:
  otlp: { endpoint: 127.0.0.1:14417, tls: { insecure: true }, compression: none, sending_queue: { queue_size: 5000 } }
service:
  $1
  telemetry: { metrics: { address: 127.0.0.1:18899 }, logs: { level: warn } }
  pipelines: { profiles: { receivers: [otlp], processors: [batch], exporters: [otlp] } }
YAML
  "$build/proflow" --config "$tmp/gateway.yaml" >"$tmp/gateway.log" 2>&1 &
  gw=$!
  pids="$pids $gw"
  wait_healthy 18899
  "$build/bench/proflow_load" --port 14418 --pid "$gw" --body "$tmp/body.pb" --seconds "$seconds" \
    --connections "$connections"
  kill "$gw"; wait "$gw" 2>/dev/null || true
}

if [ "$runtimes" != one ]; then
  echo "== default runtime (workers = usable CPUs: $(nproc))"
  run_gateway ""
fi
if [ "$runtimes" != default ]; then
  echo "== service.runtime.workers: 1"
  run_gateway "runtime: { workers: 1 }"
fi
