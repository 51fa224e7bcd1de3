// pointwise.h - Graph::pointwise (one, two or three inputs): OUT_0 = mode(IN_0[, IN_1[, IN_2]]),
// lowered to a hipdnn pointwise operation. Every mode hipDNN has runs; MOD, POW and COS are
// modes hipDNN lacks and are refused by name.
//
// Shape inference (as upstream): OUT_0 is the broadcast of the inputs; it takes the strides of
// an input of the same shape, else (when virtual) IN_0's stride order.
#pragma once

#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class PointwiseNode : public NodeBase<Pointwise_attributes> {
    using A = Pointwise_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.mode).add(attributes.axis).add(attributes.relu_lower_clip).add(attributes.relu_upper_clip).add(attributes.relu_lower_clip_slope).add(attributes.swish_beta).add(attributes.elu_alpha).add(attributes.softplus_beta);
    }

    const char*
    kind() const override {
        return "pointwise";
    }

    error_t
    validate_inputs() const override {
        if (attributes.mode == PointwiseMode_t::NOT_SET)
            return {error_code_t::ATTRIBUTE_NOT_SET, label() + ": pointwise mode not set."};
        hipdnnPointwiseMode_t m;
        if (!detail::convert(attributes.mode, m))
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": pointwise mode " + detail::name(attributes.mode) + " is not supported by hipDNN."};
        int const arity = detail::pointwise_arity(attributes.mode);
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::IN_0, "IN_0"));
        if (arity >= 2) CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::IN_1, "IN_1"));
        if (arity >= 3) CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::IN_2, "IN_2"));
        // An operand past the mode's arity is lowered only if it repeats IN_0 (as in
        // pointwise(x, x, IDENTITY), which cuDNN accepts); any other extra tensor would be
        // ignored, so it is refused.
        A::input_names const extra[] = {A::input_names::IN_1, A::input_names::IN_2};
        for (int i = arity < 1 ? 1 : arity; i < 3; ++i) {
            auto t = get(attributes.inputs, extra[i - 1]);
            if (t && t != get(attributes.inputs, A::input_names::IN_0))
                return {error_code_t::INVALID_VALUE, label() + ": pointwise mode " + detail::name(attributes.mode) +
                                                         " takes " + std::to_string(arity) + " input(s); IN_" +
                                                         std::to_string(i) + " '" + t->get_name() +
                                                         "' would be unused."};
        }
        if (attributes.mode == PointwiseMode_t::GEN_INDEX && !attributes.axis.has_value())
            return {error_code_t::ATTRIBUTE_NOT_SET, label() + ": GEN_INDEX needs set_axis."};
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto out = get(attributes.outputs, A::output_names::OUT_0);
        A::input_names const order[] = {A::input_names::IN_0, A::input_names::IN_1, A::input_names::IN_2};
        auto dims = out->get_dim();
        if (dims.empty()) {
            std::vector<std::vector<int64_t>> shapes;
            for (auto n : order)
                if (auto t = get(attributes.inputs, n)) shapes.push_back(t->get_dim());
            auto err = detail::compute_broadcast_shape(shapes, dims);
            if (err.is_bad()) return {err.code, label() + ": " + err.err_msg};
            out->set_dim(dims);
        }
        if (out->get_stride().empty()) {
            for (auto n : order) {
                auto t = get(attributes.inputs, n);
                if (t && t->get_dim() == out->get_dim()) {
                    out->set_stride(t->get_stride());
                    break;
                }
            }
            if (out->get_stride().empty() && out->get_is_virtual())
                infer_preserving(out, get(attributes.inputs, A::input_names::IN_0)->get_stride());
            if (out->get_stride().empty())
                return {error_code_t::SHAPE_DEDUCTION_FAILED,
                        label() + ": Pointwise output strides could not be computed; set OUT_0's strides."};
        }
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        // Every input must broadcast to the output.
        auto out = get(attributes.outputs, A::output_names::OUT_0);
        for (auto const& kv : attributes.inputs) {
            if (!kv.second) continue;
            std::vector<int64_t> common;
            auto err = detail::compute_broadcast_shape({kv.second->get_dim(), out->get_dim()}, common);
            if (err.is_bad() || common != out->get_dim())
                return {error_code_t::INVALID_VALUE, label() + ": input '" + kv.second->get_name() + "' " +
                                                         detail::dims_to_string(kv.second->get_dim()) +
                                                         " does not broadcast to the output " +
                                                         detail::dims_to_string(out->get_dim()) + "."};
        }
        return {error_code_t::OK, ""};
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        hipdnnPointwiseMode_t mode;
        (void)detail::convert(attributes.mode, mode);
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, op));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, get(attributes.inputs, A::input_names::IN_0)));
        int const arity = detail::pointwise_arity(attributes.mode);  // a repeated IN_0 past it is not lowered
        if (arity >= 2)
            CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, get(attributes.inputs, A::input_names::IN_1)));
        if (arity >= 3)
            CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_2_EXT, get(attributes.inputs, A::input_names::IN_2)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, get(attributes.outputs, A::output_names::OUT_0)));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode, label()));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_POINTWISE_MATH_PREC, comp, label()));
        struct {
            hipdnnBackendAttributeName_t attr;
            std::optional<float> const& v;
        } const params[] = {{HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, attributes.relu_lower_clip},
                            {HIPDNN_ATTR_POINTWISE_RELU_UPPER_CLIP, attributes.relu_upper_clip},
                            {HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP_SLOPE, attributes.relu_lower_clip_slope},
                            {HIPDNN_ATTR_POINTWISE_SWISH_BETA, attributes.swish_beta},
                            {HIPDNN_ATTR_POINTWISE_ELU_ALPHA, attributes.elu_alpha},
                            {HIPDNN_ATTR_POINTWISE_SOFTPLUS_BETA, attributes.softplus_beta}};
        for (auto const& p : params)
            if (p.v.has_value()) {
                float f = *p.v;
                CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, p.attr, HIPDNN_TYPE_FLOAT, 1, &f, label()));
            }
        if (attributes.axis.has_value()) {
            int64_t axis = *attributes.axis;
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_POINTWISE_AXIS, HIPDNN_TYPE_INT64, 1, &axis, label()));
        }
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
