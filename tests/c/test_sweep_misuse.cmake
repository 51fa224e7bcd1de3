# The misuse sweep respawns itself (crash isolation); each child builds fixtures and runs the
# remaining cases. Logging (the LoggingCallback rows switch the level to INFO) goes to /dev/null;
# the ranking-cache rows must not write a cache, so the exact-match cache is disabled.
set_tests_properties(${TEST_NAME} PROPERTIES TIMEOUT 300 ENVIRONMENT
  "HIPDNN_LOG_FILE=/dev/null;HIPDNN_DISABLE_EXACT_ENGINE_CACHE=1;HIPDNN_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/${TEST_NAME}.d")
