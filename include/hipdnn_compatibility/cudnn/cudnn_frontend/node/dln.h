// dln.h - Graph::layernorm_backward: DX, DSCALE, DBIAS from DY, X, SCALE and the saved MEAN /
// INV_VARIANCE (set_saved_mean_and_inv_variance); lowered to hipdnn's layer-norm backward.
// Shape inference (as upstream): DX like X, DSCALE/DBIAS X with batch 1, channels-last.
#pragma once

#include "norm_common.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class DLNNode : public NodeBase<Layernorm_backward_attributes> {
    using A = Layernorm_backward_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type);
    }

    const char*
    kind() const override {
        return "layernorm_backward";
    }

    error_t
    validate_inputs() const override {
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::DY, "DY"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::SCALE, "SCALE"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::MEAN, "MEAN (set_saved_mean_and_inv_variance)"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::INV_VARIANCE, "INV_VARIANCE (set_saved_mean_and_inv_variance)"));
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
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_LAYERNORM_BACKWARD_DESCRIPTOR_EXT, op));
        auto const& in  = attributes.inputs;
        auto const& out = attributes.outputs;
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DY_EXT, get(in, A::input_names::DY)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_X_EXT, get(in, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_SCALE_EXT, get(in, A::input_names::SCALE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_MEAN_EXT, get(in, A::input_names::MEAN)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_INV_VARIANCE_EXT, get(in, A::input_names::INV_VARIANCE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_EPSILON_EXT, get(in, A::input_names::EPSILON)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DX_EXT, get(out, A::output_names::DX)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DSCALE_EXT, get(out, A::output_names::DSCALE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DBIAS_EXT, get(out, A::output_names::DBIAS)));
        int64_t nd = norm_detail::normalized_dim_count(get(in, A::input_names::SCALE)->get_dim());
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_LAYERNORM_BACKWARD_NORMALIZED_DIM_COUNT_EXT, HIPDNN_TYPE_INT64, 1, &nd, label()));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_LAYERNORM_BACKWARD_COMP_TYPE_EXT, comp, label()));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
