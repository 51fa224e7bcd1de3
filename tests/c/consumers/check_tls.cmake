# The library's static TLS must stay small. A Go c-shared library is marked STATIC_TLS; glibc
# gives a library dlopened after start-up static TLS only from a small surplus (shared with
# every other late-loaded library), so a big TLS segment makes dlopen fail with "cannot
# allocate memory in static TLS block" (toolchain_notes.md). 64 bytes is the limit: Go's
# runtime needs 8; per-thread state belongs in a pthread key (capi/lasterror.c).
#   cmake -DLIB=<library> -P check_tls.cmake
set(limit 64)
find_program(READELF readelf REQUIRED)
execute_process(COMMAND "${READELF}" -lW "${LIB}" OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf -lW ${LIB} failed (${rc})")
endif()
# TLS  Offset VirtAddr PhysAddr FileSiz MemSiz Flg Align
if(NOT out MATCHES "\n +TLS +0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ (0x[0-9a-f]+)")
  message(STATUS "${LIB} has no TLS segment")
  return()
endif()
math(EXPR size "${CMAKE_MATCH_1}")
if(size GREATER limit)
  message(FATAL_ERROR "${LIB}: static TLS segment is ${size} bytes, over the ${limit}-byte limit: late dlopen "
                      "(AMD's runtime-load frontend, hipDNNEP, Python ctypes) would fail with \"cannot allocate "
                      "memory in static TLS block\". Move per-thread state to a pthread key.")
endif()
message(STATUS "${LIB}: static TLS segment is ${size} bytes (limit ${limit})")
