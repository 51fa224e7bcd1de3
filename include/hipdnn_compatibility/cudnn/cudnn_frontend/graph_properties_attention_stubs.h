// graph_properties_attention_stubs.h - the *_attributes classes of attention (SDPA forward and
// backward, FP8 and MXFP8), the FP8 matmul, softmax, diagonal-band mask, paged-cache load and
// MoE grouped matmul: upstream's names, setters and input/output enumerators. The setters only
// record their values. SDPA forward (also sdpa_fp8 with per-tensor scales) and backward are
// lowered by node/sdpa.h, which refuses by name what hipDNN cannot express; the FP8 backward,
// MoE and the classes without a Graph method stay Tier-2 stubs (docs/cudnn-shim.md).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "graph_properties.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {

class Graph;
class SDPANode;
class SDPABackwardNode;
struct SdpaCommon;

// A setter that stores one tensor in the inputs or outputs map under an enumerator.
#define HIPDNN_SHIM_TENSOR_SETTER(Cls, setter, map, slot)      \
    Cls& setter(std::shared_ptr<Tensor_attributes> value) {    \
        map[Cls::map##_names_t::slot] = std::move(value);      \
        return *this;                                          \
    }

// The masking and dropout settings the SDPA classes share, kept as upstream keeps them.
template <typename DerivedT>
class SdpaMaskSettings {
    DerivedT&
    self() {
        return *static_cast<DerivedT*>(this);
    }

   protected:
    bool padding_mask = false;
    std::optional<int64_t> left_bound;
    std::optional<int64_t> right_bound;
    DiagonalAlignment_t diagonal_alignment = DiagonalAlignment_t::TOP_LEFT;
    std::optional<float> dropout_probability;
    std::optional<float> attn_scale_value;
    bool is_deterministic_algorithm = false;

   public:
    DerivedT&
    set_padding_mask(bool const value) {
        padding_mask = value;
        return self();
    }
    DerivedT&
    set_attn_scale(float const value) {
        attn_scale_value = value;
        return self();
    }
    DerivedT&
    set_diagonal_alignment(DiagonalAlignment_t const alignment) {
        diagonal_alignment = alignment;
        return self();
    }
    DerivedT&
    set_diagonal_band_left_bound(int const value) {
        left_bound = value;
        return self();
    }
    DerivedT&
    set_diagonal_band_right_bound(int const value) {
        right_bound = value;
        return self();
    }
    // A causal mask is a band whose right bound is the diagonal, aligned top-left or bottom-right.
    DerivedT&
    set_causal_mask(bool const value) {
        if (value) set_diagonal_alignment(DiagonalAlignment_t::TOP_LEFT).set_diagonal_band_right_bound(0);
        return self();
    }
    DerivedT&
    set_causal_mask_bottom_right(bool const value) {
        if (value) set_diagonal_alignment(DiagonalAlignment_t::BOTTOM_RIGHT).set_diagonal_band_right_bound(0);
        return self();
    }
    bool
    has_causal_like_masking() const {
        return right_bound.has_value();
    }
    bool
    has_causal_mask_bottom_right() const {
        return right_bound.has_value() && diagonal_alignment == DiagonalAlignment_t::BOTTOM_RIGHT;
    }
};

class SDPA_attributes : public Attributes<SDPA_attributes>, public SdpaMaskSettings<SDPA_attributes> {
    friend class Graph;
    friend class SDPANode;
    friend struct SdpaCommon;
    using AttentionScoreModifier_t =
        std::function<std::shared_ptr<Tensor_attributes>(std::shared_ptr<Graph>, std::shared_ptr<Tensor_attributes>)>;

    std::optional<bool> generate_stats;
    bool alibi_mask = false;
    std::optional<int> max_seq_len_kv;
    AttentionScoreModifier_t attention_score_modifier = nullptr;
    DataType_t mma_core_mode                          = DataType_t::NOT_SET;
    AttentionImplementation_t implementation          = AttentionImplementation_t::AUTO;
    bool unfuse_fma                                   = false;

   public:
    enum class input_names {
        Q,
        K,
        V,
        Attn_scale,
        Bias,
        SEQ_LEN_Q,
        SEQ_LEN_KV,
        Seed,
        Offset,
        Dropout_mask,
        Dropout_scale,
        Page_table_K,
        Page_table_V,
        Block_mask,
        Descale_Q,
        Descale_K,
        Descale_V,
        Descale_S,
        Scale_S,
        Scale_O,
        SINK_TOKEN,
    };
    using inputs_names_t = input_names;
    std::unordered_map<input_names, std::shared_ptr<Tensor_attributes>> inputs;
    enum class output_names { O, Stats, Max, Sum_exp, RNG_DUMP, Amax_S, Amax_O };
    using outputs_names_t = output_names;
    std::unordered_map<output_names, std::shared_ptr<Tensor_attributes>> outputs;

    struct SDPA_outputs {
        std::shared_ptr<Tensor_attributes> O;
        std::shared_ptr<Tensor_attributes> Stats;
        std::shared_ptr<Tensor_attributes> Max;
        std::shared_ptr<Tensor_attributes> Sum_exp;
        std::shared_ptr<Tensor_attributes> RNG_DUMP;
        std::shared_ptr<Tensor_attributes> Amax_S;
        std::shared_ptr<Tensor_attributes> Amax_O;
    };

    using Attributes<SDPA_attributes>::set_name;
    using Attributes<SDPA_attributes>::set_compute_data_type;
    using SdpaMaskSettings<SDPA_attributes>::set_attn_scale;

    SDPA_attributes&
    set_generate_stats(bool const value) {
        generate_stats = value;
        return *this;
    }
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_logit_max, outputs, Max)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_score_sum_exp, outputs, Sum_exp)
    [[deprecated]] SDPA_attributes&
    set_is_inference(bool const value) {
        return set_generate_stats(!value);
    }
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_attn_scale, inputs, Attn_scale)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_bias, inputs, Bias)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_block_mask, inputs, Block_mask)
    SDPA_attributes&
    set_alibi_mask(bool const value) {
        alibi_mask = value;
        return *this;
    }
    SDPA_attributes&
    _set_mma_core_mode(DataType_t const value) {
        mma_core_mode = value;
        return *this;
    }
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_seq_len_q, inputs, SEQ_LEN_Q)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_seq_len_kv, inputs, SEQ_LEN_KV)
    SDPA_attributes&
    set_score_mod(AttentionScoreModifier_t fn) {
        attention_score_modifier = std::move(fn);
        return *this;
    }
    SDPA_attributes&
    set_sliding_window_length(int const value) {
        return set_diagonal_band_left_bound(value);
    }
    SDPA_attributes&
    set_dropout(float const probability,
                std::shared_ptr<Tensor_attributes> seed,
                std::shared_ptr<Tensor_attributes> offset) {
        dropout_probability          = probability;
        inputs[input_names::Seed]    = std::move(seed);
        inputs[input_names::Offset]  = std::move(offset);
        return *this;
    }
    SDPA_attributes&
    set_dropout(std::shared_ptr<Tensor_attributes> mask, std::shared_ptr<Tensor_attributes> scale) {
        inputs[input_names::Dropout_mask]  = std::move(mask);
        inputs[input_names::Dropout_scale] = std::move(scale);
        return *this;
    }
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_rng_dump, outputs, RNG_DUMP)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_paged_attention_k_table, inputs, Page_table_K)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_paged_attention_v_table, inputs, Page_table_V)
    SDPA_attributes&
    set_paged_attention_max_seq_len_kv(int const value) {
        max_seq_len_kv = value;
        return *this;
    }
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_attributes, set_sink_token, inputs, SINK_TOKEN)
    SDPA_attributes&
    set_implementation(AttentionImplementation_t value) {
        implementation = value;
        return *this;
    }
    SDPA_attributes&
    set_unfuse_fma(bool value) {
        unfuse_fma = value;
        return *this;
    }
};

