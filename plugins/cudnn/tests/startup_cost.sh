#!/usr/bin/env bash
# startup_cost.sh STAGE LIBDIR_A [LIBDIR_B ...]: time of the first plan build (heuristic
# finalize + plan) of a CPU graph on the CPU reference engine, in a fresh process, for each
# backend library folder given (e.g. before / after a change). Only the CPU reference plugin is
# loaded (HIPDNN_PLUGIN_DIR), so any GPU runtime start-up is the backend's own.
set -u
stage="$1"; shift
graph="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/testdata/hipdnn_graphs/samples/sample_relu.json"
plugins="$(mktemp -d)"
cp "$stage/lib/hipdnn_plugins/engines/libhipdnngo_cpu_reference.so" "$plugins/"
for lib in "$@"; do
  for i in 1 2 3; do
    LD_LIBRARY_PATH="$lib" HIPDNN_PLUGIN_DIR="$plugins" "$stage/bin/hipdnn-run" "$graph" --host --iters 1 \
      | sed -n "s|^plan build: \([0-9.]* ms\).*|$lib run $i: first plan build \1|p"
  done
done
