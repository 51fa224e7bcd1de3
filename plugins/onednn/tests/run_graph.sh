#!/usr/bin/env bash
# run_graph.sh HIPDNN_RUN GRAPH.json: one oneDNN engine test graph.
#   pass_*     must run on HIPDNNGO_ONEDNN and match hipdnn-run's double-precision reference
#              (per-element tolerance: see `hipdnn-run --help`); the CPU reference engine is run
#              on the same graph and seed and must pass the same check, so both engines agree
#              with one oracle within the same bound.
#   decline_*  HIPDNNGO_ONEDNN must decline it at applicability (exit 2) with a log line
#              "[hipdnngo_onednn] not applicable: <feature>" that contains the graph's text in
#              decline_reasons.txt.
#   A graph with half / bfloat16 tensors runs twice more on HIPDNNGO_ONEDNN: once as oneDNN
#   dispatches on this CPU, once with ONEDNN_MAX_CPU_ISA=AVX2 (an AVX2-only CPU as oneDNN sees
#   it): a pass_* graph must pass both, and the capped run must be staged through f32 (the plan's
#   log line says "staged through f32"; oneDNN 2.6 has no bf16 / f16 kernels on AVX2).
set -u
run="$1"; graph="$2"; name="$(basename "$graph" .json)"
sixteen=0
grep -qE '"data_type": "(bfloat16|half)"' "$graph" && sixteen=1
out="$(HIPDNN_LOG_LEVEL=info "$run" "$graph" --engine HIPDNNGO_ONEDNN --check --iters 2 --seed 3 --quiet 2>&1)"
rc=$?
case "$name" in
  pass_*)
    printf '%s\n' "$out" | grep '^RESULT' || true
    [[ $rc -eq 0 ]] || { printf '%s\n' "$out" | tail -n 20; echo "FAIL: $name exit $rc on HIPDNNGO_ONEDNN"; exit 1; }
    printf '%s\n' "$out" | grep -q 'engine HIPDNNGO_ONEDNN' || { echo "FAIL: $name did not run on HIPDNNGO_ONEDNN"; exit 1; }
    ref="$("$run" "$graph" --engine HIPDNNGO_CPU_REFERENCE --check --iters 1 --seed 3 --quiet 2>&1)"
    rrc=$?
    printf 'reference engine: %s\n' "$(printf '%s\n' "$ref" | grep '^RESULT' | tail -n 1)"
    [[ $rrc -eq 0 ]] || { echo "FAIL: $name: the reference engine does not pass the same check (exit $rrc)"; exit 1; }
    if [[ $sixteen -eq 1 ]]; then
      capped="$(ONEDNN_MAX_CPU_ISA=AVX2 HIPDNN_LOG_LEVEL=info "$run" "$graph" --engine HIPDNNGO_ONEDNN --check --iters 2 --seed 3 --quiet 2>&1)"
      crc=$?
      printf 'ONEDNN_MAX_CPU_ISA=AVX2: %s\n' "$(printf '%s\n' "$capped" | grep '^RESULT' | tail -n 1)"
      [[ $crc -eq 0 ]] || { printf '%s\n' "$capped" | tail -n 20; echo "FAIL: $name exit $crc on HIPDNNGO_ONEDNN with ONEDNN_MAX_CPU_ISA=AVX2"; exit 1; }
      printf '%s\n' "$capped" | grep -q 'staged through f32' || { echo "FAIL: $name: the AVX2-capped plan is not staged through f32"; exit 1; }
    fi
    ;;
  decline_*)
    want="$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' "$(dirname "$0")/decline_reasons.txt")"
    [[ -n "$want" ]] || { echo "FAIL: $name has no expected reason in decline_reasons.txt"; exit 1; }
    why="$(printf '%s\n' "$out" | grep -o 'hipdnngo_onednn\] not applicable: .*' | head -n 1)"
    echo "${why:-no decline log line}"
    [[ $rc -eq 2 && -n "$why" ]] || { printf '%s\n' "$out" | tail -n 20; echo "FAIL: $name was not declined (exit $rc)"; exit 1; }
    [[ "$why" == *"$want"* ]] || { echo "FAIL: $name was declined, but not for: $want"; exit 1; }
    ;;
  *) echo "run_graph.sh: graph name must start with pass_ or decline_: $name"; exit 2 ;;
esac
