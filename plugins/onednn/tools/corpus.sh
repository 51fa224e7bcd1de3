#!/usr/bin/env bash
# corpus.sh: every graph of the JSON corpus through `hipdnn-run --engine HIPDNNGO_ONEDNN --check`,
# one line per file (PASS / NOT SUPPORTED with the reason / SKIP / INVALID / FAIL) and the counts.
# The reason for a decline comes from the plugin's own log line ("not applicable: ...").
#
# usage: corpus.sh HIPDNN_RUN [CORPUS_DIR]     exit status 1 if any file FAILs
set -u
run="$1"
corpus="${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/testdata/hipdnn_graphs}"
declare -A count=([PASS]=0 ["NOT SUPPORTED"]=0 [INVALID]=0 [SKIP]=0 [FAIL]=0)
while IFS= read -r -d '' f; do
  rel="${f#"$corpus"/}"
  out="$(HIPDNN_LOG_LEVEL=info timeout "${HIPDNN_CORPUS_TIMEOUT:-300}" "$run" "$f" --engine HIPDNNGO_ONEDNN \
         --check --iters 1 --seed 1 --quiet --max-mib "${HIPDNN_CORPUS_MAX_MIB:-256}" \
         --max-gflop "${HIPDNN_CORPUS_MAX_GFLOP:-3}" 2>&1)"
  rc=$?
  detail="$(printf '%s\n' "$out" | grep '^RESULT: ' | tail -n 1)"
  case $rc in
    0) s=PASS ;;
    2) s="NOT SUPPORTED"
       why="$(printf '%s\n' "$out" | grep -o 'hipdnngo_onednn\] not applicable: .*' | head -n 1)"
       [[ -n "$why" ]] && detail="${why#hipdnngo_onednn\] }" ;;
    3) s=INVALID ;;
    4) s=SKIP ;;
    *) s=FAIL; [[ -z "$detail" ]] && detail="exit $rc: $(printf '%s\n' "$out" | tail -n 2 | tr '\n' ' ')" ;;
  esac
  count[$s]=$((count[$s] + 1))
  printf '%-13s %s  %s\n' "$s" "$rel" "$detail"
done < <(find "$corpus" -name '*.json' -print0 | sort -z)
echo "counts: PASS ${count[PASS]}, NOT SUPPORTED ${count["NOT SUPPORTED"]}, SKIP ${count[SKIP]}, INVALID ${count[INVALID]}, FAIL ${count[FAIL]}"
[[ ${count[FAIL]} -eq 0 ]]
