# The test sets HIPDNN_LOG_FILE and HIPDNN_LOG_LEVEL itself with setenv(); start it without
# values inherited from the caller's environment.
set_tests_properties(${TEST_NAME} PROPERTIES ENVIRONMENT "HIPDNN_LOG_FILE=;HIPDNN_LOG_LEVEL=")
