// CUDA C++ source generation for the HIPDNNGO_CUDA_RTC engine: one generator per pattern
// (Model.hpp), each writing one self-contained translation unit with `extern "C"` kernels.
//
// The source is HIP-clean by construction: no headers, only __global__ / __device__,
// threadIdx / blockIdx / blockDim / gridDim, __shared__, __syncthreads, __shfl_xor_sync,
// __float_as_uint / __uint_as_float and the float math functions (expf, erff, ...). fp16 and
// bf16 are carried as unsigned short and converted with bit operations (round to nearest even),
// so no cuda_fp16.h is needed. Arithmetic is fp32 throughout.
#pragma once

#include "Model.hpp"

#include <string>
#include <vector>

namespace hipdnngo::cuda_rtc
{

// Knobs choose among equivalent kernels (0 = the generator's default for the shape).
struct Knobs
{
    int vec = 0; // elements per vector load / store: 1, 2, 4, 8 (clamped to what alignment allows)
    int threads = 0; // norms: threads per row (32..1024); pointwise: threads per block
    int rowsPerBlock = 0; // norms: rows per block (threads * rows <= 1024)
    int twoPass = -1; // layernorm statistics: 1 two passes (mean, then squared deviations), 0 one pass (sum and sum
                      // of squares), 2 merged (each thread's mean and deviations, one reduction; x in registers)
    int blocksPerSm = 0; // norms: a grid of this many blocks per SM walking over the rows (0: by shape)
    int sms = 0; // not a knob: the device's multiprocessor count (0 unknown), for grids of persistent blocks
};

// One kernel argument, filled at execute in this order.
struct Arg
{
    enum Kind
    {
        Ptr, // the device pointer of tensor uid
        ConstF, // a float known at plan time (a constant tensor)
        HostF, // a float read at execute from the host pointer of a pass-by-value tensor uid
        Workspace, // the workspace pointer plus `uid` bytes
    } kind = Ptr;
    int64_t uid = 0; // Workspace: the byte offset
    float value = 0.0f;
    fbs::DataType hostType = fbs::DataType::FLOAT; // HostF: how to read the host value
};

struct Launch
{
    std::string kernel; // extern "C" name in the source
    unsigned grid = 1, block = 1;
    std::vector<Arg> args;
};

struct Generated
{
    std::string source;
    std::vector<Launch> launches; // run in order on the stream
    std::string config; // the effective knob values, for logs and plan descriptions
    size_t workspace = 0; // bytes of device workspace the launches use
};

// generate writes the source of a program with the given knobs (the effective values may
// differ from the requested ones where the shape or alignment does not allow them; `config`
// says what was used). Throws Unsupported for knob values out of range.
Generated generate(const Program& p, const Knobs& k);

// checkKnobs throws Unsupported ("knob ...") for a value out of range.
void checkKnobs(const Knobs& k);

// prelude is the helper code every generated source starts with (conversions, math helpers);
// exposed so that tests can run its conversions on the host.
const std::string& prelude();

} // namespace hipdnngo::cuda_rtc
