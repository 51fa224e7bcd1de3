// Matmul (batched): OpSpec t = a b c; m/n/kOverride are the GEMM size override tensors SDPA's
// lowering sets from sequence lengths.
#include "Ops.hpp"

namespace hipdnngo::cudnn
{

void readMatmul(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_MatmulAttributes();
    op.kind = OpKind::Matmul;
    op.t = {a->a_tensor_uid(), a->b_tensor_uid(), a->c_tensor_uid(), -1, -1, -1, -1};
    state.model.summary += "matmul";
}

DescPtr buildMatmul(const OpSpec& op, BuildContext& ctx)
{
    auto mm = std::make_shared<Desc>(CUDNN_BACKEND_MATMUL_DESCRIPTOR);
    cudnnDataType_t ct = op.compute;
    mm->set(CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &ct, "matmul");
    mm->finalize("matmul descriptor");
    ctx.keep(mm);
    auto node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR);
    node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_ADESC, ctx.tensor(op.t[0]), "matmul");
    node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_BDESC, ctx.tensor(op.t[1]), "matmul");
    node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_CDESC, ctx.tensor(op.t[2]), "matmul");
    node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_DESC, *mm, "matmul");
    if(op.mOverride >= 0)
        node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_GEMM_M_OVERRIDE_DESC, ctx.tensor(op.mOverride), "matmul");
    if(op.nOverride >= 0)
        node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_GEMM_N_OVERRIDE_DESC, ctx.tensor(op.nOverride), "matmul");
    if(op.kOverride >= 0)
        node->setDesc(CUDNN_ATTR_OPERATION_MATMUL_GEMM_K_OVERRIDE_DESC, ctx.tensor(op.kOverride), "matmul");
    node->finalize("matmul operation");
    return node;
}

} // namespace hipdnngo::cudnn
