#!/usr/bin/env bash
# session.sh - every GPU check and measurement the open issues need, in one run, most important
# first, each step under its own time limit (GPU time comes in short windows; a step that runs
# long costs only itself). Run from the repository root on the GPU machine after `make stage
# NATIVE_TESTS=ON` (or with a build folder copied there; no Go is needed):
#
#   tests/gpu/session.sh [BUILD] [STEPS]
#
# BUILD  default ./build: BUILD/stage (the staged install), BUILD/native/plugins/cuda_rtc/tests
#        (the cuda_rtc unit and GPU test binaries), BUILD/native/bench/hipdnn-gpu-memory-bench
# STEPS  comma list, in the order given (default: all of them, in this order):
#        cuda_rtc  NVRTC compiles every generated source; the cuda_rtc GPU tests (device_check.sh)
#        gelu      bench/gelu_bound.cu: is the GELU chain bound by memory or by erf's arithmetic
#        corpus    the JSON corpus on HIPDNNGO_CUDA_RTC and on HIPDNNGO_CUDNN, one row per graph
#        bench     hipdnn-gpu-memory-bench, cold then warm kernel cache, and PyTorch's figures
#        attention tests/mha/run_inprocess.sh: our attention and PyTorch's in one process
#        shim      tests/shim/gpu.sh: the shim's node tests on device memory
# Environment: OUT (default ./gpu-session; at most one file per step plus summary.txt),
# STEP_LIMIT seconds per step (default 300), ATTENTION_ARGS options for bench_inprocess.py
# (e.g. "--only b2_h16_s4096_d128_bf16 --reps 12 --rounds 3 --no-profile": finer interleaving).
set -u
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:-build}" && pwd)"
steps="${2:-cuda_rtc,gelu,corpus,bench,attention,shim}"
out="$(mkdir -p "${OUT:-./gpu-session}" && cd "${OUT:-./gpu-session}" && pwd)"
limit="${STEP_LIMIT:-300}"
work="$(mktemp -d)"
stage="$build/stage"
summary="$out/summary.txt"
export LD_LIBRARY_PATH="$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

{
    date -u
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
    python3 -c 'import torch; print("torch", torch.__version__, "cuDNN", torch.backends.cudnn.version())' 2>&1 | tail -n 1
} > "$summary"

# step NAME CMD...: runs CMD under the step limit into OUT/NAME.log; one summary line.
step() {
    local name="$1" t0 rc
    shift
    t0=$(date +%s)
    timeout "$limit" "$@" > "$out/$name.log" 2>&1
    rc=$?
    printf '%-10s exit %-3s %4ss%s\n' "$name" "$rc" "$(($(date +%s) - t0))" "$([ "$rc" = 124 ] && echo ' (step limit)')" >> "$summary"
}

corpus() {
    local engine wrapper
    for engine in HIPDNNGO_CUDA_RTC HIPDNNGO_CUDNN; do
        wrapper="$work/run-$engine"
        printf '#!/usr/bin/env bash\nexec "%s" --engine %s "$@"\n' "$stage/bin/hipdnn-run" "$engine" > "$wrapper"
        chmod +x "$wrapper"
        echo "== $engine"
        HIPDNN_CORPUS_TIMEOUT=60 bash "$repo/tools/run_corpus.sh" "$wrapper" "$repo/testdata/hipdnn_graphs" | tee "$work/corpus-$engine"
    done
    # The graphs cuDNN has no config for, with what the runtime-compiled engine does with each.
    echo "== graphs HIPDNNGO_CUDNN does not support: HIPDNNGO_CUDA_RTC's answer"
    awk 'FNR == NR { if ($1 != "NOT") { st[$2] = $1 } else if ($2 == "SUPPORTED") { st[$3] = "NOT_SUPPORTED" }; next }
         $1 == "NOT" && $2 == "SUPPORTED" { printf "  %-14s %s\n", (($3 in st) ? st[$3] : "?"), $3 }' \
        "$work/corpus-HIPDNNGO_CUDA_RTC" "$work/corpus-HIPDNNGO_CUDNN"
}

gelu() {
    nvcc -O3 -arch=native -o "$work/gelu_bound" "$repo/bench/gelu_bound.cu" && "$work/gelu_bound"
}

# The two steps written as functions run in a child bash (timeout runs programs, not functions).
export -f corpus gelu
export repo stage work
IFS=, read -r -a list <<< "$steps"
for s in "${list[@]}"; do
    case "$s" in
        cuda_rtc) step cuda_rtc env OUT="$work/cuda_rtc" bash "$repo/plugins/cuda_rtc/tests/device_check.sh" "$build" nvrtc,gpu,warm ;;
        gelu) step gelu bash -c gelu ;;
        corpus) step corpus bash -c corpus ;;
        bench) step bench env OUT="$work/bench" bash "$repo/plugins/cuda_rtc/tests/device_check.sh" "$build" bench ;;
        attention) step attention bash "$repo/tests/mha/run_inprocess.sh" --stage "$stage" --out "$work/mha" -- ${ATTENTION_ARGS:-} ;;
        shim) step shim bash "$repo/tests/shim/gpu.sh" --stage "$stage" --out "$work/shim" ;;
        *) echo "session.sh: unknown step $s" >> "$summary" ;;
    esac
done
rm -rf "$work"
cat "$summary"
