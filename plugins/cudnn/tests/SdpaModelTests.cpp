// Translation tests of the SDPA features lowered the way cudnn-frontend feeds cuDNN's fused
// attention: ragged (THD) tensors, paged KV caches, sink tokens, the BOTTOM_RIGHT band with
// sequence lengths, and the dbias output of the backward. No GPU: readModel only; what cuDNN
// makes of the descriptors is checked on the GPU machine (tests/device_check.sh).
#include "ModelTestGraph.hpp"

#include <hipdnn_plugin_sdk/helpers/Attention.hpp>

#include <algorithm>

namespace
{

// kinds lists the ops as in ModelTests.cpp: -1 matmul, -2 reduction, -3 reshape, -4 paged-cache
// load, else the pointwise mode.
std::vector<int> kinds(const Model& m)
{
    std::vector<int> k;
    for(const OpSpec& op : m.ops)
        k.push_back(op.kind == OpKind::Matmul            ? -1
                    : op.kind == OpKind::Reduction       ? -2
                    : op.kind == OpKind::Reshape         ? -3
                    : op.kind == OpKind::PagedCacheLoad  ? -4
                                                         : op.mode);
    return k;
}

// has reports whether `sub` occurs in `all` as a contiguous run.
bool has(const std::vector<int>& all, const std::vector<int>& sub)
{
    return std::search(all.begin(), all.end(), sub.begin(), sub.end()) != all.end();
}

int32_t intValue(const Model& m, int64_t uid)
{
    const TensorSpec* t = m.find(uid);
    int32_t v = -1;
    if(t != nullptr && t->constant && t->dtype == CUDNN_DATA_INT32)
        std::memcpy(&v, t->value.data(), sizeof v);
    return v;
}

const std::vector<int64_t> kQd{2, 2, 64, 64}, kThd{8192, 64, 128, 1}; // packed [t, h, d] per batch

// raggedFwd: Q, K, V, O (uids 1-4) packed with offsets 10, stats 5 with offsets 13, lengths 11
// and 12 (each optional); `more` adds attributes.
template <typename More>
const fbs::Graph* raggedFwd(TestGraph& g, bool lengths, More&& more, int64_t multiplier = 1)
{
    for(int64_t uid = 1; uid <= 4; ++uid)
        g.ragged(uid, fbs::DataType::BFLOAT16, kQd, kThd, 10, uid == 1 ? multiplier : 1);
    g.ragged(5, fbs::DataType::FLOAT, {2, 2, 64, 1}, {128, 1, 2, 1}, 13);
    g.tensor(10, fbs::DataType::INT32, {3}, {1});
    g.tensor(13, fbs::DataType::INT32, {3}, {1});
    g.tensor(11, fbs::DataType::INT32, {2}, {1});
    g.tensor(12, fbs::DataType::INT32, {2}, {1});
    fbs::SdpaAttributesBuilder b(g.fbb);
    b.add_q_tensor_uid(1);
    b.add_k_tensor_uid(2);
    b.add_v_tensor_uid(3);
    b.add_o_tensor_uid(4);
    b.add_stats_tensor_uid(5);
    if(lengths)
    {
        b.add_seq_len_q_tensor_uid(11);
        b.add_seq_len_kv_tensor_uid(12);
        b.add_padding_mask(true);
    }
    more(b);
    const auto attrs = b.Finish();
    g.node(fbs::NodeAttributes::SdpaAttributes, attrs.Union());
    return g.finish();
}

// pagedFwd: Q [2, 4, 16, 64] (uid 1), K and V caches [10 blocks, 2 heads, 16, 64] (2, 3), O (4),
// page tables [2, pages] (5, 6), lengths (7, 8); `more` adds attributes.
template <typename More>
const fbs::Graph* pagedFwd(TestGraph& g, int64_t pages, More&& more)
{
    g.tensor(1, fbs::DataType::HALF, {2, 4, 16, 64}, {4096, 1024, 64, 1});
    g.tensor(2, fbs::DataType::HALF, {10, 2, 16, 64}, {2048, 1024, 64, 1});
    g.tensor(3, fbs::DataType::HALF, {10, 2, 16, 64}, {2048, 1024, 64, 1});
    g.tensor(4, fbs::DataType::HALF, {2, 4, 16, 64}, {4096, 1024, 64, 1});
    g.tensor(5, fbs::DataType::INT32, {2, pages}, {pages, 1});
    g.tensor(6, fbs::DataType::INT32, {2, pages}, {pages, 1});
    g.tensor(7, fbs::DataType::INT32, {2}, {1});
    g.tensor(8, fbs::DataType::INT32, {2}, {1});
    fbs::SdpaAttributesBuilder b(g.fbb);
    b.add_q_tensor_uid(1);
    b.add_k_tensor_uid(2);
    b.add_v_tensor_uid(3);
    b.add_o_tensor_uid(4);
    b.add_page_table_k_tensor_uid(5);
    b.add_page_table_v_tensor_uid(6);
    more(b);
    const auto attrs = b.Finish();
    g.node(fbs::NodeAttributes::SdpaAttributes, attrs.Union());
    return g.finish();
}

void withLengths(fbs::SdpaAttributesBuilder& b)
{
    b.add_seq_len_q_tensor_uid(7);
    b.add_seq_len_kv_tensor_uid(8);
    b.add_padding_mask(true);
    b.add_max_seq_len_kv(48);
}

} // namespace

