# hipdnn_add_engine_plugin(<target> <exports.map> SOURCES <src>... [LINK <lib>...])
# hipdnn_check_plugin_exports(<target> <symbol>...)  (below)
#
# An engine plugin of this project: lib<target>.so (MODULE) built against the plugin SDK and the
# generated FlatBuffers headers, C++17, hidden visibility with only what <exports.map> lists
# exported (the version script also hides GCC's default-visibility template instantiations),
# no undefined symbols, -O2 when no build type is set, written to and installed in
# <libdir>/hipdnn_plugins/engines/ next to the backend.
set(HIPDNN_ENGINE_PLUGIN_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(hipdnn_add_engine_plugin target exports)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK" ${ARGN})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE hipdnn_plugin_sdk hipdnn_flatbuffers ${ARG_LINK})
  target_compile_features(${target} PRIVATE cxx_std_17)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
    target_compile_options(${target} PRIVATE -O2)
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    OUTPUT_NAME "${target}"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib/hipdnn_plugins/engines")
  target_link_options(${target} PRIVATE "LINKER:--version-script=${exports}" "LINKER:--no-undefined")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${exports}")
  install(TARGETS ${target} LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}/hipdnn_plugins/engines")
endfunction()

# The entry points HIPDNN_ENGINE_PLUGIN (hipdnn_plugin_sdk/helpers/EnginePluginExports.hpp) emits.
set(HIPDNN_SKELETON_EXPORTS
  hipdnnPluginGetName hipdnnPluginGetVersion hipdnnPluginGetApiVersion hipdnnPluginGetType
  hipdnnPluginGetLastErrorString hipdnnPluginSetLoggingCallback hipdnnPluginSetLogLevel
  hipdnnEnginePluginGetAllEngineIds hipdnnEnginePluginGetEngineName
  hipdnnEnginePluginIsHostMemoryEngine_ext hipdnnEnginePluginCreate hipdnnEnginePluginDestroy
  hipdnnEnginePluginSetStream hipdnnEnginePluginGetApplicableEngineIds
  hipdnnEnginePluginGetEngineDetails hipdnnEnginePluginDestroyEngineDetails
  hipdnnEnginePluginGetWorkspaceSize hipdnnEnginePluginGetNumericalNotesV1_ext
  hipdnnEnginePluginCreateExecutionContext hipdnnEnginePluginDestroyExecutionContext
  hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext hipdnnEnginePluginExecuteOpGraph)
# ... HIPDNN_ENGINE_PLUGIN_SERIALIZATION, and HIPDNN_ENGINE_PLUGIN_MEMORY_KINDS.
set(HIPDNN_SKELETON_SERIALIZATION_EXPORTS
  hipdnnEnginePluginSerializeExecutionContext hipdnnEnginePluginDestroySerializedExecutionContext
  hipdnnEnginePluginCreateExecutionContextFromSerialized)
set(HIPDNN_SKELETON_MEMORY_KINDS_EXPORTS hipdnnEnginePluginGetMemoryKinds_ext)

# hipdnn_check_plugin_exports(<target> <symbol>...): with HIPDNN_BUILD_TESTS, a ctest
# <target>_exports that the plugin's defined dynamic symbols (nm -D --defined-only) are exactly
# these: a port or a new macro cannot add or lose an entry point unnoticed.
function(hipdnn_check_plugin_exports target)
  find_program(HIPDNN_NM_EXECUTABLE NAMES nm)
  if(NOT HIPDNN_BUILD_TESTS OR NOT HIPDNN_NM_EXECUTABLE)
    return()
  endif()
  string(REPLACE ";" "," want "${ARGN}")
  add_test(NAME ${target}_exports
           COMMAND "${CMAKE_COMMAND}" "-DNM=${HIPDNN_NM_EXECUTABLE}" "-DPLUGIN=$<TARGET_FILE:${target}>"
                   "-DWANT=${want}" -P "${HIPDNN_ENGINE_PLUGIN_CMAKE_DIR}/check_plugin_exports.cmake")
endfunction()
