// Convert: the engine's own vectorised loops for fp32 staging. Where oneDNN has no kernels for
// a 16-bit float type on this CPU (fp16 always in oneDNN 2.6; bf16 without AVX-512 BF16 / AMX),
// a plan runs the graph in fp32: inputs are widened into the workspace, outputs rounded back to
// nearest even (PlanBuilder::stageIn / stageOut); the norm kernels widen and narrow their rows
// through the same row functions. oneDNN 2.6's reorder does these conversions with its generic
// "simple:any" loop (~60 ns an element on the 2-core VM), so the engine converts itself.
//
// Three paths, one result: the SDK's FloatFormats.h (scalar, the definition), AVX2 + F16C and
// AVX-512 (BW, VL) with the hardware fp16 conversions (vcvtph2ps / vcvtps2ph, round to nearest
// even) and integer bf16 rounding. The hardware differs from FloatFormats.h only in NaNs
// (vcvtph2ps quiets a signalling NaN, vcvtps2ph keeps payload bits); the vector paths mend
// those lanes, so every path is bit-identical to the scalar one (convert_test checks all 2^16
// 16-bit inputs and float edge cases on every path the CPU has).
#pragma once

#include "Graph.hpp"

#include <cstdint>

namespace hipdnngo::onednn
{

enum class ConvertIsa
{
    Scalar, // FloatFormats.h; compiled for baseline x86-64
    Avx2, // AVX2 + F16C
    Avx512, // AVX-512 F, BW, VL
};

// convertIsa: the path the engine uses, chosen once: the best the CPU has, capped by oneDNN's
// effective ISA (ONEDNN_MAX_CPU_ISA=AVX2 then emulates an AVX2-only machine) and by
// HIPDNNGO_ONEDNN_CONVERT=scalar|avx2 (tests: force a path on any machine).
ConvertIsa convertIsa();
// available: whether this CPU can run path `isa` (tests).
bool available(ConvertIsa isa);
const char* name(ConvertIsa isa);

// isStageable: HALF or BFLOAT16, the types fp32 staging handles.
bool isStageable(fbs::DataType t);

// widenRow / narrowRow: n elements, one thread, on the given path (or convertIsa()).
// Allocation-free. widen is exact; narrow rounds once to nearest even (overflow to infinity,
// NaN quiet with its sign).
void widenRow(ConvertIsa isa, fbs::DataType from, const uint16_t* src, float* dst, int64_t n);
void narrowRow(ConvertIsa isa, fbs::DataType to, const float* src, uint16_t* dst, int64_t n);

// widen / narrow: whole tensors on convertIsa(), parallel (OpenMP, the engine's threads) above
// a few thousand elements.
void widen(fbs::DataType from, const void* src, float* dst, int64_t n);
void narrow(fbs::DataType to, const float* src, void* dst, int64_t n);

} // namespace hipdnngo::onednn