int main()
{
    { // ragged (THD) forward: Q, K, V, O and stats keep their offsets tensors, which become the
        // [b + 1, 1, 1, 1] cuDNN reads; K is still viewed as K^T
        TestGraph g;
        const Model m = readModel(*raggedFwd(g, true, [](fbs::SdpaAttributesBuilder&) {}));
        for(int64_t uid = 1; uid <= 4; ++uid)
            CHECK(m.find(uid)->raggedOffset == 10 && m.find(uid)->raggedTaken);
        CHECK(m.find(5)->raggedOffset == 13 && m.find(5)->raggedTaken);
        CHECK(m.find(10)->dims == std::vector<int64_t>({3, 1, 1, 1}) && m.find(10)->strides == std::vector<int64_t>({1, 1, 1, 1}));
        CHECK(m.find(13)->dims == std::vector<int64_t>({3, 1, 1, 1}) && m.find(10)->raggedOffset < 0);
        CHECK(m.find(2)->dims == std::vector<int64_t>({2, 2, 64, 64}) && m.find(2)->strides == std::vector<int64_t>({8192, 64, 1, 128}));
        CHECK(m.ops.front().kind == OpKind::Matmul && m.ops.front().mOverride == 11 && m.ops.front().nOverride == 12);
        // The offsets are part of the plan-cache key: the same graph unpacked is another plan.
        TestGraph h;
        for(int64_t uid = 1; uid <= 4; ++uid)
            h.tensor(uid, fbs::DataType::BFLOAT16, kQd, kThd);
        h.tensor(5, fbs::DataType::FLOAT, {2, 2, 64, 1}, {128, 1, 2, 1});
        h.tensor(10, fbs::DataType::INT32, {3}, {1});
        h.tensor(13, fbs::DataType::INT32, {3}, {1});
        h.tensor(11, fbs::DataType::INT32, {2}, {1});
        h.tensor(12, fbs::DataType::INT32, {2}, {1});
        fbs::SdpaAttributesBuilder b(h.fbb);
        b.add_q_tensor_uid(1);
        b.add_k_tensor_uid(2);
        b.add_v_tensor_uid(3);
        b.add_o_tensor_uid(4);
        b.add_stats_tensor_uid(5);
        b.add_seq_len_q_tensor_uid(11);
        b.add_seq_len_kv_tensor_uid(12);
        b.add_padding_mask(true);
        const auto attrs = b.Finish();
        h.node(fbs::NodeAttributes::SdpaAttributes, attrs.Union());
        const Model plain = readModel(*h.finish());
        CHECK(plain.find(1)->raggedOffset < 0 && plain.key != m.key);
    }
    { // ragged declines, each with its reason
        TestGraph g;
        CHECK(declineOf(raggedFwd(g, false, [](fbs::SdpaAttributesBuilder&) {}))
              == "sdpa: ragged (packed) tensors need seq_len_q and seq_len_kv: cuDNN masks each packed sequence by its lengths");
        TestGraph h;
        CHECK(declineOf(raggedFwd(h, true, [](fbs::SdpaAttributesBuilder&) {}, 4))
              == "tensor uid 1: ragged_offset_multiplier 4 is not supported (only 1)");
        TestGraph n; // b + 1 offsets
        for(int64_t uid = 1; uid <= 4; ++uid)
            n.ragged(uid, fbs::DataType::BFLOAT16, kQd, kThd, 10);
        n.tensor(10, fbs::DataType::INT32, {2}, {1});
        fbs::SdpaAttributesBuilder b(n.fbb);
        b.add_q_tensor_uid(1);
        b.add_k_tensor_uid(2);
        b.add_v_tensor_uid(3);
        b.add_o_tensor_uid(4);
        const auto attrs = b.Finish();
        n.node(fbs::NodeAttributes::SdpaAttributes, attrs.Union());
        CHECK(declineOf(n.finish()) == "sdpa: ragged offset tensor uid 10 must hold b + 1 = 3 offsets");
        TestGraph p; // ragged outside attention
        p.ragged(1, fbs::DataType::FLOAT, {2, 4, 8}, {32, 8, 1}, 3);
        p.tensor(2, fbs::DataType::FLOAT, {2, 4, 8}, {32, 8, 1});
        p.tensor(3, fbs::DataType::INT32, {3}, {1});
        pointwise(p, fbs::PointwiseMode::RELU_FWD, 1, -1, 2);
        CHECK(declineOf(p.finish())
              == "tensor uid 1: a ragged tensor is translated only as SDPA's Q, K, V, O, stats, max, sum_exp, dO, dQ, dK or dV");
    }
    { // ragged backward: every input and gradient keeps its offsets; so does the K view of dQ = dS.K;
        // the softmax sum and the dQ accumulator stay padded [b, h, s, *] (no max_total_seq_len)
        TestGraph g;
        for(int64_t uid = 1; uid <= 9; ++uid)
            if(uid == 6)
                g.ragged(6, fbs::DataType::FLOAT, {2, 2, 64, 1}, {128, 1, 2, 1}, 20);
            else
                g.ragged(uid, fbs::DataType::BFLOAT16, kQd, kThd, uid == 2 || uid == 3 || uid == 8 || uid == 9 ? 21 : 20);
        g.tensor(20, fbs::DataType::INT32, {3}, {1});
        g.tensor(21, fbs::DataType::INT32, {3}, {1});
        g.tensor(22, fbs::DataType::INT32, {2}, {1});
        g.tensor(23, fbs::DataType::INT32, {2}, {1});
        const Model m = readModel(*sdpaBwdNode(g, [](fbs::SdpaBackwardAttributesBuilder& b) {
            b.add_seq_len_q_tensor_uid(22);
            b.add_seq_len_kv_tensor_uid(23);
            b.add_padding_mask(true);
        }));
        for(int64_t uid = 1; uid <= 9; ++uid)
            CHECK(m.find(uid)->raggedTaken);
        const OpSpec* kView = nullptr;
        for(const OpSpec& op : m.ops)
            if(op.kind == OpKind::Reshape && op.t[0] == 2)
                kView = &op;
        CHECK(kView != nullptr && m.find(kView->t[1])->raggedOffset == 21 && m.find(kView->t[1])->raggedTaken);
        for(const TensorSpec& t : m.tensors)
            if(t.wsOffset >= 0)
                CHECK(t.raggedOffset < 0);
        CHECK(m.ops.back().mode == CUDNN_POINTWISE_IDENTITY && m.ops.back().t[3] == 7);
    }
    { // paged K and V: a paged-cache load (container, page table, seq_len_kv) into a virtual K^T
        // before Q.K^T, another into V before P.V; page tables become [b, 1, pages, 1]
        TestGraph g;
        const Model m = readModel(*pagedFwd(g, 3, withLengths));
        const std::vector<int> k = kinds(m);
        CHECK(k.size() > 3 && k[0] == -4 && k[1] == -1 && k[k.size() - 2] == -4 && k.back() == -1);
        const OpSpec& loadK = m.ops.front();
        CHECK(loadK.t[0] == 2 && loadK.t[1] == 5 && loadK.t[2] == 8);
        const TensorSpec* kT = m.find(loadK.t[3]);
        CHECK(kT != nullptr && kT->isVirtual && kT->dtype == CUDNN_DATA_HALF
              && kT->dims == std::vector<int64_t>({2, 2, 64, 48}) && kT->strides == std::vector<int64_t>({6144, 3072, 1, 64}));
        CHECK(m.ops[1].t[0] == 1 && m.ops[1].t[1] == loadK.t[3]); // Q.K^T reads the load
        const OpSpec& loadV = m.ops[m.ops.size() - 2];
        CHECK(loadV.t[0] == 3 && loadV.t[1] == 6 && loadV.t[2] == 8);
        const TensorSpec* v = m.find(loadV.t[3]);
        CHECK(v != nullptr && v->dims == std::vector<int64_t>({2, 2, 48, 64})
              && v->strides == std::vector<int64_t>({6144, 3072, 64, 1}));
        CHECK(m.ops.back().t[1] == loadV.t[3] && m.ops.back().t[2] == 4);
        CHECK(m.find(2)->dims == std::vector<int64_t>({10, 2, 16, 64})); // the container is not transposed
        CHECK(m.find(5)->dims == std::vector<int64_t>({2, 1, 3, 1}) && m.find(5)->strides == std::vector<int64_t>({3, 3, 1, 1}));
        CHECK(m.find(8)->dims == std::vector<int64_t>({2, 1, 1, 1}));
        const OpSpec* bmm1 = &m.ops[1];
        CHECK(bmm1->mOverride == 7 && bmm1->nOverride == 8);
        // Without max_seq_len_kv, s_kv is what the page tables address: 3 pages of 16.
        TestGraph h;
        const Model n = readModel(*pagedFwd(h, 3, [](fbs::SdpaAttributesBuilder& b) {
            b.add_seq_len_q_tensor_uid(7);
            b.add_seq_len_kv_tensor_uid(8);
        }));
        CHECK(n.find(n.ops.front().t[3])->dims == std::vector<int64_t>({2, 2, 64, 48}));
    }
    { // paged declines, each with its reason
        TestGraph g;
        CHECK(declineOf(pagedFwd(g, 3, [](fbs::SdpaAttributesBuilder& b) { b.add_max_seq_len_kv(48); }))
              == "sdpa: a paged KV cache needs seq_len_q and seq_len_kv (cuDNN loads each batch's pages up to its length "
                 "and masks by both)");
        TestGraph h;
        CHECK(declineOf(pagedFwd(h, 4, withLengths))
              == "sdpa: the page table of K has 4 pages, but s_kv 48 in blocks of 16 needs 3 (cuDNN's paged-cache load "
                 "takes exactly those)");
    }
    { // sink tokens ([h] becomes [1, h, 1, 1]) in the softmax as cudnn-frontend builds it for cuDNN
        // 9.13+: max(row max, sink), exp(S - max), sum + exp(sink - max), stats = max + log(sum)
        TestGraph g;
        g.tensor(20, fbs::DataType::FLOAT, {4}, {1});
        const Model m = readModel(*sdpaGraph(g, fbs::DataType::BFLOAT16, {1, 4, 64, 64}, {16384, 4096, 64, 1},
                                             [](fbs::SdpaAttributesBuilder& b) { b.add_sink_token_tensor_uid(20); }));
        CHECK(m.find(20)->dims == std::vector<int64_t>({1, 4, 1, 1}) && m.find(20)->strides == std::vector<int64_t>({4, 1, 1, 1}));
        const std::vector<int> want{-1,
                                    CUDNN_POINTWISE_MUL,
                                    -2,
                                    CUDNN_POINTWISE_MAX,
                                    CUDNN_POINTWISE_SUB,
                                    CUDNN_POINTWISE_EXP,
                                    CUDNN_POINTWISE_SUB,
                                    CUDNN_POINTWISE_EXP,
                                    -2,
                                    CUDNN_POINTWISE_ADD,
                                    CUDNN_POINTWISE_LOG,
                                    CUDNN_POINTWISE_ADD,
                                    CUDNN_POINTWISE_DIV,
                                    -1};
        CHECK(kinds(m) == want);
        if(kinds(m) == want)
        {
            const int64_t mx = m.ops[3].t[3];
            CHECK(m.ops[3].t[0] == m.ops[2].t[1] && m.ops[3].t[1] == 20); // max(row max, sink)
            CHECK(m.ops[4].t[1] == mx && m.ops[6].t[0] == 20 && m.ops[6].t[1] == mx); // S - max, sink - max
            CHECK(m.ops[9].t[0] == m.ops[8].t[1] && m.ops[9].t[1] == m.ops[7].t[3]); // sum + exp(sink - max)
            CHECK(m.ops[10].t[0] == m.ops[9].t[3] && m.ops[11].t[0] == mx); // stats from the full sum and max
            CHECK(m.ops[12].t[1] == m.ops[9].t[3]); // P = exp / full sum
        }
        TestGraph h;
        h.tensor(20, fbs::DataType::FLOAT, {3}, {1});
        CHECK(declineOf(sdpaGraph(h, fbs::DataType::BFLOAT16, {1, 4, 64, 64}, {16384, 4096, 64, 1},
                                  [](fbs::SdpaAttributesBuilder& b) { b.add_sink_token_tensor_uid(20); }))
              == "sdpa: sink_token must hold one value per query head (4)");
    }
    { // ALiBi after the scale, as cudnn-frontend's alibi_mask score modifier: int32 gen_index rows
        // and columns, col - row, times the slopes (a [1, h, 1, 1] device constant), added to S
        TestGraph g;
        const Model m = readModel(*sdpaGraph(g, fbs::DataType::HALF, {2, 6, 64, 64}, {24576, 4096, 64, 1},
                                             [](fbs::SdpaAttributesBuilder& b) {
                                                 b.add_causal_mask(true);
                                                 b.add_alibi_mask(true);
                                             }));
        const std::vector<int> k = kinds(m);
        const std::vector<int> want{-1,
                                    CUDNN_POINTWISE_MUL,
                                    CUDNN_POINTWISE_GEN_INDEX,
                                    CUDNN_POINTWISE_GEN_INDEX,
                                    CUDNN_POINTWISE_SUB,
                                    CUDNN_POINTWISE_MUL,
                                    CUDNN_POINTWISE_ADD};
        CHECK(k.size() > want.size() && std::equal(want.begin(), want.end(), k.begin()));
        if(k.size() > want.size() && std::equal(want.begin(), want.end(), k.begin()))
        {
            CHECK(m.ops[2].axis == 2 && m.ops[3].axis == 3 && m.ops[2].compute == CUDNN_DATA_INT32
                  && m.ops[4].compute == CUDNN_DATA_INT32);
            CHECK(m.ops[4].t[0] == m.ops[3].t[3] && m.ops[4].t[1] == m.ops[2].t[3]); // col - row
            const TensorSpec* slopes = m.find(m.ops[5].t[1]);
            CHECK(slopes != nullptr && !slopes->isVirtual && slopes->dims == std::vector<int64_t>({1, 6, 1, 1})
                  && slopes->deviceValues == hipdnn_plugin_sdk::alibiSlopes(6));
            CHECK(m.ops[6].t[0] == m.ops[1].t[3] && m.ops[6].t[1] == m.ops[5].t[3]); // S + slope * (col - row)
        }
        // cudnn-frontend builds ALiBi only with a top-left causal mask.
        TestGraph h, i;
        CHECK(declineOf(sdpaGraph(h, fbs::DataType::HALF, {2, 6, 64, 64}, {24576, 4096, 64, 1},
                                  [](fbs::SdpaAttributesBuilder& b) { b.add_alibi_mask(true); }))
              == "sdpa: ALiBi without a top-left causal mask (the only ALiBi cudnn-frontend builds) is not translated to "
                 "cuDNN by this engine yet");
        CHECK(declineOf(sdpaGraph(i, fbs::DataType::HALF, {2, 6, 64, 64}, {24576, 4096, 64, 1},
                                  [](fbs::SdpaAttributesBuilder& b) {
                                      b.add_alibi_mask(true);
                                      b.add_causal_mask_bottom_right(true);
                                  }))
              == "sdpa: ALiBi without a top-left causal mask (the only ALiBi cudnn-frontend builds) is not translated to "
                 "cuDNN by this engine yet");
    }
    { // max and sum_exp outputs instead of stats (cudnn-frontend's softmax before cuDNN 9.21): the
        // row max reduces straight into Max, the sum of exp(S - max) into Sum_exp, no log / add
        TestGraph g;
        g.tensor(21, fbs::DataType::FLOAT, {1, 4, 64, 1}, {256, 64, 1, 1});
        g.tensor(22, fbs::DataType::FLOAT, {1, 4, 64, 1}, {256, 64, 1, 1});
        const Model m = readModel(*sdpaGraph(g, fbs::DataType::BFLOAT16, {1, 4, 64, 64}, {16384, 4096, 64, 1},
                                             [](fbs::SdpaAttributesBuilder& b) {
                                                 b.add_max_tensor_uid(21);
                                                 b.add_sum_exp_tensor_uid(22);
                                             }));
        const std::vector<int> want{-1, CUDNN_POINTWISE_MUL, -2, CUDNN_POINTWISE_SUB, CUDNN_POINTWISE_EXP, -2, CUDNN_POINTWISE_DIV, -1};
        CHECK(kinds(m) == want);
        if(kinds(m) == want)
        {
            CHECK(m.ops[2].t[1] == 21 && m.ops[3].t[1] == 21); // max into Max, S - Max
            CHECK(m.ops[5].t[1] == 22 && m.ops[6].t[1] == 22); // sum into Sum_exp, exp / Sum_exp
        }
        // With a sink: max(row max, sink) and sum + exp(sink - max) are the outputs.
        TestGraph h;
        h.tensor(20, fbs::DataType::FLOAT, {1, 4, 1, 1}, {4, 1, 1, 1});
        h.tensor(21, fbs::DataType::FLOAT, {1, 4, 64, 1}, {256, 64, 1, 1});
        h.tensor(22, fbs::DataType::FLOAT, {1, 4, 64, 1}, {256, 64, 1, 1});
        const Model n = readModel(*sdpaGraph(h, fbs::DataType::BFLOAT16, {1, 4, 64, 64}, {16384, 4096, 64, 1},
                                             [](fbs::SdpaAttributesBuilder& b) {
                                                 b.add_sink_token_tensor_uid(20);
                                                 b.add_max_tensor_uid(21);
                                                 b.add_sum_exp_tensor_uid(22);
                                             }));
        const std::vector<int> sinkWant{-1,
                                        CUDNN_POINTWISE_MUL,
                                        -2,
                                        CUDNN_POINTWISE_MAX,
                                        CUDNN_POINTWISE_SUB,
                                        CUDNN_POINTWISE_EXP,
                                        CUDNN_POINTWISE_SUB,
                                        CUDNN_POINTWISE_EXP,
                                        -2,
                                        CUDNN_POINTWISE_ADD,
                                        CUDNN_POINTWISE_DIV,
                                        -1};
        CHECK(kinds(n) == sinkWant);
        if(kinds(n) == sinkWant)
        {
            CHECK(n.ops[2].t[1] != 21 && n.ops[3].t[3] == 21); // Max = max(row max, sink)
            CHECK(n.ops[8].t[1] != 22 && n.ops[9].t[3] == 22 && n.ops[10].t[1] == 22); // Sum_exp includes the sink
        }
        // What cuDNN's softmax cannot write: one without the other, both with stats, fp16.
        TestGraph d1, d2, d3;
        for(TestGraph* t : {&d1, &d2, &d3})
        {
            t->tensor(5, fbs::DataType::FLOAT, {1, 4, 64, 1}, {256, 64, 1, 1});
            t->tensor(21, fbs::DataType::FLOAT, {1, 4, 64, 1}, {256, 64, 1, 1});
            t->tensor(22, t == &d3 ? fbs::DataType::HALF : fbs::DataType::FLOAT, {1, 4, 64, 1}, {256, 64, 1, 1});
        }
        CHECK(declineOf(sdpaGraph(d1, fbs::DataType::BFLOAT16, {1, 4, 64, 64}, {16384, 4096, 64, 1},
                                  [](fbs::SdpaAttributesBuilder& b) { b.add_max_tensor_uid(21); }))
              == "sdpa: a max output without sum_exp, or sum_exp without max (cuDNN's softmax writes both or neither) is not "
                 "translated to cuDNN by this engine yet");
        CHECK(declineOf(sdpaGraph(d2, fbs::DataType::BFLOAT16, {1, 4, 64, 64}, {16384, 4096, 64, 1},
                                  [](fbs::SdpaAttributesBuilder& b) {
                                      b.add_stats_tensor_uid(5);
                                      b.add_max_tensor_uid(21);
                                      b.add_sum_exp_tensor_uid(22);
                                  }))
              == "sdpa: stats together with max and sum_exp (cuDNN before 9.21 writes one or the other) is not translated to "
                 "cuDNN by this engine yet");
        CHECK(declineOf(sdpaGraph(d3, fbs::DataType::BFLOAT16, {1, 4, 64, 64}, {16384, 4096, 64, 1},
                                  [](fbs::SdpaAttributesBuilder& b) {
                                      b.add_max_tensor_uid(21);
                                      b.add_sum_exp_tensor_uid(22);
                                  }))
              == "sdpa: sum_exp must be fp32 (cuDNN writes it as fp32)");
    }
    { // BOTTOM_RIGHT band with sequence lengths: the diagonal moves per batch, row + s_kv - s_q >= col
        // (right bound 0) and col + (left + 1) - s_kv + s_q > row (left bound 8), after the padding
        TestGraph g;
        g.tensor(5, fbs::DataType::INT32, {2}, {1});
        g.tensor(6, fbs::DataType::INT32, {2}, {1});
        const Model m = readModel(*sdpaGraph(g, fbs::DataType::HALF, {2, 4, 32, 64}, {8192, 2048, 64, 1},
                                             [](fbs::SdpaAttributesBuilder& b) {
                                                 b.add_seq_len_q_tensor_uid(5);
                                                 b.add_seq_len_kv_tensor_uid(6);
                                                 b.add_padding_mask(true);
                                                 b.add_diagonal_alignment(fbs::DiagonalAlignment::BOTTOM_RIGHT);
                                                 b.add_left_bound(8);
                                                 b.add_right_bound(0);
                                             }));
        const std::vector<int> k = kinds(m);
        const std::vector<int> band{CUDNN_POINTWISE_GEN_INDEX,     CUDNN_POINTWISE_GEN_INDEX, CUDNN_POINTWISE_ADD,
                                    CUDNN_POINTWISE_SUB,           CUDNN_POINTWISE_CMP_GE,    CUDNN_POINTWISE_BINARY_SELECT,
                                    CUDNN_POINTWISE_ADD,           CUDNN_POINTWISE_SUB,       CUDNN_POINTWISE_ADD,
                                    CUDNN_POINTWISE_CMP_GT,        CUDNN_POINTWISE_BINARY_SELECT, -2};
        CHECK(has(k, band));
        const auto at = std::search(k.begin(), k.end(), band.begin(), band.end()) - k.begin();
        if(at + band.size() <= m.ops.size())
        {
            const OpSpec* o = &m.ops[static_cast<size_t>(at)];
            const int64_t row = o[0].t[3], col = o[1].t[3];
            CHECK(o[2].t[0] == row && o[2].t[1] == 6 && o[2].compute == CUDNN_DATA_INT32); // + s_kv
            CHECK(o[3].t[0] == o[2].t[3] && o[3].t[1] == 5); // - s_q
            CHECK(o[4].t[0] == o[3].t[3] && o[4].t[1] == col);
            CHECK(o[6].t[0] == col && intValue(m, o[6].t[1]) == 9); // col + (left + 1)
            CHECK(o[7].t[1] == 6 && o[8].t[1] == 5 && o[9].t[0] == o[8].t[3] && o[9].t[1] == row);
        }
        // Only seq_len_kv: s_q is the extent, an int32 constant 32.
        TestGraph h;
        h.tensor(6, fbs::DataType::INT32, {2}, {1});
        const Model n = readModel(*sdpaGraph(h, fbs::DataType::HALF, {2, 4, 32, 64}, {8192, 2048, 64, 1},
                                             [](fbs::SdpaAttributesBuilder& b) {
                                                 b.add_seq_len_kv_tensor_uid(6);
                                                 b.add_causal_mask_bottom_right(true);
                                             }));
        bool sawExtent = false;
        for(const OpSpec& op : n.ops)
            sawExtent = sawExtent || (op.mode == CUDNN_POINTWISE_SUB && op.compute == CUDNN_DATA_INT32 && intValue(n, op.t[1]) == 32);
        CHECK(sawExtent);
    }
    { // the backward takes the same per-batch band
        TestGraph g;
        for(int64_t uid = 1; uid <= 9; ++uid)
            g.tensor(uid, uid == 6 ? fbs::DataType::FLOAT : fbs::DataType::HALF,
                     uid == 6 ? std::vector<int64_t>{2, 2, 32, 1} : std::vector<int64_t>{2, 2, 32, 64},
                     uid == 6 ? std::vector<int64_t>{64, 32, 1, 1} : std::vector<int64_t>{4096, 2048, 64, 1});
        g.tensor(10, fbs::DataType::INT32, {2}, {1});
        g.tensor(11, fbs::DataType::INT32, {2}, {1});
        const Model m = readModel(*sdpaBwdNode(g, [](fbs::SdpaBackwardAttributesBuilder& b) {
            b.add_seq_len_q_tensor_uid(10);
            b.add_seq_len_kv_tensor_uid(11);
            b.add_causal_mask_bottom_right(true);
        }));
        CHECK(has(kinds(m), {CUDNN_POINTWISE_ADD, CUDNN_POINTWISE_SUB, CUDNN_POINTWISE_CMP_GE, CUDNN_POINTWISE_BINARY_SELECT,
                             CUDNN_POINTWISE_EXP}));
    }
    { // dbias: dS before the softmax scale, summed into dbias over the dims the bias broadcasts;
        // dQ = dS.K then goes straight into dQ (cuDNN's dP-workspace form), no fp32 accumulator
        TestGraph g;
        for(int64_t uid = 1; uid <= 9; ++uid)
            g.tensor(uid, uid == 6 ? fbs::DataType::FLOAT : fbs::DataType::HALF,
                     uid == 6 ? std::vector<int64_t>{2, 2, 32, 1} : std::vector<int64_t>{2, 2, 32, 64},
                     uid == 6 ? std::vector<int64_t>{64, 32, 1, 1} : std::vector<int64_t>{4096, 2048, 64, 1});
        g.tensor(10, fbs::DataType::HALF, {1, 2, 32, 32}, {2048, 1024, 32, 1}); // bias
        g.tensor(11, fbs::DataType::HALF, {1, 2, 32, 32}, {2048, 1024, 32, 1}); // dbias
        const Model m = readModel(*sdpaBwdNode(g, [](fbs::SdpaBackwardAttributesBuilder& b) {
            b.add_attn_mask_tensor_uid(10);
            b.add_dbias_tensor_uid(11);
            b.add_attn_scale_value(0.125f);
        }));
        size_t red = m.ops.size();
        for(size_t i = 0; i < m.ops.size(); ++i)
            if(m.ops[i].kind == OpKind::Reduction && m.ops[i].t[1] == 11)
                red = i;
        CHECK(red + 1 < m.ops.size());
        if(red + 1 < m.ops.size())
        {
            const OpSpec& scaled = m.ops[red + 1]; // the scale comes after the dbias reduction
            const TensorSpec* sc = m.find(scaled.t[1]);
            float v = 0;
            if(sc != nullptr && sc->constant)
                std::memcpy(&v, sc->value.data(), sizeof v);
            CHECK(scaled.mode == CUDNN_POINTWISE_MUL && scaled.t[0] == m.ops[red].t[0] && v == 0.125f);
            CHECK(m.ops[red - 1].mode == CUDNN_POINTWISE_MUL && m.ops[red - 1].t[3] == m.ops[red].t[0]); // dS = (dP - Δ)·P
        }
        CHECK(m.ops.back().kind == OpKind::Matmul && m.ops.back().t[2] == 7);
        int ws = 0;
        for(const TensorSpec& t : m.tensors)
            ws += t.wsOffset >= 0;
        CHECK(ws == 1 && m.wsBytes == 2 * 2 * 32 * 4); // the softmax sum only
        TestGraph h;
        for(int64_t uid = 1; uid <= 9; ++uid)
            h.tensor(uid, uid == 6 ? fbs::DataType::FLOAT : fbs::DataType::HALF,
                     uid == 6 ? std::vector<int64_t>{2, 2, 32, 1} : std::vector<int64_t>{2, 2, 32, 64},
                     uid == 6 ? std::vector<int64_t>{64, 32, 1, 1} : std::vector<int64_t>{4096, 2048, 64, 1});
        h.tensor(11, fbs::DataType::HALF, {1, 2, 32, 16}, {1024, 512, 16, 1});
        CHECK(declineOf(sdpaBwdNode(h, [](fbs::SdpaBackwardAttributesBuilder& b) { b.add_dbias_tensor_uid(11); }))
              == "sdpa backward: dbias must be [1 or b, 1 or h_q, s_q, s_kv]");
    }
    { // cuDNN's single SDPA forward operation (9.13.1+): nodes with implementation AUTO that fit
        // it (no masks, bias, dropout, lengths; fp16 / bf16) take it, as cudnn-frontend's AUTO does
        auto unifiedDecline = [](const fbs::Graph* graph) -> std::string {
            try
            {
                readModel(*graph, true);
            }
            catch(const Unsupported& e)
            {
                return e.what();
            }
            return "";
        };
        auto hasSdpaOp = [](const Model& m) {
            return std::any_of(m.ops.begin(), m.ops.end(), [](const OpSpec& op) { return op.kind == OpKind::SdpaFwd; });
        };
        const std::vector<int64_t> d{1, 4, 64, 64}, st{16384, 4096, 64, 1};
        TestGraph g;
        g.tensor(5, fbs::DataType::FLOAT, {1, 4, 64, 1}, {256, 64, 1, 1});
        const fbs::Graph* fits = sdpaGraph(g, fbs::DataType::BFLOAT16, d, st, [](fbs::SdpaAttributesBuilder& b) { b.add_stats_tensor_uid(5); });
        const Model m = readModel(*fits, true);
        CHECK(m.ops.size() == 1 && m.ops[0].kind == OpKind::SdpaFwd && m.unifiedSdpaAuto);
        if(m.ops.size() == 1)
        {
            const OpSpec& op = m.ops[0];
            CHECK(op.t[0] == 1 && op.t[1] == 2 && op.t[2] == 3 && op.t[3] == 4 && op.t[4] == 5);
            const TensorSpec* sc = m.find(op.t[5]);
            float v = 0;
            if(sc != nullptr && sc->constant && sc->byValue)
                std::memcpy(&v, sc->value.data(), sizeof v);
            CHECK(v == 0.125f); // 1 / sqrt(64)
            CHECK(m.find(2)->dims == d && m.find(2)->strides == st); // K as given, not a transposed view
        }
        const Model c = readModel(*fits, false); // a cuDNN before 9.13.1: the composite pattern
        CHECK(c.ops.size() > 1 && !hasSdpaOp(c) && !c.unifiedSdpaAuto);
        CHECK(m.key != c.key);
        TestGraph h; // inference: no stats output
        const Model n = readModel(*sdpaGraph(h, fbs::DataType::HALF, d, st, [](fbs::SdpaAttributesBuilder&) {}), true);
        CHECK(n.ops.size() == 1 && n.ops[0].kind == OpKind::SdpaFwd && n.ops[0].t[4] == -1);
        TestGraph k; // COMPOSITE asks for the pattern
        CHECK(!hasSdpaOp(readModel(*sdpaGraph(k, fbs::DataType::HALF, d, st,
                                              [](fbs::SdpaAttributesBuilder& b) {
                                                  b.add_implementation(fbs::AttentionImplementation::COMPOSITE);
                                              }),
                                   true)));
        TestGraph cz; // a causal mask needs cuDNN 9.21 on the single operation: the pattern
        const Model z = readModel(*sdpaGraph(cz, fbs::DataType::HALF, d, st, [](fbs::SdpaAttributesBuilder& b) { b.add_causal_mask(true); }),
                                  true);
        CHECK(!hasSdpaOp(z) && !z.unifiedSdpaAuto);
        TestGraph f; // fp32 Q: the pattern
        CHECK(!hasSdpaOp(readModel(*sdpaGraph(f, fbs::DataType::FLOAT, d, st, [](fbs::SdpaAttributesBuilder&) {}), true)));
        TestGraph u; // UNIFIED: the operation, or declined with the feature it lacks
        const Model un = readModel(*sdpaGraph(u, fbs::DataType::HALF, d, st,
                                              [](fbs::SdpaAttributesBuilder& b) {
                                                  b.add_implementation(fbs::AttentionImplementation::UNIFIED);
                                              }),
                                   true);
        CHECK(un.ops.size() == 1 && un.ops[0].kind == OpKind::SdpaFwd && !un.unifiedSdpaAuto);
        TestGraph ub;
        const fbs::Graph* unifiedCausal = sdpaGraph(ub, fbs::DataType::HALF, d, st, [](fbs::SdpaAttributesBuilder& b) {
            b.add_implementation(fbs::AttentionImplementation::UNIFIED);
            b.add_causal_mask(true);
        });
        CHECK(unifiedDecline(unifiedCausal)
              == "sdpa: implementation UNIFIED with a causal or band mask (cuDNN's single SDPA operation takes neither "
                 "before 9.21; implementation AUTO or COMPOSITE runs it as the composite pattern)");
        TestGraph uo;
        CHECK(declineOf(sdpaGraph(uo, fbs::DataType::HALF, d, st,
                                  [](fbs::SdpaAttributesBuilder& b) { b.add_implementation(fbs::AttentionImplementation::UNIFIED); }))
              == "sdpa: implementation UNIFIED needs cuDNN's single SDPA operation, which the loaded cuDNN does not have "
                 "(9.13.1 or newer)");
    }
    return check_finish("hipdnn_cudnn_sdpa_model_tests");
}
