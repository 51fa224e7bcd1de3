// graph_helpers.h - the layout and shape rules node shape inference shares: strides from a
// stride order, the NHWC / row-major / column-major orders, numpy-style broadcasting.
//
// A stride order ranks the dimensions: the dimension with order 0 is the fastest-moving one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "../cudnn_frontend_utils.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace detail {

// generate_stride lays out dims densely in the given stride order.
inline std::vector<int64_t>
generate_stride(std::vector<int64_t> const& dim, std::vector<int64_t> const& stride_order) {
    std::vector<size_t> by_order(dim.size());
    std::iota(by_order.begin(), by_order.end(), size_t{0});
    std::stable_sort(by_order.begin(), by_order.end(), [&](size_t a, size_t b) {
        return stride_order[a] < stride_order[b];
    });
    std::vector<int64_t> stride(dim.size());
    int64_t next = 1;
    for (size_t i : by_order) {
        stride[i] = next;
        next *= dim[i];
    }
    return stride;
}

// generate_NHWC_stride_order: channels (dim 1) fastest, then the spatial dims from last to
// first, batch (dim 0) slowest.
inline std::vector<int64_t>
generate_NHWC_stride_order(int64_t const num_dims) {
    std::vector<int64_t> order(num_dims);
    if (num_dims == 0) return order;
    if (num_dims == 1) {
        order[0] = 0;
        return order;
    }
    int64_t rank = 0;
    order[1]     = rank++;
    for (int64_t i = num_dims - 1; i > 1; --i) order[i] = rank++;
    order[0] = rank;
    return order;
}

// generate_row_major_stride_order: the last dimension fastest.
inline std::vector<int64_t>
generate_row_major_stride_order(int64_t const num_dims) {
    std::vector<int64_t> order(num_dims);
    for (int64_t i = 0; i < num_dims; ++i) order[i] = num_dims - 1 - i;
    return order;
}

// generate_column_major_stride_order: row-major with the two innermost dimensions swapped.
inline std::vector<int64_t>
generate_column_major_stride_order(int64_t const num_dims) {
    auto order = generate_row_major_stride_order(num_dims);
    if (num_dims > 2) std::swap(order[num_dims - 1], order[num_dims - 2]);
    return order;
}

// compute_broadcast_shape is the smallest shape every non-empty shape broadcasts to (aligned
// on the right; a 1 stretches). Mismatched non-1 sizes are SHAPE_DEDUCTION_FAILED.
inline error_t
compute_broadcast_shape(const std::vector<std::vector<int64_t>>& shapes, std::vector<int64_t>& common_shape) {
    size_t rank = 0;
    bool any    = false;
    for (auto const& s : shapes) {
        if (s.empty()) continue;
        any  = true;
        rank = std::max(rank, s.size());
    }
    if (!any) return {error_code_t::SHAPE_DEDUCTION_FAILED, "All input shapes provided are empty."};
    common_shape.assign(rank, 1);
    for (auto const& s : shapes) {
        for (size_t k = 1; k <= s.size(); ++k) {
            int64_t& c    = common_shape[rank - k];
            int64_t const v = s[s.size() - k];
            if (c == 1) {
                c = v;
            } else if (v != 1 && v != c) {
                return {error_code_t::SHAPE_DEDUCTION_FAILED,
                        "dimensions mismatch as broadcasting 2 non-one dimension sizes (" + std::to_string(c) +
                            " and " + std::to_string(v) + ")."};
            }
        }
    }
    return {error_code_t::OK, ""};
}

// generate_stride_order_preserving_format ranks input_stride's dimensions by stride and gives
// dimensions past the input's rank the slowest orders.
inline error_t
generate_stride_order_preserving_format(const std::vector<int64_t>& input_stride,
                                        size_t output_dim_size,
                                        std::vector<int64_t>& stride_order) {
    std::vector<size_t> idx(input_stride.size());
    std::iota(idx.begin(), idx.end(), size_t{0});
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return input_stride[a] < input_stride[b]; });
    stride_order.assign(input_stride.size(), 0);
    for (size_t r = 0; r < idx.size(); ++r) stride_order[idx[r]] = static_cast<int64_t>(r);
    for (size_t i = input_stride.size(); i < output_dim_size; ++i) stride_order.push_back(static_cast<int64_t>(i));
    return {error_code_t::OK, ""};
}

// generate_matmul_output_dim: broadcast batch dims, then M from a and N from b.
inline error_t
generate_matmul_output_dim(const std::vector<int64_t>& a_dim,
                           const std::vector<int64_t>& b_dim,
                           std::vector<int64_t>& output_dim) {
    if (a_dim.size() < 2 || b_dim.size() < 2)
        return {error_code_t::SHAPE_DEDUCTION_FAILED, "Input tensors must have at least 2 dimensions for matmul."};
    if (a_dim[a_dim.size() - 1] != b_dim[b_dim.size() - 2])
        return {error_code_t::SHAPE_DEDUCTION_FAILED,
                "Inner dimensions of input tensors are not compatible for matmul."};
    std::vector<int64_t> batch;
    std::vector<int64_t> a_batch(a_dim.begin(), a_dim.end() - 2), b_batch(b_dim.begin(), b_dim.end() - 2);
    if (a_batch.empty() && b_batch.empty()) {
        batch.clear();
    } else {
        auto err = compute_broadcast_shape({a_batch, b_batch}, batch);
        if (err.is_bad()) return err;
    }
    output_dim = batch;
    output_dim.push_back(a_dim[a_dim.size() - 2]);
    output_dim.push_back(b_dim[b_dim.size() - 1]);
    return {error_code_t::OK, ""};
}

// dims_to_string renders a shape for messages: [2,3,4].
inline std::string
dims_to_string(std::vector<int64_t> const& d) {
    std::string s = "[";
    for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
    return s + "]";
}

}  // namespace detail
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
