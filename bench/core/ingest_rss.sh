#!/usr/bin/env bash
# Peak resident memory of the daemon while 100+ clients POST large valid profiles at once, to the
# pprof receiver and to OTLP/HTTP (targets: <= 1 GiB under 100+ concurrent large bodies, <= 512 MiB
# for any single request). Clients that get 429 retry after Retry-After until accepted, so the run
# also shows the receivers stay correct while they shed load.
# Usage: bench/core/ingest_rss.sh [build dir] [clients] [body MiB]
set -euo pipefail
build=$(realpath "${1:-build}")
clients=${2:-120}
mib=${3:-40}
work=$(mktemp -d)
trap 'kill -TERM ${pid:-0} 2>/dev/null || true; rm -rf "$work"' EXIT
port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pprof_port=$(port); http_port=$(port); metrics_port=$(port)
cat >"$work/proflow.yaml" <<YAML
receivers:
  pprof: { endpoint: 127.0.0.1:$pprof_port }
  otlp: { protocols: { http: { endpoint: 127.0.0.1:$http_port } } }
exporters:
  debug: {}
service:
  telemetry: { metrics: { address: 127.0.0.1:$metrics_port } }
  pipelines: { profiles: { receivers: [pprof, otlp], exporters: [debug] } }
YAML
"$build/proflow" --config "$work/proflow.yaml" >"$work/log" 2>&1 &
pid=$!
for _ in $(seq 100); do curl -sf "127.0.0.1:$metrics_port/healthz" >/dev/null && break; sleep 0.1; done
"$build/bench/ingest_rss_driver" "$pid" "$pprof_port" pprof "$clients" "$mib"
"$build/bench/ingest_rss_driver" "$pid" "$http_port" otlp "$clients" "$mib"
curl -s "127.0.0.1:$metrics_port/metrics" | grep -E 'http_rejected_requests_total\{.*(in_flight_limit|too_large)' || true
