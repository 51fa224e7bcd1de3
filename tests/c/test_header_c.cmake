# The header must compile cleanly as strict ISO C99: no GNU extensions, and the public headers
# searched as ordinary include directories (CMake marks an imported target's include
# directories as system directories, where -Wall/-pedantic findings are suppressed).
set_target_properties(${TEST_TARGET} PROPERTIES C_EXTENSIONS OFF NO_SYSTEM_FROM_IMPORTED ON)
