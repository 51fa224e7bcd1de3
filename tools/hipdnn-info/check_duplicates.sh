#!/bin/sh
# hipdnn-info shows an engine id two plugins claim: with the two duplicate-id test plugins in
# one plugin folder, it prints the backend's error naming both plugins under
# "plugin loading problems".
#   check_duplicates.sh HIPDNN_INFO TEST_PLUGIN_DIR WORK_DIR
set -eu
info=$1 plugins=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
ln -s "$plugins/custom/libtest_duplicate_id_a_plugin.so" "$work/"
ln -s "$plugins/custom/libtest_duplicate_id_b_plugin.so" "$work/"
out=$(HIPDNN_PLUGIN_DIR="$work" "$info")
echo "$out"
echo "$out" | grep -q "^plugin loading problems:$" || { echo "FAIL: no plugin loading problems section"; exit 1; }
echo "$out" | grep "already provided by plugin" | grep "test_duplicate_id_b_plugin" | grep -q "test_duplicate_id_a_plugin" ||
  { echo "FAIL: the duplicate engine id is not shown with both plugins"; exit 1; }
echo PASS
