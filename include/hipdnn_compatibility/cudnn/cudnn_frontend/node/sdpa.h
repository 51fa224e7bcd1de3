// sdpa.h - Graph::sdpa, sdpa_fp8 (per-tensor scaling) and sdpa_backward: scaled dot-product
// attention, lowered to hipDNN's one SDPA operation each way
// (HIPDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR, HIPDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR_EXT)
// instead of upstream's composite of matmuls, masks and a softmax.
//
// Shape inference (as upstream, plus defaults upstream leaves to the caller): O is
// [b, h_q, s_q, d_v] in Q's stride order; Stats, Max and Sum_exp are [b, h_q, s_q, 1] packed;
// RNG_DUMP is [b, h_q, s_q, s_kv] packed; Amax outputs are [1, 1, 1, 1]; dQ, dK, dV and dBias
// take the shape and layout of Q, K, V and Bias.
//
// Meanings that differ between cudnn-frontend and hipDNN, mapped here:
// - No attention scale: upstream multiplies by nothing (scale 1); hipDNN's default is 1/sqrt(d),
//   so the shim always sends a scale (the value, the tensor, or 1.0).
// - Left bound: cuDNN's window w keeps key j of row i when j > i + off - w (the diagonal counts
//   as one of the w); hipDNN's LEFT_BOUND L keeps j >= i + off - L. So L = w - 1.
// - Causal masks are a right bound of 0 on the TOP_LEFT or BOTTOM_RIGHT diagonal (hipDNN's
//   RIGHT_BOUND and DIAGONAL_ALIGNMENT, not its deprecated causal flags).
// - mma_core_mode: upstream's MMA operand type (HALF, or FP8 for sdpa_fp8), whose products
//   accumulate in fp32; hipDNN's MMA_CORE_MODE is the accumulator precision, whose unset
//   default is fp32. Nothing is sent.
// - set_dropout(mask, scale): upstream multiplies by both (order free); a one-element mask with a
//   larger scale is passed the other way round (NVIDIA's custom-dropout sample swaps them).
// - Ragged (THD) tensors need set_padding_mask(true), as upstream; set_max_total_seq_len_q/kv is
//   a workspace hint of cuDNN's packed kernels with nothing to send.
// - set_deterministic_algorithm (backward): plans whose engine config carries the
//   NONDETERMINISTIC numerical note are deselected (Graph::build_operation_graph).
#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "../graph_properties_attention_stubs.h"
#include "../node_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {
namespace sdpa_detail {

template <typename Map, typename Key>
inline bool
has(Map const& m, Key k) {
    auto it = m.find(k);
    return it != m.end() && it->second != nullptr;
}

// device_sm_version is the GPU's compute capability (90 for sm_90) as upstream reads it for its
// support rules: the context's set_sm_version, else CUDA's current device when CUDA's runtime
// header is on the include path; -1 when unknown (no CUDA: no NVIDIA-architecture rule applies).
inline int32_t
device_sm_version(detail::Context const& c) {
    if (c.get_sm_version() > 0) return c.get_sm_version();
#ifdef HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME
    int dev = 0;
    cudaDeviceProp p;
    if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&p, dev) == cudaSuccess)
        return p.major * 10 + p.minor;
#endif
    return -1;
}

// ragged: any of the tensors is packed (THD) with a ragged offset.
inline bool
ragged(std::initializer_list<TensorPtr> ts) {
    for (auto const& t : ts)
        if (t && t->get_ragged_offset()) return true;
    return false;
}

// dropout_operands returns (mask, scale) of set_dropout(mask, scale). Upstream multiplies the
// probabilities by both, so their order does not matter there, and NVIDIA's own custom-dropout
// sample passes (scale, mask); hipDNN's attributes are not symmetric, so a one-element "mask"
// with a larger "scale" is taken the other way round.
inline std::pair<TensorPtr, TensorPtr>
dropout_operands(TensorPtr mask, TensorPtr scale) {
    auto elements = [](TensorPtr const& t) {
        int64_t n = 1;
        for (int64_t d : t->get_dim()) n *= d;
        return n;
    };
    if (mask && scale && elements(mask) == 1 && elements(scale) > 1) std::swap(mask, scale);
    return {mask, scale};
}

inline error_t
rank4(std::string const& label, TensorPtr const& t, const char* role) {
    if (t && t->get_dim().size() != 4)
        return {error_code_t::ATTRIBUTE_NOT_SET, label + ": " + role + " '" + t->get_name() + "' has dims " +
                                                     detail::dims_to_string(t->get_dim()) +
                                                     "; attention tensors are 4-D [b, h, s, d]."};
    return {error_code_t::OK, ""};
}

