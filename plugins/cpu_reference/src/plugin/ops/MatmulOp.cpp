// Prepare function for Matmul.
#include "kernels/Matmul.hpp"
#include "plugin/OpRegistry.hpp"

namespace hipdnngo::cpu_reference
{

std::unique_ptr<PreparedNode> prepareMatmul(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_MatmulAttributes();
    const int ai = ctx.input(a.a_tensor_uid(), "a");
    const int bi = ctx.input(a.b_tensor_uid(), "b");
    const int ci = ctx.output(a.c_tensor_uid(), "c");
    ctx.requireFloating({ai, bi, ci});
    ctx.check(checkMatmul(ctx.shape(ai), ctx.shape(bi), ctx.shape(ci)));
    const MatmulParams p{ctx.accumulator()};
    return ctx.makeNode([=](const TensorBindings& t) { matmul(t.view(ai), t.view(bi), t.view(ci), p); });
}

} // namespace hipdnngo::cpu_reference
