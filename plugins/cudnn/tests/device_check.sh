#!/usr/bin/env bash
# device_check.sh: the HIPDNNGO_CUDNN checks that need an NVIDIA GPU, cuDNN 9 and its headers.
# Run from the repository root on the GPU machine, with a build staged here (built elsewhere):
#
#   plugins/cudnn/tests/device_check.sh STAGE [STEPS]
#
# STAGE  a staged install (bin/, lib/ with lib/hipdnn_plugins/engines/libhipdnngo_cudnn.so)
# STEPS  comma list of: headers,load,info,demo,sample,notes,startup,corpus,graphs,dropout,
#        attention,bench,anchors,fault (default: all)
# Environment: CUDNN_INCLUDE (default /usr/include/x86_64-linux-gnu), CUDA_INCLUDE
# (/usr/local/cuda/include), OUT (a folder for logs; default ./device-out); for the fault step
# SOAK_CYCLES (default 10000), THREAD_ITERS (default 600) and OLD_STAGE (a staged install of an
# earlier build: its 8-thread run and a 20-cycle soak, for comparison).
set -u
stage="$(cd "${1:?usage: device_check.sh STAGE [STEPS]}" && pwd)"
steps=",${2:-headers,load,info,demo,sample,notes,startup,corpus,graphs,dropout,attention,bench,anchors,fault},"
out="${OUT:-./device-out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
has() { [[ "$steps" == *",$1,"* ]]; }
rc=0
# hipdnn-run pinned to the cuDNN engine, for tools/run_corpus.sh (corpus and graphs steps).
wrapper="$out/hipdnn-run-cudnn"
printf '#!/usr/bin/env bash\nexec "%s" --engine HIPDNNGO_CUDNN "$@"\n' "$stage/bin/hipdnn-run" > "$wrapper"
chmod +x "$wrapper"

if has headers; then
  echo "== header check: src/CudnnApi.hpp against cudnn_graph.h / cuda_runtime_api.h"
  if g++ -std=c++17 -fsyntax-only -Wall -Wextra -I "$repo/plugins/cudnn/src" -I "${CUDNN_INCLUDE:-/usr/include/x86_64-linux-gnu}" \
       -I "${CUDA_INCLUDE:-/usr/local/cuda/include}" "$repo/plugins/cudnn/tests/CudnnHeaderCheck.cpp" 2>"$out/header_check.log"; then
    echo "PASS header check ($(grep -c '^SAME_' "$repo/plugins/cudnn/tests/CudnnHeaderCheck.cpp") static_asserts)"
  else
    echo "FAIL header check"; head -50 "$out/header_check.log"; rc=1
  fi
fi
if has load && [[ -x "${CUDNN_LOAD_TEST:-}" ]]; then
  echo "== plugin load test with cuDNN hidden"
  HIPDNNGO_CUDNN_PLUGIN="$stage/lib/hipdnn_plugins/engines/libhipdnngo_cudnn.so" HIPDNNGO_CUDNN_LIBRARY=libcudnn_not_here.so.9 "$CUDNN_LOAD_TEST" || rc=1
fi
if has info; then
  echo "== hipdnn-info"
  HIPDNN_LOG_LEVEL=info "$stage/bin/hipdnn-info" 2>&1 | grep -v "API success" | tail -25
fi
if has demo; then
  echo "== hipdnn-demo --gpu"
  "$stage/bin/hipdnn-demo" --gpu || rc=1
  echo "== hipdnn-demo (CPU)"
  "$stage/bin/hipdnn-demo" | tail -3 || rc=1
fi
if has sample; then
  for f in "$repo"/testdata/hipdnn_graphs/samples/sample_relu.json "$repo"/testdata/hipdnn_graphs/samples/sample_layernorm.json; do
    echo "== hipdnn-run $f"
    "$stage/bin/hipdnn-run" "$f" --engine HIPDNNGO_CUDNN --check --iters 3
  done
