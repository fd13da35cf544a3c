# Two commands for a newcomer: `make run` and `make test` (both install missing Debian packages first).
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
CONFIG ?= config/proflow.yaml
# ccache (installed with the build deps) keys on paths relative to the checkout, so clones share hits.
export CCACHE_BASEDIR := $(CURDIR)

.PHONY: all build run test test-sanitize deps deps-test configure bench clean fuzz deps-fuzz

all: build

deps:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

configure: $(BUILD_DIR)/build.ninja

build: deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The daemon only: the suite and the benchmarks are `make test`'s and `make bench`'s.
run: deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target proflow
	$(BUILD_DIR)/proflow --config $(CONFIG)

# Tests that need what this machine refuses (perf events, the npm registry) skip with a reason,
# listed after the run; PROFLOW_REQUIRE_ALL_TESTS=1 (as .ci/run sets) makes each of them fail instead.
test: deps-test configure
	cmake --build $(BUILD_DIR) -j $(JOBS)
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 600; status=$$?; \
	  cd $(CURDIR) && scripts/skipped-tests.sh $(BUILD_DIR); exit $$status

# libFuzzer targets of every decoder (tests/fuzz), built with clang in their own tree, N seconds each.
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_PREBUILT ?=  # e.g. build: link the GCC-built framework instead of compiling it with clang
deps-fuzz:
	@scripts/install-deps.sh fuzz

fuzz: deps-fuzz
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(JOBS) FUZZ_PREBUILT=$(FUZZ_PREBUILT) tests/fuzz/run_fuzzers.sh $(FUZZ_BUILD_DIR)

# The suite under ASan+UBSan in build-asan/, then the tests labelled `concurrency` under TSan in
# build-tsan/ (only their executables are built there). Each is a build of its own, at -O1 with line
# tables only (-g1): faster to compile than -O2 -g, and reports still name file:line. SAN_JOBS=1 on
# a busy machine. Suppressions live in scripts/sanitizers/ with the reason for
# each. ASan's quarantine is cut to 16 MiB: at its default (256 MiB) the freed memory it keeps
# resident makes the memory_limiter of the end-to-end tests refuse everything.
SAN_JOBS ?= $(JOBS)
SAN_DIR := $(CURDIR)/scripts/sanitizers
SAN_CMAKE_FLAGS := -DCMAKE_BUILD_TYPE=RelWithDebInfo '-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG' \
  -DPROFLOW_BUILD_BENCH=OFF
test-sanitize: deps-test
	cmake -S . -B build-asan -G Ninja $(SAN_CMAKE_FLAGS) -DPROFLOW_SANITIZE=address,undefined
	cmake --build build-asan -j $(SAN_JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:quarantine_size_mb=16 \
	  LSAN_OPTIONS=suppressions=$(SAN_DIR)/lsan.supp:print_suppressions=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) --timeout 1800
	cmake -S . -B build-tsan -G Ninja $(SAN_CMAKE_FLAGS) -DPROFLOW_SANITIZE=thread
	cmake --build build-tsan -j $(SAN_JOBS) --target concurrency_tests
	cd build-tsan && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(SAN_DIR)/tsan.supp \
	  ctest --output-on-failure -j $(JOBS) --timeout 1800 -L concurrency

bench: build
	scripts/run-bench.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(FUZZ_BUILD_DIR)