// infer_rows shapes a per-row output (stats, max, sum_exp) as [b, h_q, s_q, 1], packed.
inline void
infer_rows(TensorPtr const& t, std::vector<int64_t> const& q) {
    if (!t) return;
    if (t->get_dim().empty()) t->set_dim({q[0], q[1], q[2], 1});
    if (t->get_stride().empty()) {
        auto d = t->get_dim();
        t->set_stride(detail::generate_stride(d, detail::generate_row_major_stride_order(static_cast<int64_t>(d.size()))));
    }
}

inline void
infer_packed(TensorPtr const& t, std::vector<int64_t> const& dims) {
    if (!t) return;
    if (t->get_dim().empty()) t->set_dim(dims);
    if (t->get_stride().empty()) {
        auto d = t->get_dim();
        t->set_stride(detail::generate_stride(d, detail::generate_row_major_stride_order(static_cast<int64_t>(d.size()))));
    }
}

// The K/V/O geometry both directions check: GQA head counts, batch, head dims, sequence.
inline error_t
check_geometry(std::string const& label,
               TensorPtr const& Q,
               TensorPtr const& K,
               TensorPtr const& V,
               TensorPtr const& O,
               bool paged) {
    auto const &q = Q->get_dim(), &k = K->get_dim(), &v = V->get_dim(), &o = O->get_dim();
    if (k[1] <= 0 || v[1] <= 0 || q[1] % k[1] != 0 || q[1] % v[1] != 0)
        return {error_code_t::GRAPH_NOT_SUPPORTED,
                label + ": Q has " + std::to_string(q[1]) + " heads, not a multiple of K's " + std::to_string(k[1]) +
                    " and V's " + std::to_string(v[1]) + " (grouped-query attention needs a multiple)."};
    if (!paged) {
        if (k[0] != q[0] || v[0] != q[0])
            return {error_code_t::INVALID_VALUE, label + ": batch differs: Q " + detail::dims_to_string(q) + ", K " +
                                                     detail::dims_to_string(k) + ", V " + detail::dims_to_string(v) + "."};
        if (k[2] != v[2])
            return {error_code_t::INVALID_VALUE, label + ": K " + detail::dims_to_string(k) + " and V " +
                                                     detail::dims_to_string(v) + " must have the same sequence length."};
    }
    if (k[3] != q[3])
        return {error_code_t::INVALID_VALUE, label + ": K " + detail::dims_to_string(k) + " and Q " +
                                                 detail::dims_to_string(q) + " must have the same head dimension."};
    std::vector<int64_t> const want = {q[0], q[1], q[2], v[3]};
    if (o != want)
        return {error_code_t::INVALID_VALUE, label + ": O is " + detail::dims_to_string(o) + "; it must be " +
                                                 detail::dims_to_string(want) + " [b, h_q, s_q, d_v]."};
    return {error_code_t::OK, ""};
}

inline error_t
set_bool(std::string const& label, detail::managed_descriptor const& op, hipdnnBackendAttributeName_t n, bool v) {
    return detail::set_attr(op, n, HIPDNN_TYPE_BOOLEAN, 1, &v, label);
}

inline error_t
set_float(std::string const& label, detail::managed_descriptor const& op, hipdnnBackendAttributeName_t n, float v) {
    return detail::set_attr(op, n, HIPDNN_TYPE_FLOAT, 1, &v, label);
}

}  // namespace sdpa_detail

