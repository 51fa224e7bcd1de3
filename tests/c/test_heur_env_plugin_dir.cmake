# HIPDNN_HEURISTIC_PLUGIN_DIR replaces the default heuristic plugin folder; here it names a file.
set_tests_properties(${TEST_NAME} PROPERTIES ENVIRONMENT
  "HIPDNN_HEURISTIC_PLUGIN_DIR=${HIPDNN_TEST_PLUGIN_DIR}/heuristics/libtest_good_heuristic_plugin.so")
