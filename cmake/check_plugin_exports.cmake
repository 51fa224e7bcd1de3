# check_plugin_exports.cmake (cmake -P): a plugin's defined dynamic symbols (nm -D --defined-only).
#   NM      nm executable
#   PLUGIN  the built shared object
#   WANT    comma-separated names: the symbols must be exactly these (the engines' <target>_exports
#           ctests, hipdnn_check_plugin_exports)
#   ABSENT  without WANT, ;-separated names: every symbol must be a plugin API entry point or test
#           accessor (hipdnnPlugin*, hipdnnEnginePlugin*, hipdnnHeuristic*, hipdnnTest*) and none of
#           these (the test plugins' post-build check)
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND "${NM}" -D --defined-only "${PLUGIN}"
                OUTPUT_VARIABLE symbols RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${PLUGIN}: ${err}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(have "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-fA-F]* *[A-Za-z] +([^ ]+)$")
    list(APPEND have "${CMAKE_MATCH_1}")
  endif()
endforeach()

if(DEFINED WANT)
  string(REPLACE "," ";" want "${WANT}")
  set(extra ${have})
  list(REMOVE_ITEM extra ${want})
  set(missing ${want})
  list(REMOVE_ITEM missing ${have})
  if(extra OR missing)
    message(FATAL_ERROR "${PLUGIN}: exports differ; extra: [${extra}] missing: [${missing}]")
  endif()
  list(LENGTH have n)
  message(STATUS "${PLUGIN}: ${n} exports, as expected")
  return()
endif()

foreach(name IN LISTS have)
  if(NOT name MATCHES "^hipdnn(Plugin|EnginePlugin|Heuristic|Test)")
    message(FATAL_ERROR "${PLUGIN} exports a non-API symbol: ${name}")
  endif()
endforeach()
foreach(name IN LISTS ABSENT)
  if(name IN_LIST have)
    message(FATAL_ERROR "${PLUGIN} must not export ${name}")
  endif()
endforeach()
