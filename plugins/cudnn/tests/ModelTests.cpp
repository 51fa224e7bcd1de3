// Translation tests that need no GPU: readModel (FlatBuffer -> the engine's model) on the graph
// shapes the plugin supports, checked op by op. The cuDNN descriptors themselves are built only
// on a GPU machine (tests/device_check.sh).
#include "ModelTestGraph.hpp"

int main()
{
    { // conv -> bias -> ReLU, NHWC fp16
        TestGraph g;
        g.tensor(1, fbs::DataType::HALF, {2, 8, 4, 4}, {128, 1, 32, 8});
        g.tensor(2, fbs::DataType::HALF, {16, 8, 3, 3}, {72, 1, 24, 8});
        g.tensor(3, fbs::DataType::FLOAT, {2, 16, 4, 4}, {256, 1, 64, 16}, true);
        g.tensor(4, fbs::DataType::HALF, {1, 16, 1, 1}, {16, 1, 16, 16});
        g.tensor(5, fbs::DataType::FLOAT, {2, 16, 4, 4}, {256, 1, 64, 16}, true);
        g.tensor(6, fbs::DataType::HALF, {2, 16, 4, 4}, {256, 1, 64, 16});
        const std::vector<int64_t> pad{1, 1}, one{1, 1};
        g.node(fbs::NodeAttributes::ConvolutionFwdAttributes,
               fbs::CreateConvolutionFwdAttributesDirect(g.fbb, 1, 2, 3, &pad, &pad, &one, &one, fbs::ConvMode::CROSS_CORRELATION)
                   .Union());
        pointwise(g, fbs::PointwiseMode::ADD, 3, 4, 5);
        pointwise(g, fbs::PointwiseMode::RELU_FWD, 5, -1, 6);
        const Model m = readModel(*g.finish());
        CHECK(m.rank == 4);
        CHECK(m.ops.size() == 3);
        CHECK(m.ops[0].kind == OpKind::ConvFwd && m.ops[0].mode == CUDNN_CROSS_CORRELATION);
        CHECK(m.ops[1].mode == CUDNN_POINTWISE_ADD && m.ops[1].t[1] == 4 && m.ops[1].t[3] == 5);
        CHECK(m.ops[2].mode == CUDNN_POINTWISE_RELU_FWD && m.ops[2].t[1] == -1);
        CHECK(m.find(3)->isVirtual && m.find(1)->dtype == CUDNN_DATA_HALF);
        CHECK(m.summary == "conv_fwd+pointwise(ADD)+pointwise(RELU_FWD)");
        // The cache key ignores nothing that matters: another stride is another key.
        TestGraph g2;
        g2.tensor(1, fbs::DataType::FLOAT, {4}, {1});
        g2.tensor(2, fbs::DataType::FLOAT, {4}, {1});
        pointwise(g2, fbs::PointwiseMode::RELU_FWD, 1, -1, 2);
        const Model a = readModel(*g2.finish());
        CHECK(a.rank == 3 && a.find(1)->dims == std::vector<int64_t>({1, 1, 4}));
        CHECK(a.key != m.key);
        // The TF32 rule's facts: a half conv and an fp32 ReLU have no TF32 risk.
        CHECK(!m.fp32Gemm && !m.fp32Matmul && !a.fp32Gemm && !a.fp32Matmul);
    }
    { // SQRT is unary, though cuDNN numbers it among the binary modes
        TestGraph g;
        g.tensor(1, fbs::DataType::FLOAT, {2, 3, 4}, {12, 4, 1});
        g.tensor(2, fbs::DataType::FLOAT, {2, 3, 4}, {12, 4, 1});
        pointwise(g, fbs::PointwiseMode::SQRT, 1, -1, 2);
        const Model m = readModel(*g.finish());
        CHECK(m.ops.size() == 1 && m.ops[0].mode == CUDNN_POINTWISE_SQRT && m.ops[0].t[0] == 1 && m.ops[0].t[1] == -1
              && m.ops[0].t[3] == 2);
    }
    { // rank-2 matmul: padded to rank 3
        TestGraph g;
        g.tensor(1, fbs::DataType::BFLOAT16, {8, 16}, {16, 1});
        g.tensor(2, fbs::DataType::BFLOAT16, {16, 4}, {4, 1});
        g.tensor(3, fbs::DataType::BFLOAT16, {8, 4}, {4, 1});
        g.node(fbs::NodeAttributes::MatmulAttributes, fbs::CreateMatmulAttributes(g.fbb, 1, 2, 3).Union());
        const Model m = readModel(*g.finish());
        CHECK(m.rank == 3 && m.find(2)->dims == std::vector<int64_t>({1, 16, 4}));
        CHECK(m.ops.size() == 1 && m.ops[0].kind == OpKind::Matmul);
        CHECK(!m.fp32Gemm && !m.fp32Matmul); // bf16
        TestGraph f;
        f.tensor(1, fbs::DataType::FLOAT, {8, 16}, {16, 1});
        f.tensor(2, fbs::DataType::FLOAT, {16, 4}, {4, 1});
        f.tensor(3, fbs::DataType::FLOAT, {8, 4}, {4, 1});
        f.node(fbs::NodeAttributes::MatmulAttributes, fbs::CreateMatmulAttributes(f.fbb, 1, 2, 3).Union());
        const Model mf = readModel(*f.finish());
        CHECK(mf.fp32Gemm && mf.fp32Matmul); // fp32 matmul: TF32 configs are kept out
    }
    { // batch broadcast: A [8, 16] against B [3, 16, 4] runs (A is [1, 8, 16] after rank padding);
        // B broadcast is declined (cuDNN 9.14 reads B past its batch)
        TestGraph g;
        g.tensor(1, fbs::DataType::BFLOAT16, {8, 16}, {16, 1});
        g.tensor(2, fbs::DataType::BFLOAT16, {3, 16, 4}, {64, 4, 1});
        g.tensor(3, fbs::DataType::BFLOAT16, {3, 8, 4}, {32, 4, 1});
        g.node(fbs::NodeAttributes::MatmulAttributes, fbs::CreateMatmulAttributes(g.fbb, 1, 2, 3).Union());
        const Model m = readModel(*g.finish());
        CHECK(m.ops.size() == 1 && m.find(1)->dims == std::vector<int64_t>({1, 8, 16}));
        TestGraph h;
        h.tensor(1, fbs::DataType::BFLOAT16, {3, 8, 16}, {128, 16, 1});
        h.tensor(2, fbs::DataType::BFLOAT16, {16, 4}, {4, 1});
        h.tensor(3, fbs::DataType::BFLOAT16, {3, 8, 4}, {32, 4, 1});
        h.node(fbs::NodeAttributes::MatmulAttributes, fbs::CreateMatmulAttributes(h.fbb, 1, 2, 3).Union());
        CHECK(throwsUnsupported(h.finish(), "matmul with B broadcast over a batch dimension (A 3 vs B 1)"));
        TestGraph q; // attention's own matmuls broadcast K and V over query heads (MQA): not this rule's
        q.tensor(1, fbs::DataType::HALF, {1, 4, 32, 16}, {2048, 512, 16, 1});
        q.tensor(2, fbs::DataType::HALF, {1, 1, 32, 16}, {512, 512, 16, 1});
        q.tensor(3, fbs::DataType::HALF, {1, 1, 32, 16}, {512, 512, 16, 1});
        q.tensor(4, fbs::DataType::HALF, {1, 4, 32, 16}, {2048, 512, 16, 1});
        fbs::SdpaAttributesBuilder sb(q.fbb);
        sb.add_q_tensor_uid(1);
        sb.add_k_tensor_uid(2);
        sb.add_v_tensor_uid(3);
        sb.add_o_tensor_uid(4);
        const auto sattrs = sb.Finish();
        q.node(fbs::NodeAttributes::SdpaAttributes, sattrs.Union());
        CHECK(readModel(*q.finish()).summary == "sdpa_fwd");
    }
    { // SDPA causal with stats: the fused-attention op pattern, K transposed in place
        TestGraph g;
        g.tensor(5, fbs::DataType::FLOAT, {2, 4, 32, 1}, {128, 32, 1, 1});
        const fbs::Graph* graph =
            sdpaGraph(g, fbs::DataType::HALF, {2, 4, 32, 16}, {2048, 512, 16, 1}, [](fbs::SdpaAttributesBuilder& b) {
                b.add_stats_tensor_uid(5);
                b.add_causal_mask(true);
                b.add_attn_scale_value(0.25f);
            });
        const Model m = readModel(*graph);
        CHECK(m.find(2)->dims == std::vector<int64_t>({2, 4, 16, 32}));
        CHECK(m.find(2)->strides == std::vector<int64_t>({2048, 512, 1, 16}));
        std::vector<int> kinds;
        for(const OpSpec& op : m.ops)
            kinds.push_back(op.kind == OpKind::Matmul ? -1 : op.kind == OpKind::Reduction ? -2 : op.mode);
        const std::vector<int> want{-1,
                                    CUDNN_POINTWISE_MUL,
                                    CUDNN_POINTWISE_GEN_INDEX,
                                    CUDNN_POINTWISE_GEN_INDEX,
                                    CUDNN_POINTWISE_CMP_GE,
                                    CUDNN_POINTWISE_BINARY_SELECT,
                                    -2,
                                    CUDNN_POINTWISE_SUB,
                                    CUDNN_POINTWISE_EXP,
                                    -2,
                                    CUDNN_POINTWISE_LOG,
                                    CUDNN_POINTWISE_ADD,
                                    CUDNN_POINTWISE_DIV,
                                    -1};
        CHECK(kinds == want);
        CHECK(m.ops.back().t[1] == 3 && m.ops.back().t[2] == 4);
        CHECK(m.ops[11].t[3] == 5); // stats = max + log(sum)
    }
    { // SDPA without a stats output still computes them, into a virtual fp32 tensor: cuDNN
        // recognises fused attention only with the max + log(sum) pair in the graph
        TestGraph g;
        const Model m = readModel(
            *sdpaGraph(g, fbs::DataType::BFLOAT16, {1, 2, 64, 64}, {8192, 4096, 64, 1}, [](fbs::SdpaAttributesBuilder&) {}));
        const OpSpec* add = nullptr;
        for(size_t i = 1; i < m.ops.size(); ++i)
            if(m.ops[i - 1].mode == CUDNN_POINTWISE_LOG && m.ops[i].mode == CUDNN_POINTWISE_ADD)
                add = &m.ops[i];
        CHECK(add != nullptr);
        const TensorSpec* stats = add ? m.find(add->t[3]) : nullptr;
        CHECK(stats != nullptr && stats->isVirtual && stats->dtype == CUDNN_DATA_FLOAT
              && stats->dims == std::vector<int64_t>({1, 2, 64, 1}));
        const TensorSpec* p = m.find(m.ops.back().t[0]);
        CHECK(p != nullptr && p->dtype == CUDNN_DATA_BFLOAT16); // probabilities in Q's type
        // No scale given: hipDNN's default 1/sqrt(d) = 0.125, a by-value constant after Q.K^T.
        CHECK(m.ops.size() > 1 && m.ops[1].mode == CUDNN_POINTWISE_MUL);
        const TensorSpec* sc = m.ops.size() > 1 ? m.find(m.ops[1].t[1]) : nullptr;
        float scale = 0;
        if(sc != nullptr && sc->constant)
            std::memcpy(&scale, sc->value.data(), sizeof scale);
        CHECK(scale == 0.125f);
    }
    { // SDPA stats must be fp32, as cuDNN writes them
        TestGraph g;
        g.tensor(5, fbs::DataType::BFLOAT16, {1, 2, 64, 1}, {128, 64, 1, 1});
        CHECK(throwsUnsupported(sdpaGraph(g, fbs::DataType::BFLOAT16, {1, 2, 64, 64}, {8192, 4096, 64, 1},
                                          [](fbs::SdpaAttributesBuilder& b) { b.add_stats_tensor_uid(5); }),
                                "stats must be fp32"));
    }
    { // values beyond this build's schema (a newer writer's, kept by the host) are declined, never
        // mapped to a default: conv_mode 7, an SDPA diagonal_alignment 5
        TestGraph g;
        g.tensor(1, fbs::DataType::HALF, {2, 8, 4, 4}, {128, 1, 32, 8});
        g.tensor(2, fbs::DataType::HALF, {16, 8, 3, 3}, {72, 1, 24, 8});
        g.tensor(3, fbs::DataType::HALF, {2, 16, 4, 4}, {256, 1, 64, 16});
        const std::vector<int64_t> pad{1, 1}, one{1, 1};
        g.node(fbs::NodeAttributes::ConvolutionFwdAttributes,
               fbs::CreateConvolutionFwdAttributesDirect(g.fbb, 1, 2, 3, &pad, &pad, &one, &one, static_cast<fbs::ConvMode>(7))
                   .Union());
        CHECK(throwsUnsupported(g.finish(), "conv_mode value 7 is not known"));

        TestGraph h;
        CHECK(throwsUnsupported(
            sdpaGraph(h, fbs::DataType::BFLOAT16, {1, 2, 64, 64}, {8192, 4096, 64, 1},
                      [](fbs::SdpaAttributesBuilder& b) { b.add_diagonal_alignment(static_cast<fbs::DiagonalAlignment>(5)); }),
            "sdpa diagonal_alignment value 5 is not known"));
    }
    { // SDPA backward, GQA (4 query heads on 2 key/value heads), rank-3 stats: cuDNN's backward
        // pattern with the softmax sum and the dQ accumulator in the engine's workspace
        TestGraph g;
        const std::vector<int64_t> qd{2, 4, 32, 16}, qs{2048, 512, 16, 1}, kd{2, 2, 32, 16}, ks{1024, 512, 16, 1};
        g.tensor(1, fbs::DataType::BFLOAT16, qd, qs); // q
        g.tensor(2, fbs::DataType::BFLOAT16, kd, ks); // k
        g.tensor(3, fbs::DataType::BFLOAT16, kd, ks); // v
        g.tensor(4, fbs::DataType::BFLOAT16, qd, qs); // o
        g.tensor(5, fbs::DataType::BFLOAT16, qd, qs); // do
        g.tensor(6, fbs::DataType::FLOAT, {2, 4, 32}, {128, 32, 1}); // stats
        g.tensor(7, fbs::DataType::BFLOAT16, qd, qs); // dq
        g.tensor(8, fbs::DataType::BFLOAT16, kd, ks); // dk
        g.tensor(9, fbs::DataType::BFLOAT16, kd, ks); // dv
        const Model m = readModel(*sdpaBwdNode(g, [](fbs::SdpaBackwardAttributesBuilder& b) { b.add_causal_mask(true); }));
        CHECK(m.summary == "sdpa_bwd");
        CHECK(m.find(6)->dims == std::vector<int64_t>({2, 4, 32, 1})
              && m.find(6)->strides == std::vector<int64_t>({128, 32, 1, 1}));
        CHECK(m.find(2)->dims == std::vector<int64_t>({2, 2, 16, 32})); // K^T and V^T views
        CHECK(m.find(3)->strides == std::vector<int64_t>({1024, 512, 1, 16}));
        int reshapes = 0, matmuls = 0, reductions = 0;
        std::vector<const TensorSpec*> ws;
        for(const OpSpec& op : m.ops)
        {
            reshapes += op.kind == OpKind::Reshape;
            matmuls += op.kind == OpKind::Matmul;
            reductions += op.kind == OpKind::Reduction;
        }
        for(const TensorSpec& t : m.tensors)
            if(t.wsOffset >= 0)
                ws.push_back(&t);
        CHECK(reshapes == 3 && matmuls == 5 && reductions == 3); // Δ, then dV and dK summed per shared head
        CHECK(ws.size() == 2);
        if(ws.size() == 2)
        {
            CHECK(ws[0]->dims == std::vector<int64_t>({2, 4, 32, 1}) && ws[0]->dtype == CUDNN_DATA_FLOAT && !ws[0]->isVirtual);
            CHECK(ws[1]->dims == std::vector<int64_t>({2, 4, 32, 16}) && ws[1]->wsOffset == 1024);
            CHECK(m.wsBytes == 1024 + 2 * 4 * 32 * 16 * 4);
        }
        CHECK(m.ops.back().mode == CUDNN_POINTWISE_IDENTITY && m.ops.back().t[3] == 7);
        CHECK(m.ops.front().mode == CUDNN_POINTWISE_MUL && m.ops.front().t[0] == 5 && m.ops.front().t[1] == 4);
        // P^T: a reshape of exp(...) into a bf16 [b, h, s_kv, s_q] view
        const OpSpec* first = nullptr;
        for(const OpSpec& op : m.ops)
            if(op.kind == OpKind::Reshape && first == nullptr)
                first = &op;
        const TensorSpec* pt = first ? m.find(first->t[1]) : nullptr;
        CHECK(pt != nullptr && pt->dtype == CUDNN_DATA_BFLOAT16 && pt->strides == std::vector<int64_t>({4096, 1024, 1, 32}));
        CHECK(m.sdpaNarrowP);
    }
    { // SDPA with sequence lengths: [b] becomes [b, 1, 1, 1], broadcast against the scores
        TestGraph g;
        g.tensor(5, fbs::DataType::INT32, {2}, {1});
        g.tensor(6, fbs::DataType::INT32, {2}, {1});
        const Model m =
            readModel(*sdpaGraph(g, fbs::DataType::HALF, {2, 4, 32, 16}, {2048, 512, 16, 1}, [](fbs::SdpaAttributesBuilder& b) {
                b.add_seq_len_q_tensor_uid(5);
                b.add_seq_len_kv_tensor_uid(6);
                b.add_padding_mask(true);
            }));
        CHECK(m.find(5)->dims == std::vector<int64_t>({2, 1, 1, 1}) && m.find(5)->strides == std::vector<int64_t>({1, 1, 1, 1}));
        CHECK(m.ops.front().mOverride == 5 && m.ops.front().nOverride == 6);
    }
    { // SDPA backward declines what it does not translate, naming it (dbias: SdpaModelTests.cpp)
        TestGraph h; // a given dropout mask: cuDNN 9.14 gets dQ and dK wrong
        for(int64_t uid = 1; uid <= 10; ++uid)
            h.tensor(uid, uid == 6 ? fbs::DataType::FLOAT : fbs::DataType::HALF, {1, 1, 16, 16}, {256, 256, 16, 1});
        CHECK(throwsUnsupported(sdpaBwdNode(h,
                                            [](fbs::SdpaBackwardAttributesBuilder& b) {
                                                b.add_dropout_mask_tensor_uid(10);
                                                b.add_dropout_scale_tensor_uid(6);
                                                b.add_dropout_scale_inv_tensor_uid(6);
                                            }),
                                "sdpa backward with a given dropout_mask is not run on cuDNN"));
    }
    { // max pooling: cuDNN's resample with -inf padding when the graph leaves it unset
        TestGraph g;
        g.tensor(1, fbs::DataType::HALF, {2, 8, 6, 6}, {288, 1, 48, 8});
        g.tensor(2, fbs::DataType::HALF, {2, 8, 3, 3}, {72, 1, 24, 8});
        const std::vector<int64_t> zero{0, 0}, two{2, 2};
        g.node(fbs::NodeAttributes::ResampleFwdAttributes,
               fbs::CreateResampleFwdAttributesDirect(g.fbb, 1, 2, flatbuffers::nullopt, &zero, &zero, &two, &two,
                                                      fbs::ResampleMode::MAXPOOL)
                   .Union());
        const Model m = readModel(*g.finish());
        CHECK(m.ops.size() == 1 && m.ops[0].kind == OpKind::ResampleFwd);
        CHECK(m.ops[0].mode == CUDNN_RESAMPLE_MAXPOOL && m.ops[0].phase == CUDNN_NEG_INF_PAD);
        CHECK(m.ops[0].window == two && m.summary == "resample_fwd");

        TestGraph b; // the same in bf16: declined, cuDNN 9.14 gets it wrong
        b.tensor(1, fbs::DataType::BFLOAT16, {2, 8, 6, 6}, {288, 1, 48, 8});
        b.tensor(2, fbs::DataType::BFLOAT16, {2, 8, 3, 3}, {72, 1, 24, 8});
        b.node(fbs::NodeAttributes::ResampleFwdAttributes,
               fbs::CreateResampleFwdAttributesDirect(b.fbb, 1, 2, flatbuffers::nullopt, &zero, &zero, &two, &two,
                                                      fbs::ResampleMode::MAXPOOL)
                   .Union());
        CHECK(throwsUnsupported(b.finish(), "bf16 pooling is not run on cuDNN"));

        TestGraph bw; // average-pool backward: dy -> dx; max-pool backward needs indices and is declined
        bw.tensor(1, fbs::DataType::HALF, {2, 8, 3, 3}, {72, 1, 24, 8});
        bw.tensor(2, fbs::DataType::HALF, {2, 8, 6, 6}, {288, 1, 48, 8});
        bw.node(fbs::NodeAttributes::ResampleBwdAttributes,
                fbs::CreateResampleBwdAttributesDirect(bw.fbb, 1, 2, flatbuffers::nullopt, &zero, &zero, &two, &two,
                                                       fbs::ResampleMode::AVGPOOL_INCLUDE_PADDING)
                    .Union());
        const Model mb = readModel(*bw.finish());
        CHECK(mb.ops.size() == 1 && mb.ops[0].kind == OpKind::ResampleBwd && mb.ops[0].t[0] == 1 && mb.ops[0].t[1] == 2);
        CHECK(mb.ops[0].mode == CUDNN_RESAMPLE_AVGPOOL_INCLUDE_PADDING && mb.ops[0].phase == CUDNN_ZERO_PAD);
        TestGraph mx;
        mx.tensor(1, fbs::DataType::HALF, {2, 8, 3, 3}, {72, 1, 24, 8});
        mx.tensor(2, fbs::DataType::HALF, {2, 8, 6, 6}, {288, 1, 48, 8});
        mx.node(fbs::NodeAttributes::ResampleBwdAttributes,
                fbs::CreateResampleBwdAttributesDirect(mx.fbb, 1, 2, flatbuffers::nullopt, &zero, &zero, &two, &two,
                                                       fbs::ResampleMode::MAXPOOL)
                    .Union());
        CHECK(throwsUnsupported(mx.finish(), "max-pool backward is not translated"));
    }
    { // SDPA dropout from a seed: a Bernoulli draw (keep 1 - p) into rng_dump, then P·mask·(1/(1-p))
        // into bmm2 in Q's type; a given mask without its scale is declined, naming it
        TestGraph g;
        g.tensor(13, fbs::DataType::INT64, {1}, {1});
        g.tensor(14, fbs::DataType::INT64, {1}, {1});
        g.tensor(20, fbs::DataType::FLOAT, {1, 2, 64, 64}, {8192, 4096, 64, 1});
        const Model m = readModel(
            *sdpaGraph(g, fbs::DataType::BFLOAT16, {1, 2, 64, 64}, {8192, 4096, 64, 1}, [](fbs::SdpaAttributesBuilder& b) {
                b.add_seed_tensor_uid(13);
                b.add_offset_tensor_uid(14);
                b.add_rng_dump_tensor_uid(20);
                b.add_dropout_probability(0.25f);
            }));
        const OpSpec* rng = nullptr;
        for(const OpSpec& op : m.ops)
            if(op.kind == OpKind::Rng)
                rng = &op;
        CHECK(rng != nullptr && rng->t[0] == 13 && rng->t[1] == 14 && rng->t[2] == 20 && rng->keepProbability == 0.75);
        const size_t n = m.ops.size();
        CHECK(n > 3 && m.ops[n - 3].mode == CUDNN_POINTWISE_MUL && m.ops[n - 3].t[1] == 20);
        CHECK(n > 3 && m.find(m.ops[n - 2].t[3])->dtype == CUDNN_DATA_BFLOAT16 && m.ops[n - 1].kind == OpKind::Matmul);

        TestGraph h;
        h.tensor(20, fbs::DataType::FLOAT, {1, 2, 64, 64}, {8192, 4096, 64, 1});
        CHECK(throwsUnsupported(sdpaGraph(h, fbs::DataType::BFLOAT16, {1, 2, 64, 64}, {8192, 4096, 64, 1},
                                          [](fbs::SdpaAttributesBuilder& b) { b.add_dropout_mask_tensor_uid(20); }),
                                "a dropout_mask without a dropout_scale"));
        TestGraph k;
        CHECK(throwsUnsupported(sdpaGraph(k, fbs::DataType::BFLOAT16, {1, 2, 64, 64}, {8192, 4096, 64, 1},
                                          [](fbs::SdpaAttributesBuilder& b) { b.add_dropout_probability(0.1f); }),
                                "a dropout_probability without seed and offset tensors"));
    }
    { // fp8 attention: descale_q/k on the scores, amax_s of P, P·scale_s in fp8, then P·V into an
        // fp32 accumulator, descale_s/v, amax_o, ·scale_o into O; five of the six scales is declined
        TestGraph g;
        for(int64_t uid = 30; uid < 36; ++uid)
            g.tensor(uid, fbs::DataType::FLOAT, {1}, {1});
        g.tensor(40, fbs::DataType::FLOAT, {1}, {1});
        g.tensor(41, fbs::DataType::FLOAT, {1}, {1});
        const Model m = readModel(
            *sdpaGraph(g, fbs::DataType::FP8_E4M3, {1, 2, 64, 64}, {8192, 4096, 64, 1}, [](fbs::SdpaAttributesBuilder& b) {
                b.add_descale_q_tensor_uid(30);
                b.add_descale_k_tensor_uid(31);
                b.add_descale_v_tensor_uid(32);
                b.add_descale_s_tensor_uid(33);
                b.add_scale_s_tensor_uid(34);
                b.add_scale_o_tensor_uid(35);
                b.add_amax_s_tensor_uid(40);
                b.add_amax_o_tensor_uid(41);
                b.add_mma_core_mode(fbs::DataType::FP8_E4M3);
            }));
        CHECK(m.ops.size() > 3 && m.ops[2].t[1] == 30 && m.ops[3].t[1] == 31); // after Q.K^T and the scale
        const OpSpec& last = m.ops.back();
        CHECK(last.mode == CUDNN_POINTWISE_MUL && last.t[1] == 35 && last.t[3] == 4);
        int amax = 0;
        for(const OpSpec& op : m.ops)
            amax += op.kind == OpKind::Reduction && op.mode == CUDNN_REDUCE_TENSOR_AMAX && (op.t[1] == 40 || op.t[1] == 41);
        CHECK(amax == 2);

        TestGraph h;
        for(int64_t uid = 30; uid < 35; ++uid)
            h.tensor(uid, fbs::DataType::FLOAT, {1}, {1});
        CHECK(throwsUnsupported(sdpaGraph(h, fbs::DataType::FP8_E4M3, {1, 2, 64, 64}, {8192, 4096, 64, 1},
                                          [](fbs::SdpaAttributesBuilder& b) {
                                              b.add_descale_q_tensor_uid(30);
                                              b.add_descale_k_tensor_uid(31);
                                              b.add_descale_v_tensor_uid(32);
                                              b.add_descale_s_tensor_uid(33);
                                              b.add_scale_s_tensor_uid(34);
                                          }),
                                "fp8 attention without all six"));
    }
    { // mma_core_mode is an accumulator precision: FLOAT (what cuDNN does) runs, DOUBLE is declined
        TestGraph g, h;
        const Model m = readModel(*sdpaGraph(g, fbs::DataType::HALF, {1, 2, 64, 64}, {8192, 4096, 64, 1},
                                             [](fbs::SdpaAttributesBuilder& b) { b.add_mma_core_mode(fbs::DataType::FLOAT); }));
        CHECK(m.summary == "sdpa_fwd");
        CHECK(throwsUnsupported(sdpaGraph(h, fbs::DataType::HALF, {1, 2, 64, 64}, {8192, 4096, 64, 1},
                                          [](fbs::SdpaAttributesBuilder& b) { b.add_mma_core_mode(fbs::DataType::DOUBLE); }),
                                "mma_core_mode DOUBLE is not offered"));
    }
    { // an fp8 SDPA backward is declined: cuDNN's needs scale tensors hipDNN's node does not have
        TestGraph g;
        for(int64_t uid = 1; uid <= 9; ++uid)
            g.tensor(uid, uid == 6 ? fbs::DataType::FLOAT : fbs::DataType::FP8_E4M3, {1, 1, 16, 16}, {256, 256, 16, 1});
        CHECK(throwsUnsupported(sdpaBwdNode(g, [](fbs::SdpaBackwardAttributesBuilder&) {}), "an fp8 backward"));
    }
    { // an fp8 matmul is marked for the REDUCED_PRECISION_REDUCTION note (Hopper's fp8 sums)
        TestGraph g;
        g.tensor(1, fbs::DataType::FP8_E4M3, {1, 32, 16}, {512, 16, 1});
        g.tensor(2, fbs::DataType::FP8_E4M3, {1, 16, 32}, {512, 32, 1});
        g.tensor(3, fbs::DataType::BFLOAT16, {1, 32, 32}, {1024, 32, 1});
        g.node(fbs::NodeAttributes::MatmulAttributes, fbs::CreateMatmulAttributes(g.fbb, 1, 2, 3).Union());
        const Model m = readModel(*g.finish());
        CHECK(m.fp8Gemm && !m.fp32Gemm && m.find(1)->dtype == CUDNN_DATA_FP8_E4M3);
    }
    { // declines name the reason
        TestGraph g;
        g.tensor(1, fbs::DataType::FLOAT, {4}, {1});
        g.tensor(2, fbs::DataType::FLOAT, {4}, {1});
        const std::vector<int64_t> in{1}, out{2};
        g.node(fbs::NodeAttributes::CustomOpAttributes, fbs::CreateCustomOpAttributesDirect(g.fbb, "x", &in, &out).Union());
        CHECK(throwsUnsupported(g.finish(), "CustomOpAttributes"));
    }
    return check_finish("hipdnn_cudnn_model_tests");
}
