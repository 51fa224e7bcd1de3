# Up to 20 child processes, each with a 4 s deadline; the log goes to /dev/null.
set_tests_properties(${TEST_NAME} PROPERTIES TIMEOUT 300 LABELS concurrency ENVIRONMENT "HIPDNN_LOG_FILE=/dev/null")
