// conv_dgrad.h - Graph::conv_dgrad: DX from DY and W, lowered to a hipdnn convolution
// backward-data. Upstream cannot infer DX's dims (the forward map is not invertible), so the
// user must set them; strides default to channels-last.
#pragma once

#include "conv_common.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class DgradNode : public NodeBase<Conv_dgrad_attributes> {
    using A = Conv_dgrad_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.math_mode).add(attributes.pre_padding).add(attributes.post_padding).add(attributes.stride).add(attributes.dilation);
    }

    const char*
    kind() const override {
        return "conv_dgrad";
    }

    error_t
    validate_inputs() const override {
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::DY, "DY"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::W, "W"));
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto DY = get(attributes.inputs, A::input_names::DY);
        auto DX = get(attributes.outputs, A::output_names::DX);
        CHECK_CUDNN_FRONTEND_ERROR(conv_detail::check_geometry(label(), attributes, DY->get_dim().size()));
        if (DX->get_dim().empty())
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    label() + ": For dgrad node, output dimension inferencing is not possible; set DX's dims."};
        infer_nhwc(DX);
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        auto DY = get(attributes.inputs, A::input_names::DY), W = get(attributes.inputs, A::input_names::W);
        auto DX = get(attributes.outputs, A::output_names::DX);
        if (DX->get_dim().size() != DY->get_dim().size())
            return {error_code_t::INVALID_VALUE, label() + ": DX and DY must have the same rank."};
        auto expected = conv_detail::forward_dims(DX->get_dim(), W->get_dim(), attributes.pre_padding,
                                                  attributes.post_padding, attributes.stride, attributes.dilation);
        return conv_detail::check_shapes(label(), DX->get_dim(), W->get_dim(), DY->get_dim(), expected);
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR, op));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY,
                                           get(attributes.inputs, A::input_names::DY)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,
                                           get(attributes.inputs, A::input_names::W)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX,
                                           get(attributes.outputs, A::output_names::DX)));
        CHECK_CUDNN_FRONTEND_ERROR(conv_detail::set_geometry(label(), op, attributes, comp));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
