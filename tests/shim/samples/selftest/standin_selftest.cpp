// Self-test of the Catch2 v3 stand-in (../catch2): each case's verdict and reason are what
// selftest.sh expects, so a change to the stand-in that mislabels a case fails ctest.
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/benchmark/catch_benchmark.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

static std::vector<std::string> g_trace;  // what ran, in order

TEST_CASE("passes", "[good]") {
    int a = 2;
    REQUIRE(a == 2);
    REQUIRE_FALSE(a == 3);
    CHECK(a < 3);
    REQUIRE_NOTHROW(a += 1);
    REQUIRE_THROWS(throw std::runtime_error("x"));
}

TEST_CASE("require fails with values", "[bad]") {
    int a = 2;
    INFO("a is " << a);
    REQUIRE(a == 5);
}

TEST_CASE("check fails but continues", "[bad]") {
    CHECK(1 == 2);
    g_trace.push_back("after check");
    REQUIRE(g_trace.back() == "after check");
}

TEST_CASE("skips", "[skip]") {
    SKIP("needs " << 42);
}

TEST_CASE("fail macro", "[bad]") {
    FAIL("explicit " << 1);
}

TEST_CASE("throws", "[bad]") {
    throw std::runtime_error("boom");
}

// Sections: each leaf runs once, with the code before it rerun each time (Catch2's rule).
TEST_CASE("sections", "[good]") {
    static std::string seen;
    seen += "[";
    SECTION("a") { seen += "a"; }
    SECTION("b") {
        seen += "b";
        SECTION("b1") { seen += "1"; }
        SECTION("b2") { seen += "2"; }
    }
    seen += "]";
    if (seen == "[a][b1][b2]") g_trace.push_back("sections ok");
}

TEST_CASE("sections result", "[good]") {
    REQUIRE(!g_trace.empty());
    REQUIRE(g_trace.back() == "sections ok");
}

// Generators: every value of each GENERATE, as an odometer; range is half-open.
TEST_CASE("generators", "[good]") {
    static std::vector<int> seen;
    auto x = GENERATE(1, 2, 3);
    auto y = GENERATE(range(10, 12));
    seen.push_back(x * 100 + y);
    if (seen.size() == 6) {
        REQUIRE(seen == std::vector<int>({110, 111, 210, 211, 310, 311}));
        g_trace.push_back("generators ok");
    }
}

TEST_CASE("generators result", "[good]") {
    REQUIRE(g_trace.back() == "generators ok");
}

TEST_CASE("benchmarks run once", "[good]") {
    int plain = 0, advanced = 0;
    BENCHMARK("plain") { return ++plain; };
    BENCHMARK_ADVANCED("advanced")(Catch::Benchmark::Chronometer meter) { meter.measure([&] { return ++advanced; }); };
    REQUIRE(plain == 1);
    REQUIRE(advanced == 1);
}