// SdpaCommon holds what forward and backward share and reads the attributes' private
// settings (it is their friend).
struct SdpaCommon {
    // The checks forward and backward share: attention scale, bias, padding, bounds, alibi,
    // dropout. `backward` picks upstream's backward rules where they differ.
    template <typename A>
    static error_t
    check(std::string const& label, A const& a, bool backward) {
        using In = typename A::input_names;
        using sdpa_detail::has;
        if (has(a.inputs, In::Attn_scale) && a.attn_scale_value.has_value())
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    label + ": set_attn_scale was given both a tensor and a value; set one of them."};
        if (has(a.inputs, In::Bias) && a.inputs.at(In::Bias)->get_data_type() == DataType_t::BOOLEAN)
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label + ": set_bias: the bias is added to the scores and cannot be BOOLEAN."};
        bool const sq = has(a.inputs, In::SEQ_LEN_Q), skv = has(a.inputs, In::SEQ_LEN_KV);
        if (a.padding_mask && (!sq || !skv))
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    label + ": set_padding_mask(true) needs both set_seq_len_q and set_seq_len_kv."};
        if (!a.padding_mask && (sq || skv))
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    label + ": set_seq_len_q / set_seq_len_kv are used only with set_padding_mask(true)."};
        if (a.right_bound.has_value() && *a.right_bound < 0)
            return {error_code_t::INVALID_VALUE, label + ": set_diagonal_band_right_bound(" +
                                                     std::to_string(*a.right_bound) + "): the right bound must be >= 0."};
        if (a.left_bound.has_value() && *a.left_bound <= 0) {
            // A window of w <= 0 keys excludes the diagonal; hipDNN's left bound (keys left of the
            // diagonal, which is always kept) cannot say that. Upstream's backward refuses it too.
            std::string const what = label + ": set_diagonal_band_left_bound / set_sliding_window_length(" +
                                     std::to_string(*a.left_bound) + ")";
            if (backward) return {error_code_t::INVALID_VALUE, what + ": the window must be > 0."};
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    what + ": a window that excludes the diagonal cannot be expressed by hipDNN's left bound."};
        }
        if (a.alibi_mask && !(a.right_bound.has_value() && *a.right_bound == 0))
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label + ": set_alibi_mask(true) needs a causal mask (diagonal_band_right_bound 0), as upstream."};
        bool const mask = has(a.inputs, In::Dropout_mask);
        if (a.dropout_probability.has_value()) {
            float const p = *a.dropout_probability;
            if (mask)
                return {error_code_t::ATTRIBUTE_NOT_SET,
                        label + ": set_dropout was given both a probability and a mask; use one form."};
            if (p == 1.0f)
                return {error_code_t::ATTRIBUTE_NOT_SET,
                        label + ": set_dropout(1.0, ...): a dropout probability of 1 has no scale."};
            if (!(p >= 0.0f && p < 1.0f))
                return {error_code_t::INVALID_VALUE,
                        label + ": set_dropout(" + std::to_string(p) + ", ...): the probability must be in [0, 1)."};
            if (!has(a.inputs, In::Seed) || !has(a.inputs, In::Offset))
                return {error_code_t::ATTRIBUTE_NOT_SET, label + ": set_dropout(probability, seed, offset) needs both tensors."};
        }
        if (mask && !has(a.inputs, In::Dropout_scale))
            return {error_code_t::ATTRIBUTE_NOT_SET, label + ": set_dropout(mask, scale...) needs the scale tensor."};
        return {error_code_t::OK, ""};
    }

    // The attribute names of the settings forward and backward share.
    struct Names {
        hipdnnBackendAttributeName_t scale_value, padding, alibi, dropout_probability, left, right, align;
    };

    // settings writes those shared settings: the scale value (upstream scales only when asked;
    // hipDNN's default would be 1/sqrt(d)), the padding and alibi masks, the dropout probability,
    // and the band (see the header comment).
    template <typename A>
    static error_t
    settings(std::string const& label,
             A const& a,
             bool scale_tensor,
             detail::managed_descriptor const& op,
             Names const& n) {
        using sdpa_detail::set_bool;
        using sdpa_detail::set_float;
        if (!scale_tensor) CHECK_CUDNN_FRONTEND_ERROR(set_float(label, op, n.scale_value, a.attn_scale_value.value_or(1.0f)));
        if (a.padding_mask) CHECK_CUDNN_FRONTEND_ERROR(set_bool(label, op, n.padding, true));
        if (a.alibi_mask) CHECK_CUDNN_FRONTEND_ERROR(set_bool(label, op, n.alibi, true));
        if (a.dropout_probability.has_value())
            CHECK_CUDNN_FRONTEND_ERROR(set_float(label, op, n.dropout_probability, *a.dropout_probability));
        if (!a.left_bound.has_value() && !a.right_bound.has_value()) return {error_code_t::OK, ""};
        if (a.left_bound.has_value()) {
            int64_t l = static_cast<int64_t>(*a.left_bound) - 1;
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, n.left, HIPDNN_TYPE_INT64, 1, &l, label));
        }
        if (a.right_bound.has_value()) {
            int64_t r = static_cast<int64_t>(*a.right_bound);
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, n.right, HIPDNN_TYPE_INT64, 1, &r, label));
        }
        hipdnnDiagonalAlignment_t d = a.diagonal_alignment == DiagonalAlignment_t::BOTTOM_RIGHT
                                          ? HIPDNN_DIAGONAL_ALIGNMENT_BOTTOM_RIGHT_EXT
                                          : HIPDNN_DIAGONAL_ALIGNMENT_TOP_LEFT_EXT;
        return detail::set_attr(op, n.align, HIPDNN_TYPE_DIAGONAL_ALIGNMENT_EXT, 1, &d, label);
    }
};

