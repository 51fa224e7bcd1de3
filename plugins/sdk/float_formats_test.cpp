// FloatFormats.h: the branch-free hot conversions against exact oracles.
//   hipdnnHalfToFloat:  all 65536 patterns against the value the format defines, computed in
//                       double with ldexp (infinities and NaN payloads by their bits).
//   hipdnnFloatToHalf:  against hipdnnDoubleToHalf((double)f), the one rounding from the exact
//                       value: every float whose magnitude lies in [2^-26, 2^17) with its low
//                       13 bits (the bits binary16 drops from a normal) each of a set that
//                       covers below / at / above every tie, both signs; every float of the
//                       subnormal-to-normal boundary and of the overflow boundary exhaustively;
//                       zeros, infinities, NaNs and a strided sweep over all 2^32 patterns.
// Exit status 1 on the first few mismatches (printed).
#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>

namespace
{

int failures = 0;

void checkEncode(uint32_t bits)
{
    const float f = hipdnnFloatFromBits(bits);
    const uint16_t got = hipdnnFloatToHalf(f), want = hipdnnDoubleToHalf(static_cast<double>(f));
    if(got != want && ++failures <= 10)
        std::printf("hipdnnFloatToHalf(bits 0x%08x = %.9g) = 0x%04x, want 0x%04x\n", bits, static_cast<double>(f), got, want);
}

void checkDecode(uint32_t h)
{
    const uint32_t sign = h >> 15, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
    const uint32_t got = hipdnnBitsOfFloat(hipdnnHalfToFloat(static_cast<uint16_t>(h)));
    uint32_t want;
    if(exponent == 0x1Fu)
        want = (sign << 31) | 0x7F800000u | (mantissa << 13);
    else
    {
        const double v = exponent == 0 ? std::ldexp(static_cast<double>(mantissa), -24)
                                       : std::ldexp(1.0 + mantissa / 1024.0, static_cast<int>(exponent) - 15);
        want = hipdnnBitsOfFloat(static_cast<float>(sign ? -v : v));
    }
    if(got != want && ++failures <= 10)
        std::printf("hipdnnHalfToFloat(0x%04x) = bits 0x%08x, want 0x%08x\n", h, got, want);
}

} // namespace

int main()
{
    for(uint32_t h = 0; h < 0x10000u; ++h)
        checkDecode(h);

    static const uint32_t low[] = {0x0000, 0x0001, 0x0002, 0x07FF, 0x0800, 0x0FFE, 0x0FFF, 0x1000,
                                   0x1001, 0x1002, 0x17FF, 0x1800, 0x1FFE, 0x1FFF, 0x0F0F, 0x1234};
    for(uint32_t sign : {0u, 0x80000000u})
    {
        for(uint32_t high = 0x32800000u >> 13; high < (0x48000000u >> 13); ++high) // [2^-26, 2^17)
            for(uint32_t l : low)
                checkEncode(sign | (high << 13) | l);
        for(uint32_t a = 0x38000000u; a < 0x39000000u; ++a) // around 2^-14, the smallest normal
            checkEncode(sign | a);
        for(uint32_t a = 0x477F0000u; a < 0x47810000u; ++a) // around 65520, the overflow threshold
            checkEncode(sign | a);
        for(uint32_t a = 0x33000000u - 0x10000u; a < 0x33000000u + 0x10000u; ++a) // around 2^-25
            checkEncode(sign | a);
        for(uint32_t a : {0x00000000u, 0x00000001u, 0x007FFFFFu, 0x7F800000u, 0x7F800001u, 0x7FC00000u, 0x7FFFFFFFu})
            checkEncode(sign | a);
    }
    for(uint64_t b = 0; b <= 0xFFFFFFFFu; b += 4099)
        checkEncode(static_cast<uint32_t>(b));

    if(failures > 0)
    {
        std::printf("%d mismatches\n", failures);
        return 1;
    }
    std::printf("FloatFormats: decode exhaustive, encode checked against the double path: ok\n");
    return 0;
}
