# hipdnn_add_engine_plugin(<target> <exports.map> SOURCES <src>... [LINK <lib>...])
#
# An engine plugin of this project: lib<target>.so (MODULE) built against the plugin SDK and the
# generated FlatBuffers headers, C++17, hidden visibility with only what <exports.map> lists
# exported (the version script also hides GCC's default-visibility template instantiations),
# no undefined symbols, -O2 when no build type is set, written to and installed in
# <libdir>/hipdnn_plugins/engines/ next to the backend.
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
