# proofline — the front end over CMake/CTest. On a fresh Debian 12 clone, `make test` is all it takes.
#
#   make deps       Debian packages + oracle npm packages (scripts/install-deps.sh; root or sudo)
#   make build      configure build/ (Release) and build everything
#   make test       deps + build + every test except those labelled gpu (oracle cross-checks included)
#   make test-gpu   build + the tests labelled gpu (they skip, saying so, where there is no device)
#   make bench      build + run build/proofline_bench   (BENCH_FILTER=regex, BENCH_ARGS=more flags)
#   make asan       the tests under AddressSanitizer/UBSan, in build-asan/
#   make clean      remove build/ and build-asan/     (make distclean: also .oracle/)

SHELL := /bin/bash
.DEFAULT_GOAL := build

BUILD_DIR  ?= build
ASAN_DIR   ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_JOBS ?= 2
CMAKE_ARGS ?=
BENCH_FILTER ?=
BENCH_ARGS ?=

# A node that install-deps.sh put in .oracle/bin (only where the machine's is too old) comes first.
export PATH := $(CURDIR)/.oracle/bin:$(PATH)

.PHONY: help deps configure build test test-gpu bench asan demo clean distclean

help:
	@sed -n '3,9p' $(firstword $(MAKEFILE_LIST)) | sed 's/^# \{0,1\}//'

deps:
	@bash scripts/install-deps.sh

configure:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

# deps first, then the build: a sub-make keeps that order under `make -j`.
test: deps
	@$(MAKE) --no-print-directory build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j$(CTEST_JOBS) -LE gpu

test-gpu: build
	@if [ ! -x $(BUILD_DIR)/test_gpu ]; then \
	  echo "test-gpu: no GPU test binary: nvcc was not found at configure time (PATH, CUDA_HOME, /usr/local/cuda)"; \
	  exit 0; \
	fi; \
	if ! nvidia-smi -L >/dev/null 2>&1; then \
	  echo "test-gpu: no CUDA device visible: the GPU tests will report themselves skipped"; \
	fi; \
	ctest --test-dir $(BUILD_DIR) --output-on-failure -L gpu

bench: build
	@if [ ! -x $(BUILD_DIR)/proofline_bench ]; then \
	  echo "bench: no benchmarks built (bench/*_bench.cpp)"; exit 1; \
	fi
	$(BUILD_DIR)/proofline_bench --benchmark_counters_tabular=true \
	  $(if $(BENCH_FILTER),--benchmark_filter='$(BENCH_FILTER)') $(BENCH_ARGS)

# Asserts stay on (-O1 -g, no NDEBUG); a UBSan finding fails the test.
asan: deps
	cmake -S . -B $(ASAN_DIR) -DPROOFLINE_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" $(CMAKE_ARGS)
	cmake --build $(ASAN_DIR) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0:$(ASAN_OPTIONS) \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:$(UBSAN_OPTIONS) \
	  ctest --test-dir $(ASAN_DIR) --output-on-failure -j$(CTEST_JOBS) -LE gpu

# deps, build, then setup → prove → verify (proofline, snarkjs, noble) on the bench circuit.
demo: deps
	@$(MAKE) --no-print-directory build
	@scripts/demo.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR)

distclean: clean
	rm -rf .oracle
