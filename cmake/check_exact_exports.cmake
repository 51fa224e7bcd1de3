# check_exact_exports.cmake (cmake -P): the defined dynamic symbols of PLUGIN are exactly WANT.
#   NM      nm executable
#   PLUGIN  the built shared object
#   WANT    comma-separated symbol names
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
