# hipdnn_backend: Go c-shared library + C/C++ plugins, tools and tests.
#
#   make                 install missing Debian packages (tools/setup/deps.sh), build the library,
#                        engines and tools, stage an install in build/stage, run the demo
#   make test            also builds the test plugins, fixtures and benches; go vet, go test
#                        (-race), the C conformance suite (ctest, also under ASan), ABI and fuzz
#   make install PREFIX=/opt/hipdnn
#   make bench | fuzz | asan | valgrind | generate | clean
#   make shim-samples CUDNN_FRONTEND_SRC=/path/to/cudnn-frontend   NVIDIA's samples/cpp against the
#                        cuDNN shim on the CPU engines (tests/shim/samples/run_samples.sh)
SHELL := /bin/bash
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:

GO      ?= go
CMAKE   ?= cmake
PREFIX  ?= /usr/local
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
BUILD   ?= $(CURDIR)/build
STAGE   := $(BUILD)/stage
NATIVE  := $(BUILD)/native
CTESTS  := $(BUILD)/tests-c
CORPUS  := $(CURDIR)/testdata/hipdnn_graphs

# version.json is the one source of the version (RFC 0005); TWEAK is the commit.
VERSION := $(shell sed -n 's/.*"hipdnn_backend_version"[^"]*"\([0-9.]*\)".*/\1/p' version.json)
V_MAJOR := $(word 1,$(subst ., ,$(VERSION)))
V_MINOR := $(word 2,$(subst ., ,$(VERSION)))
V_PATCH := $(word 3,$(subst ., ,$(VERSION)))
TWEAK   := $(shell git rev-parse --short=7 HEAD 2>/dev/null || echo unknown)

SONAME  := libhipdnn_backend.so.$(V_MAJOR)
LIB     := $(BUILD)/lib/$(SONAME)
VERSION_H := $(BUILD)/include/hipdnn_backend_version.h

GO_PKG      := github.com/hipdnn-go/backend
GO_LDFLAGS  := -X '$(GO_PKG)/internal/version.tweak=$(TWEAK)' \
               -extldflags '-Wl,--version-script=$(CURDIR)/capi/exports.map -Wl,-soname,$(SONAME) -Wl,-z,now'
export CGO_ENABLED := 1
export HIPDNN_CORPUS_DIR := $(CORPUS)

.PHONY: all deps version-header lib native stage demo install vet gotest ctest test asan valgrind \
        abi-check abi-baseline fuzz-smoke fuzz bench generate clean shim-samples

all: stage demo

# Test plugins, fixtures, golden generators and benches are built only for the targets that use
# them (target-specific, so it reaches their prerequisites too); `make` builds the product.
NATIVE_TESTS := OFF
test bench asan valgrind ctest gotest: NATIVE_TESTS := ON

deps:
	@bash tools/setup/deps.sh

# Regenerated on every build but replaced only when its content changes (a new commit changes
# TWEAK), so the header and the library always carry the same version string.
version-header:
	@mkdir -p $(dir $(VERSION_H))
	@sed -e 's/@HIPDNN_BACKEND_VERSION_MAJOR@/$(V_MAJOR)/' -e 's/@HIPDNN_BACKEND_VERSION_MINOR@/$(V_MINOR)/' \
	    -e 's/@HIPDNN_BACKEND_VERSION_PATCH@/$(V_PATCH)/' -e 's/@HIPDNN_BACKEND_VERSION_TWEAK@/$(TWEAK)/' \
	    cmake/hipdnn_backend_version.h.in > $(VERSION_H).tmp
	@cmp -s $(VERSION_H).tmp $(VERSION_H) && rm -f $(VERSION_H).tmp || mv $(VERSION_H).tmp $(VERSION_H)

# go build is incremental on its own, so the library target always asks it.
lib: deps version-header
	@mkdir -p $(BUILD)/lib
	$(GO) build -buildvcs=false -buildmode=c-shared -trimpath -ldflags "$(GO_LDFLAGS)" -o $(LIB) ./capi
	@rm -f $(BUILD)/lib/libhipdnn_backend.h
	ln -sf $(SONAME) $(BUILD)/lib/libhipdnn_backend.so

native: lib
	$(CMAKE) -S . -B $(NATIVE) -DCMAKE_BUILD_TYPE=Release -DHIPDNN_BUILD_TESTS=$(NATIVE_TESTS) \
	    -DHIPDNN_BACKEND_LIBRARY=$(LIB) -DHIPDNN_GENERATED_INCLUDE_DIR=$(BUILD)/include >/dev/null
	$(CMAKE) --build $(NATIVE) -j $(JOBS)

stage: native
	$(CMAKE) --install $(NATIVE) --prefix $(STAGE) >/dev/null
	@echo "staged install: $(STAGE)"

# The demo: a conv -> bias -> ReLU graph built through the C API, run on the CPU engine.
demo: stage
	$(STAGE)/bin/hipdnn-demo

