// layernorm.h - Graph::layernorm: Y = (X - mean) * inv_std * SCALE + BIAS over the dimensions
// the scale spans; in TRAINING also MEAN and INV_VARIANCE. Lowered to hipdnn's layer norm.
//
// Shape inference (as upstream): Y like X; SCALE/BIAS default to X with batch 1; statistics are
// X with the normalized dimensions set to 1; all in X's stride order.
#pragma once

#include "norm_common.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class LayerNormNode : public NodeBase<Layernorm_attributes> {
    using A = Layernorm_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.forward_phase);
    }

    const char*
    kind() const override {
        return "layernorm";
    }

    error_t
    validate_inputs() const override {
        hipdnnNormFwdPhase_t p;
        CHECK_CUDNN_FRONTEND_ERROR(norm_detail::phase(label(), attributes.forward_phase, p));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::SCALE, "SCALE"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::BIAS, "BIAS"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::EPSILON, "EPSILON (set_epsilon)"));
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto X = get(attributes.inputs, A::input_names::X);
        infer_like(get(attributes.outputs, A::output_names::Y), X);
        auto scale = get(attributes.inputs, A::input_names::SCALE);
        norm_detail::infer_scale(scale, X);
        norm_detail::infer_scale(get(attributes.inputs, A::input_names::BIAS), X);
        norm_detail::infer_stats(get(attributes.outputs, A::output_names::MEAN), X, scale);
        norm_detail::infer_stats(get(attributes.outputs, A::output_names::INV_VARIANCE), X, scale);
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        auto X = get(attributes.inputs, A::input_names::X);
        CHECK_CUDNN_FRONTEND_ERROR(same_dims_or_error(label(), X, get(attributes.outputs, A::output_names::Y)));
        auto s = get(attributes.inputs, A::input_names::SCALE);
        if (s->get_dim().size() != X->get_dim().size())
            return {error_code_t::INVALID_VALUE, label() + ": SCALE " + detail::dims_to_string(s->get_dim()) +
                                                     " must have X's rank " + detail::dims_to_string(X->get_dim()) + "."};
        return {error_code_t::OK, ""};
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        hipdnnNormFwdPhase_t p;
        CHECK_CUDNN_FRONTEND_ERROR(norm_detail::phase(label(), attributes.forward_phase, p));
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_LAYERNORM_DESCRIPTOR_EXT, op));
        auto const& in  = attributes.inputs;
        auto const& out = attributes.outputs;
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_X_EXT, get(in, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_SCALE_EXT, get(in, A::input_names::SCALE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_BIAS_EXT, get(in, A::input_names::BIAS)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_EPSILON_EXT, get(in, A::input_names::EPSILON)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_Y_EXT, get(out, A::output_names::Y)));
        if (attributes.forward_phase == NormFwdPhase_t::TRAINING) {
            CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_MEAN_EXT, get(out, A::output_names::MEAN)));
            CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_INV_VARIANCE_EXT, get(out, A::output_names::INV_VARIANCE)));
        }
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_OPERATION_LAYERNORM_FWD_PHASE_EXT, HIPDNN_TYPE_NORM_FWD_PHASE, 1, &p, label()));
        int64_t nd = norm_detail::normalized_dim_count(get(in, A::input_names::SCALE)->get_dim());
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_OPERATION_LAYERNORM_NORMALIZED_DIM_COUNT_EXT, HIPDNN_TYPE_INT64, 1, &nd, label()));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_LAYERNORM_COMP_TYPE_EXT, comp, label()));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
