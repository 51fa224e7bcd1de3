# The example engine plugin, built here from the installed package exactly as a plugin author's
# project builds it (examples/engine_plugin/CMakeLists.txt, include dirs only, never linking the
# backend). The test loads it by the path given in EXAMPLE_PLUGIN_PATH.
add_subdirectory("${HIPDNN_SOURCE_DIR}/examples/engine_plugin" example_engine_plugin)
add_dependencies(${TEST_TARGET} hipdnngo_example_relu)
target_compile_definitions(${TEST_TARGET} PRIVATE EXAMPLE_PLUGIN_PATH="$<TARGET_FILE:hipdnngo_example_relu>")
