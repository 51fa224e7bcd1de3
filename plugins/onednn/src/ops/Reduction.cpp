// Reduction: sum, product, min, max, mean, L1 and L2 norms.
#include "../PlanBuilder.hpp"

namespace hipdnngo::onednn
{

void reductionInputs(const fbs::Node& n, const InputCounter& reads)
{
    reads(n.attributes_as_ReductionAttributes()->in_tensor_uid());
}

void PlanBuilder::reduction(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_ReductionAttributes();
    const Tensor& in = tensor(a.in_tensor_uid(), "in", name);
    const Tensor& out = tensor(a.out_tensor_uid(), "out", name);
    algorithm alg = algorithm::reduction_sum;
    float p = 0.f;
    switch(a.mode())
    {
    case fbs::ReductionMode::ADD: alg = algorithm::reduction_sum; break;
    case fbs::ReductionMode::MUL: alg = algorithm::reduction_mul; break;
    case fbs::ReductionMode::MIN_OP: alg = algorithm::reduction_min; break;
    case fbs::ReductionMode::MAX_OP: alg = algorithm::reduction_max; break;
    case fbs::ReductionMode::AVG: alg = algorithm::reduction_mean; break;
    case fbs::ReductionMode::NORM1: alg = algorithm::reduction_norm_lp_sum, p = 1.f; break;
    case fbs::ReductionMode::NORM2: alg = algorithm::reduction_norm_lp_sum, p = 2.f; break;
    default:
        throw Unsupported(name + ": reduction mode " + std::string(fbs::EnumNameReductionMode(a.mode()))
                          + " has no oneDNN equivalent");
    }
    if(in.rank() != out.rank())
        throw Unsupported(name + ": reduction input and output ranks differ");
    for(size_t d = 0; d < in.dims.size(); ++d)
        if(out.dims[d] != 1 && out.dims[d] != in.dims[d])
            throw Unsupported(name + ": reduction output dims must be 1 or the input's");
    api::Built b;
    try
    {
        b = api::reduction(alg, mdOf(in), mdOf(out), p, build_);
    }
    catch(const dnnl::error& e)
    {
        throw Unsupported(name + ": oneDNN has no reduction for these shapes/types (" + e.what() + ")");
    }
    addStep(b, {Arg{DNNL_ARG_SRC, mdOf(in), input(in, name)}, Arg{DNNL_ARG_DST, mdOf(out), output(out, name)}}, "reduction");
}

} // namespace hipdnngo::onednn
