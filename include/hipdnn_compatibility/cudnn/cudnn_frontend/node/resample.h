// resample.h - Graph::resample (pooling forward): Y = pool(X) over a window, optionally with an
// Index output for max pooling; lowered to hipdnn's resample forward. hipDNN pools only:
// BILINEAR / NEAREST modes, EDGE_VAL_PAD and fractional (non-integer) geometry are refused by
// name.
//
// Shape inference (as upstream): Y[d] = 1 + (X[d] + pre + post - window) / stride on the
// spatial dimensions, channels-last; Index shaped like Y.
#pragma once

#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class ResampleNode : public NodeBase<Resample_attributes> {
    using A = Resample_attributes;

    // whole turns fractions into integers; a fraction other than n/1 is refused.
    error_t
    whole(std::vector<cudnnFraction_t> const& v, const char* what, std::vector<int64_t>& out) const {
        out.clear();
        for (auto const& f : v) {
            if (f.denominator != 1)
                return {error_code_t::GRAPH_NOT_SUPPORTED,
                        label() + ": " + what + " has a fractional entry; hipDNN resamples by whole steps."};
            out.push_back(f.numerator);
        }
        return {error_code_t::OK, ""};
    }

   public:
    using NodeBase::NodeBase;
    void
    append_key(detail::KeyWriter& k) const override {
        k.add(kind()).add(attributes.compute_data_type).add(attributes.resample_mode).add(attributes.padding_mode).add(attributes.window).add(attributes.stride).add(attributes.pre_padding).add(attributes.post_padding).add(attributes.generate_index);
    }

    const char*
    kind() const override {
        return "resample";
    }

    error_t
    validate_inputs() const override {
        CHECK_CUDNN_FRONTEND_ERROR(need(attributes.inputs, A::input_names::X, "X"));
        hipdnnResampleMode_t m;
        if (attributes.resample_mode == ResampleMode_t::NOT_SET)
            return {error_code_t::ATTRIBUTE_NOT_SET, label() + ": resampling mode not set (set_resampling_mode)."};
        if (!detail::convert(attributes.resample_mode, m))
            return {error_code_t::GRAPH_NOT_SUPPORTED, label() + ": resampling mode " +
                                                           detail::name(attributes.resample_mode) +
                                                           " is not supported by hipDNN (pooling modes only)."};
        hipdnnPaddingMode_t p;
        if (attributes.padding_mode != PaddingMode_t::NOT_SET && !detail::convert(attributes.padding_mode, p))
            return {error_code_t::GRAPH_NOT_SUPPORTED, label() + ": padding mode EDGE_VAL_PAD is not supported by hipDNN."};
        std::vector<int64_t> tmp;
        struct {
            std::vector<cudnnFraction_t> const& v;
            const char* what;
        } const geo[] = {{attributes.window, "window"},
                         {attributes.stride, "stride"},
                         {attributes.pre_padding, "pre_padding"},
                         {attributes.post_padding, "post_padding"}};
        for (auto const& g : geo) {
            if (g.v.empty()) return {error_code_t::ATTRIBUTE_NOT_SET, label() + ": " + g.what + " not set."};
            CHECK_CUDNN_FRONTEND_ERROR(whole(g.v, g.what, tmp));
        }
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto X = get(attributes.inputs, A::input_names::X);
        auto Y = get(attributes.outputs, A::output_names::Y);
        auto xd = X->get_dim();
        size_t const sp = xd.size() < 2 ? 0 : xd.size() - 2;
        if (attributes.window.size() != sp || attributes.stride.size() != sp || attributes.pre_padding.size() != sp ||
            attributes.post_padding.size() != sp)
            return {error_code_t::INVALID_VALUE, label() + ": window, stride and paddings need one entry per spatial "
                                                           "dimension of X " + detail::dims_to_string(xd) + "."};
        for (auto const& s : attributes.stride)
            if (s.numerator <= 0) return {error_code_t::INVALID_VALUE, label() + ": stride entries must be positive."};
        if (Y->get_dim().empty()) {
            auto yd = xd;
            for (size_t d = 2; d < xd.size(); ++d) {
                size_t s = d - 2;
                yd[d]    = 1 + (xd[d] + attributes.pre_padding[s].numerator + attributes.post_padding[s].numerator -
                             attributes.window[s].numerator) /
                                attributes.stride[s].numerator;
            }
            Y->set_dim(yd);
        }
        infer_nhwc(Y);
        if (auto I = get(attributes.outputs, A::output_names::Index)) {
            I->set_dim(Y->get_dim());
            infer_nhwc(I);
        }
        return {error_code_t::OK, ""};
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        detail::managed_descriptor op;
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        hipdnnResampleMode_t mode;
        (void)detail::convert(attributes.resample_mode, mode);
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR, op));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_XDESC, get(attributes.inputs, A::input_names::X)));
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_YDESC, get(attributes.outputs, A::output_names::Y)));
        auto index = get(attributes.outputs, A::output_names::Index);
        CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_IDXDESC, index));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_RESAMPLE_MODE, HIPDNN_TYPE_RESAMPLE_MODE, 1, &mode, label()));
        hipdnnPaddingMode_t pad;
        if (detail::convert(attributes.padding_mode, pad))
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_RESAMPLE_PADDING_MODE, HIPDNN_TYPE_PADDING_MODE, 1, &pad, label()));
        std::vector<int64_t> v;
        CHECK_CUDNN_FRONTEND_ERROR(whole(attributes.window, "window", v));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_i64s(op, HIPDNN_ATTR_RESAMPLE_WINDOW_DIMS, v, label()));
        CHECK_CUDNN_FRONTEND_ERROR(whole(attributes.stride, "stride", v));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_i64s(op, HIPDNN_ATTR_RESAMPLE_STRIDES, v, label()));
        CHECK_CUDNN_FRONTEND_ERROR(whole(attributes.pre_padding, "pre_padding", v));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_i64s(op, HIPDNN_ATTR_RESAMPLE_PRE_PADDINGS, v, label()));
        CHECK_CUDNN_FRONTEND_ERROR(whole(attributes.post_padding, "post_padding", v));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_i64s(op, HIPDNN_ATTR_RESAMPLE_POST_PADDINGS, v, label()));
        // generate_index means an Index output only for max pooling; for the other modes upstream
        // makes no Index (Graph::resample returns none), so hipDNN is told what it gets.
        if (attributes.generate_index.has_value()) {
            bool gen = *attributes.generate_index && attributes.resample_mode == ResampleMode_t::MAXPOOL;
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_RESAMPLE_GENERATE_INDEX_EXT, HIPDNN_TYPE_BOOLEAN, 1, &gen, label()));
        }
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_RESAMPLE_COMP_TYPE, comp, label()));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
