# Cache switched off; HIPDNN_CACHE_DIR still points at a build-tree folder that must stay empty.
set(cache_dir "${CMAKE_CURRENT_BINARY_DIR}/${TEST_NAME}.d")
target_compile_definitions(${TEST_TARGET} PRIVATE CACHE_DIR="${cache_dir}")
set_tests_properties(${TEST_NAME} PROPERTIES ENVIRONMENT
  "HIPDNN_CACHE_DIR=${cache_dir};HIPDNN_DISABLE_EXACT_ENGINE_CACHE=yes")
