#!/usr/bin/env bash
# load_failure.sh HIPDNN_INFO PLUGIN.so: a copy of the oneDNN plugin whose DT_NEEDED entry for
# libdnnl.so.2 names a library that does not exist (same length, so the ELF stays valid), alone
# in a plugin folder. The host must skip it with a log line naming the missing library, and
# hipdnnCreate must still succeed (hipdnn-info calls it and exits 0 with no engines from it).
set -u
info="$1"; plugin="$2"
dir="$(mktemp -d)"; trap 'rm -rf "$dir"' EXIT
perl -0777 -pe 's/libdnnl\.so\.2\0/libdnnQ.so.2\0/g' "$plugin" > "$dir/libhipdnngo_onednn.so"
grep -q -a 'libdnnQ.so.2' "$dir/libhipdnngo_onednn.so" || { echo "FAIL: could not rewrite DT_NEEDED libdnnl.so.2"; exit 1; }
out="$(HIPDNN_PLUGIN_DIR="$dir" HIPDNN_LOG_LEVEL=warn "$info" 2>&1)"
rc=$?
printf '%s\n' "$out" | grep -i -E 'error loading plugin|libdnnQ|hipdnnCreate|engines:' | head -n 10
[[ $rc -eq 0 ]] || { printf '%s\n' "$out" | tail -n 20; echo "FAIL: hipdnn-info exit $rc (hipdnnCreate must succeed)"; exit 1; }
printf '%s\n' "$out" | grep -q "Error loading plugin from \[$dir/libhipdnngo_onednn.so\]" \
  || { printf '%s\n' "$out" | tail -n 20; echo "FAIL: no 'Error loading plugin' line naming the plugin"; exit 1; }
printf '%s\n' "$out" | grep -q 'libdnnQ.so.2' || { echo "FAIL: the log does not name the missing library"; exit 1; }
printf '%s\n' "$out" | grep -q 'HIPDNNGO_ONEDNN' && { echo "FAIL: the engine was registered anyway"; exit 1; }
echo "PASS: plugin with a missing libdnnl skipped, hipdnnCreate succeeded"
