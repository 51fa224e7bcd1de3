# Assembles one test-only schema variant and runs flatc on it (schemas/evolution/README.md).
#
#   cmake -DFLATC=<flatc> -DFLAGS=<flags separated by |> -DSCHEMAS=<schemas/> \
#         -DOVERLAY=<schemas/evolution/future or past> -DWORK=<build folder> -P stage_variant.cmake
#
# The variant is every real schema with the overlay's files put over it (an overlay file
# replaces the real file of the same name or adds a new one). The files are copied into one
# folder first because flatc resolves an include next to the including file before the -I
# folders, so overlaying by include path alone would mix real and variant tables. flatc then
# writes <WORK>/include/<name>_generated.h for every file of the variant.
foreach(v FLATC FLAGS SCHEMAS OVERLAY WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "stage_variant.cmake: -D${v}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" _flags "${FLAGS}")

file(REMOVE_RECURSE "${WORK}/fbs" "${WORK}/include")
file(MAKE_DIRECTORY "${WORK}/fbs" "${WORK}/include")
file(GLOB _real "${SCHEMAS}/*.fbs")
file(GLOB _overlay "${OVERLAY}/*.fbs")
file(COPY ${_real} DESTINATION "${WORK}/fbs")
file(COPY ${_overlay} DESTINATION "${WORK}/fbs")

file(GLOB _variant "${WORK}/fbs/*.fbs")
foreach(f IN LISTS _variant)
  execute_process(
    COMMAND "${FLATC}" ${_flags} -o "${WORK}/include" -I "${WORK}/fbs" "${f}"
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "flatc failed on ${f}")
  endif()
endforeach()