// SDPANode is Graph::sdpa (kind "sdpa") and the per-tensor-scaled Graph::sdpa_fp8 ("sdpa_fp8").
class SDPANode : public NodeBase<SDPA_attributes> {
    using A  = SDPA_attributes;
    using In = A::input_names;
    using Out = A::output_names;
    const char* kind_;

    bool
    paged() const {
        return sdpa_detail::has(attributes.inputs, In::Page_table_K) ||
               sdpa_detail::has(attributes.inputs, In::Page_table_V);
    }

    // s_kv as upstream infers it: the explicit maximum, an unpaged K or V, the bias or RNG
    // dump's last dimension, else pages times block size.
    int64_t
    s_kv() const {
        auto const& in = attributes.inputs;
        if (attributes.max_seq_len_kv.has_value()) return *attributes.max_seq_len_kv;
        bool const pk = sdpa_detail::has(in, In::Page_table_K), pv = sdpa_detail::has(in, In::Page_table_V);
        if (!pk) return in.at(In::K)->get_dim()[2];
        if (!pv) return in.at(In::V)->get_dim()[2];
        if (sdpa_detail::has(in, In::Bias)) return in.at(In::Bias)->get_dim().back();
        auto rng = get(attributes.outputs, Out::RNG_DUMP);
        if (rng && rng->get_dim().size() == 4) return rng->get_dim()[3];
        auto const& tk = in.at(In::Page_table_K)->get_dim();
        auto const& tv = in.at(In::Page_table_V)->get_dim();
        if (tk.size() != 4 || tv.size() != 4) return -1;
        return std::min(tk[2] * in.at(In::K)->get_dim()[2], tv[2] * in.at(In::V)->get_dim()[2]);
    }

    // mxfp8 is sdpa_fp8 with block scales: E8M0 descales in the F8_128x4 layout.
    bool
    mxfp8() const {
        for (In d : {In::Descale_Q, In::Descale_K, In::Descale_V}) {
            auto t = get(attributes.inputs, d);
            if (t && (t->get_data_type() == DataType_t::FP8_E8M0 ||
                      t->get_reordering_type() == TensorReordering_t::F8_128x4))
                return true;
        }
        return false;
    }

   public:
    SDPANode(A&& a, detail::Context const& c, const char* kind = "sdpa") : NodeBase(std::move(a), c), kind_(kind) {}

    const char*
    kind() const override {
        return kind_;
    }

    void
    append_key(detail::KeyWriter& k) const override {
        auto const& a = attributes;
        k.add(kind()).add(a.compute_data_type).add(a.generate_stats).add(a.alibi_mask).add(a.padding_mask);
        k.add(a.left_bound).add(a.right_bound).add(a.diagonal_alignment).add(a.dropout_probability);
        k.add(a.attn_scale_value).add(a.max_seq_len_kv).add(a.mma_core_mode).add(a.implementation).add(a.unfuse_fma);
        k.add(a.attention_score_modifier != nullptr);
    }