fi
if has notes; then
  # Numerical notes through the C API (the plan's JSON description) of an fp16 SDPA plan:
  # cuDNN's tensor-core note, and ours for the probabilities held in fp16.
  f=ckdsl_sdpa_extracted/ckdsl_sdpa_correctness_fp16causald64.json
  plan="$("$stage/bin/hipdnn-run" "$repo/testdata/hipdnn_graphs/$f" --engine HIPDNNGO_CUDNN --iters 1 | grep '^plan:')"
  for note in HIPDNN_NUMERICAL_NOTE_TENSOR_CORE HIPDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS; do
    if [[ "$plan" == *"\"$note\""* ]]; then
      echo "PASS notes: $f reports $note"
    else
      echo "FAIL notes: $f does not report $note ($plan)"; rc=1
    fi
  done
fi
if has startup; then
  echo "== first plan build of a CPU graph (no GPU runtime start-up expected)"
  bash "$here/startup_cost.sh" "$stage" "$stage/lib"
fi
if has corpus; then
  echo "== corpus on HIPDNNGO_CUDNN"
  HIPDNN_CORPUS_TIMEOUT="${HIPDNN_CORPUS_TIMEOUT:-60}" bash "$repo/tools/run_corpus.sh" "$wrapper" "$repo/testdata/hipdnn_graphs" | tee "$out/corpus.log" | tail -120
fi
if has graphs; then
  # The graphs of tests/gpu/graphs (make_graphs.py): SDPA backward, dropout, fp8, pooling, broadcast.
  echo "== tests/gpu/graphs on HIPDNNGO_CUDNN"
  bash "$repo/tools/run_corpus.sh" "$wrapper" "$repo/tests/gpu/graphs" | tee "$out/graphs.log" | tail -30
fi
if has dropout; then
  # A backward seed/offset draw has no host reference in hipdnn-run (the mask is cuDNN's
  # Philox), so it is checked here: the forward dumps its draw (rng_dump, checked by hipdnn-run:
  # a 0/1 mask keeping about 1 - p), the backward loads the forward's Q, K, V, O and stats, and
  # numpy recomputes dQ, dK, dV in float64 with that mask (causal, scale 1/8, p 0.2: the graphs').
  echo "== dropout: backward seed/offset draw against the forward's dumped mask"
  g="$repo/tests/gpu/graphs"
  d="$out/dropout"
  rm -rf "$d" && mkdir -p "$d/fwd" "$d/bwd"
  step() { local log; log="$("$stage/bin/hipdnn-run" "$@" --engine HIPDNNGO_CUDNN --check --iters 1 2>&1)"; local s=$?; echo "$log" | tail -1; return $s; }
  step "$g/sdpa_fwd_dropout_philox_bf16_b2_h4_s128_d64.json" --dump "$d/fwd" || rc=1
  step "$g/sdpa_bwd_dropout_philox_bf16_b2_h4_s128_d64.json" --load "$d/fwd" --dump "$d/bwd" || rc=1
  python3 - "$d" <<'PY' || rc=1
import sys
import numpy as np
d = sys.argv[1]
q, k, v, o, do, stats = (np.load(f"{d}/bwd/t{u}.npy") for u in (1, 2, 3, 4, 5, 6))
mask, p, scale = np.load(f"{d}/fwd/t20.npy"), 0.2, 1 / 8
s = scale * np.einsum("bhid,bhjd->bhij", q, k)
s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
e = np.exp(s - stats)
keep = mask / (1 - p)
dp = np.einsum("bhid,bhjd->bhij", do, v)
ds = e * (keep * dp - (do * o).sum(-1, keepdims=True))
want = {7: scale * np.einsum("bhij,bhjd->bhid", ds, k), 8: scale * np.einsum("bhij,bhid->bhjd", ds, q),
        9: np.einsum("bhij,bhid->bhjd", e * keep, do)}
