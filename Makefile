# Two commands for a newcomer: `make run` and `make test` (both install missing Debian packages first).
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
CONFIG ?= config/proflow.yaml
# ccache (installed with the build deps) keys on paths relative to the checkout, so clones share hits.
export CCACHE_BASEDIR := $(CURDIR)

.PHONY: all build run test deps deps-test configure bench clean fuzz deps-fuzz

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

run: build
	$(BUILD_DIR)/proflow --config $(CONFIG)

test: deps-test configure
	cmake --build $(BUILD_DIR) -j $(JOBS)
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 600

# libFuzzer targets of every decoder (tests/fuzz), built with clang in their own tree, N seconds each.
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_PREBUILT ?=  # e.g. build: link the GCC-built framework instead of compiling it with clang
deps-fuzz:
	@scripts/install-deps.sh fuzz

fuzz: deps-fuzz
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(JOBS) FUZZ_PREBUILT=$(FUZZ_PREBUILT) tests/fuzz/run_fuzzers.sh $(FUZZ_BUILD_DIR)

bench: build
	scripts/run-bench.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(FUZZ_BUILD_DIR)