using SDPA_fp8_attributes = SDPA_attributes;

class SDPA_backward_attributes : public Attributes<SDPA_backward_attributes>,
                                 public SdpaMaskSettings<SDPA_backward_attributes> {
    friend class Graph;
    friend class SDPABackwardNode;
    friend struct SdpaCommon;
    using AttentionScoreModifier_t =
        std::function<std::shared_ptr<Tensor_attributes>(std::shared_ptr<Graph>, std::shared_ptr<Tensor_attributes>)>;

    bool alibi_mask = false;
    std::optional<int64_t> max_total_seq_len_q;
    std::optional<int64_t> max_total_seq_len_kv;
    AttentionScoreModifier_t attention_score_modifier       = nullptr;
    AttentionScoreModifier_t attention_score_modifier_bprop = nullptr;

   public:
    enum class input_names {
        Q,
        K,
        V,
        O,
        dO,
        Stats,
        Attn_scale,
        Bias,
        SEQ_LEN_Q,
        SEQ_LEN_KV,
        Seed,
        Offset,
        Dropout_mask,
        Dropout_scale,
        Dropout_scale_inv,
        SINK_TOKEN,
    };
    using inputs_names_t = input_names;
    std::unordered_map<input_names, std::shared_ptr<Tensor_attributes>> inputs;
    enum class output_names { dQ, dK, dV, dBias, RNG_DUMP, DSINK_TOKEN };
    using outputs_names_t = output_names;
    std::unordered_map<output_names, std::shared_ptr<Tensor_attributes>> outputs;

    using Attributes<SDPA_backward_attributes>::set_name;
    using Attributes<SDPA_backward_attributes>::set_compute_data_type;
    using SdpaMaskSettings<SDPA_backward_attributes>::set_attn_scale;

    HIPDNN_SHIM_TENSOR_SETTER(SDPA_backward_attributes, set_attn_scale, inputs, Attn_scale)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_backward_attributes, set_bias, inputs, Bias)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_backward_attributes, set_dbias, outputs, dBias)
    SDPA_backward_attributes&
    set_alibi_mask(bool const value) {
        alibi_mask = value;
        return *this;
    }
    SDPA_backward_attributes&
    set_score_mod(AttentionScoreModifier_t fn) {
        attention_score_modifier = std::move(fn);
        return *this;
    }
    SDPA_backward_attributes&
    set_score_mod_bprop(AttentionScoreModifier_t fn) {
        attention_score_modifier_bprop = std::move(fn);
        return *this;
    }
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_backward_attributes, set_seq_len_q, inputs, SEQ_LEN_Q)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_backward_attributes, set_seq_len_kv, inputs, SEQ_LEN_KV)
    SDPA_backward_attributes&
    set_max_total_seq_len_q(int64_t const value) {
        max_total_seq_len_q = value;
        return *this;
    }
    SDPA_backward_attributes&
    set_max_total_seq_len_kv(int64_t const value) {
        max_total_seq_len_kv = value;
        return *this;
    }
    SDPA_backward_attributes&
    set_sliding_window_length(int const value) {
        return set_diagonal_band_left_bound(value);
    }
    SDPA_backward_attributes&
    set_dropout(float const probability,
                std::shared_ptr<Tensor_attributes> seed,
                std::shared_ptr<Tensor_attributes> offset) {
        dropout_probability         = probability;
        inputs[input_names::Seed]   = std::move(seed);
        inputs[input_names::Offset] = std::move(offset);
        return *this;
    }
    SDPA_backward_attributes&
    set_dropout(std::shared_ptr<Tensor_attributes> mask,
                std::shared_ptr<Tensor_attributes> scale,
                std::shared_ptr<Tensor_attributes> scale_inv) {
        inputs[input_names::Dropout_mask]      = std::move(mask);
        inputs[input_names::Dropout_scale]     = std::move(scale);
        inputs[input_names::Dropout_scale_inv] = std::move(scale_inv);
        return *this;
    }
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_backward_attributes, set_rng_dump, outputs, RNG_DUMP)
    SDPA_backward_attributes&
    set_deterministic_algorithm(bool const value) {
        is_deterministic_algorithm = value;
        return *this;
    }
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_backward_attributes, set_sink_token, inputs, SINK_TOKEN)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_backward_attributes, set_dsink_token, outputs, DSINK_TOKEN)
};

