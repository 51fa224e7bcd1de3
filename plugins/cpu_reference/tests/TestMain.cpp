// hipdnn_cpu_reference_kernel_tests: runs every registered test, prints one line per failure
// and the closing "N passed, M failed" line; exit status 1 if anything failed.
// An optional argument selects tests whose name contains it.
#include "TestSupport.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    const char* filter = argc > 1 ? argv[1] : nullptr;
    int passed = 0, failed = 0;
    for(const auto& t : cpuref_test::registry())
    {
        if(filter && std::strstr(t.name, filter) == nullptr)
            continue;
        const auto start = std::chrono::steady_clock::now();
        try
        {
            t.fn();
            ++passed;
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            std::printf("PASS %s (%.0f ms)\n", t.name, ms);
        }
        catch(const std::exception& e)
        {
            ++failed;
            std::printf("FAIL %s: %s\n", t.name, e.what());
        }
        std::fflush(stdout);
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
