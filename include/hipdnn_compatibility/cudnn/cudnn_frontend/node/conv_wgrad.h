// conv_wgrad.h - Graph::conv_wgrad: DW from DY and X, lowered to a hipdnn convolution
// backward-filter. As upstream, DW's dims must be set by the user (the filter size is not
// recoverable); strides default to channels-last.
#pragma once

#include "conv_common.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class WgradNode : public NodeBase<Conv_wgrad_attributes> {
    using A = Conv_wgrad_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.math_mode).add(attributes.pre_padding).add(attributes.post_padding).add(attributes.stride).add(attributes.dilation);
    }

    const char*
    kind() const override {
        return "conv_wgrad";
    }

    error_t
    validate_inputs() const override {
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::DY, "DY"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto X  = get(attributes.inputs, A::input_names::X);
        auto DW = get(attributes.outputs, A::output_names::DW);
        CHECK_CUDNN_FRONTEND_ERROR(conv_detail::check_geometry(label(), attributes, X->get_dim().size()));
        if (DW->get_dim().empty())
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    label() + ": For wgrad node, output dimension inferencing is not possible; set DW's dims."};
        infer_nhwc(DW);
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        auto DY = get(attributes.inputs, A::input_names::DY), X = get(attributes.inputs, A::input_names::X);
        auto DW = get(attributes.outputs, A::output_names::DW);
        if (DW->get_dim().size() != X->get_dim().size())
            return {error_code_t::INVALID_VALUE, label() + ": DW and X must have the same rank."};
        auto expected = conv_detail::forward_dims(X->get_dim(), DW->get_dim(), attributes.pre_padding,
                                                  attributes.post_padding, attributes.stride, attributes.dilation);
        return conv_detail::check_shapes(label(), X->get_dim(), DW->get_dim(), DY->get_dim(), expected);
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR, op));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X,
                                           get(attributes.inputs, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY,
                                           get(attributes.inputs, A::input_names::DY)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW,
                                           get(attributes.outputs, A::output_names::DW)));
        CHECK_CUDNN_FRONTEND_ERROR(conv_detail::set_geometry(label(), op, attributes, comp));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