ok = True
for uid, name in ((7, "dq"), (8, "dk"), (9, "dv")):
    got = np.load(f"{d}/bwd/t{uid}.npy")
    err, top = float(np.abs(got - want[uid]).max()), float(np.abs(want[uid]).max())
    good = err <= 2.0**-6 * top  # bf16 outputs and bf16 P / dS inside the kernel
    ok = ok and good
    print(f"{'PASS' if good else 'FAIL'} dropout backward {name}: max |err| {err:.3g} of max |value| {top:.3g}")
sys.exit(0 if ok else 1)
PY
fi
if has attention; then
  # Ragged (THD), paged KV, sink-token and dbias graphs, checked twice: by hipdnn-run's own
  # reference (--check, which skips the rows a graph leaves undefined) and by attention_check.py,
  # which picks consistent inputs (lengths, offsets, page tables; O and stats of the backward
  # from its own forward) and recomputes the outputs in float64 with numpy.
  echo "== attention: ragged, paged, sink, dbias against numpy"
  for name in sdpa_fwd_ragged_bf16_b2_h2_s64_d64 sdpa_bwd_ragged_bf16_b2_h2_s64_d64 \
              sdpa_fwd_paged_fp16_b2_hq4_hk2_s64_skv128_d64_block16 sdpa_fwd_sink_bf16_b1_h4_s128_d64 \
              sdpa_bwd_dbias_fp16_b2_h2_s128_d64; do
    f="$repo/tests/gpu/graphs/$name.json"
    d="$out/attention/$name"
    rm -rf "$d" && mkdir -p "$d/in" "$d/out"
    python3 "$here/attention_check.py" "$f" "$d" inputs || { rc=1; continue; }
    if HIPDNN_LOG_LEVEL=info "$stage/bin/hipdnn-run" "$f" --engine HIPDNNGO_CUDNN --device --iters 1 --load "$d/in" \
         --check --dump "$d/out" > "$d/run.log" 2>&1; then
      python3 "$here/attention_check.py" "$f" "$d" verify || rc=1
    else
      echo "FAIL $name: hipdnn-run (log: $d/run.log)"; grep -i "cudnn\|declin\|applicab" "$d/run.log" | tail -5; rc=1
    fi
  done
fi
if has bench; then
  echo "== hipdnn-cudnn-bench"
  "$stage/bin/hipdnn-cudnn-bench" ${BENCH_ARGS:-} | tee "$out/bench.md"
fi
if has anchors; then
  echo "== PyTorch anchors"
  python3 "$repo/bench/torch_anchors.py" | tee "$out/anchors.md" || rc=1
fi
if has fault; then
  # tests/gpu/fault_drill.c: bad pointers, NULLs and destroyed objects each in its own process,
  # the stream/handle soak with device memory read, and the 8-thread bitwise runs.
  build_drill() { gcc -std=c11 -O2 -pthread -I "$1/include" "$repo/tests/gpu/fault_drill.c" -L "$1/lib" -lhipdnn_backend -ldl -lm \
                    -Wl,-rpath,"$1/lib" -o "$2"; }
  echo "== fault drill"
  build_drill "$stage" "$out/fault_drill" || rc=1
  "$out/fault_drill" all || rc=1
  "$out/fault_drill" threads "${THREAD_ITERS:-600}" || rc=1
  "$out/fault_drill" soak "${SOAK_CYCLES:-10000}" || rc=1
  if [[ -n "${OLD_STAGE:-}" ]]; then
    echo "== fault drill on the earlier build $OLD_STAGE"
    build_drill "$OLD_STAGE" "$out/fault_drill_old" && {
      LD_LIBRARY_PATH="$OLD_STAGE/lib" "$out/fault_drill_old" threads "${THREAD_ITERS:-600}"
      LD_LIBRARY_PATH="$OLD_STAGE/lib" "$out/fault_drill_old" soak 20
      LD_LIBRARY_PATH="$OLD_STAGE/lib" "$out/fault_drill_old" host
    }
  fi
fi
exit $rc
