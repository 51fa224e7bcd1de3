// dbn.h - Graph::batchnorm_backward: DX, DSCALE and DBIAS from DY, X, SCALE and the saved
// MEAN / INV_VARIANCE (set_saved_mean_and_inv_variance); lowered to hipdnn's batch-norm
// backward. Shape inference (as upstream): DX like X, channels-last; DSCALE/DBIAS per channel.
#pragma once

#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class DBNNode : public NodeBase<Batchnorm_backward_attributes> {
    using A = Batchnorm_backward_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.peer_stats.size());
    }

    const char*
    kind() const override {
        return "batchnorm_backward";
    }

    error_t
    validate_inputs() const override {
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::DY, "DY"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::SCALE, "SCALE"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::MEAN, "MEAN (set_saved_mean_and_inv_variance)"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::INV_VARIANCE, "INV_VARIANCE (set_saved_mean_and_inv_variance)"));
        if (!attributes.peer_stats.empty())
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": set_peer_stats is not supported by hipDNN (no multi-device statistics)."};
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto X  = get(attributes.inputs, A::input_names::X);
        auto DX = get(attributes.outputs, A::output_names::DX);
        if (DX->get_dim().empty()) DX->set_dim(X->get_dim());
        infer_nhwc(DX);
        infer_per_channel(get(attributes.outputs, A::output_names::DSCALE), X->get_dim());
        infer_per_channel(get(attributes.outputs, A::output_names::DBIAS), X->get_dim());
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        CHECK_CUDNN_FRONTEND_ERROR(same_dims_or_error(label(), get(attributes.inputs, A::input_names::X),
                                                      get(attributes.inputs, A::input_names::DY)));
        return same_dims_or_error(label(), get(attributes.inputs, A::input_names::X),
                                  get(attributes.outputs, A::output_names::DX));
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT, op));
        auto const& in  = attributes.inputs;
        auto const& out = attributes.outputs;
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT, get(in, A::input_names::DY)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT, get(in, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, get(in, A::input_names::SCALE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT, get(in, A::input_names::MEAN)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT, get(in, A::input_names::INV_VARIANCE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT, get(out, A::output_names::DX)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, get(out, A::output_names::DSCALE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, get(out, A::output_names::DBIAS)));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT, comp, label()));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
