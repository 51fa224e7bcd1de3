// Stand-in for Catch2 v3's umbrella header.
#pragma once
#include "catch_test_macros.hpp"
#include "benchmark/catch_benchmark.hpp"
