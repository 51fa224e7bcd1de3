// Prepare function for Reduction.
#include "kernels/Reduction.hpp"
#include "plugin/OpRegistry.hpp"

namespace hipdnngo::cpu_reference
{

std::unique_ptr<PreparedNode> prepareReduction(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_ReductionAttributes();
    const int mode = static_cast<int>(a.mode());
    ctx.require(mode >= 1 && mode <= 9, "reduction mode " + std::to_string(mode) + " is not supported");
    const ReductionMode m = static_cast<ReductionMode>(mode); // mirrors the wire numbering
    const int in = ctx.input(a.in_tensor_uid(), "in");
    const int out = ctx.output(a.out_tensor_uid(), "out");
    ctx.check(checkReduction(ctx.shape(in), ctx.shape(out), m));
    return ctx.makeNode([=](const TensorBindings& t) { reduce(t.view(in), t.view(out), m); });
}

} // namespace hipdnngo::cpu_reference
