// Stand-in for Catch2 v3's generators: GENERATE(values...) lives with the test macros.
#pragma once
#include "../catch_test_macros.hpp"
