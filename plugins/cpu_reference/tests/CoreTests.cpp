// Core infrastructure tests: half/bfloat16 conversion against an exhaustive nearest-value
// oracle, integer/boolean stores, broadcasting, the thread pool.
#include "TestSupport.hpp"

#include "core/Parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <map>

using namespace cpuref_test;
namespace cr = hipdnngo::cpu_reference;

namespace
{

// Independent decode of a 16-bit float with `mant` mantissa bits and `expBits` exponent bits,
// straight from the IEEE definition.
double decodeIeee(uint32_t bits, int expBits, int mant)
{
    const int bias = (1 << (expBits - 1)) - 1;
    const uint32_t sign = bits >> (expBits + mant);
    const uint32_t e = (bits >> mant) & ((1u << expBits) - 1);
    const uint32_t m = bits & ((1u << mant) - 1);
    double v;
    if(e == (1u << expBits) - 1)
        v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if(e == 0)
        v = std::ldexp(static_cast<double>(m), 1 - bias - mant);
    else
        v = std::ldexp(1.0 + std::ldexp(static_cast<double>(m), -mant), static_cast<int>(e) - bias);
    return sign ? -v : v;
}

// Nearest-value oracle: the sorted list of all finite non-negative values; rounding = pick the
// closest, ties to the one with an even bit pattern; beyond max + half an ulp: infinity.
struct NearestOracle
{
    std::vector<std::pair<double, uint32_t>> values; // value, bits (sign 0)
    double overflowAt;
    NearestOracle(int expBits, int mant)
    {
        const uint32_t maxBits = ((1u << expBits) - 1) << mant; // +inf pattern
        for(uint32_t b = 0; b < maxBits; ++b)
            values.push_back({decodeIeee(b, expBits, mant), b});
        const double maxFinite = values.back().first;
        const double ulp = maxFinite - values[values.size() - 2].first;
        overflowAt = maxFinite + ulp / 2; // ties at the top round to even = infinity
        (void)maxBits;
    }
    uint32_t round(double v, int expBits, int mant) const
    {
        const uint32_t signBit = std::signbit(v) ? 1u << (expBits + mant) : 0u;
        const double a = std::fabs(v);
        if(a >= overflowAt)
            return signBit | (((1u << expBits) - 1) << mant);
        auto it = std::lower_bound(values.begin(), values.end(), std::make_pair(a, 0u));
        if(it == values.end())
            --it;
        if(it != values.begin())
        {
            auto prev = it - 1;
            const double dPrev = a - prev->first, dNext = it->first - a;
            if(dPrev < dNext || (dPrev == dNext && (prev->second & 1u) == 0))
                it = prev;
        }
        return signBit | it->second;
    }
};

} // namespace

CPUREF_TEST(half_decode_matches_ieee_definition_for_all_patterns)
{
    for(uint32_t b = 0; b < 65536; ++b)
    {
        const double want = decodeIeee(b, 5, 10);
        const double got = hipdnnHalfToFloat(static_cast<uint16_t>(b));
        CPUREF_CHECK((std::isnan(want) && std::isnan(got)) || want == got, "half pattern " << b);
        if(!std::isnan(want))
            CPUREF_CHECK(hipdnnDoubleToHalf(want) == b, "half round trip of pattern " << b);
    }
}

CPUREF_TEST(bfloat16_decode_matches_ieee_definition_for_all_patterns)
{
    for(uint32_t b = 0; b < 65536; ++b)
    {
        const double want = decodeIeee(b, 8, 7);
        const double got = hipdnnBfloat16ToFloat(static_cast<uint16_t>(b));
        CPUREF_CHECK((std::isnan(want) && std::isnan(got)) || want == got, "bf16 pattern " << b);
        if(!std::isnan(want))
            CPUREF_CHECK(hipdnnDoubleToBfloat16(want) == b, "bf16 round trip of pattern " << b);
    }
}

CPUREF_TEST(half_and_bfloat16_rounding_is_nearest_even)
{
    const NearestOracle half(5, 10), bf16(8, 7);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> mant(-1.0, 1.0);
    std::uniform_int_distribution<int> exps(-30, 20), bfExps(-140, 130);
    for(int i = 0; i < 20000; ++i)
    {
        const double v = std::ldexp(mant(rng), exps(rng));
        CPUREF_CHECK(hipdnnDoubleToHalf(v) == half.round(v, 5, 10), "half rounding of " << v);
        const double w = std::ldexp(mant(rng), bfExps(rng));
        CPUREF_CHECK(hipdnnDoubleToBfloat16(w) == bf16.round(w, 8, 7), "bf16 rounding of " << w);
    }
    // Exact ties: midpoints between neighbours go to the even pattern.
    for(size_t k = 1; k + 1 < half.values.size(); k += 37)
    {
        const double mid = (half.values[k].first + half.values[k + 1].first) / 2;
        CPUREF_CHECK(hipdnnDoubleToHalf(mid) == half.round(mid, 5, 10), "half tie at " << mid);
    }
    for(size_t k = 1; k + 1 < bf16.values.size(); k += 41)
    {
        const double mid = (bf16.values[k].first + bf16.values[k + 1].first) / 2;
        CPUREF_CHECK(hipdnnDoubleToBfloat16(mid) == bf16.round(mid, 8, 7), "bf16 tie at " << mid);
    }
    CPUREF_CHECK(hipdnnDoubleToHalf(65520.0) == 0x7C00, "65520 rounds to +inf in half");
    CPUREF_CHECK(hipdnnDoubleToHalf(65519.0) == 0x7BFF, "65519 rounds to 65504 in half");
    CPUREF_CHECK((hipdnnDoubleToHalf(std::nan("")) & 0x7E00) == 0x7E00, "NaN stays NaN");
}

