// Stand-in for Catch2 v3's range generator: GENERATE(range(a, b)) lives with the test macros.
#pragma once
#include "../catch_test_macros.hpp"
