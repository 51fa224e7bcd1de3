# The same source built a second time as an engine plugin (-DTEST_COMPAT_PLUGIN) reporting engine
# API 1.9.0. It is compiled against the installed SDK headers only and does not link the backend
# (plugins never do). The test loads it by the path given in COMPAT_PLUGIN_PATH.
set(_compat_plugin ${TEST_NAME}_plugin)
add_library(${_compat_plugin} MODULE "${CMAKE_CURRENT_SOURCE_DIR}/${TEST_NAME}.c")
target_compile_definitions(${_compat_plugin} PRIVATE TEST_COMPAT_PLUGIN)
target_include_directories(${_compat_plugin} PRIVATE
  "$<TARGET_PROPERTY:hipdnn_backend,INTERFACE_INCLUDE_DIRECTORIES>")
target_compile_options(${_compat_plugin} PRIVATE -Wall -Wextra -Werror -pedantic)
set_target_properties(${_compat_plugin} PROPERTIES
  C_VISIBILITY_PRESET hidden
  PREFIX "lib"
  OUTPUT_NAME "test_compat_future_minor_plugin"
  LIBRARY_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/compat_plugins")
add_dependencies(${TEST_TARGET} ${_compat_plugin})
target_compile_definitions(${TEST_TARGET} PRIVATE
  COMPAT_PLUGIN_PATH="${CMAKE_CURRENT_BINARY_DIR}/compat_plugins/libtest_compat_future_minor_plugin.so")
