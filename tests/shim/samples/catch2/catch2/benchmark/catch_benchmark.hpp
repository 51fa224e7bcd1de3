// Stand-in for Catch2 v3's benchmarks. A benchmark body runs once per test run (the samples'
// benchmarks double as smoke tests; timing them is not this stand-in's job), and the runner
// prints its wall time. CATCH_STANDIN_SKIP_BENCHMARKS=1 in the environment skips the bodies.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>

#include "../catch_test_macros.hpp"

namespace Catch {
namespace Benchmark {

// Chronometer::measure runs the timed function once (with the iteration index when it takes one).
class Chronometer {
   public:
    template <typename Fn>
    void
    measure(Fn&& fn) {
        if constexpr (std::is_invocable_v<Fn, int>) {
            (void)fn(0);
        } else {
            (void)fn();
        }
    }
    int
    runs() const {
        return 1;
    }
};

class Benchmark {
    std::string name_;

   public:
    explicit Benchmark(std::string name) : name_(std::move(name)) {}
    explicit operator bool() const {
        const char* skip = std::getenv("CATCH_STANDIN_SKIP_BENCHMARKS");
        return !(skip && skip[0] == '1');
    }
    template <typename Fn>
    Benchmark&
    operator=(Fn&& fn) {
        auto t0 = std::chrono::steady_clock::now();
        if constexpr (std::is_invocable_v<Fn, Chronometer>) {
            Chronometer meter;
            fn(meter);
        } else if constexpr (std::is_invocable_v<Fn, int>) {
            (void)fn(0);
        } else {
            (void)fn();
        }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::fprintf(stderr, "benchmark %s: one run, %.3f ms\n", name_.c_str(), ms);
        return *this;
    }
};

}  // namespace Benchmark
}  // namespace Catch

#define CATCH_STANDIN_BENCHMARK(var, name) if (::Catch::Benchmark::Benchmark var{name}) var = [&]
#define BENCHMARK(...) CATCH_STANDIN_BENCHMARK(CATCH_STANDIN_UNIQUE(catch_standin_bench_), (__VA_ARGS__))(int)
#define BENCHMARK_ADVANCED(...) CATCH_STANDIN_BENCHMARK(CATCH_STANDIN_UNIQUE(catch_standin_bench_), (__VA_ARGS__))
