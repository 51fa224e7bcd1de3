#!/usr/bin/env bash
# device_check.sh: the HIPDNNGO_CUDA_RTC checks that need an NVIDIA GPU and NVRTC. Run from the
# repository root on the GPU machine, after `make stage NATIVE_TESTS=ON` there:
#
#   plugins/cuda_rtc/tests/device_check.sh [BUILD] [STEPS]
#
# BUILD  the build folder (default ./build): BUILD/native has the test binaries, BUILD/stage the
#        staged install with lib/hipdnn_plugins/engines/libhipdnngo_cuda_rtc.so
# STEPS  comma list of: nvrtc,gpu,warm,info,corpus,bench (default: nvrtc,gpu,warm,info)
#        bench: hipdnn-gpu-memory-bench twice on one fresh kernel cache (cold, then warm
#        first builds; BENCH_ARGS passes options), then PyTorch's figures for the same problems
# Environment: OUT (logs; default ./device-out), HIPDNNGO_CUDA_RTC_TEST_CC (default 90),
# HIPDNNGO_CUDA_RTC_TEST_ONLY (a substring of GPU test case names).
set -u
build="$(cd "${1:-build}" && pwd)"
steps=",${2:-nvrtc,gpu,warm,info},"
out="${OUT:-./device-out}"
mkdir -p "$out"
has() { [[ "$steps" == *",$1,"* ]]; }
tests="$build/native/plugins/cuda_rtc/tests"
stage="$build/stage"
export LD_LIBRARY_PATH="$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export HIPDNNGO_CUDA_RTC_PLUGIN="$stage/lib/hipdnn_plugins/engines/libhipdnngo_cuda_rtc.so"
rc=0
cache="$out/cache"

if has nvrtc; then
  echo "== every generated source compiled by NVRTC"
  "$tests/hipdnn_cuda_rtc_unit_tests" nvrtc "$out/nvrtc" || rc=1
fi
if has gpu; then
  echo "== GPU tests (cold kernel cache $cache)"
  rm -rf "$cache"
  HIPDNN_CACHE_DIR="$cache" HIPDNN_LOG_LEVEL="${HIPDNN_LOG_LEVEL:-warn}" "$tests/hipdnn_cuda_rtc_gpu_tests" 2>&1 | tee "$out/gpu.log" | grep -v '^PASS' | tail -60
  [[ ${PIPESTATUS[0]} -eq 0 ]] || rc=1
  echo "$(grep -c '^PASS' "$out/gpu.log") PASS lines"
fi
if has warm; then
  echo "== first plan build, warm disk cache (a second process): compile / load times"
  HIPDNN_CACHE_DIR="$cache" HIPDNN_LOG_LEVEL=info HIPDNNGO_CUDA_RTC_TEST_ONLY="${HIPDNNGO_CUDA_RTC_TEST_ONLY:-layernorm_infer_bf16}" \
    "$tests/hipdnn_cuda_rtc_gpu_tests" 2>&1 | grep -E "compiled by NVRTC|disk cache|^PASS|^FAIL" | head -12
  ls "$cache/cuda-rtc" 2>/dev/null | wc -l | sed 's/^/cached modules: /'
fi
if has info; then
  echo "== hipdnn-info"
  HIPDNN_LOG_LEVEL=info "$stage/bin/hipdnn-info" 2>&1 | grep -i -E "cuda_rtc|CUDA_RTC" | head -10
fi
if has corpus; then
  echo "== corpus on HIPDNNGO_CUDA_RTC"
  wrapper="$out/hipdnn-run-cuda-rtc"
  printf '#!/usr/bin/env bash\nexec "%s" --engine HIPDNNGO_CUDA_RTC "$@"\n' "$stage/bin/hipdnn-run" > "$wrapper"
  chmod +x "$wrapper"
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
  HIPDNN_CORPUS_TIMEOUT="${HIPDNN_CORPUS_TIMEOUT:-60}" bash "$repo/tools/run_corpus.sh" "$wrapper" "$repo/testdata/hipdnn_graphs" | tee "$out/corpus.log" | tail -40
fi
if has bench; then
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
  bcache="$out/bench-cache"
  rm -rf "$bcache"
  for pass in cold warm; do
    echo "== hipdnn-gpu-memory-bench, $pass kernel cache"
    HIPDNN_CACHE_DIR="$bcache" "$build/native/bench/hipdnn-gpu-memory-bench" ${BENCH_ARGS:-} | tee "$out/bench-$pass.md" || rc=1
  done
  echo "== PyTorch on the same problems"
  python3 "$repo/bench/torch_anchors.py" memory | tee "$out/bench-torch.md" || rc=1
fi
exit $rc
