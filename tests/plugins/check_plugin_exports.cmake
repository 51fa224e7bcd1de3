# Post-build check of one test plugin's dynamic symbol table (cmake -P).
#   NM       nm executable
#   PLUGIN   the built shared object
#   ABSENT   ;-separated entry points the plugin must NOT export (may be empty)
# Fails when a defined dynamic symbol is not a plugin API entry point or test accessor, or when
# a symbol listed in ABSENT is exported.
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND "${NM}" -D --defined-only "${PLUGIN}"
                OUTPUT_VARIABLE symbols RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${PLUGIN}: ${err}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(exported "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-fA-F]* *[A-Za-z] +([^ ]+)$")
    set(name "${CMAKE_MATCH_1}")
    if(NOT name MATCHES "^hipdnn(Plugin|EnginePlugin|Heuristic|Test)")
      message(FATAL_ERROR "${PLUGIN} exports a non-API symbol: ${name}")
    endif()
    list(APPEND exported "${name}")
  endif()
endforeach()
foreach(name IN LISTS ABSENT)
  if(name IN_LIST exported)
    message(FATAL_ERROR "${PLUGIN} must not export ${name}")
  endif()
endforeach()