class SDPA_fp8_backward_attributes : public Attributes<SDPA_fp8_backward_attributes>,
                                     public SdpaMaskSettings<SDPA_fp8_backward_attributes> {
    friend class Graph;

   public:
    enum class input_names {
        Q,
        Q_T,
        K,
        K_T,
        V,
        O,
        dO,
        dO_T,
        dO_f16,
        Stats,
        Attn_scale,
        Bias,
        SEQ_LEN_Q,
        SEQ_LEN_KV,
        Seed,
        Offset,
        Dropout_mask,
        Dropout_scale,
        Dropout_scale_inv,
        Descale_Q,
        Descale_K,
        Descale_V,
        Descale_O,
        Descale_dO,
        Descale_dO_T,
        Descale_K_T,
        Descale_Q_T,
        Descale_S,
        Descale_dP,
        Scale_dQ,
        Scale_dK,
        Scale_dV,
        Scale_S,
        Scale_dP,
        SINK_TOKEN,
    };
    using inputs_names_t = input_names;
    std::unordered_map<input_names, std::shared_ptr<Tensor_attributes>> inputs;
    enum class output_names { dQ, dK, dV, Amax_dQ, Amax_dK, Amax_dV, Amax_dP, DSINK_TOKEN };
    using outputs_names_t = output_names;
    std::unordered_map<output_names, std::shared_ptr<Tensor_attributes>> outputs;

    using Attributes<SDPA_fp8_backward_attributes>::set_name;
    using Attributes<SDPA_fp8_backward_attributes>::set_compute_data_type;
    using SdpaMaskSettings<SDPA_fp8_backward_attributes>::set_attn_scale;

    HIPDNN_SHIM_TENSOR_SETTER(SDPA_fp8_backward_attributes, set_attn_scale, inputs, Attn_scale)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_fp8_backward_attributes, set_bias, inputs, Bias)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_fp8_backward_attributes, set_seq_len_q, inputs, SEQ_LEN_Q)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_fp8_backward_attributes, set_seq_len_kv, inputs, SEQ_LEN_KV)
    bool
    has_sliding_window() const {
        return left_bound.has_value();
    }
    SDPA_fp8_backward_attributes&
    set_dropout(float const probability,
                std::shared_ptr<Tensor_attributes> seed,
                std::shared_ptr<Tensor_attributes> offset) {
        dropout_probability         = probability;
        inputs[input_names::Seed]   = std::move(seed);
        inputs[input_names::Offset] = std::move(offset);
        return *this;
    }
    SDPA_fp8_backward_attributes&
    set_dropout(std::shared_ptr<Tensor_attributes> mask,
                std::shared_ptr<Tensor_attributes> scale,
                std::shared_ptr<Tensor_attributes> scale_inv) {
        inputs[input_names::Dropout_mask]      = std::move(mask);
        inputs[input_names::Dropout_scale]     = std::move(scale);
        inputs[input_names::Dropout_scale_inv] = std::move(scale_inv);
        return *this;
    }
    SDPA_fp8_backward_attributes&
    set_deterministic_algorithm(bool const value) {
        is_deterministic_algorithm = value;
        return *this;
    }
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_fp8_backward_attributes, set_sink_token, inputs, SINK_TOKEN)
    HIPDNN_SHIM_TENSOR_SETTER(SDPA_fp8_backward_attributes, set_dsink_token, outputs, DSINK_TOKEN)
    bool
    has_sink_token() const {
        auto it = inputs.find(input_names::SINK_TOKEN);
        return it != inputs.end() && it->second != nullptr;
    }
};