    error_t
    validate_inputs() const override {
        auto const& a = attributes;
        CHECK_CUDNN_FRONTEND_ERROR(need(a.inputs, In::Q, "Q"));
        CHECK_CUDNN_FRONTEND_ERROR(need(a.inputs, In::K, "K"));
        CHECK_CUDNN_FRONTEND_ERROR(need(a.inputs, In::V, "V"));
        if (a.attention_score_modifier)
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": set_score_mod is not supported: hipDNN's SDPA operation has no score-modifier "
                              "sub-graph (use set_bias, set_alibi_mask, the causal and band masks instead)."};
        if (a.unfuse_fma)
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": set_unfuse_fma(true) is not supported: hipDNN's SDPA operation has no such "
                              "implementation hint."};
        if (a.mma_core_mode != DataType_t::NOT_SET && a.mma_core_mode != DataType_t::HALF &&
            a.mma_core_mode != DataType_t::FP8_E4M3 && a.mma_core_mode != DataType_t::FP8_E5M2)
            return {error_code_t::GRAPH_NOT_SUPPORTED, label() + ": _set_mma_core_mode(" +
                                                           detail::name(a.mma_core_mode) +
                                                           "): unsupported mma core mode (HALF, FP8_E4M3, FP8_E5M2)."};
        if (mxfp8())
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": block-scaled (MXFP8) descales are not supported: hipDNN's SDPA operation takes "
                              "per-tensor descale and scale tensors only."};
        bool const fp8 = a.mma_core_mode == DataType_t::FP8_E4M3 || a.mma_core_mode == DataType_t::FP8_E5M2;
        if (fp8 && a.has_causal_mask_bottom_right()) {
            // Upstream's fp8 support rule (cuDNN's fp8 kernels): bottom-right causal needs
            // Blackwell. Applied where the device is known; NVIDIA's fp8 bottom-right sample
            // expects this refusal on Hopper.
            int32_t const sm = sdpa_detail::device_sm_version(context);
            if (sm > 0 && sm < 100)
                return {error_code_t::GRAPH_NOT_SUPPORTED,
                        label() + ": fp8 attention with a bottom-right causal mask needs sm_100 (Blackwell) or newer, "
                                  "as upstream; this device is sm_" + std::to_string(sm) + "."};
        }
        if (a.generate_stats.value_or(false) && !sdpa_detail::has(a.outputs, Out::Stats))
            return {error_code_t::ATTRIBUTE_NOT_SET, label() + ": generate_stats is set but the Stats output is missing."};
        CHECK_CUDNN_FRONTEND_ERROR(SdpaCommon::check(label(), a, false));
        if (sdpa_detail::ragged({get(a.inputs, In::Q), get(a.inputs, In::K), get(a.inputs, In::V),
                                 get(a.outputs, Out::O)}) &&
            !a.padding_mask)
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": ragged offsets (set_ragged_offset) need set_padding_mask(true), as upstream."};
        bool const sq = sdpa_detail::has(a.inputs, In::SEQ_LEN_Q), skv = sdpa_detail::has(a.inputs, In::SEQ_LEN_KV);
        if (paged() && (!sq || !skv))
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": set_paged_attention_k/v_table needs set_padding_mask(true) with set_seq_len_q and "
                              "set_seq_len_kv."};
        if (!paged() && a.max_seq_len_kv.has_value())
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": set_paged_attention_max_seq_len_kv is only used with paged K/V caches."};
        if (a.max_seq_len_kv.has_value() && *a.max_seq_len_kv <= 0)
            return {error_code_t::INVALID_VALUE, label() + ": set_paged_attention_max_seq_len_kv(" +
                                                     std::to_string(*a.max_seq_len_kv) + ") must be positive."};
        if (sdpa_detail::has(a.outputs, Out::RNG_DUMP) && !a.dropout_probability.has_value())
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    label() + ": set_rng_dump needs set_dropout(probability, seed, offset)."};
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto const& in = attributes.inputs;
        auto Q = get(in, In::Q), V = get(in, In::V);
        CHECK_CUDNN_FRONTEND_ERROR(sdpa_detail::rank4(label(), Q, "Q"));
        CHECK_CUDNN_FRONTEND_ERROR(sdpa_detail::rank4(label(), get(in, In::K), "K"));
        CHECK_CUDNN_FRONTEND_ERROR(sdpa_detail::rank4(label(), V, "V"));
        auto const q = Q->get_dim();
        auto O       = get(attributes.outputs, Out::O);
        if (O->get_dim().empty()) O->set_dim({q[0], q[1], q[2], V->get_dim()[3]});
        infer_preserving(O, Q->get_stride());
        for (Out r : {Out::Stats, Out::Max, Out::Sum_exp}) sdpa_detail::infer_rows(get(attributes.outputs, r), q);
        auto rng = get(attributes.outputs, Out::RNG_DUMP);
        if (rng && rng->get_dim().empty()) {
            int64_t const skv = s_kv();
            if (skv > 0) sdpa_detail::infer_packed(rng, {q[0], q[1], q[2], skv});
        }
        for (Out r : {Out::Amax_S, Out::Amax_O}) sdpa_detail::infer_packed(get(attributes.outputs, r), {1, 1, 1, 1});
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        auto const& in = attributes.inputs;
        auto O         = get(attributes.outputs, Out::O);
        CHECK_CUDNN_FRONTEND_ERROR(sdpa_detail::rank4(label(), O, "O"));
        CHECK_CUDNN_FRONTEND_ERROR(sdpa_detail::check_geometry(label(), get(in, In::Q), get(in, In::K), get(in, In::V), O, paged()));
        auto const& q = get(in, In::Q)->get_dim();
        for (Out r : {Out::Stats, Out::Max, Out::Sum_exp}) {
            auto t = get(attributes.outputs, r);
            std::vector<int64_t> const want = {q[0], q[1], q[2], 1};
            if (t && t->get_dim() != want)
                return {error_code_t::INVALID_VALUE, label() + ": '" + t->get_name() + "' is " +
                                                         detail::dims_to_string(t->get_dim()) + "; it must be " +
                                                         detail::dims_to_string(want) + " [b, h_q, s_q, 1]."};
        }
        if (paged() && s_kv() <= 0)
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    label() + ": the maximum KV sequence length of the paged caches cannot be inferred; use "
                              "set_paged_attention_max_seq_len_kv."};
        return {error_code_t::OK, ""};
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        using namespace sdpa_detail;
        auto const& a   = attributes;
        auto const& in  = a.inputs;
        auto const& out = a.outputs;
        std::string const lb = label();
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        detail::managed_descriptor op;
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR, op));
        struct Slot {
            hipdnnBackendAttributeName_t attr;
            TensorPtr t;
        };
        auto const drop = dropout_operands(get(in, In::Dropout_mask), get(in, In::Dropout_scale));
        Slot const slots[] = {
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_QDESC, get(in, In::Q)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_KDESC, get(in, In::K)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_VDESC, get(in, In::V)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_ODESC, get(out, Out::O)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_ATTN_MASK_EXT, get(in, In::Bias)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_SCALEDESC, get(in, In::Attn_scale)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_SEQ_LEN_QDESC, get(in, In::SEQ_LEN_Q)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_SEQ_LEN_KVDESC, get(in, In::SEQ_LEN_KV)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_SEED_EXT, get(in, In::Seed)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_OFFSET_EXT, get(in, In::Offset)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_DROPOUT_MASK_EXT, drop.first},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_DROPOUT_SCALE_EXT, drop.second},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_PAGE_TABLE_KDESC, get(in, In::Page_table_K)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_PAGE_TABLE_VDESC, get(in, In::Page_table_V)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_BLOCK_MASK_DESC, get(in, In::Block_mask)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_SINK_TOKEN_EXT, get(in, In::SINK_TOKEN)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_DESCALE_Q_EXT, get(in, In::Descale_Q)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_DESCALE_K_EXT, get(in, In::Descale_K)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_DESCALE_V_EXT, get(in, In::Descale_V)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_DESCALE_S_EXT, get(in, In::Descale_S)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_SCALE_S_EXT, get(in, In::Scale_S)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_SCALE_O_EXT, get(in, In::Scale_O)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_STATSDESC, get(out, Out::Stats)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_MAX_EXT, get(out, Out::Max)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_SUM_EXP_EXT, get(out, Out::Sum_exp)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_RNG_DUMP_EXT, get(out, Out::RNG_DUMP)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_AMAX_S_EXT, get(out, Out::Amax_S)},
            {HIPDNN_ATTR_OPERATION_SDPA_FWD_AMAX_O_EXT, get(out, Out::Amax_O)},
        };
        for (auto const& s : slots) CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, s.attr, s.t));
        CHECK_CUDNN_FRONTEND_ERROR(set_bool(lb, op, HIPDNN_ATTR_SDPA_FWD_GENERATE_STATS_EXT, has(out, Out::Stats)));
        CHECK_CUDNN_FRONTEND_ERROR(SdpaCommon::settings(
            lb, a, has(in, In::Attn_scale), op,
            {HIPDNN_ATTR_SDPA_FWD_ATTN_SCALE_VALUE_EXT, HIPDNN_ATTR_SDPA_FWD_PADDING_MASK_EXT,
             HIPDNN_ATTR_SDPA_FWD_ALIBI_MASK_EXT, HIPDNN_ATTR_SDPA_FWD_DROPOUT_PROBABILITY_EXT,
             HIPDNN_ATTR_SDPA_FWD_LEFT_BOUND_EXT, HIPDNN_ATTR_SDPA_FWD_RIGHT_BOUND_EXT,
             HIPDNN_ATTR_SDPA_FWD_DIAGONAL_ALIGNMENT_EXT}));
        if (paged()) {
            int32_t m = static_cast<int32_t>(s_kv());
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_SDPA_FWD_MAX_SEQ_LEN_KV_EXT, HIPDNN_TYPE_INT32, 1, &m, lb));
        }
        if (a.implementation != AttentionImplementation_t::AUTO) {
            hipdnnAttentionImplementation_t i = a.implementation == AttentionImplementation_t::UNIFIED
                                                    ? HIPDNN_ATTENTION_IMPLEMENTATION_UNIFIED_EXT
                                                    : HIPDNN_ATTENTION_IMPLEMENTATION_COMPOSITE_EXT;
            CHECK_CUDNN_FRONTEND_ERROR(detail::set_attr(op, HIPDNN_ATTR_SDPA_FWD_IMPLEMENTATION_EXT,
                                                        HIPDNN_TYPE_ATTENTION_IMPLEMENTATION_EXT, 1, &i, lb));
        }
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_SDPA_FWD_COMP_TYPE_EXT, comp, lb));
        return finish(L, op);
    }
};

