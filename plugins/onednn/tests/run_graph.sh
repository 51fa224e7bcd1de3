#!/usr/bin/env bash
# run_graph.sh HIPDNN_RUN GRAPH.json: one oneDNN engine test graph.
#   pass_*     must run on HIPDNNGO_ONEDNN and match hipdnn-run's double-precision reference
#              (per-element tolerance: see `hipdnn-run --help`); the CPU reference engine is run
#              on the same graph and seed and must pass the same check, so both engines agree
#              with one oracle within the same bound.
#   decline_*  HIPDNNGO_ONEDNN must decline it at applicability (exit 2) with a log line
#              "[hipdnngo_onednn] not applicable: <feature>" that contains the graph's text in
#              decline_reasons.txt.
#   A pass_* graph with bfloat16 tensors outside SDPA needs oneDNN's bf16 kernels, which oneDNN
#   2.6 has only on AVX-512 CPUs (avx512f/bw/vl/dq, read from /proc/cpuinfo here, not from the
#   engine); on other CPUs it must instead be declined with a log line naming the missing kernels.
set -u
run="$1"; graph="$2"; name="$(basename "$graph" .json)"
needs_bf16_kernels=0
if grep -q '"data_type": "bfloat16"' "$graph" && ! grep -q '"SdpaAttributes"' "$graph"; then
  for flag in avx512f avx512bw avx512vl avx512dq; do
    grep -qw "$flag" /proc/cpuinfo || needs_bf16_kernels=1
  done
fi
out="$(HIPDNN_LOG_LEVEL=info "$run" "$graph" --engine HIPDNNGO_ONEDNN --check --iters 2 --seed 3 --quiet 2>&1)"
rc=$?
case "$name" in
  pass_*)
    if [[ $needs_bf16_kernels -eq 1 ]]; then
      why="$(printf '%s\n' "$out" | grep -o 'hipdnngo_onednn\] not applicable: .*has no BFLOAT16 kernels for this CPU.*' | head -n 1)"
      echo "no AVX-512 on this CPU: ${why:-no decline log line naming the bf16 kernels}"
      [[ $rc -eq 2 && -n "$why" ]] || { printf '%s\n' "$out" | tail -n 20; echo "FAIL: $name: bf16 graph not declined on a CPU without AVX-512 (exit $rc)"; exit 1; }
      exit 0
    fi
    printf '%s\n' "$out" | grep '^RESULT' || true
    [[ $rc -eq 0 ]] || { printf '%s\n' "$out" | tail -n 20; echo "FAIL: $name exit $rc on HIPDNNGO_ONEDNN"; exit 1; }
    printf '%s\n' "$out" | grep -q 'engine HIPDNNGO_ONEDNN' || { echo "FAIL: $name did not run on HIPDNNGO_ONEDNN"; exit 1; }
    ref="$("$run" "$graph" --engine HIPDNNGO_CPU_REFERENCE --check --iters 1 --seed 3 --quiet 2>&1)"
    rrc=$?
    printf 'reference engine: %s\n' "$(printf '%s\n' "$ref" | grep '^RESULT' | tail -n 1)"
    [[ $rrc -eq 0 ]] || { echo "FAIL: $name: the reference engine does not pass the same check (exit $rrc)"; exit 1; }
    ;;
  decline_*)
    want="$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$(dirname "$0")/decline_reasons.txt")"
    [[ -n "$want" ]] || { echo "FAIL: $name has no expected reason in decline_reasons.txt"; exit 1; }
    [[ $needs_bf16_kernels -eq 1 ]] && want="has no BFLOAT16 kernels for this CPU"
    why="$(printf '%s\n' "$out" | grep -o 'hipdnngo_onednn\] not applicable: .*' | head -n 1)"
    echo "${why:-no decline log line}"
    [[ $rc -eq 2 && -n "$why" ]] || { printf '%s\n' "$out" | tail -n 20; echo "FAIL: $name was not declined (exit $rc)"; exit 1; }
    [[ "$why" == *"$want"* ]] || { echo "FAIL: $name was declined, but not for: $want"; exit 1; }
    ;;
  *) echo "run_graph.sh: graph name must start with pass_ or decline_: $name"; exit 2 ;;
esac
