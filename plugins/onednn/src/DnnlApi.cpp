// oneDNN 2.x forms of the builders declared in DnnlApi.hpp.
#include "DnnlApi.hpp"

#include <oneapi/dnnl/dnnl_version.h>

namespace hipdnngo::onednn::api
{

using namespace dnnl;

const engine& cpuEngine()
{
    static const engine eng(engine::kind::cpu, 0);
    return eng;
}

std::string versionString()
{
    const dnnl_version_t* v = dnnl_version();
    std::string s = std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
    s += v->cpu_runtime == DNNL_RUNTIME_OMP ? " (cpu runtime OpenMP)" : " (cpu runtime other)";
    return s;
}

namespace
{

// probeImpl: the implementation oneDNN picks for a small eltwise in type t ("" when none).
std::string probeImpl(memory::data_type type)
{
    try
    {
        const memory::desc d({16}, type, memory::format_tag::a);
        const eltwise_forward::primitive_desc pd(
            eltwise_forward::desc(prop_kind::forward_inference, algorithm::eltwise_relu, d, 0.f), cpuEngine());
        return pd.impl_info_str();
    }
    catch(const dnnl::error&)
    {
        return "";
    }
}

bool hasIsa(cpu_isa isa)
{
    const auto have = static_cast<unsigned>(get_effective_cpu_isa()), want = static_cast<unsigned>(isa);
    return (have & want) == want; // oneDNN's ISA values are cumulative bit sets
}

} // namespace

bool nativeKernelsFor(memory::data_type t)
{
    static const bool bf16 = hasIsa(cpu_isa::avx512_core_bf16) && !probeImpl(memory::data_type::bf16).empty();
    static const bool f16 = [] {
        const std::string impl = probeImpl(memory::data_type::f16);
        return !impl.empty() && impl.find("ref") == std::string::npos;
    }();
    switch(t)
    {
    case memory::data_type::bf16: return bf16;
    case memory::data_type::f16: return f16;
    default: return true;
    }
}

std::string isaName()
{
    switch(get_effective_cpu_isa())
    {
    case cpu_isa::sse41: return "sse41";
    case cpu_isa::avx: return "avx";
    case cpu_isa::avx2: return "avx2";
    case cpu_isa::avx512_mic: return "avx512_mic";
    case cpu_isa::avx512_mic_4ops: return "avx512_mic_4ops";
    case cpu_isa::avx512_core: return "avx512_core";
    case cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
    case cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
    case cpu_isa::avx512_core_amx: return "avx512_core_amx";
    case cpu_isa::avx2_vnni: return "avx2_vnni";
    default: return "isa " + std::to_string(static_cast<int>(get_effective_cpu_isa()));
    }
}

namespace
{

primitive_attr withUserScratchpad(primitive_attr attr)
{
    attr.set_scratchpad_mode(scratchpad_mode::user);
    return attr;
}

template <typename Prim, typename Pd>
void finish(Built& b, const Pd& pd, bool build)
{
    b.scratchpad = pd.scratchpad_desc();
    b.impl = pd.impl_info_str();
    if(build)
        b.prim = Prim(pd);
}

} // namespace

Built convForward(const md& src, const md& weights, const md* bias, const md& dst, const ConvGeometry& g, primitive_attr attr,
                  bool build)
{
    const convolution_forward::desc d =
        bias ? convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct, src, weights, *bias, dst,
                                         g.strides, g.dilates, g.padL, g.padR)
             : convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct, src, weights, dst,
                                         g.strides, g.dilates, g.padL, g.padR);
    const convolution_forward::primitive_desc pd(d, withUserScratchpad(attr), cpuEngine());
    Built b;
    b.src = pd.src_desc();
    b.weights = pd.weights_desc();
    b.dst = pd.dst_desc();
    if(bias)
        b.bias = pd.bias_desc();
    finish<convolution_forward>(b, pd, build);
    return b;
}

namespace
{

convolution_forward::primitive_desc convHint(const md& src, const md& weights, const md& dst, const ConvGeometry& g)
{
    const convolution_forward::desc d(prop_kind::forward_training, algorithm::convolution_direct, src, weights, dst, g.strides,
                                      g.dilates, g.padL, g.padR);
    return convolution_forward::primitive_desc(d, cpuEngine());
}

} // namespace

Built convBackwardData(const md& diffSrc, const md& weights, const md& diffDst, const ConvGeometry& g, bool build)
{
    const auto hint = convHint(diffSrc, weights, diffDst, g);
    const convolution_backward_data::desc d(algorithm::convolution_direct, diffSrc, weights, diffDst, g.strides, g.dilates,
                                            g.padL, g.padR);
    const convolution_backward_data::primitive_desc pd(d, withUserScratchpad({}), cpuEngine(), hint);
    Built b;
    b.diffSrc = pd.diff_src_desc();
    b.weights = pd.weights_desc();
    b.diffDst = pd.diff_dst_desc();
    finish<convolution_backward_data>(b, pd, build);
    return b;
}

