#!/bin/sh
# Gateway-path load: proflow `otlp (HTTP) -> batch (send_batch_size 100) -> otlp` forwarding to a
# second proflow (a sink with the debug exporter), loaded by proflow_load with OTLP/HTTP protobuf
# bodies made from a real Go CPU profile; once with the default runtime (a worker per usable CPU)
# and once with `service.runtime.workers: 1`, to show how the daemon scales (RUNTIMES: both, or
# only `default` or `one`). proflow_load also reports the gateway's resident memory.
# GATEWAYS picks the gateway's pipelines (space- or comma-separated, run in turn, ROUNDS times):
#   plain     otlp -> batch -> otlp
#   transform otlp -> transform (bench/ottl/transform_5_statements.yaml) -> batch -> otlp
#   routing   otlp -> routing connector (by service.name, two routes) -> batch -> otlp
#
# With PERF_DATA=path set, `perf record -g` samples the gateway during saturation into path.GATEWAY.
#
#   bench/load/run.sh [BUILD_DIR] [SECONDS] [CONNECTIONS] [RUNTIMES] [GATEWAYS] [ROUNDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
seconds=${2:-10}
connections=${3:-16}
runtimes=${4:-both}
gateways=$(echo "${5:-plain}" | tr ',' ' ')
rounds=${6:-1}
for g in $gateways; do
  case $g in plain | transform | routing) ;; *) echo "GATEWAYS: plain, transform, routing" >&2; exit 2 ;; esac
done
case $runtimes in both | default | one) ;; *) echo "RUNTIMES: both, default or one" >&2; exit 2 ;; esac
tmp=$(mktemp -d)
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM

"$build/proflow" convert "$here/testdata/go_cpu.pb.gz" "$tmp/body.pb" --to otlp_proto

wait_healthy() {  # $1: metrics port, $2: the daemon's log (shown if it does not come up)
  i=0
  until curl -sf "http://127.0.0.1:$1/healthz" >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 200 ] || { echo "daemon on :$1 did not become healthy" >&2; cat "$2" >&2; exit 1; }
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
wait_healthy 18898 "$tmp/sink.log"

# The gateway's processors and connectors for $1 (plain, transform, routing) ...
gateway_components() {
  case $1 in
  plain) echo 'processors: { batch: { send_batch_size: 100, timeout: 1s } }' ;;
  transform)
    printf 'processors:\n  batch: { send_batch_size: 100, timeout: 1s }\n  transform:\n'
    sed 's/^/    /' "$here/../ottl/transform_5_statements.yaml"
    ;;
  routing)
    cat <<'YAML'
processors: { batch: { send_batch_size: 100, timeout: 1s } }
connectors:
  routing:
    default_pipelines: [profiles/odd]
    table:
      - condition: IsMatch(attributes["service.name"], "[02468]$$")
        pipelines: [profiles/even]
YAML
    ;;
  esac
}

# ... and its pipelines (under service.pipelines).
gateway_pipelines() {
  case $1 in
  plain) echo '    profiles: { receivers: [otlp], processors: [batch], exporters: [otlp] }' ;;
  transform) echo '    profiles: { receivers: [otlp], processors: [transform, batch], exporters: [otlp] }' ;;
  routing)
    cat <<'YAML'
    profiles/in: { receivers: [otlp], exporters: [routing] }
    profiles/even: { receivers: [routing], processors: [batch], exporters: [otlp] }
    profiles/odd: { receivers: [routing], processors: [batch], exporters: [otlp] }
YAML
    ;;
  esac
}

run_gateway() {  # $1: runtime yaml line ("" = defaults), $2: gateway (plain, transform, routing)
  {
    cat <<'YAML'
receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:14418 } } } }
exporters:
  otlp: { endpoint: 127.0.0.1:14417, tls: { insecure: true }, compression: none, sending_queue: { queue_size: 5000 } }
YAML
    gateway_components "$2"
    cat <<YAML
service:
  $1
  telemetry: { metrics: { address: 127.0.0.1:18899 }, logs: { level: warn } }
  pipelines:
YAML
    gateway_pipelines "$2"
  } >"$tmp/gateway.yaml"
  "$build/proflow" --config "$tmp/gateway.yaml" >"$tmp/gateway.log" 2>&1 &
  gw=$!
  pids="$pids $gw"
  wait_healthy 18899 "$tmp/gateway.log"
  if [ -n "${PERF_DATA:-}" ]; then  # the gateway's profile during the saturation phase
    perf record -g -o "$PERF_DATA.$2" -p "$gw" -- sleep "$seconds" >/dev/null 2>&1 &
    pids="$pids $!"
  fi
  "$build/bench/proflow_load" --port 14418 --pid "$gw" --body "$tmp/body.pb" --seconds "$seconds" \
    --connections "$connections"
  kill "$gw"; wait "$gw" 2>/dev/null || true
}

round=1
while [ "$round" -le "$rounds" ]; do
  for g in $gateways; do
    if [ "$runtimes" != one ]; then
      echo "== default runtime (workers = usable CPUs: $(nproc)), gateway $g, round $round"
      run_gateway "" "$g"
    fi
    if [ "$runtimes" != default ]; then
      echo "== service.runtime.workers: 1, gateway $g, round $round"
      run_gateway "runtime: { workers: 1 }" "$g"
    fi
  done
  round=$((round + 1))
done
