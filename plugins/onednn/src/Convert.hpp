// Convert: the engine's own vectorised loops for fp32 staging. Where oneDNN has no kernels for
// a 16-bit float type on this CPU (fp16 always in oneDNN 2.6; bf16 without AVX-512 BF16 / AMX),
// a plan runs the graph in fp32: inputs are widened into the workspace, outputs rounded back to
// nearest even (PlanBuilder::stageIn / stageOut). oneDNN 2.6's reorder does these conversions
// with its generic "simple:any" loop (on the 2-core VM ~60 ns an element for f16, and for bf16
// under an AVX2 cap), so the engine converts itself, through the SDK's one conversion
// (hipdnn_plugin_sdk/helpers/FloatFormats.h, branch-free, so the loops vectorise), compiled for
// AVX-512, AVX2 and baseline x86-64 (the CPU picks at load), OpenMP over chunks.
#pragma once

#include "Graph.hpp"

#include <cstdint>

namespace hipdnngo::onednn
{

// isStageable: HALF or BFLOAT16, the types fp32 staging handles.
bool isStageable(fbs::DataType t);

// widen: n elements of type `from` (HALF or BFLOAT16) at src into f32 at dst, exact. Thread-safe,
// allocation-free; parallel (OpenMP) above a few thousand elements.
void widen(fbs::DataType from, const void* src, float* dst, int64_t n);

// narrow: n f32 elements at src into type `to` (HALF or BFLOAT16) at dst, one rounding to nearest
// even (overflow to infinity, NaN kept).
void narrow(fbs::DataType to, const float* src, void* dst, int64_t n);

} // namespace hipdnngo::onednn
