// mha_graphs.h - the driver's own cuDNN-frontend graphs: the four attention graphs PyTorch's
// MHA.cpp builds (dense / nested, forward / backward), written here from the same node settings:
// pass-by-value attention scale, set_is_inference, top-left causal mask, additive bias, Philox
// dropout seed/offset, and for nested inputs the THD layout as BHSD dims with a placeholder batch
// stride, ragged offsets on every packed tensor, sequence lengths and the padding mask.
#pragma once

#include <cudnn_frontend.h>

#include <ATen/ATen.h>
#include <ATen/cudnn/Utils.h>

#include <memory>
#include <string>
#include <unordered_map>

#include "mha_case.h"

// MHA.cpp asks for Stats with the deprecated set_is_inference; the driver sets the same.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace mha {

namespace fe = cudnn_frontend;
using TA     = fe::graph::Tensor_attributes;
using TAPtr  = std::shared_ptr<TA>;

// Our UIDs (MHA.cpp has its own; the numbers do not matter, only that each tensor has one).
enum Uid : int64_t {
    kQ = 1, kK, kV, kO, kBias, kScale, kSeed, kOffset, kStats, kdO, kdQ, kdK, kdV,
    kSeqQ, kSeqKv, kRagQ, kRagK, kRagV, kRagO, kRagStats
};

// Tensors: the device (or host) memory one case runs on, keyed by UID.
struct Tensors {
    std::unordered_map<int64_t, at::Tensor> t;
    float scale = 0;
};

// Graph-side shape of a packed [b, H, S, D] operand: dense strides as stored; nested: the THD
// strides in BHSD order with INT_MAX for the batch, which the ragged offsets replace.
inline std::vector<int64_t>
graphStrides(Case const& c, at::Tensor const& t) {
    auto s = t.strides();
    if (c.nested) return {INT_MAX, s[1], s[0], s[2]};
    return s.vec();
}

inline TAPtr
operand(fe::graph::Graph& g, Case const& c, int64_t uid, const char* name, at::Tensor const& t, int64_t H, int64_t S,
        int64_t D) {
    return g.tensor(TA().set_uid(uid).set_name(name).set_dim({c.b, H, S, D}).set_stride(graphStrides(c, t)));
}

inline TAPtr
int32Column(fe::graph::Graph& g, int64_t uid, const char* name, int64_t rows) {
    return g.tensor(TA().set_uid(uid).set_name(name).set_dim({rows, 1, 1, 1}).set_stride({1, 1, 1, 1}).set_data_type(fe::DataType_t::INT32));
}

// common: scale, dropout, sequence lengths and padding on either attributes class.
template <typename A>
void
common(fe::graph::Graph& g, Case const& c, A& a) {
    auto scale = g.tensor(TA().set_uid(kScale).set_name("Attn_scale").set_dim({1, 1, 1, 1}).set_stride({1, 1, 1, 1})
                              .set_is_pass_by_value(true).set_data_type(fe::DataType_t::FLOAT));
    a.set_causal_mask(c.causal).set_attn_scale(scale);
    if (c.dropout != 0) {
        auto i64 = [&](int64_t uid, const char* n) {
            return g.tensor(TA().set_uid(uid).set_name(n).set_dim({1, 1, 1, 1}).set_stride({1, 1, 1, 1}).set_data_type(fe::DataType_t::INT64));
        };
        a.set_dropout(static_cast<float>(c.dropout), i64(kSeed, "Seed"), i64(kOffset, "Offset"));
    }
    if (c.nested || c.padding)
        a.set_seq_len_q(int32Column(g, kSeqQ, "Seq_q", c.b)).set_seq_len_kv(int32Column(g, kSeqKv, "Seq_kv", c.b)).set_padding_mask(true);
}

// buildForward / buildBackward: the graph for case c over tensors ts, built to a plan.
inline fe::error_t
finish(fe::graph::Graph& g, cudnnHandle_t h) {
    for (auto step : {0, 1, 2, 3, 4}) {
        fe::error_t e = step == 0   ? g.validate()
                        : step == 1 ? g.build_operation_graph(h)
                        : step == 2 ? g.create_execution_plans({fe::HeurMode_t::A})
                        : step == 3 ? g.check_support(h)
                                    : g.build_plans(h);
        if (!e.is_good()) return e;
    }
    return {};
}

inline std::shared_ptr<fe::graph::Graph>
newGraph(Case const& c) {
    auto g = std::make_shared<fe::graph::Graph>();
    g->set_io_data_type(c.bf16 ? fe::DataType_t::BFLOAT16 : fe::DataType_t::HALF)
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);
    return g;
}