Built convBackwardWeights(const md& src, const md& diffWeights, const md& diffDst, const ConvGeometry& g, bool build)
{
    const auto hint = convHint(src, diffWeights, diffDst, g);
    const convolution_backward_weights::desc d(algorithm::convolution_direct, src, diffWeights, diffDst, g.strides, g.dilates,
                                               g.padL, g.padR);
    const convolution_backward_weights::primitive_desc pd(d, withUserScratchpad({}), cpuEngine(), hint);
    Built b;
    b.src = pd.src_desc();
    b.diffWeights = pd.diff_weights_desc();
    b.diffDst = pd.diff_dst_desc();
    finish<convolution_backward_weights>(b, pd, build);
    return b;
}

Built matmul(const md& a, const md& b, const md& c, primitive_attr attr, bool build)
{
    const dnnl::matmul::desc d(a, b, c);
    const dnnl::matmul::primitive_desc pd(d, withUserScratchpad(attr), cpuEngine());
    Built r;
    r.src = pd.src_desc();
    r.weights = pd.weights_desc();
    r.dst = pd.dst_desc();
    finish<dnnl::matmul>(r, pd, build);
    return r;
}

Built eltwiseForward(algorithm alg, float alpha, float beta, const md& data, primitive_attr attr, bool build)
{
    const eltwise_forward::desc d(prop_kind::forward_inference, alg, data, alpha, beta);
    const eltwise_forward::primitive_desc pd(d, withUserScratchpad(attr), cpuEngine());
    Built b;
    b.src = pd.src_desc();
    b.dst = pd.dst_desc();
    finish<eltwise_forward>(b, pd, build);
    return b;
}

Built eltwiseBackward(algorithm alg, float alpha, float beta, const md& data, const md& diff, bool build)
{
    const eltwise_forward::primitive_desc hint(eltwise_forward::desc(prop_kind::forward_training, alg, data, alpha, beta),
                                               cpuEngine());
    const eltwise_backward::desc d(alg, diff, data, alpha, beta);
    const eltwise_backward::primitive_desc pd(d, withUserScratchpad({}), cpuEngine(), hint);
    Built b;
    b.src = pd.src_desc();
    b.diffSrc = pd.diff_src_desc();
    b.diffDst = pd.diff_dst_desc();
    finish<eltwise_backward>(b, pd, build);
    return b;
}

Built binary(algorithm alg, const md& src0, const md& src1, const md& dst, primitive_attr attr, bool build)
{
    const dnnl::binary::desc d(alg, src0, src1, dst);
    const dnnl::binary::primitive_desc pd(d, withUserScratchpad(attr), cpuEngine());
    Built b;
    b.src = pd.src_desc(0);
    b.dst = pd.dst_desc();
    finish<dnnl::binary>(b, pd, build);
    return b;
}

Built reorder(const md& from, const md& to, bool build)
{
    const dnnl::reorder::primitive_desc pd(cpuEngine(), from, cpuEngine(), to, withUserScratchpad({}));
    Built b;
    b.src = from;
    b.dst = to;
    b.scratchpad = pd.scratchpad_desc();
    b.impl = pd.impl_info_str();
    if(build)
        b.prim = dnnl::reorder(pd);
    return b;
}

Built batchnormInference(const md& data, float epsilon, bool build)
{
    const batch_normalization_forward::desc d(prop_kind::forward_inference, data, epsilon,
                                              normalization_flags::use_global_stats | normalization_flags::use_scale
                                                  | normalization_flags::use_shift);
    const batch_normalization_forward::primitive_desc pd(d, withUserScratchpad({}), cpuEngine());
    Built b;
    b.src = pd.src_desc();
    b.dst = pd.dst_desc();
    b.mean = pd.mean_desc();
    b.variance = pd.variance_desc();
    finish<batch_normalization_forward>(b, pd, build);
    return b;
}

Built batchnormTraining(const md& data, float epsilon, bool build)
{
    const batch_normalization_forward::desc d(prop_kind::forward_training, data, epsilon,
                                              normalization_flags::use_scale | normalization_flags::use_shift);
    const batch_normalization_forward::primitive_desc pd(d, withUserScratchpad({}), cpuEngine());
    Built b;
    b.src = pd.src_desc();
    b.dst = pd.dst_desc();
    b.mean = pd.mean_desc();
    b.variance = pd.variance_desc();
    b.workspace = pd.workspace_desc();
    finish<batch_normalization_forward>(b, pd, build);
    return b;
}

