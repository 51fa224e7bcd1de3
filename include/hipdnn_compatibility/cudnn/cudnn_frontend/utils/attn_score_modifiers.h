// attn_score_modifiers.h - graph::attn::score_modifiers: helpers that add pointwise nodes to an
// attention score sub-graph (SDPA's set_score_mod). They build ordinary pointwise nodes, so they
// lower like any other. SDPA refuses set_score_mod by name (hipDNN's SDPA operation has no
// score-modifier sub-graph), so they serve graphs built around them, not attention yet.
// Declared so far: bias and Softcap (what NVIDIA's samples use); causal_mask,
// causal_mask_bottom_right, padding_mask, alibi_mask and sliding_window_mask are not yet.
#pragma once

#include <memory>

#include "../graph_interface.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace graph {
namespace attn {
namespace score_modifiers {

// bias adds a bias tensor to the scores.
inline std::shared_ptr<Tensor_attributes>
bias(std::shared_ptr<Graph> graph,
     std::shared_ptr<Tensor_attributes> attention_score,
     std::shared_ptr<Tensor_attributes> bias) {
    return graph->pointwise(attention_score, bias,
                            Pointwise_attributes().set_name("bias_add").set_mode(PointwiseMode_t::ADD));
}

// Softcap: forward caps the scores as cap * tanh(score / cap); backward turns the gradient of
// the capped scores into the gradient of the raw ones, reusing score / cap saved by forward.
class Softcap {
    std::shared_ptr<Tensor_attributes> scaled_score;  // score / cap, from forward

   public:
    std::shared_ptr<Tensor_attributes>
    forward(std::shared_ptr<Graph> graph,
            std::shared_ptr<Tensor_attributes> attention_score,
            std::shared_ptr<Tensor_attributes> soft_cap_scalar) {
        scaled_score = graph->pointwise(attention_score, soft_cap_scalar,
                                        Pointwise_attributes().set_name("div_by_soft_cap").set_mode(PointwiseMode_t::DIV));
        auto t = graph->pointwise(scaled_score,
                                  Pointwise_attributes().set_name("activation").set_mode(PointwiseMode_t::TANH_FWD));
        return graph->pointwise(t, soft_cap_scalar,
                                Pointwise_attributes().set_name("mul_by_soft_cap").set_mode(PointwiseMode_t::MUL));
    }

    // d(cap * tanh(s / cap)) / ds = tanh'(s / cap): the incoming gradient times cap, through
    // TANH_BWD at s / cap, divided by cap.
    std::shared_ptr<Tensor_attributes>
    backward(std::shared_ptr<Graph> graph,
             std::shared_ptr<Tensor_attributes> attention_score,
             std::shared_ptr<Tensor_attributes> soft_cap_scalar) {
        auto g = graph->pointwise(attention_score, soft_cap_scalar,
                                  Pointwise_attributes().set_name("mul_by_soft_cap_bprop").set_mode(PointwiseMode_t::MUL));
        auto d = graph->pointwise(g, scaled_score,
                                  Pointwise_attributes().set_name("dtanh").set_mode(PointwiseMode_t::TANH_BWD));
        return graph->pointwise(d, soft_cap_scalar,
                                Pointwise_attributes().set_name("div_by_soft_cap_bprop").set_mode(PointwiseMode_t::DIV));
    }
};

}  // namespace score_modifiers
}  // namespace attn
}  // namespace graph
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
