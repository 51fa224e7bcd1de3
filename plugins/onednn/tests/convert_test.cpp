// convert_test: every conversion path of the engine's staging (Convert.hpp) that this CPU can
// run, bit for bit against the scalar path (the SDK's FloatFormats.h, itself checked against the
// double-precision definition by the SDK's tests): all 2^16 half and bfloat16 patterns widened;
// narrowing of every float whose low 13 / 16 bits are 0, the tie, or near it (exponents 0..255,
// both signs: zeros, float denormals, half subnormals, overflow, infinities, quiet and
// signalling NaNs with payloads), plus a pseudo-random sweep; lengths that leave vector tails.
// Known values pin the rounding (ties to even) and the NaN results independently of the scalar
// path. --bench: each path's rate on one 1024-element row in L1 (no check).
#include "Convert.hpp"

#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace hipdnngo::onednn;
using hipdnn_flatbuffers_sdk::data_objects::DataType;

namespace
{

int failures = 0;

void check(bool ok, const char* what, uint32_t in, uint32_t got, uint32_t want, ConvertIsa isa)
{
    if(ok)
        return;
    if(++failures <= 20)
        std::printf("FAIL %s on %s: input 0x%08x gives 0x%08x, want 0x%08x\n", what, name(isa), in, got, want);
}

std::vector<float> narrowInputs()
{
    std::vector<float> v;
    const uint32_t lows[] = {0x0, 0x1, 0xFFF, 0x1000, 0x1001, 0x1FFF, 0x2000, 0x3000, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x18000, 0x7FFFFF, 0x400000, 0x400001, 0x3FFFFF};
    for(uint32_t sign = 0; sign < 2; ++sign)
        for(uint32_t e = 0; e < 256; ++e)
            for(uint32_t lo : lows)
                for(uint32_t mid : {0u, 0x2000u, 0x4000u, 0x10000u, 0x7E000u})
                    v.push_back(hipdnnFloatFromBits(sign << 31 | e << 23 | ((mid | lo) & 0x7FFFFF)));
    uint32_t x = 12345;
    for(int i = 0; i < 200000; ++i)
    {
        x = x * 1664525u + 1013904223u;
        v.push_back(hipdnnFloatFromBits(x));
    }
    v.push_back(65504.f), v.push_back(65519.99f), v.push_back(65520.f), v.push_back(1e-8f), v.push_back(2.98e-8f);
    while(v.size() % 16 != 5) // a tail for every vector width
        v.push_back(1.f);
    return v;
}

void checkPath(ConvertIsa isa)
{
    for(DataType t : {DataType::HALF, DataType::BFLOAT16})
    {
        const char* tn = t == DataType::HALF ? "half" : "bfloat16";
        std::vector<uint16_t> all(65536 + 7);
        for(size_t i = 0; i < all.size(); ++i)
            all[i] = static_cast<uint16_t>(i);
        std::vector<float> got(all.size()), want(all.size());
        widenRow(isa, t, all.data(), got.data(), static_cast<int64_t>(all.size()));
        widenRow(ConvertIsa::Scalar, t, all.data(), want.data(), static_cast<int64_t>(all.size()));
        for(size_t i = 0; i < all.size(); ++i)
            check(hipdnnBitsOfFloat(got[i]) == hipdnnBitsOfFloat(want[i]), t == DataType::HALF ? "widen half" : "widen bfloat16",
                  all[i], hipdnnBitsOfFloat(got[i]), hipdnnBitsOfFloat(want[i]), isa);
        const std::vector<float> in = narrowInputs();
        std::vector<uint16_t> g(in.size()), w(in.size());
        narrowRow(isa, t, in.data(), g.data(), static_cast<int64_t>(in.size()));
        narrowRow(ConvertIsa::Scalar, t, in.data(), w.data(), static_cast<int64_t>(in.size()));
        for(size_t i = 0; i < in.size(); ++i)
            check(g[i] == w[i], t == DataType::HALF ? "narrow to half" : "narrow to bfloat16", hipdnnBitsOfFloat(in[i]), g[i], w[i], isa);
        // Independent known values: ties to even, overflow, subnormals, NaN.
        struct K
        {
            uint32_t in;
            uint16_t half, bf16;
        } known[] = {
            {0x3F801000u, 0x3C00, 0x3F80}, // 1 + 2^-11: half tie -> even (1.0)
            {0x3F803000u, 0x3C02, 0x3F80}, // 1 + 3*2^-11: half tie -> even (up)
            {0x3F808000u, 0x3C04, 0x3F80}, // 1 + 2^-8: bf16 tie -> even (1.0)
            {0x3F818000u, 0x3C0C, 0x3F82}, // 1 + 3*2^-8: bf16 tie -> even (up)
            {0x477FF000u, 0x7C00, 0x4780}, // 65520: half overflows to infinity
            {0x33800000u, 0x0000, 0x3380}, // 2^-24 / 1 * 2^0... 2^-24 exactly: smallest half subnormal
            {0x33C00000u, 0x0002, 0x33C0}, // 1.5 * 2^-24: tie -> even (2 units)
            {0x00000001u, 0x0000, 0x0000}, // float denormal
            {0x80000001u, 0x8000, 0x8000},
            {0x7F800001u, 0x7E00, 0x7FC0}, // signalling NaN: quiet, sign kept
            {0xFFC12345u, 0xFE00, 0xFFC1},
            {0xFF800000u, 0xFC00, 0xFF80},
        };
        known[5].half = 0x0001;
        for(const K& k : known)
        {
            const float f = hipdnnFloatFromBits(k.in);
            uint16_t o = 0;
            narrowRow(isa, t, &f, &o, 1);
            const uint16_t want1 = t == DataType::HALF ? k.half : k.bf16;
            check(o == want1, tn, k.in, o, want1, isa);
            // the same value inside a vector-wide run
            std::vector<float> run(37, f);
            std::vector<uint16_t> out(37);
            narrowRow(isa, t, run.data(), out.data(), 37);
            for(uint16_t v : out)
                check(v == want1, tn, k.in, v, want1, isa);
        }
        // A signalling half NaN widens with its payload and no quiet bit.
        const uint16_t snan[17] = {0x7C01, 0x7C01, 0x7C01, 0x7C01, 0x7C01, 0x7C01, 0x7C01, 0x7C01,
                                   0x7C01, 0x7C01, 0x7C01, 0x7C01, 0x7C01, 0x7C01, 0x7C01, 0x7C01, 0x7C01};
        float wide[17];
        widenRow(isa, DataType::HALF, snan, wide, 17);
        for(float v : wide)
            check(hipdnnBitsOfFloat(v) == 0x7F802000u, "widen signalling NaN", 0x7C01, hipdnnBitsOfFloat(v), 0x7F802000u, isa);
    }
}

double rate(ConvertIsa isa, bool toFloat)
{
    const int64_t n = 4 << 20;
    std::vector<uint16_t> h(1024, 0x3C01);
    std::vector<float> f(1024, 1.001f);
    double best = 1e300;
    for(int r = 0; r < 20; ++r)
    {
        const auto t0 = std::chrono::steady_clock::now();
        for(int64_t i = 0; i < n; i += 1024)
            toFloat ? widenRow(isa, DataType::HALF, h.data(), f.data(), 1024)
                    : narrowRow(isa, DataType::HALF, f.data(), h.data(), 1024);
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return static_cast<double>(n) / best * 1e-9;
}

} // namespace

int main(int argc, char** argv)
{
    const bool bench = argc > 1 && std::strcmp(argv[1], "--bench") == 0;
    std::printf("engine conversion path on this machine: %s\n", name(convertIsa()));
    // The selection honours the forcing variable and oneDNN's ISA cap.
    const char* force = std::getenv("HIPDNNGO_ONEDNN_CONVERT");
    const char* cap = std::getenv("ONEDNN_MAX_CPU_ISA");
    if((force && std::strcmp(force, "scalar") == 0 && convertIsa() != ConvertIsa::Scalar)
       || (((force && std::strcmp(force, "avx2") == 0) || (cap && std::strcmp(cap, "AVX2") == 0)) && convertIsa() == ConvertIsa::Avx512))
    {
        std::printf("FAIL: path %s ignores HIPDNNGO_ONEDNN_CONVERT / ONEDNN_MAX_CPU_ISA\n", name(convertIsa()));
        ++failures;
    }
    for(ConvertIsa isa : {ConvertIsa::Scalar, ConvertIsa::Avx2, ConvertIsa::Avx512})
    {
        if(!available(isa))
        {
            std::printf("%s: not available on this CPU, not checked\n", name(isa));
            continue;
        }
        if(bench)
        {
            std::printf("%s: widen half %.2f G/s, narrow to half %.2f G/s (one thread, 1024-element rows in cache)\n", name(isa),
                        rate(isa, true), rate(isa, false));
            continue;
        }
        const int before = failures;
        checkPath(isa);
        std::printf("%s: %s\n", name(isa), failures == before ? "bit-identical to the scalar path" : "MISMATCHES");
    }
    return failures == 0 ? 0 : 1;
}