install: native
	$(CMAKE) --install $(NATIVE) --prefix $(PREFIX)

vet:
	$(GO) vet ./...

gotest:
	GODEBUG=cgocheck=1 HIPDNN_FB_VERIFY=$(NATIVE)/schemas/hipdnn_fb_verify \
	HIPDNN_TEST_PLUGIN_DIR=$(NATIVE)/test_plugins HIPDNN_STAGE_DIR=$(STAGE) \
	    $(GO) test -race -count=1 ./...

ctest: stage
	$(CMAKE) -S tests/c -B $(CTESTS) -DCMAKE_PREFIX_PATH=$(STAGE) \
	    -DHIPDNN_TEST_PLUGIN_DIR=$(NATIVE)/test_plugins -DHIPDNN_CORPUS_DIR=$(CORPUS) >/dev/null
	$(CMAKE) --build $(CTESTS) -j $(JOBS)
	cd $(CTESTS) && ctest --output-on-failure -j $(JOBS)
	cd $(NATIVE) && ctest --output-on-failure -j $(JOBS)

# ABI guard: the built library against the committed baseline (abi/). Added functions pass;
# a removed or changed function, type or enumerator fails until the baseline is deliberately
# regenerated with `make abi-baseline` together with a C ABI version bump (docs/compatibility.md).
ABI_BASELINE := abi/$(SONAME).abi
abi-check: lib
	abidiff --no-added-syms --headers-dir2 include --hd2 $(BUILD)/include $(ABI_BASELINE) $(LIB)

abi-baseline: lib
	abidw --headers-dir include --headers-dir $(BUILD)/include --drop-private-types --no-show-locs \
	    --no-comp-dir-path --no-corpus-path $(LIB) > $(ABI_BASELINE)

# A short fuzz of the two graph deserializers (untrusted input) on every test run; `make fuzz`
# runs every target longer. The smoke run is bounded by a count, not a duration: go1.26's fuzz
# coordinator can report "context deadline exceeded" at the end of a -fuzztime duration when its
# workers are starved (go.dev/issue/75804; seen on the 2-core VM), with no crasher behind it.
FUZZ_SMOKE ?= 30000x
fuzz-smoke:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeGraph$$' -fuzztime $(FUZZ_SMOKE) ./internal/wire
	$(GO) test -run '^$$' -fuzz '^FuzzGraphFromJSON$$' -fuzztime $(FUZZ_SMOKE) ./internal/wire

test: all vet gotest ctest asan abi-check fuzz-smoke

# Overhead figures next to their baselines: hipdnn-bench, the cuDNN-frontend shim against the C
# API it lowers to (no-op engine, then a conv on the installed engines), the oneDNN engine
# against oneDNN called directly (hipdnn-onednn-bench, budget 0.90x), then the Go benchmarks of
# the attribute table, graph build, serializer and execute path. Every program runs even when an
# earlier one misses a budget; the target fails at the end if any did.
# hipdnn-bench runs against a copy of the library built with -tags hipdnnbench (its private
# hooks: a bare exported call and Go's allocation counter), found first through LD_LIBRARY_PATH.
BENCH_LIB := $(BUILD)/bench-lib
ENGINES_DIR := $(STAGE)/lib/hipdnn_plugins/engines
bench: stage
	@mkdir -p $(BENCH_LIB)
	$(GO) build -buildvcs=false -tags hipdnnbench -buildmode=c-shared -trimpath -ldflags "$(GO_LDFLAGS)" -o $(BENCH_LIB)/$(SONAME) ./capi
	@rm -f $(BENCH_LIB)/libhipdnn_backend.h
	@missed=0; \
	LD_LIBRARY_PATH=$(BENCH_LIB) $(NATIVE)/bench/hipdnn-bench || missed=1; \
	$(NATIVE)/bench/hipdnn-cudnn-shim-bench || missed=1; \
	HIPDNN_PLUGIN_DIR=$(ENGINES_DIR) $(NATIVE)/bench/hipdnn-cudnn-shim-bench conv || missed=1; \
	if [ -x $(NATIVE)/bench/hipdnn-onednn-bench ]; then \
	  HIPDNN_PLUGIN_DIR=$(ENGINES_DIR) $(NATIVE)/bench/hipdnn-onednn-bench || missed=1; \
	else echo "hipdnn-onednn-bench not built (libdnnl-dev missing)"; fi; \
	HIPDNN_BENCH_NOOP_PLUGIN=$(NATIVE)/bench/libhipdnngo_bench_noop.so HIPDNN_TEST_PLUGIN_DIR=$(NATIVE)/test_plugins \
	    $(GO) test -run '^$$' -bench . -benchmem ./internal/... || missed=1; \
	if [ $$missed -ne 0 ]; then echo "make bench: some budgets were missed (see above)"; exit 1; fi

