// reduction.h - Graph::reduction: Y = reduce(X) over the dimensions where Y has size 1,
// lowered to a hipdnn reduction. As upstream, Y's dims default to X's (no reduction) and its
// strides to channels-last; callers set Y's dims to choose the reduced dimensions.
#pragma once

#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class ReductionNode : public NodeBase<Reduction_attributes> {
    using A = Reduction_attributes;

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.mode).add(attributes.is_deterministic);
    }

    const char*
    kind() const override {
        return "reduction";
    }

    error_t
    validate_inputs() const override {
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        if (!attributes.mode.has_value() || *attributes.mode == ReductionMode_t::NOT_SET)
            return {error_code_t::ATTRIBUTE_NOT_SET, label() + ": reduction mode not set."};
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto x = get(attributes.inputs, A::input_names::X);
        auto y = get(attributes.outputs, A::output_names::Y);
        if (y->get_dim().empty()) y->set_dim(x->get_dim());
        infer_nhwc(y);
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        auto xd = get(attributes.inputs, A::input_names::X)->get_dim();
        auto yd = get(attributes.outputs, A::output_names::Y)->get_dim();
        bool ok = xd.size() == yd.size();
        for (size_t i = 0; ok && i < xd.size(); ++i) ok = yd[i] == xd[i] || yd[i] == 1;
        if (!ok)
            return {error_code_t::INVALID_VALUE, label() + ": Y " + detail::dims_to_string(yd) +
                                                     " is not X " + detail::dims_to_string(xd) +
                                                     " with some dimensions reduced to 1."};
        return {error_code_t::OK, ""};
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        hipdnnReduceTensorOp_t mode;
        (void)detail::convert(*attributes.mode, mode);
        bool det = attributes.is_deterministic;
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR, op));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_REDUCTION_XDESC, get(attributes.inputs, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_REDUCTION_YDESC, get(attributes.outputs, A::output_names::Y)));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_REDUCTION_OPERATOR, HIPDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &mode, label()));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_REDUCTION_COMP_TYPE, comp, label()));
        if (det)
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_REDUCTION_IS_DETERMINISTIC, HIPDNN_TYPE_BOOLEAN, 1, &det, label()));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
