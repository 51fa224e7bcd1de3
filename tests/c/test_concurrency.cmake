# ~3 s of threads on one handle (see tests/c/sweep/concurrency.h); the log (the hammer thread
# switches the level through INFO) goes to /dev/null, the ranking cache is not written.
set_tests_properties(${TEST_NAME} PROPERTIES TIMEOUT 180 LABELS concurrency ENVIRONMENT
  "HIPDNN_LOG_FILE=/dev/null;HIPDNN_DISABLE_EXACT_ENGINE_CACHE=1;HIPDNN_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/${TEST_NAME}.d")
