#!/usr/bin/env bash
# Idle resident memory of the daemon on the default config (anchor: the OpenTelemetry Collector
# idles at ~45 MiB RSS). Starts proflow with free ports, waits, reads VmRSS/VmHWM, stops it.
# Usage: bench/core/idle_rss.sh [path/to/proflow] [seconds]
set -euo pipefail
bin=$(realpath "${1:-build/proflow}")
secs=${2:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cd "$work"
PROFLOW_OTLP_GRPC_ENDPOINT=127.0.0.1:$(port) PROFLOW_OTLP_HTTP_ENDPOINT=127.0.0.1:$(port) \
PROFLOW_METRICS_ADDRESS=127.0.0.1:$(port) PROFLOW_PPROF_ENDPOINT=127.0.0.1:$(port) \
PROFLOW_PYROSCOPE_ENDPOINT=127.0.0.1:$(port) PROFLOW_JFR_ENDPOINT=127.0.0.1:$(port) "$bin" >"$work/log" 2>&1 &
pid=$!
sleep "$secs"
if ! kill -0 "$pid" 2>/dev/null; then cat "$work/log"; exit 1; fi
rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
threads=$(awk '/Threads/ {print $2}' /proc/$pid/status)
anon=$(awk '/RssAnon/ {print $2}' /proc/$pid/status)
file=$(awk '/RssFile/ {print $2}' /proc/$pid/status)
kill -TERM "$pid"; wait "$pid" || true
awk -v s="$secs" -v r="$rss" -v h="$hwm" -v t="$threads" -v a="$anon" -v f="$file" 'BEGIN {
  printf "idle after %ss: VmRSS %.1f MiB (anonymous %.1f, file-backed %.1f), peak %.1f MiB, %s threads (Collector anchor ~45 MiB: ratio %.2f)\n",
         s, r / 1024, a / 1024, f / 1024, h / 1024, t, r / 1024 / 45 }'
