#!/bin/sh
# check_tolerance.sh HIPDNN_RUN GRAPHS DIR: the checker still catches a real error. tanh-GELU
# results (a CPU engine's run of the matmul -> gelu_approx_tanh graph, dumped) checked as the
# results of the same matmul -> exact GELU graph, on the same inputs, must FAIL; the exact
# graph's own results must PASS. The tanh form is at most about 5e-4 away from erf GELU.
set -eu
run="$1" graphs="$2" dir="$3"
rm -rf "$dir" && mkdir -p "$dir"
"$run" "$graphs/matmul_gelu_approx_tanh_fp32_256x256x256.json" --iters 1 --dump "$dir" >/dev/null
if "$run" "$graphs/matmul_gelu_fp32_256x256x256.json" --iters 1 --check --quiet --outputs-from "$dir" >"$dir/wrong.log" 2>&1; then
    echo "FAIL: tanh-GELU results passed the exact-GELU check"; cat "$dir/wrong.log"; exit 1
fi
grep -q 'FAIL' "$dir/wrong.log" || { echo "FAIL: no FAIL verdict for tanh-GELU results"; cat "$dir/wrong.log"; exit 1; }
"$run" "$graphs/matmul_gelu_fp32_256x256x256.json" --iters 1 --check --quiet || { echo "FAIL: exact GELU did not pass"; exit 1; }
echo "PASS: the exact-GELU check fails tanh-GELU results ($(grep -o 'max |err| [0-9.e-]*' "$dir/wrong.log" | head -1))"
