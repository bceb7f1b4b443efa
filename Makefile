# proofline — the front end over CMake/CTest. On a fresh Debian 12 clone, `make test` is all it takes.
#
#   make deps       Debian packages + oracle npm packages (scripts/install-deps.sh; root or sudo)
#   make build      configure build/ (Release) and build everything
#   make test       deps + build + every test except those labelled gpu (oracle cross-checks included;
#                   a test labelled slow runs with nothing beside it: PROCESSORS = every ctest slot)
#   make test-gpu   build + the tests labelled gpu (they skip, saying so, where there is no device)
#   make bench      build + run build/proofline_bench   (BENCH_FILTER=regex, BENCH_ARGS=more flags)
#   make asan       CPU unit tests under AddressSanitizer+UBSan (clang, -O1) in build-asan/, plus a
#                   short run of every fuzz target (FUZZ_CI_TIME, 10 s each)
#   make tsan       the concurrency tests (tests/engine, tests/server) under ThreadSanitizer, build-tsan/
#   make sanitize   asan + tsan (what CI runs after `make test`; .ci/run times each stage)
#   make stress     the concurrency suites STRESS_RUNS times (default 20) beside a parallel load
#   make fuzz       each libFuzzer target of fuzz/ for FUZZ_TIME seconds (default 60; FUZZ_TARGETS=...)
#   make clean      remove build/, build-asan/, build-tsan/     (make distclean: also .oracle/)
#   Stages on their own (what .ci/run calls): test-run, asan-build, asan-test, fuzz-short,
#   tsan-build, tsan-test.

SHELL := /bin/bash
.DEFAULT_GOAL := build

BUILD_DIR  ?= build
ASAN_DIR   ?= build-asan
TSAN_DIR   ?= build-tsan
FUZZ_TIME  ?= 60
FUZZ_TARGETS ?=
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_JOBS ?= 2
# Seconds a test may run when it sets no TIMEOUT of its own (CMakeLists.txt sets the slow ones'): a
# hung test fails alone, named, instead of holding a CI run until its limit.
CTEST_TIMEOUT ?= 600
# Seconds one ThreadSanitizer test binary (every case of a layer) may run.
TSAN_TIMEOUT ?= 1200
CMAKE_ARGS ?=
BENCH_FILTER ?=
BENCH_ARGS ?=

# Compiler cache (ccache, found by CMakeLists.txt): paths under the clone are hashed relative to it
# (base_dir), so a clone in another folder — CI's clean clone — hits the same cache entries.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := true
export CCACHE_MAXSIZE ?= 15G

# A node that install-deps.sh put in .oracle/bin (only where the machine's is too old) comes first.
export PATH := $(CURDIR)/.oracle/bin:$(PATH)

.PHONY: help deps configure build test test-run test-gpu bench asan asan-build asan-test fuzz-short \
	tsan tsan-build tsan-test sanitize stress fuzz demo clean distclean

help:
	@sed -n '3,19p' $(firstword $(MAKEFILE_LIST)) | sed 's/^# \{0,1\}//'

deps:
	@bash scripts/install-deps.sh

configure:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

# deps first, then the build: a sub-make keeps that order under `make -j`.
test: deps
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory test-run

# The tests of an existing build (no deps, no build step).
test-run:
	ctest --test-dir $(BUILD_DIR) --output-on-failure --timeout $(CTEST_TIMEOUT) -j$(CTEST_JOBS) -LE gpu

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

