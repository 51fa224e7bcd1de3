# HIPDNN_PLUGIN_DIR replaces the default engine plugin folder.
set_tests_properties(${TEST_NAME} PROPERTIES ENVIRONMENT "HIPDNN_PLUGIN_DIR=${HIPDNN_TEST_PLUGIN_DIR}/default")