class Matmul_fp8_attributes : public Attributes<Matmul_fp8_attributes> {
    double padding_value = 0.0;

   public:
    enum class input_names { Descale_A, Descale_B, A, B, M_override, N_override, K_override, Scale_C };
    using inputs_names_t = input_names;
    std::unordered_map<input_names, std::shared_ptr<Tensor_attributes>> inputs;
    enum class output_names { C, Amax_C };
    std::unordered_map<output_names, std::shared_ptr<Tensor_attributes>> outputs;

    Matmul_fp8_attributes&
    set_m_override(std::shared_ptr<Tensor_attributes> const& value) {
        inputs[input_names::M_override] = value;
        return *this;
    }
    Matmul_fp8_attributes&
    set_n_override(std::shared_ptr<Tensor_attributes> const& value) {
        inputs[input_names::N_override] = value;
        return *this;
    }
    Matmul_fp8_attributes&
    set_k_override(std::shared_ptr<Tensor_attributes> const& value) {
        inputs[input_names::K_override] = value;
        return *this;
    }
    Matmul_fp8_attributes&
    set_padding(double const padding_val) {
        padding_value = padding_val;
        return *this;
    }
    double
    get_padding() const {
        return padding_value;
    }
};

class Softmax_attributes : public Attributes<Softmax_attributes> {
   public:
    enum class input_names { P, SINK };
    using inputs_names_t = input_names;
    std::unordered_map<input_names, std::shared_ptr<Tensor_attributes>> inputs;
    enum class output_names { S, Stats, Max, Sum_exp };
    std::unordered_map<output_names, std::shared_ptr<Tensor_attributes>> outputs;

