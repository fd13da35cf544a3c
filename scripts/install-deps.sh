#!/usr/bin/env bash
# Installs the Debian 12 packages proflow needs, only those that are missing.
# Usage: scripts/install-deps.sh build|test|fuzz
#   build: compilers and libraries to build the daemon
#   test:  build + the real producers and peers the tests use (Go, JDK, debuginfod, llvm, gperftools,
#          promtool and prometheus_client's OpenMetrics parser, chromium for the status page's browser test,
#          node and npm for the Datadog tracer test, which npm-installs dd-trace into the build tree,
#          linux-perf for the perf recordings). Debian's Go (1.19) builds the test programs that use only
#          the standard library; those pinned to modules of the Go module proxy (Google's pprof tool, the
#          OpenTelemetry Collector) need a newer Go on PATH and the proxy, and their tests skip without them.
#   fuzz:  build + clang and libFuzzer's runtime for the fuzz targets (make fuzz)
set -euo pipefail
what=${1:-build}

build_pkgs=(g++ make cmake ninja-build pkg-config ccache
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libyaml-cpp-dev libzstd-dev liblz4-dev libdeflate-dev libisal-dev libboost-dev libspdlog-dev zlib1g-dev
  libdw-dev libelf-dev libdebuginfod-dev libgtest-dev libgmock-dev libbenchmark-dev libssl-dev
  llvm-14-dev libre2-dev libcrypt-dev libnats-dev librdkafka-dev
  libbz2-dev liblzma-dev)  # the archives libdw.a needs: proflow links elfutils statically
test_pkgs=(curl openssl
  golang-go openjdk-17-jdk-headless
  debuginfod llvm-14 libgoogle-perftools-dev binutils elfutils
  prometheus python3-prometheus-client chromium
  nats-server nodejs linux-perf)
# Debian's npm is a package of its own; a nodejs that bundles npm (e.g. NodeSource's) conflicts with it.
[[ $what == test ]] && ! command -v npm >/dev/null && test_pkgs+=(npm)

fuzz_pkgs=(clang-14 libclang-rt-14-dev)

pkgs=("${build_pkgs[@]}")
[[ $what == test ]] && pkgs+=("${test_pkgs[@]}")
[[ $what == fuzz ]] && pkgs+=("${fuzz_pkgs[@]}")

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

echo "installing missing Debian packages: ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "need root (or sudo) to apt-get install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
