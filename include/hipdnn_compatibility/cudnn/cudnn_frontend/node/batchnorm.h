// batchnorm.h - Graph::batchnorm (training forward): Y, the batch MEAN and INV_VARIANCE and,
// with previous running statistics and a momentum, the next running statistics; lowered to a
// hipdnn batch-norm operation. Peer statistics (multi-GPU) are refused by name.
//
// Shape inference (as upstream): Y like X; per-channel outputs [1, C, 1...], channels-last.
#pragma once

#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class BatchNormNode : public NodeBase<Batchnorm_attributes> {
    using A = Batchnorm_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.peer_stats.size());
    }

    const char*
    kind() const override {
        return "batchnorm";
    }

    error_t
    validate_inputs() const override {
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::SCALE, "SCALE"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::BIAS, "BIAS"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::EPSILON, "EPSILON (set_epsilon)"));
        if (!attributes.peer_stats.empty())
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": set_peer_stats is not supported by hipDNN (no multi-device statistics)."};
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto X = get(attributes.inputs, A::input_names::X);
        infer_like(get(attributes.outputs, A::output_names::Y), X);
        for (auto o : {A::output_names::MEAN, A::output_names::INV_VARIANCE, A::output_names::NEXT_RUNNING_MEAN,
                       A::output_names::NEXT_RUNNING_VAR})
            infer_per_channel(get(attributes.outputs, o), X->get_dim());
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
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT, op));
        auto const& in  = attributes.inputs;
        auto const& out = attributes.outputs;
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT, get(in, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT, get(in, A::input_names::SCALE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT, get(in, A::input_names::BIAS)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT, get(in, A::input_names::EPSILON)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_MEAN_EXT, get(in, A::input_names::PREV_RUNNING_MEAN)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_VARIANCE_EXT, get(in, A::input_names::PREV_RUNNING_VAR)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_MOMENTUM_EXT, get(in, A::input_names::MOMENTUM)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT, get(out, A::output_names::Y)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_MEAN_EXT, get(out, A::output_names::MEAN)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_INV_VARIANCE_EXT, get(out, A::output_names::INV_VARIANCE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_MEAN_EXT, get(out, A::output_names::NEXT_RUNNING_MEAN)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_NEXT_RUNNING_VARIANCE_EXT, get(out, A::output_names::NEXT_RUNNING_VAR)));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT, comp, label()));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