# The C suite with AddressSanitizer and LeakSanitizer on the C side (test programs, our C shims,
# the plugins' allocations); Go's own heap is invisible to LSan, see tests/c/lsan.supp. oneDNN
# runs on one OpenMP thread here: LSan's thread tracer crashes on libgomp's worker threads.
ASAN_FLAGS := -fsanitize=address -fno-omit-frame-pointer
# intercept_tls_get_addr=0: with a fourth engine plugin that has thread-local storage (any of
# them; reproduced with a copy of a test plugin), LeakSanitizer's scan of dynamic TLS at exit
# reads a stale block and crashes ("Tracer caught signal 11", test_shim_matmul_pointwise), after
# every check passed. TLS stays a root through the static TLS and the threads' stacks.
asan: stage
	$(CMAKE) -S tests/c -B $(BUILD)/tests-c-asan -DCMAKE_PREFIX_PATH=$(STAGE) \
	    -DHIPDNN_TEST_PLUGIN_DIR=$(NATIVE)/test_plugins -DHIPDNN_CORPUS_DIR=$(CORPUS) \
	    -DCMAKE_C_FLAGS="$(ASAN_FLAGS)" -DCMAKE_CXX_FLAGS="$(ASAN_FLAGS)" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address" >/dev/null
	$(CMAKE) --build $(BUILD)/tests-c-asan -j $(JOBS)
	cd $(BUILD)/tests-c-asan && OMP_NUM_THREADS=1 ASAN_OPTIONS=handle_segv=0:allow_user_segv_handler=1:detect_leaks=1:intercept_tls_get_addr=0 \
	    LSAN_OPTIONS=suppressions=$(CURDIR)/tests/c/lsan.supp ctest --output-on-failure -j $(JOBS) -LE soak

# The C suite under valgrind memcheck (errors in our C code and the plugins; Go runtime noise
# suppressed by tests/c/valgrind.supp). It runs against a copy of the staged install whose
# library is built with `-tags valgrind`: that Go runtime describes its heap to valgrind, so
# plugins reading graph bytes and arrays the backend owns are not reported as reading
# unaddressable memory. Go reads the clock with RDTSCP, which valgrind cannot execute, so it
# is switched off for these runs (GODEBUG=cpu.rdtscp=off).
VALGRIND := valgrind;--error-exitcode=1;--leak-check=no;--suppressions=$(CURDIR)/tests/c/valgrind.supp
VG_STAGE := $(BUILD)/stage-valgrind
valgrind: stage
	rm -rf $(VG_STAGE) && cp -a $(STAGE) $(VG_STAGE)
	$(GO) build -buildvcs=false -tags valgrind -buildmode=c-shared -trimpath -ldflags "$(GO_LDFLAGS)" \
	    -o $(VG_STAGE)/lib/$(SONAME) ./capi
	rm -f $(VG_STAGE)/lib/libhipdnn_backend.h
	$(CMAKE) -S tests/c -B $(BUILD)/tests-c-valgrind -DCMAKE_PREFIX_PATH=$(VG_STAGE) \
	    -Dhipdnn_backend_DIR=$(VG_STAGE)/lib/cmake/hipdnn_backend \
	    -DHIPDNN_TEST_PLUGIN_DIR=$(NATIVE)/test_plugins -DHIPDNN_CORPUS_DIR=$(CORPUS) \
	    "-DHIPDNN_TEST_WRAPPER=$(VALGRIND)" >/dev/null
	$(CMAKE) --build $(BUILD)/tests-c-valgrind -j $(JOBS)
	cd $(BUILD)/tests-c-valgrind && GODEBUG=cpu.rdtscp=off ctest --output-on-failure -j $(JOBS) -LE soak --timeout 1200

# NVIDIA's cudnn-frontend samples (samples/cpp of a checkout at CUDNN_FRONTEND_SRC, never
# committed here) built unchanged against the staged shim and run on the CPU engines; tables in
# build/shim-samples. SAMPLES_ARGS passes more options (--reuse, --only REGEX, --timeout S).
CUDNN_FRONTEND_SRC ?=
SAMPLES_ARGS ?=
shim-samples: stage
	@test -n "$(CUDNN_FRONTEND_SRC)" || { echo "make shim-samples: set CUDNN_FRONTEND_SRC to a cudnn-frontend checkout"; exit 2; }
	tests/shim/samples/run_samples.sh --src "$(CUDNN_FRONTEND_SRC)" --stage $(STAGE) --out $(BUILD)/shim-samples \
	    --jobs $(JOBS) $(SAMPLES_ARGS)

# Every Go fuzz target, each for FUZZTIME (crashers land in the package's testdata/fuzz and
# become regression tests of the normal run).
FUZZTIME ?= 60s
fuzz:
	@for pkg in $$($(GO) list ./internal/... ./hip/...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$t ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

generate:
	$(GO) generate ./...

clean:
	rm -rf $(BUILD)