# Sanitizer builds: clang (libFuzzer needs it), -O1 -g, asserts on (no NDEBUG), CPU only, no
# benchmarks, no node-driven oracle tests: the core library and the unit tests. build-asan/ is
# also the fuzzing build (PROOFLINE_FUZZ: the library is instrumented for libFuzzer as well).
# -gline-tables-only: file:line in sanitizer stacks at a fraction of -g's compile time.
SAN_CMAKE = CC=clang CXX=clang++ cmake -S . -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DPROOFLINE_CUDA=OFF -DPROOFLINE_BENCH=OFF -DPROOFLINE_ORACLE_TESTS=OFF $(CMAKE_ARGS)
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:$(ASAN_OPTIONS) \
  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:$(LSAN_OPTIONS) \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:$(UBSAN_OPTIONS) \
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/tests/tsan.supp:$(TSAN_OPTIONS)
# The test binaries of the CPU layers (tests/<layer>/ with *_test.cpp; gpu/ excluded).
CPU_TESTS = $(sort $(foreach d,$(filter-out tests/gpu/,$(dir $(wildcard tests/*/*_test.cpp))),test_$(notdir $(patsubst %/,%,$(d)))))
# What ASan+UBSan checks: the layers that parse outside input, own buffers or run jobs (every CPU
# test binary but those below), not whole circuits being synthesized and proved: tests/circuits,
# tests/gadgets (PoRep/SnapDeals/PoSt constraint code, checked in build/ against upstream counts and
# proofs) and tests/gpu_host (the device NTT emulated on the host) are not built there, and
# ASAN_SKIP names the cases of the kept binaries that synthesize, set up or prove whole 2 KiB
# circuits (PoSt, SnapDeals) or materialize a large sector's tree (GenC1). Those took 950 of the
# 1,300 test-seconds of a CI run's ASan stage (docs/testing.md); their input parsing stays covered
# by the other cases and by the fuzz targets. Also skipped: CuzkMemory (the process's RSS after
# malloc_trim, which ASan's own allocator makes meaningless: 334 s of a run) and the compiled
# form's explain case (51 s; its code paths run in CompiledFormEvaluatesToTheProversRows).
ASAN_LAYERS_SKIP = circuits gadgets gpu_host
ASAN_TESTS = $(filter-out $(addprefix test_,$(ASAN_LAYERS_SKIP)),$(CPU_TESTS))
ASAN_SKIP = ^(PoStProve|PoStSetup|PoStCount|PoStGenerated|SnapCount|SnapCircuit|SnapParallel|CuzkMemory)\.|^PoStKind\.(WindowProofVerifies|WinningPoStTakes|CuzkForm)|^SnapVanilla\.GeneratedProofs|^GenC1\.LargeSectors|^PoRepKind\.CompiledFormNamesTheFault
# The concurrency tests, those of them present. tests/server runs with tests/tsan.supp's entries for
# Debian's uninstrumented gRPC/gpr/protobuf/abseil (their internal hand-offs are invisible to TSan).
# Cases of those binaries that synthesize whole 2 KiB PoRep partitions or check a C1's vanilla
# proofs with no concurrency of their own beyond the synthesis's parallel parts: 206 s, 42 s and 95 s
# (FlippedCommROrCommDIsNamed, 0.7 s in build/) of a run's TSan stage; they run in build/ and
# build-asan/. PoRepKind.PreloadByParameterPathWithoutC1 (28 s) keeps the parallel recording of a
# compiled circuit under TSan. gtest filter syntax, ':'-separated.
TSAN_SKIP = PoRepKind.FlippedLabelByteNamesTheChallenge:PoRepKind.SynthesizesThePartitionAVerifierExpects:PoRepKind.FlippedCommROrCommDIsNamed
TSAN_TESTS = $(sort $(foreach l,engine server,$(if $(wildcard tests/$(l)/*_test.cpp),test_$(l))))
FUZZ_ALL = $(sort $(patsubst fuzz/%_fuzz.cpp,%,$(wildcard fuzz/*_fuzz.cpp)))

asan: asan-test fuzz-short

asan-build: deps
	$(SAN_CMAKE) -B $(ASAN_DIR) -DPROOFLINE_SANITIZE=address -DPROOFLINE_FUZZ=ON
	cmake --build $(ASAN_DIR) -j$(JOBS) --target $(ASAN_TESTS) $(addprefix fuzz_,$(FUZZ_ALL))

asan-test: asan-build
	$(SAN_ENV) ctest --test-dir $(ASAN_DIR) --output-on-failure --timeout $(CTEST_TIMEOUT) -j$(CTEST_JOBS) -LE 'gpu|fuzz|soak|slow|oracle|cli' \
	  -E '_NOT_BUILT|^server_cli$$|^cli_|$(ASAN_SKIP)'

# Each fuzz target: its seeds and regression inputs, then FUZZ_CI_TIME seconds of fuzzing.
fuzz-short: asan-build
	FUZZ_TIME=$${FUZZ_CI_TIME:-10} ctest --test-dir $(ASAN_DIR) --output-on-failure --timeout $(CTEST_TIMEOUT) -j$(CTEST_JOBS) -L fuzz

tsan: tsan-test

tsan-build: deps
	@if [ -z "$(TSAN_TESTS)" ]; then echo "tsan: no concurrency tests (tests/engine, tests/server) yet"; exit 0; fi; \
	$(SAN_CMAKE) -B $(TSAN_DIR) -DPROOFLINE_SANITIZE=thread && \
	cmake --build $(TSAN_DIR) -j$(JOBS) --target $(TSAN_TESTS)

tsan-test: tsan-build
	@for t in $(TSAN_TESTS); do echo "== $$t (ThreadSanitizer, at most $(TSAN_TIMEOUT) s)"; \
	  $(SAN_ENV) timeout -k 10 $(TSAN_TIMEOUT) $(TSAN_DIR)/$$t --gtest_filter=-$(TSAN_SKIP) || { rc=$$?; [ $$rc -ne 124 ] || echo "$$t: timed out after $(TSAN_TIMEOUT) s"; exit 1; }; done

sanitize: asan tsan

# The concurrency suites STRESS_RUNS times (default 20) beside a CPU load (scripts/stress.sh).
stress: build
	@bash scripts/stress.sh $(BUILD_DIR)

# FUZZ_TIME seconds per target, one target at a time; crash reproducers land in fuzz-artifacts/.
fuzz: deps
	$(SAN_CMAKE) -B $(ASAN_DIR) -DPROOFLINE_SANITIZE=address -DPROOFLINE_FUZZ=ON
	cmake --build $(ASAN_DIR) -j$(JOBS) --target $(addprefix fuzz_,$(or $(FUZZ_TARGETS),$(FUZZ_ALL)))
	@for t in $(or $(FUZZ_TARGETS),$(FUZZ_ALL)); do \
	  bash fuzz/run.sh $(ASAN_DIR)/fuzz/fuzz_$$t $$t $(FUZZ_TIME) || exit 1; \
	done

# deps, build, then setup → prove → verify (proofline, snarkjs, noble) on the bench circuit.
demo: deps
	@$(MAKE) --no-print-directory build
	@scripts/demo.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) $(TSAN_DIR)

distclean: clean
	rm -rf .oracle
