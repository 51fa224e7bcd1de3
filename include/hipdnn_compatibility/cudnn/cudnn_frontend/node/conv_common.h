// conv_common.h - what the three convolution nodes share: checking the geometry against the
// spatial rank and setting it on a hipdnn convolution operation.
#pragma once

#include <string>
#include <vector>

#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {
namespace conv_detail {

// check_geometry: padding, stride and dilation each have one entry per spatial dimension of
// an operand of rank `rank`; strides and dilations are positive.
template <typename A>
error_t
check_geometry(std::string const& label, A const& a, size_t rank) {
    if (rank < 3)
        return {error_code_t::INVALID_VALUE,
                label + ": operands need at least 3 dimensions (N, C, spatial...), got " + std::to_string(rank)};
    size_t const sp = rank - 2;
    auto check = [&](std::vector<int64_t> const& v, const char* what, bool positive) -> error_t {
        if (v.empty()) return {error_code_t::ATTRIBUTE_NOT_SET, label + ": " + what + " not set."};
        if (v.size() != sp)
            return {error_code_t::INVALID_VALUE, label + ": " + what + " has " + std::to_string(v.size()) +
                                                     " entries, the operands have " + std::to_string(sp) +
                                                     " spatial dimensions."};
        for (int64_t x : v)
            if (positive ? x <= 0 : x < 0)
                return {error_code_t::INVALID_VALUE,
                        label + ": " + what + " " + detail::dims_to_string(v) + " has a bad entry."};
        return {error_code_t::OK, ""};
    };
    CHECK_CUDNN_FRONTEND_ERROR(check(a.get_pre_padding(), "pre_padding", false));
    CHECK_CUDNN_FRONTEND_ERROR(check(a.get_post_padding(), "post_padding", false));
    CHECK_CUDNN_FRONTEND_ERROR(check(a.get_stride(), "stride", true));
    CHECK_CUDNN_FRONTEND_ERROR(check(a.get_dilation(), "dilation", true));
    return {error_code_t::OK, ""};
}

// set_geometry writes mode, compute type and geometry onto op.
template <typename A>
error_t
set_geometry(std::string const& label, detail::managed_descriptor const& op, A const& a, hipdnnDataType_t comp) {
    hipdnnConvolutionMode_t mode;
    if (!detail::convert(a.get_convolution_mode(), mode))
        return {error_code_t::ATTRIBUTE_NOT_SET, label + ": convolution mode not set."};
    CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE,
                                                1, &mode, label));
    CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, comp, label));
    CHECK_CUDNN_FRONTEND_ERROR(detail::set_i64s(op, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, a.get_pre_padding(), label));
    CHECK_CUDNN_FRONTEND_ERROR(detail::set_i64s(op, HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, a.get_post_padding(), label));
    CHECK_CUDNN_FRONTEND_ERROR(detail::set_i64s(op, HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, a.get_stride(), label));
    CHECK_CUDNN_FRONTEND_ERROR(detail::set_i64s(op, HIPDNN_ATTR_CONVOLUTION_DILATIONS, a.get_dilation(), label));
    return {error_code_t::OK, ""};
}

// expected_output is the forward output size of every spatial dimension.
inline std::vector<int64_t>
forward_dims(std::vector<int64_t> const& x, std::vector<int64_t> const& w, std::vector<int64_t> const& pre,
             std::vector<int64_t> const& post, std::vector<int64_t> const& stride, std::vector<int64_t> const& dil) {
    std::vector<int64_t> y(x.size());
    y[0] = x[0];
    y[1] = w[0];
    for (size_t d = 2; d < x.size(); ++d) {
        size_t s = d - 2;
        y[d]     = 1 + (x[d] + pre[s] + post[s] - dil[s] * (w[d] - 1) - 1) / stride[s];
    }
    return y;
}

// check_channels: x's channels are a whole multiple of w's (groups), batch and output
// channels agree with y.
inline error_t
check_shapes(std::string const& label, std::vector<int64_t> const& x, std::vector<int64_t> const& w,
             std::vector<int64_t> const& y, std::vector<int64_t> const& expected_y) {
    if (x.size() != w.size() || x.size() != y.size())
        return {error_code_t::INVALID_VALUE, label + ": X " + detail::dims_to_string(x) + ", W " +
                                                 detail::dims_to_string(w) + " and Y " + detail::dims_to_string(y) +
                                                 " must have the same rank."};
    if (w[1] <= 0 || x[1] % w[1] != 0)
        return {error_code_t::INVALID_VALUE, label + ": X has " + std::to_string(x[1]) +
                                                 " channels, not a multiple of W's " + std::to_string(w[1]) + "."};
    if (y != expected_y)
        return {error_code_t::INVALID_VALUE, label + ": Y " + detail::dims_to_string(y) + " does not match X " +
                                                 detail::dims_to_string(x) + " and W " + detail::dims_to_string(w) +
                                                 " under this geometry (expected " +
                                                 detail::dims_to_string(expected_y) + ")."};
    return {error_code_t::OK, ""};
}

}  // namespace conv_detail
}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
