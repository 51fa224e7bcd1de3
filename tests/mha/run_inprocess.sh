#!/usr/bin/env bash
# run_inprocess.sh - issue 23's attention speed in one process (bench_inprocess.py): builds
# mha_bench.cpp as a shared library against the staged install and the real CUDA runtime, then
# times our graphs and PyTorch's own cuDNN attention alternately in one Python process, with
# torch.profiler's kernel table of each side. For the GPU machine (no Go needed there).
#
#   tests/mha/run_inprocess.sh [--stage DIR] [--out DIR] [--cuda-home DIR] [-- bench_inprocess.py ARGS...]
#
# The cuDNN engine is put first and loads PyTorch's own cuDNN (as run_fetched_mha.sh --bench does),
# so both sides run the same cuDNN build.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
stage="$repo/build/stage"
out="$repo/build/mha"
cuda_home="${CUDA_HOME:-/usr/local/cuda}"
while [ $# -gt 0 ]; do
    case "$1" in
        --stage) stage="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --cuda-home) cuda_home="$2"; shift 2 ;;
        --) shift; break ;;
        *) echo "run_inprocess.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -f "$stage/include/hipdnn_backend.h" ] || { echo "run_inprocess.sh: no staged install in $stage (run make stage)" >&2; exit 2; }
stage="$(cd "$stage" && pwd)"
mkdir -p "$out"
lib="$out/libmha_bench_inprocess.so"
# Hidden visibility and -Bsymbolic: the stand-in's at:: names bind inside the library, never to
# PyTorch's libraries in the same process.
set -x
"${CXX:-g++}" -std=c++17 -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden -DMHA_STANDIN_CUDA -DMHA_BENCH_SHARED \
    -I "$here" -I "$here/standin" -I "$stage/include/hipdnn_compatibility/cudnn" -I "$stage/include" -I "$cuda_home/include" \
    "$here/mha_bench.cpp" -o "$lib" -L "$stage/lib" -Wl,-rpath,"$stage/lib" -lhipdnn_backend \
    -L "$cuda_home/lib64" -Wl,-rpath,"$cuda_home/lib64" -lcudart -Wl,-Bsymbolic
{ set +x; } 2>/dev/null
. "$here/torch_cudnn.sh"
exec python3 "$here/bench_inprocess.py" "$lib" "$@"
