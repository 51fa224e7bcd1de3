/* Conversions of hdtool.h that hipdnn-run fills and reads buffers with: fp8 E4M3 / E5M2 against
 * their definitions (every code decodes and re-encodes to itself; limits, subnormals, ties to
 * even, saturation and overflow). */
#include "hdtool.h"

static int failures;

static void expect(int ok, const char* what, double v, unsigned got, unsigned want)
{
    if(!ok)
    {
        fprintf(stderr, "FAIL %s: %g -> 0x%02X, want 0x%02X\n", what, v, got, want);
        ++failures;
    }
}

static void encodes(double v, int e5m2, unsigned want, const char* what)
{
    unsigned got = hd_double_to_fp8(v, e5m2);
    expect(got == want, what, v, got, want);
}

int main(void)
{
    for(int e5m2 = 0; e5m2 <= 1; ++e5m2)
    {
        for(unsigned code = 0; code < 256; ++code)
        {
            double v = hd_fp8_to_double((uint8_t)code, e5m2);
            if(isnan(v))
                continue;
            encodes(v, e5m2, code, e5m2 ? "e5m2 round trip" : "e4m3 round trip");
        }
    }
    /* E4M3: largest 448 (0x7E), all-ones NaN, smallest subnormal 2^-9, saturation. */
    expect(hd_fp8_to_double(0x7E, 0) == 448.0, "e4m3 max", 448.0, 0x7E, 0x7E);
    expect(isnan(hd_fp8_to_double(0x7F, 0)), "e4m3 NaN", 0, 0x7F, 0x7F);
    expect(hd_fp8_to_double(0x01, 0) == 0.001953125, "e4m3 min subnormal", 0.001953125, 1, 1);
    encodes(1000.0, 0, 0x7E, "e4m3 saturates");
    encodes(-1000.0, 0, 0xFE, "e4m3 saturates (negative)");
    encodes(1.0625, 0, 0x38, "e4m3 tie to even (down to 1.0)");
    encodes(1.1875, 0, 0x3A, "e4m3 tie to even (up to 1.25)");
    encodes(0.0009765625, 0, 0x00, "e4m3 half the smallest subnormal ties to zero");
    /* E5M2: largest 57344 (0x7B), infinity 0x7C, smallest subnormal 2^-16. */
    expect(hd_fp8_to_double(0x7B, 1) == 57344.0, "e5m2 max", 57344.0, 0x7B, 0x7B);
    expect(isinf(hd_fp8_to_double(0x7C, 1)), "e5m2 inf", 0, 0x7C, 0x7C);
    expect(hd_fp8_to_double(0x01, 1) == 1.52587890625e-5, "e5m2 min subnormal", 1.52587890625e-5, 1, 1);
    encodes(1e6, 1, 0x7C, "e5m2 overflows to infinity");
    encodes(1.125, 1, 0x3C, "e5m2 tie to even (down to 1.0)");
    if(failures == 0)
        printf("PASS hdtool conversions\n");
    return failures ? 1 : 0;
}
