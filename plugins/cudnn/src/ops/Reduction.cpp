// Reduction, all nine hipDNN modes: OpSpec t = x y.
#include "Ops.hpp"

namespace hipdnngo::cudnn
{

namespace
{

int reductionOp(fbs::ReductionMode m)
{
    using R = fbs::ReductionMode;
    switch(m)
    {
    case R::ADD: return CUDNN_REDUCE_TENSOR_ADD;
    case R::MUL: return CUDNN_REDUCE_TENSOR_MUL;
    case R::MIN_OP: return CUDNN_REDUCE_TENSOR_MIN;
    case R::MAX_OP: return CUDNN_REDUCE_TENSOR_MAX;
    case R::AMAX: return CUDNN_REDUCE_TENSOR_AMAX;
    case R::AVG: return CUDNN_REDUCE_TENSOR_AVG;
    case R::NORM1: return CUDNN_REDUCE_TENSOR_NORM1;
    case R::NORM2: return CUDNN_REDUCE_TENSOR_NORM2;
    case R::MUL_NO_ZEROS: return CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
    default: return -1;
    }
}

} // namespace

void readReduction(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_ReductionAttributes();
    op.kind = OpKind::Reduction;
    requireKnown(a->mode(), fbs::ReductionMode::MAX, "reduction mode");
    op.mode = reductionOp(a->mode());
    if(op.mode < 0)
        throw Unsupported("reduction mode " + std::string(fbs::EnumNameReductionMode(a->mode())) + " is not supported");
    op.t[0] = a->in_tensor_uid();
    op.t[1] = a->out_tensor_uid();
    state.model.summary += "reduction";
}

DescPtr buildReduction(const OpSpec& op, BuildContext& ctx)
{
    auto red = std::make_shared<Desc>(CUDNN_BACKEND_REDUCTION_DESCRIPTOR);
    cudnnReduceTensorOp_t rop = static_cast<cudnnReduceTensorOp_t>(op.mode);
    cudnnDataType_t ct = op.compute;
    red->set(CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &rop, "reduction");
    red->set(CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &ct, "reduction");
    red->finalize("reduction descriptor");
    ctx.keep(red);
    auto node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR);
    node->setDesc(CUDNN_ATTR_OPERATION_REDUCTION_XDESC, ctx.tensor(op.t[0]), "reduction");
    node->setDesc(CUDNN_ATTR_OPERATION_REDUCTION_YDESC, ctx.tensor(op.t[1]), "reduction");
    node->setDesc(CUDNN_ATTR_OPERATION_REDUCTION_DESC, *red, "reduction");
    node->finalize("reduction operation");
    return node;
}

} // namespace hipdnngo::cudnn
