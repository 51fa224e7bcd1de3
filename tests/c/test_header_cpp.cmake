# The header must compile cleanly as strict ISO C++17: the suite adds warning flags to .c files
# only, GNU extensions are switched off, and the public headers are searched as ordinary
# include directories (CMake marks an imported target's include directories as system
# directories, where -Wall/-pedantic findings are suppressed).
target_compile_options(${TEST_TARGET} PRIVATE -Wall -Wextra -Werror -pedantic)
set_target_properties(${TEST_TARGET} PROPERTIES CXX_EXTENSIONS OFF NO_SYSTEM_FROM_IMPORTED ON)
