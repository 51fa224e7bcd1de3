#!/usr/bin/env bash
# run_fetched_mha.sh - build PyTorch's aten/src/ATen/native/cudnn/MHA.cpp, unchanged, against the
# ATen stand-in (tests/mha/standin) and hipDNN's cuDNN-frontend shim, link it with the MHA driver
# (built with MHA_DRIVER_ENTRY_POINTS) and run every case through PyTorch's four entry points and
# through the driver's own graphs.
#
#   tests/mha/run_fetched_mha.sh PATH/TO/MHA.cpp [--cuda] [--stage DIR] [--out DIR]
#                                [--cuda-home DIR] [-- DRIVER ARGS...]
#
#   (default)  host memory, the CPU engines of the staged install (make stage).
#   --cuda     the H200 run: the real CUDA runtime (cuda_runtime.h, libcudart), every tensor in
#              device memory (MHA_STANDIN_CUDA), the cuDNN engine put first
#              (HIPDNN_PREFERRED_ENGINE=HIPDNNGO_CUDNN). No Go is needed, only the staged install.
#   --torch    also dump every run's tensors (OUT/dump_cpu|cuda) and check them against PyTorch
#              (compare_torch.py; needs python3 with torch). On the H200, the one command is:
#                tests/mha/run_fetched_mha.sh /path/to/MHA.cpp --cuda --torch
#   --bench    (with --cuda) instead of the checks, time MHA.cpp's dense entry points and the
#              driver's graphs (mha_bench.cpp) against PyTorch's own cuDNN attention
#              (bench_torch.py) on the same shapes, alternating the two processes twice, and
#              print the ratio table (bench_compare.py; exit 1 under 0.98x).
#   DRIVER ARGS go to the driver: --path graph|aten|both, --only SUBSTRING, --dump DIR.
#
# MHA.cpp is read where it lies and never copied into the tree. The compile lines are printed.
# Exit status: the driver's (0 = every check passed).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
[ $# -ge 1 ] || { sed -n '2,17p' "$0"; exit 2; }
mha="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
stage="$repo/build/stage"
out="$repo/build/mha"
cuda=0
torch=0
bench=0
cuda_home="${CUDA_HOME:-/usr/local/cuda}"
while [ $# -gt 0 ]; do
    case "$1" in
        --cuda) cuda=1; shift ;;
        --torch) torch=1; shift ;;
        --bench) bench=1; shift ;;
        --stage) stage="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --cuda-home) cuda_home="$2"; shift 2 ;;
        --) shift; break ;;
        *) echo "run_fetched_mha.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ "$bench" = 0 ] || [ "$cuda" = 1 ] || { echo "run_fetched_mha.sh: --bench needs --cuda" >&2; exit 2; }
[ -f "$mha" ] || { echo "run_fetched_mha.sh: $mha: no such file" >&2; exit 2; }
[ -f "$stage/include/hipdnn_backend.h" ] || { echo "run_fetched_mha.sh: no staged install in $stage (run make stage)" >&2; exit 2; }
stage="$(cd "$stage" && pwd)"
mkdir -p "$out"

cxx="${CXX:-g++}"
# Include order: the stand-in first (ATen/..., c10/...), then the shim's folder (cudnn.h,
# cudnn_frontend.h), then the install's include root (hipdnn_backend.h).
flags=(-std=c++17 -O2 -I "$here/standin" -I "$stage/include/hipdnn_compatibility/cudnn" -I "$stage/include")
libs=(-L "$stage/lib" -Wl,-rpath,"$stage/lib" -lhipdnn_backend)
suffix=cpu
if [ "$cuda" = 1 ]; then
    flags+=(-DMHA_STANDIN_CUDA -I "$cuda_home/include")
    libs+=(-L "$cuda_home/lib64" -Wl,-rpath,"$cuda_home/lib64" -lcudart -lpthread)
    suffix=cuda
fi

run() { echo "+ $*"; "$@"; }
# MHA.cpp: no warnings flags of ours (it is PyTorch's code; its deprecated set_is_inference and
# unused parameters warn); the driver: -Wall -Wextra -Werror.
run "$cxx" "${flags[@]}" -c "$mha" -o "$out/MHA_$suffix.o"
run "$cxx" "${flags[@]}" -Wall -Wextra -Werror -DMHA_DRIVER_ENTRY_POINTS -I "$here" -c "$here/mha_driver.cpp" -o "$out/mha_driver_pt_$suffix.o"
run "$cxx" "$out/mha_driver_pt_$suffix.o" "$out/MHA_$suffix.o" -o "$out/mha_driver_pt_$suffix" "${libs[@]}"
if [ "$bench" = 1 ]; then
    run "$cxx" "${flags[@]}" -Wall -Wextra -Werror -DMHA_DRIVER_ENTRY_POINTS -I "$here" "$here/mha_bench.cpp" "$out/MHA_$suffix.o" \
        -o "$out/mha_bench_pt" "${libs[@]}"
    # The same cuDNN on both sides.
    . "$here/torch_cudnn.sh"
    echo "cuDNN: PyTorch's $(python3 -c 'import torch; print(torch.backends.cudnn.version())'); the cuDNN engine's ${HIPDNNGO_CUDNN_LIBRARY:-libcudnn.so.9 (system)}"
    logs=()
    for r in 1 2; do
        "$out/mha_bench_pt" "$@" | tee "$out/bench_ours_$r.log"
        python3 "$here/bench_torch.py" | tee "$out/bench_torch_$r.log"
        logs+=("$out/bench_ours_$r.log" "$out/bench_torch_$r.log")
    done
    python3 "$here/bench_compare.py" "${logs[@]}" | tee "$out/bench.md"
    exit "${PIPESTATUS[0]}"
fi

export MHA_STANDIN_QUIET_WARNINGS="${MHA_STANDIN_QUIET_WARNINGS:-1}"  # MHA.cpp's nested backward warns on every call
if [ "$cuda" = 1 ]; then
    export HIPDNN_PREFERRED_ENGINE="${HIPDNN_PREFERRED_ENGINE:-HIPDNNGO_CUDNN}"
fi
dump=()
if [ "$torch" = 1 ]; then
    rm -rf "$out/dump_$suffix" && mkdir -p "$out/dump_$suffix"
    dump=(--dump "$out/dump_$suffix")
fi
set +e
"$out/mha_driver_pt_$suffix" "${dump[@]}" "$@" | tee "$out/mha_$suffix.log"
rc=${PIPESTATUS[0]}
echo "run_fetched_mha.sh: log in $out/mha_$suffix.log (exit $rc)"
if [ "$torch" = 1 ]; then
    python3 "$here/compare_torch.py" "$out/dump_$suffix" | tee "$out/torch_$suffix.log"
    trc=${PIPESTATUS[0]}
    echo "run_fetched_mha.sh: PyTorch comparison in $out/torch_$suffix.log (exit $trc)"
    [ "$rc" = 0 ] && rc=$trc
fi
exit "$rc"