    HIPDNN_SHIM_TENSOR_SETTER(Softmax_attributes, set_sink, inputs, SINK)
};

class DiagonalBandMask_attributes : public Attributes<DiagonalBandMask_attributes> {
    PointwiseMode_t comparison_mode = PointwiseMode_t::CMP_GT;

   public:
    enum class input_names { X, SEQ_LEN_Q, SEQ_LEN_KV, LeftBound, ShiftRightBound, B };
    std::unordered_map<input_names, std::shared_ptr<Tensor_attributes>> inputs;
    enum class output_names { Y };
    std::unordered_map<output_names, std::shared_ptr<Tensor_attributes>> outputs;

    PointwiseMode_t
    get_comparison_mode() const {
        return comparison_mode;
    }
    DiagonalBandMask_attributes&
    set_comparison_mode(PointwiseMode_t value) {
        comparison_mode = value;
        return *this;
    }
};

class PagedCacheLoad_attributes : public Attributes<PagedCacheLoad_attributes> {
   public:
    enum class input_names { container, seqLen, pageTable };
    std::unordered_map<input_names, std::shared_ptr<Tensor_attributes>> inputs;
    enum class output_names { yOut };
    std::unordered_map<output_names, std::shared_ptr<Tensor_attributes>> outputs;
};

class Moe_grouped_matmul_attributes : public Attributes<Moe_grouped_matmul_attributes> {
    friend class Graph;
    MoeGroupedMatmulMode_t mode = MoeGroupedMatmulMode_t::NONE;
    int32_t top_k               = 0;

   public:
    enum class input_names { Token, Weight, FirstTokenOffset, TokenIndex, TokenKs };
    std::unordered_map<input_names, std::shared_ptr<Tensor_attributes>> inputs;
    enum class output_names { Output };
    std::unordered_map<output_names, std::shared_ptr<Tensor_attributes>> outputs;

    Moe_grouped_matmul_attributes&
    set_mode(MoeGroupedMatmulMode_t mode_) {
        mode = mode_;
        return *this;
    }
    Moe_grouped_matmul_attributes&
    set_top_k(int32_t top_k_) {
        top_k = top_k_;
        return *this;
    }
};

class Moe_grouped_matmul_bwd_attributes : public Attributes<Moe_grouped_matmul_bwd_attributes> {
   public:
    enum class input_names { DOutput, Token, FirstTokenOffset };
    std::unordered_map<input_names, std::shared_ptr<Tensor_attributes>> inputs;
    enum class output_names { DWeight };
    std::unordered_map<output_names, std::shared_ptr<Tensor_attributes>> outputs;
};

#undef HIPDNN_SHIM_TENSOR_SETTER

}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