Built batchnormBackward(const md& data, const md& diff, float epsilon, bool build)
{
    const normalization_flags flags = normalization_flags::use_scale | normalization_flags::use_shift;
    const batch_normalization_forward::primitive_desc hint(
        batch_normalization_forward::desc(prop_kind::forward_training, data, epsilon, flags), cpuEngine());
    const batch_normalization_backward::desc d(prop_kind::backward, diff, data, epsilon, flags);
    const batch_normalization_backward::primitive_desc pd(d, withUserScratchpad({}), cpuEngine(), hint);
    Built b;
    b.src = pd.src_desc();
    b.diffSrc = pd.diff_src_desc();
    b.diffDst = pd.diff_dst_desc();
    b.mean = pd.mean_desc();
    b.variance = pd.variance_desc();
    b.workspace = pd.workspace_desc();
    finish<batch_normalization_backward>(b, pd, build);
    return b;
}

Built layernormForward(const md& data, const md& stat, float epsilon, bool training, bool build)
{
    const layer_normalization_forward::desc d(training ? prop_kind::forward_training : prop_kind::forward_inference, data, stat,
                                              epsilon, normalization_flags::use_scale | normalization_flags::use_shift);
    const layer_normalization_forward::primitive_desc pd(d, withUserScratchpad({}), cpuEngine());
    Built b;
    b.src = pd.src_desc();
    b.dst = pd.dst_desc();
    b.mean = pd.mean_desc();
    b.variance = pd.variance_desc();
    finish<layer_normalization_forward>(b, pd, build);
    return b;
}

Built layernormBackward(const md& data, const md& diff, const md& stat, float epsilon, bool build)
{
    const normalization_flags flags = normalization_flags::use_scale | normalization_flags::use_shift;
    const layer_normalization_forward::primitive_desc hint(
        layer_normalization_forward::desc(prop_kind::forward_training, data, stat, epsilon, flags), cpuEngine());
    const layer_normalization_backward::desc d(prop_kind::backward, diff, data, stat, epsilon, flags);
    const layer_normalization_backward::primitive_desc pd(d, withUserScratchpad({}), cpuEngine(), hint);
    Built b;
    b.src = pd.src_desc();
    b.diffSrc = pd.diff_src_desc();
    b.diffDst = pd.diff_dst_desc();
    b.mean = pd.mean_desc();
    b.variance = pd.variance_desc();
    finish<layer_normalization_backward>(b, pd, build);
    return b;
}

Built poolingForward(algorithm alg, const md& src, const md& dst, const memory::dims& strides, const memory::dims& kernel,
                     const memory::dims& padL, const memory::dims& padR, bool training, bool build)
{
    const pooling_forward::desc d(training ? prop_kind::forward_training : prop_kind::forward_inference, alg, src, dst, strides,
                                  kernel, padL, padR);
    const pooling_forward::primitive_desc pd(d, withUserScratchpad({}), cpuEngine());
    Built b;
    b.src = pd.src_desc();
    b.dst = pd.dst_desc();
    b.workspace = pd.workspace_desc();
    finish<pooling_forward>(b, pd, build);
    return b;
}

Built poolingBackward(algorithm alg, const md& diffSrc, const md& diffDst, const memory::dims& strides,
                      const memory::dims& kernel, const memory::dims& padL, const memory::dims& padR, bool build)
{
    const pooling_forward::primitive_desc hint(
        pooling_forward::desc(prop_kind::forward_training, alg, diffSrc, diffDst, strides, kernel, padL, padR), cpuEngine());
    const pooling_backward::desc d(alg, diffSrc, diffDst, strides, kernel, padL, padR);
    const pooling_backward::primitive_desc pd(d, withUserScratchpad({}), cpuEngine(), hint);
    Built b;
    b.diffSrc = pd.diff_src_desc();
    b.diffDst = pd.diff_dst_desc();
    b.workspace = pd.workspace_desc();
    finish<pooling_backward>(b, pd, build);
    return b;
}

Built softmaxForward(const md& data, int axis, bool build)
{
    const softmax_forward::desc d(prop_kind::forward_inference, data, axis);
    const softmax_forward::primitive_desc pd(d, withUserScratchpad({}), cpuEngine());
    Built b;
    b.src = pd.src_desc();
    b.dst = pd.dst_desc();
    finish<softmax_forward>(b, pd, build);
    return b;
}

Built reduction(algorithm alg, const md& src, const md& dst, float p, bool build)
{
    const dnnl::reduction::desc d(alg, src, dst, p, 0.f);
    const dnnl::reduction::primitive_desc pd(d, withUserScratchpad({}), cpuEngine());
    Built b;
    b.src = pd.src_desc();
    b.dst = pd.dst_desc();
    finish<dnnl::reduction>(b, pd, build);
    return b;
}

void appendEltwise(post_ops& ops, algorithm alg, float alpha, float beta) { ops.append_eltwise(1.f, alg, alpha, beta); }

void appendBinary(post_ops& ops, algorithm alg, const md& src1) { ops.append_binary(alg, src1); }

} // namespace hipdnngo::onednn::api
