#!/usr/bin/env bash
# gpu.sh - the shim's node tests on a GPU: each tests/shim node test built with ST_DEVICE_MEMORY
# against real CUDA headers and libcudart, so its buffers go to device memory and the GPU
# engines' plans (cuDNN, HIPDNNGO_CUDA_RTC) run them (CPU engines' plans are skipped: they
# refuse device memory by name).
#
#   tests/shim/gpu.sh [--stage DIR] [--out DIR] [--cuda-home DIR]
#
# No Go is needed: it uses a staged install (make stage). Exit status: the number of failed tests.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
stage="$repo/build/stage"
out="$repo/build/shim-gpu"
cuda_home="${CUDA_HOME:-/usr/local/cuda}"
while [ $# -gt 0 ]; do
    case "$1" in
        --stage) stage="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --cuda-home) cuda_home="$2"; shift 2 ;;
        *) echo "gpu.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
stage="$(cd "$stage" && pwd)"
mkdir -p "$out"
failed=0
for t in conv matmul_pointwise norms reduction_resample attention; do
    src="$here/test_shim_$t.cpp"
    bin="$out/test_shim_${t}_gpu"
    if ! "${CXX:-g++}" -std=c++17 -O1 -Wall -Wextra -Werror -DST_DEVICE_MEMORY \
        -I "$stage/include/hipdnn_compatibility/cudnn" -I "$stage/include" -I "$cuda_home/include" -I "$here" \
        "$src" -o "$bin" -L "$stage/lib" -Wl,-rpath,"$stage/lib" -lhipdnn_backend \
        -L "$cuda_home/lib64" -Wl,-rpath,"$cuda_home/lib64" -lcudart -lpthread; then
        echo "gpu.sh: test_shim_$t does not compile"
        failed=$((failed + 1))
        continue
    fi
    if "$bin" > "$out/test_shim_$t.log" 2>&1; then
        echo "PASS test_shim_$t: $(grep -c ': ran on HIPDNNGO_CUDNN' "$out/test_shim_$t.log") graph runs on the cuDNN engine, $(grep -c ': ran on HIPDNNGO_CUDA_RTC' "$out/test_shim_$t.log") on HIPDNNGO_CUDA_RTC, $(grep -c ': not on the GPU' "$out/test_shim_$t.log") graphs not on the GPU"
        grep ': not on the GPU' "$out/test_shim_$t.log" || true
    else
        echo "FAIL test_shim_$t"
        failed=$((failed + 1))
    fi
    tail -n 40 "$out/test_shim_$t.log" | grep -E 'FAIL|checks' || true
done
exit "$failed"
