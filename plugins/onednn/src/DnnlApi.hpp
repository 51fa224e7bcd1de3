// DnnlApi: every call whose form depends on the oneDNN major version (op descriptors and
// primitive descriptors, post-op appends) lives behind these functions. This file and
// DnnlApi.cpp are written against oneDNN 2.x (Debian 12: 2.6.3); a 3.x port changes only them.
//
// Each builder creates the primitive descriptor (which throws dnnl::error when oneDNN has no
// implementation) and, when `build` is set, the primitive itself. Every primitive uses
// user-managed scratchpad so that its scratch memory lives in the plan's workspace.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <string>

namespace hipdnngo::onednn::api
{

using md = dnnl::memory::desc;

// cpuEngine: the process-wide CPU engine (created on first use, thread-safe).
const dnnl::engine& cpuEngine();

// versionString: "2.6.3 (cpu runtime OpenMP)".
std::string versionString();

// nativeKernelsFor: whether the engine hands data type t to oneDNN's own kernels on this
// machine, as oneDNN will really dispatch (its effective ISA, which ONEDNN_MAX_CPU_ISA caps, not
// cpuid alone): bf16 needs an effective ISA with AVX-512 BF16 (avx512_core_bf16 or
// avx512_core_amx; oneDNN 2.6 also emulates bf16 on plain AVX-512, more slowly than fp32
// staging, so that does not count), f16 oneDNN kernels that are not reference code (oneDNN 2.6
// has none on CPUs). Also probes that oneDNN creates a small bf16 / f16 eltwise. Decided once.
bool nativeKernelsFor(dnnl::memory::data_type t);

// isaName: oneDNN's effective CPU ISA ("avx512_core_amx", "avx2", ...).
std::string isaName();

struct Built
{
    dnnl::primitive prim; // empty unless built
    md src, weights, bias, dst;
    md diffSrc, diffWeights, diffDst;
    md mean, variance;
    md workspace; // primitive workspace (pooling max fwd -> bwd); zero-size when none
    md scratchpad;
    std::string impl; // implementation name oneDNN picked ("brgconv:avx512_core")
};

struct ConvGeometry
{
    dnnl::memory::dims strides, dilates, padL, padR; // dilates in oneDNN form (dilation - 1)
};

// The attr passed in already carries post-ops; builders add scratchpad_mode::user.
Built convForward(const md& src, const md& weights, const md* bias, const md& dst, const ConvGeometry& g,
                  dnnl::primitive_attr attr, bool build);
Built convBackwardData(const md& diffSrc, const md& weights, const md& diffDst, const ConvGeometry& g, bool build);
Built convBackwardWeights(const md& src, const md& diffWeights, const md& diffDst, const ConvGeometry& g, bool build);
Built matmul(const md& a, const md& b, const md& c, dnnl::primitive_attr attr, bool build);
Built eltwiseForward(dnnl::algorithm alg, float alpha, float beta, const md& data, dnnl::primitive_attr attr, bool build);
Built eltwiseBackward(dnnl::algorithm alg, float alpha, float beta, const md& data, const md& diff, bool build);
Built binary(dnnl::algorithm alg, const md& src0, const md& src1, const md& dst, dnnl::primitive_attr attr, bool build);
Built reorder(const md& from, const md& to, bool build);

// Batch normalization. Inference: global stats, scale and shift. Training: computes mean and
// variance (outputs), scale and shift. Backward: diff_src, diff_scale, diff_shift.
Built batchnormInference(const md& data, float epsilon, bool build);
Built batchnormTraining(const md& data, float epsilon, bool build);
Built batchnormBackward(const md& data, const md& diff, float epsilon, bool build);

// Layer normalization over the last dim of `data` (stat md: data dims without the last one).
Built layernormForward(const md& data, const md& stat, float epsilon, bool training, bool build);
Built layernormBackward(const md& data, const md& diff, const md& stat, float epsilon, bool build);

// Pooling. alg: pooling_max / pooling_avg_include_padding / pooling_avg_exclude_padding.
Built poolingForward(dnnl::algorithm alg, const md& src, const md& dst, const dnnl::memory::dims& strides,
                     const dnnl::memory::dims& kernel, const dnnl::memory::dims& padL, const dnnl::memory::dims& padR,
                     bool training, bool build);

// Pooling backward (diff_dst -> diff_src). Max pooling reads a workspace (Built::workspace:
// per output, the position of the maximum within its window; see PoolIndex.hpp).
Built poolingBackward(dnnl::algorithm alg, const md& diffSrc, const md& diffDst, const dnnl::memory::dims& strides,
                      const dnnl::memory::dims& kernel, const dnnl::memory::dims& padL, const dnnl::memory::dims& padR,
                      bool build);

// Softmax along `axis`, in place on `data` allowed.
Built softmaxForward(const md& data, int axis, bool build);

// Reduction of src to dst (dims 1 where reduced); p for the norm_lp algorithms.
Built reduction(dnnl::algorithm alg, const md& src, const md& dst, float p, bool build);

void appendEltwise(dnnl::post_ops& ops, dnnl::algorithm alg, float alpha, float beta);
void appendBinary(dnnl::post_ops& ops, dnnl::algorithm alg, const md& src1);

} // namespace hipdnngo::onednn::api
