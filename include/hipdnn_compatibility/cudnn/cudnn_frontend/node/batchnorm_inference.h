// batchnorm_inference.h - Graph::batchnorm_inference: Y = (X - MEAN) * INV_VARIANCE * SCALE +
// BIAS with saved statistics, lowered to hipdnn's batch-norm inference. Y is shaped like X.
#pragma once

#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class BatchNormInferenceNode : public NodeBase<Batchnorm_inference_attributes> {
    using A = Batchnorm_inference_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type);
    }

    const char*
    kind() const override {
        return "batchnorm_inference";
    }

    error_t
    validate_inputs() const override {
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::MEAN, "MEAN"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::INV_VARIANCE, "INV_VARIANCE"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::SCALE, "SCALE"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::BIAS, "BIAS"));
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        infer_like(get(attributes.outputs, A::output_names::Y), get(attributes.inputs, A::input_names::X));
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
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT, op));
        auto const& in = attributes.inputs;
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_X_EXT, get(in, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_MEAN_EXT, get(in, A::input_names::MEAN)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT, get(in, A::input_names::INV_VARIANCE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_SCALE_EXT, get(in, A::input_names::SCALE)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_BIAS_EXT, get(in, A::input_names::BIAS)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_Y_EXT, get(attributes.outputs, A::output_names::Y)));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_BATCHNORM_INF_COMP_TYPE_EXT, comp, label()));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
