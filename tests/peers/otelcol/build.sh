#!/bin/sh
# Builds the Collector peer at OUT (once: an OUT newer than the module's sources is kept).
# Parallel callers wait on OUT.lock while one builds. Modules come from the Go module proxy into the
# default module cache.
#
# Exit codes: 0 built or up to date; 3 the module proxy could not be reached (the output says how);
# 4 no Go toolchain; anything else: the build failed.
set -u
out=${1:?usage: build.sh OUT}
src=$(cd "$(dirname "$0")" && pwd)

go=$(command -v go || true)
[ -z "$go" ] && [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go
if [ -z "$go" ]; then
  echo "no Go toolchain: neither 'go' on PATH nor /usr/local/go/bin/go" >&2
  exit 4
fi

mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9

up_to_date() {
  [ -x "$out" ] || return 1
  for f in "$src"/go.mod "$src"/go.sum "$src"/*.go; do
    [ "$out" -nt "$f" ] || return 1
  done
}
up_to_date && exit 0

log="$out.build.log"
# -mod=readonly: go.mod and go.sum are the pins; a build that would change them fails instead.
if (cd "$src" && nice "$go" build -mod=readonly -trimpath -o "$out.tmp" .) >"$log" 2>&1; then
  mv "$out.tmp" "$out"
  exit 0
fi
cat "$log" >&2
rm -f "$out.tmp"
# Failures of the network, not of the code: the proxy (or GOPROXY=off) left modules unreachable.
if grep -qE 'dial tcp|no such host|i/o timeout|connection refused|network is unreachable|TLS handshake timeout|proxyconnect|GOPROXY=off|module lookup disabled' "$log"; then
  exit 3
fi
exit 1
