// Pointwise, all 47 hipDNN modes: OpSpec t = in0 in1 in2 out (backward modes: dy x - dx).
#include "Ops.hpp"

#include <cmath>

namespace hipdnngo::cudnn
{

namespace
{

int pointwiseMode(fbs::PointwiseMode m)
{
    using P = fbs::PointwiseMode;
    switch(m)
    {
    case P::ABS: return CUDNN_POINTWISE_ABS;
    case P::ADD: return CUDNN_POINTWISE_ADD;
    case P::ADD_SQUARE: return CUDNN_POINTWISE_ADD_SQUARE;
    case P::BINARY_SELECT: return CUDNN_POINTWISE_BINARY_SELECT;
    case P::CEIL: return CUDNN_POINTWISE_CEIL;
    case P::CMP_EQ: return CUDNN_POINTWISE_CMP_EQ;
    case P::CMP_GE: return CUDNN_POINTWISE_CMP_GE;
    case P::CMP_GT: return CUDNN_POINTWISE_CMP_GT;
    case P::CMP_LE: return CUDNN_POINTWISE_CMP_LE;
    case P::CMP_LT: return CUDNN_POINTWISE_CMP_LT;
    case P::CMP_NEQ: return CUDNN_POINTWISE_CMP_NEQ;
    case P::DIV: return CUDNN_POINTWISE_DIV;
    case P::ELU_BWD: return CUDNN_POINTWISE_ELU_BWD;
    case P::ELU_FWD: return CUDNN_POINTWISE_ELU_FWD;
    case P::ERF: return CUDNN_POINTWISE_ERF;
    case P::EXP: return CUDNN_POINTWISE_EXP;
    case P::FLOOR: return CUDNN_POINTWISE_FLOOR;
    case P::GELU_APPROX_TANH_BWD: return CUDNN_POINTWISE_GELU_APPROX_TANH_BWD;
    case P::GELU_APPROX_TANH_FWD: return CUDNN_POINTWISE_GELU_APPROX_TANH_FWD;
    case P::GELU_BWD: return CUDNN_POINTWISE_GELU_BWD;
    case P::GELU_FWD: return CUDNN_POINTWISE_GELU_FWD;
    case P::GEN_INDEX: return CUDNN_POINTWISE_GEN_INDEX;
    case P::IDENTITY: return CUDNN_POINTWISE_IDENTITY;
    case P::LOG: return CUDNN_POINTWISE_LOG;
    case P::LOGICAL_AND: return CUDNN_POINTWISE_LOGICAL_AND;
    case P::LOGICAL_NOT: return CUDNN_POINTWISE_LOGICAL_NOT;
    case P::LOGICAL_OR: return CUDNN_POINTWISE_LOGICAL_OR;
    case P::MAX_OP: return CUDNN_POINTWISE_MAX;
    case P::MIN_OP: return CUDNN_POINTWISE_MIN;
    case P::MUL: return CUDNN_POINTWISE_MUL;
    case P::NEG: return CUDNN_POINTWISE_NEG;
    case P::RECIPROCAL: return CUDNN_POINTWISE_RECIPROCAL;
    case P::RELU_BWD: return CUDNN_POINTWISE_RELU_BWD;
    case P::RELU_FWD: return CUDNN_POINTWISE_RELU_FWD;
    case P::RSQRT: return CUDNN_POINTWISE_RSQRT;
    case P::SIGMOID_BWD: return CUDNN_POINTWISE_SIGMOID_BWD;
    case P::SIGMOID_FWD: return CUDNN_POINTWISE_SIGMOID_FWD;
    case P::SIN: return CUDNN_POINTWISE_SIN;
    case P::SOFTPLUS_BWD: return CUDNN_POINTWISE_SOFTPLUS_BWD;
    case P::SOFTPLUS_FWD: return CUDNN_POINTWISE_SOFTPLUS_FWD;
    case P::SQRT: return CUDNN_POINTWISE_SQRT;
    case P::SUB: return CUDNN_POINTWISE_SUB;
    case P::SWISH_BWD: return CUDNN_POINTWISE_SWISH_BWD;
    case P::SWISH_FWD: return CUDNN_POINTWISE_SWISH_FWD;
    case P::TAN: return CUDNN_POINTWISE_TAN;
    case P::TANH_BWD: return CUDNN_POINTWISE_TANH_BWD;
    case P::TANH_FWD: return CUDNN_POINTWISE_TANH_FWD;
    default: return -1;
    }
}

bool isBackwardMode(int m) { return m >= 200 && m < 300; }
int arityOf(int m)
{
    if(m == CUDNN_POINTWISE_BINARY_SELECT)
        return 3;
    // cuDNN numbers its binary modes 0-9, but SQRT (4) among them is unary.
    if((m >= 0 && m <= 9 && m != CUDNN_POINTWISE_SQRT) || isBackwardMode(m) || (m >= 300 && m <= 401))
        return 2;
    return 1;
}

} // namespace

void readPointwise(const fbs::Node& node, OpSpec& op, ReadState& state)
{
    const auto* a = node.attributes_as_PointwiseAttributes();
    op.kind = OpKind::Pointwise;
    requireKnown(a->operation(), fbs::PointwiseMode::MAX, "pointwise mode");
    op.mode = pointwiseMode(a->operation());
    if(op.mode < 0)
        throw Unsupported("pointwise mode " + std::string(fbs::EnumNamePointwiseMode(a->operation()))
                          + " has no cuDNN equivalent");
    const int arity = arityOf(op.mode);
    op.t[0] = a->in_0_tensor_uid();
    op.t[1] = a->in_1_tensor_uid().has_value() ? a->in_1_tensor_uid().value() : -1;
    op.t[2] = a->in_2_tensor_uid().has_value() ? a->in_2_tensor_uid().value() : -1;
    op.t[3] = a->out_0_tensor_uid();
    if((arity >= 2 && op.t[1] < 0) || (arity >= 3 && op.t[2] < 0))
        throw Unsupported("pointwise " + std::string(fbs::EnumNamePointwiseMode(a->operation())) + " lacks an input");
    if(arity < 3)
        op.t[2] = -1;
    if(arity < 2)
        op.t[1] = -1;
    op.reluLower = floatOrUnset(a->relu_lower_clip());
    op.reluUpper = floatOrUnset(a->relu_upper_clip());
    op.reluSlope = floatOrUnset(a->relu_lower_clip_slope());
    op.swishBeta = floatOrUnset(a->swish_beta());
    op.eluAlpha = floatOrUnset(a->elu_alpha());
    op.softplusBeta = floatOrUnset(a->softplus_beta());
    if(op.mode == CUDNN_POINTWISE_GEN_INDEX)
    {
        if(!a->axis_tensor_uid().has_value())
            throw Unsupported("gen_index without an axis");
        op.axis = a->axis_tensor_uid().value();
    }
    state.model.summary += std::string("pointwise(") + fbs::EnumNamePointwiseMode(a->operation()) + ")";
}

namespace
{

DescPtr pointwiseDescriptor(const OpSpec& op)
{
    auto desc = std::make_shared<Desc>(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
    cudnnPointwiseMode_t mode = static_cast<cudnnPointwiseMode_t>(op.mode);
    cudnnDataType_t ct = op.compute;
    desc->set(CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode, "pointwise");
    desc->set(CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &ct, "pointwise");
    // An unset scalar (NaN) is left to cuDNN's default; a double-precision op takes doubles.
    auto setIfGiven = [&](cudnnBackendAttributeName_t name, float v) {
        if(std::isnan(v))
            return;
        if(ct == CUDNN_DATA_DOUBLE)
        {
            const double dv = v;
            desc->set(name, CUDNN_TYPE_DOUBLE, 1, &dv, "pointwise");
        }
        else
            desc->set(name, CUDNN_TYPE_FLOAT, 1, &v, "pointwise");
    };
    setIfGiven(CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, op.reluLower);
    setIfGiven(CUDNN_ATTR_POINTWISE_RELU_UPPER_CLIP, op.reluUpper);
    setIfGiven(CUDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE, op.reluSlope);
    setIfGiven(CUDNN_ATTR_POINTWISE_SWISH_BETA, op.swishBeta);
    setIfGiven(CUDNN_ATTR_POINTWISE_ELU_ALPHA, op.eluAlpha);
    setIfGiven(CUDNN_ATTR_POINTWISE_SOFTPLUS_BETA, op.softplusBeta);
    if(op.mode == CUDNN_POINTWISE_GEN_INDEX)
        desc->setInt(CUDNN_ATTR_POINTWISE_AXIS, op.axis, "pointwise");
    desc->finalize("pointwise descriptor");
    return desc;
}

} // namespace

DescPtr buildPointwise(const OpSpec& op, BuildContext& ctx)
{
    DescPtr desc = pointwiseDescriptor(op);
    ctx.keep(desc);
    auto node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
    node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, *desc, "pointwise");
    if(isBackwardMode(op.mode))
    {
        node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_DYDESC, ctx.tensor(op.t[0]), "pointwise");
        node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_XDESC, ctx.tensor(op.t[1]), "pointwise");
        node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_DXDESC, ctx.tensor(op.t[3]), "pointwise");
    }
    else
    {
        node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_XDESC, ctx.tensor(op.t[0]), "pointwise");
        if(op.t[1] >= 0)
            node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_BDESC, ctx.tensor(op.t[1]), "pointwise");
        if(op.t[2] >= 0)
            node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_TDESC, ctx.tensor(op.t[2]), "pointwise");
        node->setDesc(CUDNN_ATTR_OPERATION_POINTWISE_YDESC, ctx.tensor(op.t[3]), "pointwise");
    }
    node->finalize("pointwise operation");
    return node;
}

} // namespace hipdnngo::cudnn