inline fe::error_t
buildForward(fe::graph::Graph& g, Case const& c, Tensors& ts, cudnnHandle_t h) {
    auto& t = ts.t;
    auto a  = fe::graph::SDPA_attributes().set_name("mha_driver_sdpa").set_is_inference(!c.stats);
    common(g, c, a);
    auto q = operand(g, c, kQ, "Q", t[kQ], c.hq, c.sq, c.d);
    auto k = operand(g, c, kK, "K", t[kK], c.hk, c.skv, c.d);
    auto v = operand(g, c, kV, "V", t[kV], c.hv, c.skv, c.dv);
    if (c.bias) {
        auto& bt = t[kBias];
        a.set_bias(g.tensor(TA().set_uid(kBias).set_name("bias").set_dim(bt.sizes().vec()).set_stride(bt.strides().vec())));
    }
    if (c.nested) {
        q->set_ragged_offset(int32Column(g, kRagQ, "cum_q", c.b + 1));
        k->set_ragged_offset(int32Column(g, kRagK, "cum_k", c.b + 1));
        v->set_ragged_offset(int32Column(g, kRagV, "cum_v", c.b + 1));
    }
    auto [o, stats] = g.sdpa(q, k, v, a);
    o->set_uid(kO).set_output(true).set_dim({c.b, c.hq, c.sq, c.dv}).set_stride(graphStrides(c, t[kO]));
    if (c.nested) o->set_ragged_offset(int32Column(g, kRagO, "cum_o", c.b + 1));
    if (stats) {
        stats->set_uid(kStats).set_output(true).set_data_type(fe::DataType_t::FLOAT).set_dim({c.b, c.hq, c.sq, 1});
        if (c.nested) {
            stats->set_stride({c.hq * c.sq, 1, c.hq, 1}).set_ragged_offset(int32Column(g, kRagStats, "cum_stats", c.b + 1));
        } else {
            stats->set_stride({c.hq * c.sq, c.sq, 1, 1});
        }
    }
    return finish(g, h);
}

inline fe::error_t
buildBackward(fe::graph::Graph& g, Case const& c, Tensors& ts, cudnnHandle_t h) {
    auto& t = ts.t;
    auto a  = fe::graph::SDPA_backward_attributes().set_name("mha_driver_sdpa_backward");
    common(g, c, a);
    auto q  = operand(g, c, kQ, "Q", t[kQ], c.hq, c.sq, c.d);
    auto k  = operand(g, c, kK, "K", t[kK], c.hk, c.skv, c.d);
    auto v  = operand(g, c, kV, "V", t[kV], c.hv, c.skv, c.dv);
    auto o  = operand(g, c, kO, "O", t[kO], c.hq, c.sq, c.dv);
    auto dO = operand(g, c, kdO, "dO", t[kdO], c.hq, c.sq, c.dv);
    if (c.bias) {
        auto& bt = t[kBias];
        a.set_bias(g.tensor(TA().set_uid(kBias).set_name("bias").set_dim(bt.sizes().vec()).set_stride(bt.strides().vec())));
    }
    auto stats = g.tensor(TA().set_uid(kStats).set_name("Stats").set_dim({c.b, c.hq, c.sq, 1}).set_data_type(fe::DataType_t::FLOAT)
                              .set_stride(c.nested ? std::vector<int64_t>{c.hq * c.sq, 1, c.hq, 1} : std::vector<int64_t>{c.hq * c.sq, c.sq, 1, 1}));
    TAPtr ragQ, ragK, ragV;
    if (c.nested) {
        ragQ = int32Column(g, kRagQ, "cum_q", c.b + 1);
        ragK = int32Column(g, kRagK, "cum_k", c.b + 1);
        ragV = int32Column(g, kRagV, "cum_v", c.b + 1);
        auto ragO = int32Column(g, kRagO, "cum_o", c.b + 1);
        q->set_ragged_offset(ragQ), k->set_ragged_offset(ragK), v->set_ragged_offset(ragV);
        o->set_ragged_offset(ragO), dO->set_ragged_offset(ragO);
        stats->set_ragged_offset(int32Column(g, kRagStats, "cum_stats", c.b + 1));
    }
    auto [dq, dk, dv] = g.sdpa_backward(q, k, v, o, dO, stats, a);
    dq->set_uid(kdQ).set_output(true).set_dim({c.b, c.hq, c.sq, c.d}).set_stride(graphStrides(c, t[kdQ]));
    dk->set_uid(kdK).set_output(true).set_dim({c.b, c.hk, c.skv, c.d}).set_stride(graphStrides(c, t[kdK]));
    dv->set_uid(kdV).set_output(true).set_dim({c.b, c.hv, c.skv, c.dv}).set_stride(graphStrides(c, t[kdV]));
    if (c.nested) dq->set_ragged_offset(ragQ), dk->set_ragged_offset(ragK), dv->set_ragged_offset(ragV);
    return finish(g, h);
}

// execute: runs the built graph on ts (every UID the graph has must be in ts): its chosen plan,
// or candidate plan `plan` when one is given.
inline fe::error_t
execute(fe::graph::Graph& g, Tensors& ts, cudnnHandle_t h, int64_t plan = -1) {
    std::unordered_map<int64_t, void*> pack;
    for (auto& [uid, t] : ts.t) pack[uid] = t.data_ptr();
    pack[kScale] = &ts.scale;
    auto ws      = c10::cuda::CUDACachingAllocator::get()->allocate(static_cast<size_t>(g.get_workspace_size()));
    return plan < 0 ? g.execute(h, pack, ws.get()) : g.execute_plan_at_index(h, pack, ws.get(), plan);
}

}  // namespace mha
