#!/usr/bin/env bash
# run_corpus.sh: run every graph of the JSON corpus through hipdnn-run --check --iters 1 and
# print one line per file:
#
#   PASS            the engine's outputs match hipdnn-run's double reference (or the graph has
#                   no op with a reference and its outputs are finite: "PASS nothing checked")
#   NOT SUPPORTED   no engine applies to the graph (honest applicability, not a failure)
#   INVALID         the backend rejects the file itself (e.g. a node without compute type)
#   SKIP            over a budget: tensors + workspace > MAX_MIB, or reference > MAX_GFLOP
#   FAIL            wrong or non-finite results, an API error during the run, or a crash
#
# Exit status: 1 if any file FAILs, else 0.
#
# usage: run_corpus.sh [HIPDNN_RUN [CORPUS_DIR]]
#   HIPDNN_RUN  the hipdnn-run binary (default: $HIPDNN_RUN, else hipdnn-run on PATH, else the
#               staged build/stage/bin/hipdnn-run of this repository)
#   CORPUS_DIR  default: $HIPDNN_CORPUS_DIR, else testdata/hipdnn_graphs of this repository
# Environment: HIPDNN_CORPUS_MAX_MIB (default 256), HIPDNN_CORPUS_MAX_GFLOP (default 3),
#              HIPDNN_CORPUS_TIMEOUT seconds per file (default 300), HIPDNN_CORPUS_SEED (default 1).
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

run="${1:-${HIPDNN_RUN:-}}"
if [[ -z "$run" ]]; then
  if command -v hipdnn-run >/dev/null 2>&1; then run="$(command -v hipdnn-run)"; else run="$repo/build/stage/bin/hipdnn-run"; fi
fi
corpus="${2:-${HIPDNN_CORPUS_DIR:-$repo/testdata/hipdnn_graphs}}"
max_mib="${HIPDNN_CORPUS_MAX_MIB:-256}"
max_gflop="${HIPDNN_CORPUS_MAX_GFLOP:-3}"
timeout_s="${HIPDNN_CORPUS_TIMEOUT:-300}"
seed="${HIPDNN_CORPUS_SEED:-1}"

if [[ ! -x "$run" ]]; then echo "run_corpus.sh: hipdnn-run not found or not executable: $run" >&2; exit 2; fi
if [[ ! -d "$corpus" ]]; then echo "run_corpus.sh: corpus folder not found: $corpus" >&2; exit 2; fi

echo "corpus: $corpus"
echo "hipdnn-run: $run --check --iters 1 --seed $seed --max-mib $max_mib --max-gflop $max_gflop"
echo "budgets: tensors + workspace <= $max_mib MiB, reference <= $max_gflop GFLOP (estimated), ${timeout_s} s per file"

declare -A count=([PASS]=0 ["NOT SUPPORTED"]=0 [INVALID]=0 [SKIP]=0 [FAIL]=0)
failed=()
start=$SECONDS
while IFS= read -r -d '' file; do
  rel="${file#"$corpus"/}"
  t0=$SECONDS
  out="$(timeout "$timeout_s" "$run" "$file" --check --iters 1 --seed "$seed" --quiet \
         --max-mib "$max_mib" --max-gflop "$max_gflop" 2>&1)"
  rc=$?
  dt=$((SECONDS - t0))
  result="$(printf '%s\n' "$out" | grep '^RESULT: ' | tail -n 1)"
  detail="${result#RESULT: }"
  case $rc in
    0) status=PASS
       [[ "$detail" == UNCHECKED* ]] && detail="nothing checked ${detail#UNCHECKED }" || detail="${detail#PASS }" ;;
    2) status="NOT SUPPORTED"; detail="${detail#NOT SUPPORTED }" ;;
    3) status=INVALID; detail="${detail#INVALID }" ;;
    4) status=SKIP; detail="${detail#SKIP }" ;;
    124) status=FAIL; detail="timed out after ${timeout_s} s" ;;
    *) status=FAIL
       [[ -z "$result" ]] && detail="exit code $rc without a RESULT line" ;;
  esac
  count[$status]=$(( ${count[$status]} + 1 ))
  printf '%-14s %s %s (%ds)\n' "$status" "$rel" "$detail" "$dt"
  if [[ "$status" == FAIL ]]; then
    failed+=("$rel")
    printf '%s\n' "$out" | grep -v '^RESULT: ' | sed 's/^/    | /' | tail -n 20
  fi
done < <(find "$corpus" -type f -name '*.json' -print0 | sort -z)

echo "summary: ${count[PASS]} pass, ${count["NOT SUPPORTED"]} not supported, ${count[INVALID]} invalid, ${count[SKIP]} skipped, ${count[FAIL]} fail ($((SECONDS - start)) s)"
if (( ${#failed[@]} > 0 )); then
  printf 'failed: %s\n' "${failed[@]}"
  exit 1
fi
exit 0