// SDPABackwardNode is Graph::sdpa_backward.
class SDPABackwardNode : public NodeBase<SDPA_backward_attributes> {
    using A   = SDPA_backward_attributes;
    using In  = A::input_names;
    using Out = A::output_names;

   public:
    using NodeBase::NodeBase;

    const char*
    kind() const override {
        return "sdpa_backward";
    }

    bool
    wants_deterministic() const override {
        return attributes.is_deterministic_algorithm;
    }

    void
    append_key(detail::KeyWriter& k) const override {
        auto const& a = attributes;
        k.add(kind()).add(a.compute_data_type).add(a.alibi_mask).add(a.padding_mask).add(a.left_bound);
        k.add(a.right_bound).add(a.diagonal_alignment).add(a.dropout_probability).add(a.attn_scale_value);
        k.add(a.is_deterministic_algorithm).add(a.max_total_seq_len_q).add(a.max_total_seq_len_kv);
        k.add(a.attention_score_modifier != nullptr).add(a.attention_score_modifier_bprop != nullptr);
    }

    error_t
    validate_inputs() const override {
        auto const& a = attributes;
        CHECK_CUDNN_FRONTEND_ERROR(need(a.inputs, In::Q, "Q"));
        CHECK_CUDNN_FRONTEND_ERROR(need(a.inputs, In::K, "K"));
        CHECK_CUDNN_FRONTEND_ERROR(need(a.inputs, In::V, "V"));
        CHECK_CUDNN_FRONTEND_ERROR(need(a.inputs, In::O, "O"));
        CHECK_CUDNN_FRONTEND_ERROR(need(a.inputs, In::dO, "dO"));
        CHECK_CUDNN_FRONTEND_ERROR(need(a.inputs, In::Stats, "Stats"));
        if (a.attention_score_modifier || a.attention_score_modifier_bprop)
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": " + (a.attention_score_modifier ? "set_score_mod" : "set_score_mod_bprop") +
                        " is not supported: hipDNN's SDPA backward operation has no score-modifier sub-graph."};
        if (sdpa_detail::has(a.inputs, In::SINK_TOKEN) || sdpa_detail::has(a.outputs, Out::DSINK_TOKEN))
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": " +
                        (sdpa_detail::has(a.inputs, In::SINK_TOKEN) ? "set_sink_token" : "set_dsink_token") +
                        " is not supported: hipDNN's SDPA backward operation has no sink-token attribute."};
        if (sdpa_detail::has(a.outputs, Out::RNG_DUMP))
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": set_rng_dump is not supported: hipDNN's SDPA backward operation has no RNG dump."};
        bool const is_ragged = sdpa_detail::ragged({get(a.inputs, In::Q), get(a.inputs, In::K), get(a.inputs, In::V),
                                                    get(a.inputs, In::O)});
        // A workspace hint for cuDNN's packed kernels: nothing to send, but upstream refuses it
        // without a packed layout.
        if ((a.max_total_seq_len_q.has_value() || a.max_total_seq_len_kv.has_value()) && !is_ragged)
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": set_max_total_seq_len_q/kv is only used with ragged (packed) layouts."};
        if (is_ragged && !a.padding_mask)
            return {error_code_t::GRAPH_NOT_SUPPORTED,
                    label() + ": ragged offsets (set_ragged_offset) need set_padding_mask(true), as upstream."};
        CHECK_CUDNN_FRONTEND_ERROR(SdpaCommon::check(label(), a, true));
        if (sdpa_detail::has(a.outputs, Out::dBias) && !sdpa_detail::has(a.inputs, In::Bias))
            return {error_code_t::ATTRIBUTE_NOT_SET, label() + ": set_dbias needs set_bias."};
        if (sdpa_detail::has(a.inputs, In::Dropout_mask) && !sdpa_detail::has(a.inputs, In::Dropout_scale_inv))
            return {error_code_t::ATTRIBUTE_NOT_SET,
                    label() + ": set_dropout(mask, scale, scale_inv) needs the scale_inv tensor."};
        return {error_code_t::OK, ""};
    }

    error_t
    infer_properties_node() override {
        auto const& in = attributes.inputs;
        char const* roles[] = {"Q", "K", "V", "O", "dO", "Stats"};
        In const ins[]      = {In::Q, In::K, In::V, In::O, In::dO, In::Stats};
        for (size_t i = 0; i < 6; ++i) CHECK_CUDNN_FRONTEND_ERROR(sdpa_detail::rank4(label(), get(in, ins[i]), roles[i]));
        infer_like(get(attributes.outputs, Out::dQ), get(in, In::Q));
        infer_like(get(attributes.outputs, Out::dK), get(in, In::K));
        infer_like(get(attributes.outputs, Out::dV), get(in, In::V));
        infer_like(get(attributes.outputs, Out::dBias), get(in, In::Bias));
        return {error_code_t::OK, ""};
    }

    error_t
    validate_shapes() const override {
        auto const& in  = attributes.inputs;
        auto const& out = attributes.outputs;
        CHECK_CUDNN_FRONTEND_ERROR(
            sdpa_detail::check_geometry(label(), get(in, In::Q), get(in, In::K), get(in, In::V), get(in, In::O), false));
        CHECK_CUDNN_FRONTEND_ERROR(same_dims_or_error(label(), get(in, In::O), get(in, In::dO)));
        CHECK_CUDNN_FRONTEND_ERROR(same_dims_or_error(label(), get(in, In::Q), get(out, Out::dQ)));
        CHECK_CUDNN_FRONTEND_ERROR(same_dims_or_error(label(), get(in, In::K), get(out, Out::dK)));
        CHECK_CUDNN_FRONTEND_ERROR(same_dims_or_error(label(), get(in, In::V), get(out, Out::dV)));
        auto const& q                   = get(in, In::Q)->get_dim();
        std::vector<int64_t> const want = {q[0], q[1], q[2], 1};
        auto S                          = get(in, In::Stats);
        if (S->get_dim() != want)
            return {error_code_t::INVALID_VALUE, label() + ": Stats '" + S->get_name() + "' is " +
                                                     detail::dims_to_string(S->get_dim()) + "; it must be " +
                                                     detail::dims_to_string(want) + " [b, h_q, s_q, 1]."};
        return {error_code_t::OK, ""};
    }

    error_t
    create_operation(detail::Lowering& L) const override {
        using namespace sdpa_detail;
        auto const& a   = attributes;
        auto const& in  = a.inputs;
        auto const& out = a.outputs;
        std::string const lb = label();
        hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
        CHECK_CUDNN_FRONTEND_ERROR(compute_type(comp));
        detail::managed_descriptor op;
        CHECK_CUDNN_FRONTEND_ERROR(begin(HIPDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR_EXT, op));
        struct Slot {
            hipdnnBackendAttributeName_t attr;
            TensorPtr t;
        };
        auto const drop = dropout_operands(get(in, In::Dropout_mask), get(in, In::Dropout_scale));
        Slot const slots[] = {
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_Q_EXT, get(in, In::Q)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_K_EXT, get(in, In::K)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_V_EXT, get(in, In::V)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_O_EXT, get(in, In::O)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_DO_EXT, get(in, In::dO)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_STATS_EXT, get(in, In::Stats)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_DQ_EXT, get(out, Out::dQ)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_DK_EXT, get(out, Out::dK)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_DV_EXT, get(out, Out::dV)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_SCALE_EXT, get(in, In::Attn_scale)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_ATTN_MASK_EXT, get(in, In::Bias)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_SEQ_LEN_Q_EXT, get(in, In::SEQ_LEN_Q)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_SEQ_LEN_KV_EXT, get(in, In::SEQ_LEN_KV)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_SEED_EXT, get(in, In::Seed)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_OFFSET_EXT, get(in, In::Offset)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_DROPOUT_MASK_EXT, drop.first},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_DROPOUT_SCALE_EXT, drop.second},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_DROPOUT_SCALE_INV_EXT, get(in, In::Dropout_scale_inv)},
            {HIPDNN_ATTR_OPERATION_SDPA_BWD_DBIAS_EXT, get(out, Out::dBias)},
        };
        for (auto const& s : slots) CHECK_CUDNN_FRONTEND_ERROR(operand(L, op, s.attr, s.t));
        CHECK_CUDNN_FRONTEND_ERROR(SdpaCommon::settings(
            lb, a, has(in, In::Attn_scale), op,
            {HIPDNN_ATTR_SDPA_BWD_ATTN_SCALE_VALUE_EXT, HIPDNN_ATTR_SDPA_BWD_PADDING_MASK_EXT,
             HIPDNN_ATTR_SDPA_BWD_ALIBI_MASK_EXT, HIPDNN_ATTR_SDPA_BWD_DROPOUT_PROBABILITY_EXT,
             HIPDNN_ATTR_SDPA_BWD_LEFT_BOUND_EXT, HIPDNN_ATTR_SDPA_BWD_RIGHT_BOUND_EXT,
             HIPDNN_ATTR_SDPA_BWD_DIAGONAL_ALIGNMENT_EXT}));
        CHECK_CUDNN_FRONTEND_ERROR(detail::set_dtype(op, HIPDNN_ATTR_SDPA_BWD_COMP_TYPE_EXT, comp, lb));
        return finish(L, op);
    }
};

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