// The SDK's float -> bfloat16 fast path (on the bits) agrees with the one rounding from double,
// on every bfloat16 value, every midpoint (the ties) and random floats.
CPUREF_TEST(float_to_bfloat16_bit_path_matches_double_rounding)
{
    std::mt19937 rng(11);
    std::uniform_int_distribution<uint32_t> bits;
    for(uint32_t b = 0; b < 65536; ++b)
    {
        for(uint32_t low : {0u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu})
        {
            float f;
            const uint32_t u = (b << 16) | low;
            std::memcpy(&f, &u, sizeof f);
            if(std::isnan(f))
                CPUREF_CHECK(std::isnan(hipdnnBfloat16ToFloat(hipdnnFloatToBfloat16(f))), "bf16 NaN " << u);
            else
                CPUREF_CHECK(hipdnnFloatToBfloat16(f) == hipdnnDoubleToBfloat16(f), "bf16 of float bits " << u);
        }
    }
    for(int i = 0; i < 200000; ++i)
    {
        float f;
        const uint32_t u = bits(rng);
        std::memcpy(&f, &u, sizeof f);
        if(!std::isnan(f))
        {
            CPUREF_CHECK(hipdnnFloatToBfloat16(f) == hipdnnDoubleToBfloat16(f), "bf16 of float bits " << u);
            CPUREF_CHECK(hipdnnFloatToHalf(f) == hipdnnDoubleToHalf(f), "half of float bits " << u);
        }
    }
}

CPUREF_TEST(integer_and_boolean_stores_truncate_and_saturate)
{
    struct Case
    {
        DataType t;
        double in, want;
    };
    const Case cases[] = {
        {DataType::Int8, 3.7, 3},
        {DataType::Int8, -3.7, -3},
        {DataType::Int8, 1000, 127},
        {DataType::Int8, -1000, -128},
        {DataType::Uint8, -5, 0},
        {DataType::Uint8, 300, 255},
        {DataType::Int32, 1e12, 2147483647.0},
        {DataType::Int32, std::nan(""), 0},
        {DataType::Int64, 1e30, 9223372036854775807.0},
        {DataType::Int64, -1e30, -9223372036854775808.0},
        {DataType::Int64, 123456789012.0, 123456789012.0},
        {DataType::Boolean, 0.5, 1},
        {DataType::Boolean, 0.0, 0},
        {DataType::Boolean, -2, 1},
    };
    for(const Case& c : cases)
    {
        Tensor t(c.t, {1});
        t.set({0}, c.in);
        CPUREF_CHECK(t.at({0}) == c.want, cr::dataTypeName(c.t) << " store of " << c.in << " read " << t.at({0}));
    }
}

CPUREF_TEST(broadcast_follows_numpy_rules)
{
    Tensor a(DataType::Float, {3, 1}, Dims{5, 7});
    const int64_t target[3] = {2, 3, 4};
    const TensorView b = cr::broadcastTo(a.view, 3, target);
    CPUREF_CHECK(b.rank == 3 && b.strides[0] == 0 && b.strides[1] == 5 && b.strides[2] == 0,
                 "broadcast strides " << b.describe());
    const int64_t bad[2] = {3, 5};
    Tensor c(DataType::Float, {4});
    CPUREF_CHECK(!cr::isBroadcastableTo(c.view, 2, bad), "[4] must not broadcast to [3,5]");
    bool threw = false;
    try
    {
        cr::broadcastTo(c.view, 2, bad);
    }
    catch(const cr::KernelError&)
    {
        threw = true;
    }
    CPUREF_CHECK(threw, "broadcastTo must throw KernelError");
    Tensor d(DataType::Float, {1, 1, 4});
    const int64_t lower[2] = {3, 4};
    CPUREF_CHECK(cr::isBroadcastableTo(d.view, 2, lower), "leading 1s may be dropped");
}

CPUREF_TEST(parallel_for_covers_each_index_once_and_propagates_errors)
{
    CPUREF_CHECK(cr::threadCount() >= 1, "thread count");
    std::vector<std::atomic<int>> hits(100003);
    cr::parallelFor(static_cast<int64_t>(hits.size()), 7, [&](int64_t b, int64_t e) {
        for(int64_t i = b; i < e; ++i)
        {
            hits[static_cast<size_t>(i)]++;
            // Nested calls run inline and must also work.
            if(i == 5)
                cr::parallelFor(10, 1, [](int64_t, int64_t) {});
        }
    });
    for(size_t i = 0; i < hits.size(); ++i)
        CPUREF_CHECK(hits[i].load() == 1, "index " << i << " visited " << hits[i].load() << " times");
    bool threw = false;
    try
    {
        cr::parallelFor(1000, 1, [](int64_t b, int64_t) {
            if(b >= 0)
                throw cr::KernelError("boom");
        });
    }
    catch(const cr::KernelError& e)
    {
        threw = std::strcmp(e.what(), "boom") == 0;
    }
    CPUREF_CHECK(threw, "exception from a chunk must reach the caller");
}
