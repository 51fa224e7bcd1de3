#!/bin/sh
# check_load.sh HIPDNN_RUN GRAPH DIR: --load reads the inputs a --dump wrote. Input uid 1 of a
# run with another seed, loaded from the first run's dump, must be byte-identical to the dump,
# and without --load it must differ (so the check can fail).
set -eu
run="$1" graph="$2" dir="$3"
rm -rf "$dir" && mkdir -p "$dir/a" "$dir/b" "$dir/c"
"$run" "$graph" --reference-only --seed 1 --dump "$dir/a" >/dev/null
"$run" "$graph" --reference-only --seed 2 --load "$dir/a" --dump "$dir/b" >/dev/null
"$run" "$graph" --reference-only --seed 2 --dump "$dir/c" >/dev/null
cmp "$dir/a/t1.npy" "$dir/b/t1.npy" || { echo "FAIL: --load did not restore input uid 1"; exit 1; }
if cmp -s "$dir/a/t1.npy" "$dir/c/t1.npy"; then echo "FAIL: seeds 1 and 2 fill uid 1 alike"; exit 1; fi
echo "PASS --load"
