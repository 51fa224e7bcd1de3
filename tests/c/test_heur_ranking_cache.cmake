# The exact-match engine ranking cache lives in a folder of the build tree; the test empties it.
set(cache_dir "${CMAKE_CURRENT_BINARY_DIR}/${TEST_NAME}.d")
target_compile_definitions(${TEST_TARGET} PRIVATE CACHE_DIR="${cache_dir}")
set_tests_properties(${TEST_NAME} PROPERTIES ENVIRONMENT "HIPDNN_CACHE_DIR=${cache_dir}")
