// rmsnorm.h - Graph::rmsnorm (Y = X * inv_rms * SCALE [+ BIAS], INV_VARIANCE in TRAINING) and
// Graph::rmsnorm_backward (DX, DSCALE [, DBIAS]); lowered to hipdnn's RMS norm forward and
// backward. Shape inference as upstream: Y like X; INV_VARIANCE X with the normalized
// dimensions at 1; backward outputs like X / X with batch 1, channels-last.
#pragma once

#include "norm_common.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class RMSNormNode : public NodeBase<Rmsnorm_attributes> {
    using A = Rmsnorm_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.forward_phase);
    }

    const char*
    kind() const override {
        return "rmsnorm";
    }

    error_t
    validate_inputs() const override {
        hipdnnNormFwdPhase_t p;
        CHECK_CUDNN_FRONTEND_ERROR(norm_detail::phase(label(), attributes.forward_phase, p));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::SCALE, "SCALE"));
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
        norm_detail::infer_stats(get(attributes.outputs, A::output_names::INV_VARIANCE), X, scale);
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        return same_dims_or_error(label(), get(attributes.inputs, A::input_names::X),
                                  get(attributes.outputs, A::output_names::Y));
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        hipdnnNormFwdPhase_t p;
        CHECK_CUDNN_FRONTEND_ERROR(norm_detail::phase(label(), attributes.forward_phase, p));
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_RMSNORM_DESCRIPTOR_EXT, op));
        auto const& in  = attributes.inputs;
        auto const& out = attributes.outputs;
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_X_EXT, get(in, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_SCALE_EXT, get(in, A::input_names::SCALE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_BIAS_EXT, get(in, A::input_names::BIAS)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_EPSILON_EXT, get(in, A::input_names::EPSILON)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_Y_EXT, get(out, A::output_names::Y)));
        if (attributes.forward_phase == NormFwdPhase_t::TRAINING)
            CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_INV_RMS_EXT, get(out, A::output_names::INV_VARIANCE)));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_OPERATION_RMSNORM_FWD_PHASE_EXT, HIPDNN_TYPE_NORM_FWD_PHASE, 1, &p, label()));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_RMSNORM_COMP_TYPE_EXT, comp, label()));
        return finish(L, op);
    }
};

class DRMSNormNode : public NodeBase<Rmsnorm_backward_attributes> {
    using A = Rmsnorm_backward_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.use_dbias);
    }

    const char*
    kind() const override {
        return "rmsnorm_backward";
    }

    error_t
    validate_inputs() const override {
        if (!attributes.use_dbias.has_value())
            return {error_code_t::ATTRIBUTE_NOT_SET, label() + ": has_dbias not set."};
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::DY, "DY"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::SCALE, "SCALE"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::INV_VARIANCE, "INV_VARIANCE"));
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto X = get(attributes.inputs, A::input_names::X);
        for (auto t : {get(attributes.inputs, A::input_names::DY), get(attributes.outputs, A::output_names::DX)}) {
            if (t->get_dim().empty()) t->set_dim(X->get_dim());
            infer_nhwc(t);
        }
        auto sb = X->get_dim();
        sb[0]   = 1;
        for (auto o : {A::output_names::DSCALE, A::output_names::DBIAS}) {
            auto t = get(attributes.outputs, o);
            if (!t) continue;
            if (t->get_dim().empty()) t->set_dim(sb);
            infer_nhwc(t);
        }
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        auto X = get(attributes.inputs, A::input_names::X);
        CHECK_CUDNN_FRONTEND_ERROR(same_dims_or_error(label(), X, get(attributes.inputs, A::input_names::DY)));
        return same_dims_or_error(label(), X, get(attributes.outputs, A::output_names::DX));
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_RMSNORM_BACKWARD_DESCRIPTOR_EXT, op));
        auto const& in  = attributes.inputs;
        auto const& out = attributes.outputs;
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DY_EXT, get(in, A::input_names::DY)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_X_EXT, get(in, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_SCALE_EXT, get(in, A::input_names::SCALE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_INV_RMS_EXT, get(in, A::input_names::INV_VARIANCE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DX_EXT, get(out, A::output_names::DX)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DSCALE_EXT, get(out, A::output_names::DSCALE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DBIAS_EXT, get(out, A::output_names::DBIAS)));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_RMSNORM_BACKWARD_COMP_TYPE_EXT, comp, label()));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
