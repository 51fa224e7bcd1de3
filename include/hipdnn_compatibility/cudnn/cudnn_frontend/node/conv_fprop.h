// conv_fprop.h - Graph::conv_fprop: Y = X * W, lowered to a hipdnn convolution forward.
//
// Shape inference (as upstream): Y = [N, K, 1 + (in + pre + post - dil*(k-1) - 1) / stride ...],
// laid out channels-last when the user gives no strides.
#pragma once

#include "conv_common.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class ConvolutionNode : public NodeBase<Conv_fprop_attributes> {
    using A = Conv_fprop_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.math_mode).add(attributes.pre_padding).add(attributes.post_padding).add(attributes.stride).add(attributes.dilation);
    }

    const char*
    kind() const override {
        return "conv_fprop";
    }

    error_t
    validate_inputs() const override {
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::W, "W"));
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto X = get(attributes.inputs, A::input_names::X), W = get(attributes.inputs, A::input_names::W);
        auto Y = get(attributes.outputs, A::output_names::Y);
        CHECK_CUDNN_FRONTEND_ERROR(conv_detail::check_geometry(label(), attributes, X->get_dim().size()));
        if (W->get_dim().size() != X->get_dim().size())
            return {error_code_t::INVALID_VALUE, label() + ": X " + detail::dims_to_string(X->get_dim()) + " and W " +
                                                     detail::dims_to_string(W->get_dim()) +
                                                     " must have the same rank."};
        if (Y->get_dim().empty())
            Y->set_dim(conv_detail::forward_dims(X->get_dim(), W->get_dim(), attributes.pre_padding,
                                                 attributes.post_padding, attributes.stride, attributes.dilation));
        infer_nhwc(Y);
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        auto X = get(attributes.inputs, A::input_names::X), W = get(attributes.inputs, A::input_names::W);
        auto Y = get(attributes.outputs, A::output_names::Y);
        auto expected = conv_detail::forward_dims(X->get_dim(), W->get_dim(), attributes.pre_padding,
                                                  attributes.post_padding, attributes.stride, attributes.dilation);
        return conv_detail::check_shapes(label(), X->get_dim(), W->get_dim(), Y->get_dim(), expected);
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, op));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,
                                           get(attributes.inputs, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
                                           get(attributes.inputs, A::input_names::W)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y,
                                           get(attributes.outputs, A::output_names::Y)));
        CHECK_CUDNN_FRONTEND_ERROR(conv_detail::set_geometry(label(), op, attributes, comp));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
