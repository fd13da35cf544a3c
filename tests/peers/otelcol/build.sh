#!/bin/sh
# Builds the Collector peer at OUT (once: an OUT newer than the module's sources is kept).
# Parallel callers wait on OUT.lock while one builds. Modules come from the Go module proxy into the
# default module cache.
#
# Exit codes: 0 built or up to date; 3 the module proxy could not be reached (the output says how);
# 4 no Go toolchain new enough; anything else: the build failed.
set -u
out=${1:?usage: build.sh OUT}
src=$(cd "$(dirname "$0")" && pwd)

# go.mod needs Go 1.26 or newer; Debian 12's own `go` (1.19) may come first on PATH.
new_enough() {
  v=$("$1" env GOVERSION 2>/dev/null) || return 1
  v=${v#go}
  major=${v%%.*}
  minor=${v#*.}
  minor=${minor%%[!0-9]*}
  [ "$major" -gt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -ge 26 ]; }
}
go=
for candidate in /usr/local/go/bin/go "$(command -v go || true)"; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] && new_enough "$candidate"; then
    go=$candidate
    break
  fi
done
if [ -z "$go" ]; then
  echo "no Go 1.26 or newer: neither /usr/local/go/bin/go nor 'go' on PATH" >&2
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
