package floatfmt

import (
	"math"
	"testing"
)

// Every binary16 and bfloat16 pattern decodes and re-encodes to itself (NaNs stay NaN), and
// values between neighbours round to nearest with ties to even, from the double, not via float.
func TestRoundTripsEveryPattern(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := HalfToFloat(uint16(b))
		if math.IsNaN(float64(h)) {
			if !math.IsNaN(float64(HalfToFloat(Half(float64(h))))) {
				t.Fatalf("half NaN %#x did not stay NaN", b)
			}
		} else if got := Half(float64(h)); got != uint16(b) {
			t.Fatalf("half %#x -> %v -> %#x", b, h, got)
		}
		f := Bfloat16ToFloat(uint16(b))
		if math.IsNaN(float64(f)) {
			continue
		}
		if got := Bfloat16(float64(f)); got != uint16(b) {
			t.Fatalf("bf16 %#x -> %v -> %#x", b, f, got)
		}
	}
}

func TestRounding(t *testing.T) {
	cases := []struct {
		v    float64
		half uint16
	}{
		{1 + 1.0/2048, 0x3c00},         // tie between 1 and its successor: to even (1)
		{1 + 3.0/2048, 0x3c02},         // tie: to even (up)
		{65519, 0x7bff},                // below the halfway point to 65536: largest finite
		{65520, 0x7c00},                // the halfway point rounds to infinity
		{math.Ldexp(1, -25), 0x0000},   // half the smallest subnormal: tie to even zero
		{math.Ldexp(1.5, -25), 0x0001}, // above it: the smallest subnormal
		{-math.Ldexp(1, -14), 0x8400},  // smallest normal, negative
		{1 + 1.0/2048 + 1e-12, 0x3c01}, // just above a tie: up (float would lose the 1e-12)
		{math.Inf(-1), 0xfc00},
	}
	for _, c := range cases {
		if got := Half(c.v); got != c.half {
			t.Errorf("Half(%v) = %#x, want %#x", c.v, got, c.half)
		}
	}
	if Bfloat16(1.00390625) != 0x3f80 || Bfloat16(1.01171875) != 0x3f82 {
		t.Errorf("bf16 ties: %#x %#x", Bfloat16(1.00390625), Bfloat16(1.01171875))
	}
}
