// norm_common.h - what the layer-norm and RMS-norm nodes share: the forward phase check and
// the count of normalized (trailing) dimensions that hipDNN takes and upstream derives from
// the scale's shape.
#pragma once

#include <string>
#include <vector>

#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {
namespace norm_detail {

// normalized_dim_count: the dimensions from the first non-1 dimension of the scale (past the
// batch dimension) to the end; at least 1.
inline int64_t
normalized_dim_count(std::vector<int64_t> const& scale_dim) {
    size_t const r = scale_dim.size();
    for (size_t i = 1; i < r; ++i)
        if (scale_dim[i] != 1) return static_cast<int64_t>(r - i);
    return 1;
}

inline error_t
phase(std::string const& label, NormFwdPhase_t p, hipdnnNormFwdPhase_t& out) {
    if (!detail::convert(p, out))
        return {error_code_t::ATTRIBUTE_NOT_SET, label + ": forward phase not set (set_forward_phase)."};
    return {error_code_t::OK, ""};
}

// scale_like_x: [1, rest of X] when the scale has no dims, in X's stride order.
inline void
infer_scale(TensorPtr const& t, TensorPtr const& X) {
    if (!t) return;
    if (t->get_dim().empty()) {
        auto d = X->get_dim();
        d[0]   = 1;
        t->set_dim(d);
    }
    infer_preserving(t, X->get_stride());
}

// infer_stats: X's shape with the normalized dimensions (where the scale is not 1) set to 1.
inline void
infer_stats(TensorPtr const& t, TensorPtr const& X, TensorPtr const& scale) {
    if (!t) return;
    if (t->get_dim().empty()) {
        auto d = X->get_dim();
        auto s = scale ? scale->get_dim() : std::vector<int64_t>{};
        for (size_t i = 0; i < d.size(); ++i) {
            bool normalized = s.size() == d.size() ? s[i] != 1 : i > 0;
            if (normalized) d[i] = 1;
        }
        t->set_dim(d);
    }
    infer_preserving(t, X->get_stride());
}

}  // namespace norm_detail
}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
