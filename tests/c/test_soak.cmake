# The soak (10^6 descriptors, 10^4 handles, 10^4 executions; 5-10 s here) runs in every ctest
# run; `-LE soak` leaves it out (make asan / make valgrind do).
set_tests_properties(${TEST_NAME} PROPERTIES TIMEOUT 180 LABELS soak RUN_SERIAL TRUE ENVIRONMENT
  "HIPDNN_LOG_FILE=/dev/null;HIPDNN_DISABLE_EXACT_ENGINE_CACHE=1")
# Ten times more work, registered only when HIPDNN_SOAK_FULL=1 at configure time
# (HIPDNN_SOAK_FULL=1 make ctest); label soak-full.
if("$ENV{HIPDNN_SOAK_FULL}" STREQUAL "1")
  add_test(NAME ${TEST_NAME}_full COMMAND ${HIPDNN_TEST_WRAPPER} $<TARGET_FILE:${TEST_TARGET}> --scale 10)
  set_tests_properties(${TEST_NAME}_full PROPERTIES TIMEOUT 1800 LABELS soak-full RUN_SERIAL TRUE ENVIRONMENT
    "HIPDNN_LOG_FILE=/dev/null;HIPDNN_DISABLE_EXACT_ENGINE_CACHE=1")
endif()
