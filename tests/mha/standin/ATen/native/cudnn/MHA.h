// ATen/native/cudnn/MHA.h - ATen stand-in (tests/mha/README.md): the four cuDNN attention entry
// points MHA.cpp defines, declared here so the driver can call them. Parameter order and types
// follow MHA.cpp's definitions.
#pragma once
#include "../../../mha_standin/tensor.h"

namespace at::native {

// Dense forward: q, k, v are [b, h, s, d] views; o and softmaxstats are allocated when undefined.
void run_cudnn_SDP_fprop(int64_t b, int64_t h, int64_t s_q, int64_t s_kv, int64_t d_qk, int64_t d_v,
                         float scaling_factor, bool return_softmaxstats, bool is_causal, double dropout_probability,
                         const Tensor& q, const Tensor& k, const Tensor& v, const std::optional<Tensor>& attn_bias,
                         Tensor& softmaxstats, Tensor& o, Tensor& dropoutseed, Tensor& dropoutoffset);

// Nested (THD) forward: q [total_q, h_q, d_qk], k/v [total_kv, h_k|h_v, d], cumulative lengths int32 [b + 1].
void run_cudnn_SDP_fprop_nestedtensor(int64_t b, int64_t h_q, int64_t h_k, int64_t h_v, int64_t s_q, int64_t s_kv,
                                      int64_t d_qk, int64_t d_v, float scaling_factor, bool return_softmaxstats,
                                      bool is_causal, double dropout_probability, const Tensor& cum_seqlen_q,
                                      const Tensor& cum_seqlen_kv, const Tensor& q, const Tensor& k, const Tensor& v,
                                      const std::optional<Tensor>& attn_bias, Tensor& softmaxstats, Tensor& o,
                                      Tensor& dropoutseed, Tensor& dropoutoffset);

void run_cudnn_SDP_bprop(int64_t b, int64_t h, int64_t s_q, int64_t s_kv, int64_t d_qk, int64_t d_v,
                         float scaling_factor, bool is_causal, float dropout_probability, const Tensor& q,
                         const Tensor& k, const Tensor& v, const std::optional<Tensor>& attn_bias, const Tensor& o,
                         const Tensor& dO, const Tensor& softmaxstats, Tensor& dQ, Tensor& dK, Tensor& dV,
                         const Tensor& dropoutseed, const Tensor& dropoutoffset);

void run_cudnn_SDP_bprop_nestedtensor(int64_t b, int64_t h_q, int64_t h_k, int64_t h_v, int64_t s_q, int64_t s_kv,
                                      int64_t d_qk, int64_t d_v, float scaling_factor, bool is_causal,
                                      float dropout_probability, const Tensor& cum_seqlen_q,
                                      const Tensor& cum_seqlen_kv, const Tensor& q, const Tensor& k, const Tensor& v,
                                      const std::optional<Tensor>& attn_bias, const Tensor& o, const Tensor& dO,
                                      const Tensor& softmaxstats, Tensor& dQ, Tensor& dK, Tensor& dV,
                                      const Tensor& dropoutseed, const Tensor& dropoutoffset);

}  // namespace at::native
