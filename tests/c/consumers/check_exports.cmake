# The library's dynamic symbol table defines exactly the functions of the public header:
# nothing missing (a runtime-load consumer's dlsym would fail) and nothing extra (benchmark or
# test hooks, Go runtime or cgo symbols leaking into the product).
#   cmake -DLIB=<library> -DFUNCTIONS=<list> -P check_exports.cmake
find_program(NM nm REQUIRED)
execute_process(COMMAND "${NM}" -D --defined-only "${LIB}" OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nm -D --defined-only ${LIB} failed (${rc})")
endif()
string(REGEX MATCHALL "[0-9a-f]+ [A-Za-z] [^\n]+" lines "${out}")
set(exported "")
foreach(l IN LISTS lines)
  string(REGEX REPLACE "^[0-9a-f]+ [A-Za-z] ([^@ ]+).*" "\\1" sym "${l}")
  list(APPEND exported "${sym}")
endforeach()
set(extra ${exported})
list(REMOVE_ITEM extra ${FUNCTIONS})
set(missing ${FUNCTIONS})
list(REMOVE_ITEM missing ${exported})
list(LENGTH FUNCTIONS n)
if(extra OR missing)
  message(FATAL_ERROR "exported symbols differ from the header's ${n} functions\n  not in the header: ${extra}\n  missing: ${missing}")
endif()
message(STATUS "${LIB} exports exactly the header's ${n} functions")
