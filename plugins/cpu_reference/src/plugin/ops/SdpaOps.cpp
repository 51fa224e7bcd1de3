// Prepare functions for SDPA forward / backward.
//
// Attribute rules (kernel semantics in kernels/Sdpa.hpp):
//   scale      attn_scale_value when present (0.0 is a real value), else the scale tensor (one
//              element, read at execute), else 1/√D. Both present: not applicable (ambiguous).
//   band       left_bound / right_bound: null or negative = unbounded on that side;
//              diagonal_alignment picks the diagonal. The legacy flags: causal_mask = right bound
//              0 on the TOP_LEFT diagonal, causal_mask_bottom_right = right bound 0 on the
//              BOTTOM_RIGHT diagonal; they combine with explicit bounds by intersection
//              (right = min(right, 0)). Not applicable: both flags; causal_mask with
//              diagonal_alignment BOTTOM_RIGHT; causal_mask_bottom_right with explicit bounds
//              on a TOP_LEFT diagonal_alignment (which diagonal would they use?).
//   padding    seq_len_q / seq_len_kv apply whenever given (padding_mask may be false, as in
//              real graphs); padding_mask without either tensor: not applicable.
//   ragged     q, k, v, o, stats, max, sum_exp (backward also do, dq, dk, dv) may carry ragged
//              offsets (kernels/SdpaLayout.hpp); they need seq_len_q / seq_len_kv.
//   paged      page_table_k / page_table_v (forward): k / v are block containers; seq_len_kv
//              required; max_seq_len_kv sets Skv (Sdpa.hpp has cuDNN's inference without it).
//   sink       sink_token (forward): one softmax logit per query head, no value.
//   max / sum_exp  (forward): the softmax's row max and sum of exponentials, with stats or not.
//   alibi      alibi_mask: cudnn-frontend's ALiBi bias (kernels/Sdpa.hpp), forward and backward,
//              with any band (upstream asks for right bound 0; the sum is defined without it).
//   dbias      (backward) [1 or B, 1 or Hq, Sq, Skv]: dS summed where it broadcasts (Sdpa.hpp).
//   ignored    implementation, mma_core_mode (we always compute in fp32/fp64), max_seq_len_kv
//              without page tables, generate_stats (the stats tensor decides), seed / offset
//              when dropout is off.
//   not applicable: dropout_probability > 0, dropout mask / scale tensors, rng_dump, block
//              mask, fp8 descale / scale tensors, amax outputs, a non-floating attn_mask.
#include "kernels/Sdpa.hpp"
#include "plugin/OpRegistry.hpp"

namespace hipdnngo::cpu_reference
{
namespace
{

void refuseIf(NodeContext& ctx, const flatbuffers::Optional<int64_t>& uid, const char* what)
{
    ctx.require(!uid.has_value(), std::string(what) + " is not supported");
}

template <typename Attrs>
SdpaMask maskOf(NodeContext& ctx, const Attrs& a)
{
    SdpaMask m;
    m.leftBound = a.left_bound().has_value() && a.left_bound().value() >= 0 ? a.left_bound().value() : -1;
    m.rightBound = a.right_bound().has_value() && a.right_bound().value() >= 0 ? a.right_bound().value() : -1;
    m.bottomRight = a.diagonal_alignment() == fbs::DiagonalAlignment::BOTTOM_RIGHT;
    ctx.require(!(a.causal_mask() && a.causal_mask_bottom_right()), "causal_mask and causal_mask_bottom_right are both set");
    auto causalRight = [&] { m.rightBound = m.rightBound < 0 ? 0 : std::min<int64_t>(m.rightBound, 0); };
    if(a.causal_mask())
    {
        ctx.require(!m.bottomRight, "causal_mask (top-left) conflicts with diagonal_alignment BOTTOM_RIGHT");
        causalRight();
    }
    if(a.causal_mask_bottom_right())
    {
        ctx.require(m.bottomRight || (m.leftBound < 0 && m.rightBound < 0),
                    "causal_mask_bottom_right with explicit bounds on a TOP_LEFT diagonal_alignment is ambiguous");
        m.bottomRight = true;
        causalRight();
    }
    return m;
}

// CommonInputs binds what forward and backward share: scale, bias, sequence lengths.
struct CommonInputs
{
    SdpaParams params;
    int scaleTensor = -1, bias = -1, seqLenQ = -1, seqLenKv = -1;
};

template <typename Attrs>
CommonInputs commonInputs(NodeContext& ctx, const Attrs& a)
{
    CommonInputs c;
    ctx.require(!a.dropout_probability().has_value() || a.dropout_probability().value() == 0.0f,
                "dropout (probability " + std::to_string(a.dropout_probability().value_or(0.0f))
                    + ") is not supported: its random mask is not reproducible on the host");
    refuseIf(ctx, a.dropout_mask_tensor_uid(), "a dropout mask tensor");
    refuseIf(ctx, a.dropout_scale_tensor_uid(), "a dropout scale tensor");
    ctx.require(!(a.attn_scale_value().has_value() && a.scale_tensor_uid().has_value()),
                "attn_scale_value and a scale tensor are both given");
    ctx.require(!a.padding_mask() || a.seq_len_q_tensor_uid().has_value() || a.seq_len_kv_tensor_uid().has_value(),
                "padding_mask is set but there is no seq_len_q / seq_len_kv tensor");
    c.params.mask = maskOf(ctx, a);
    c.params.alibi = a.alibi_mask();
    c.params.accumulator = ctx.accumulator();
    if(a.attn_scale_value().has_value())
    {
        c.params.hasScale = true;
        c.params.scale = a.attn_scale_value().value();
    }
    if(a.scale_tensor_uid().has_value())
    {
        c.scaleTensor = ctx.input(a.scale_tensor_uid().value(), "scale");
        ctx.require(ctx.shape(c.scaleTensor).elementCount() == 1,
                    "scale " + ctx.shape(c.scaleTensor).describe() + " must be a scalar (one element)");
        ctx.requireFloating({c.scaleTensor});
        c.params.hasScale = true;
    }
    if(a.attn_mask_tensor_uid().has_value())
    {
        c.bias = ctx.input(a.attn_mask_tensor_uid().value(), "attn_mask");
        ctx.require(isFloatingPoint(ctx.shape(c.bias).dtype), "attn_mask of type "
                                                                  + std::string(dataTypeName(ctx.shape(c.bias).dtype))
                                                                  + " is not supported (only an additive floating-point bias)");
    }
    if(a.seq_len_q_tensor_uid().has_value())
        c.seqLenQ = ctx.input(a.seq_len_q_tensor_uid().value(), "seq_len_q");
    if(a.seq_len_kv_tensor_uid().has_value())
        c.seqLenKv = ctx.input(a.seq_len_kv_tensor_uid().value(), "seq_len_kv");
    return c;
}

const TensorView* shapeOrNull(NodeContext& ctx, int index) { return index >= 0 ? &ctx.shape(index) : nullptr; }

// Bound views for optional tensors inside node lambdas (not copyable: they point to themselves).
struct OptionalView
{
    TensorView view;
    const TensorView* ptr = nullptr;
    OptionalView(const TensorBindings& t, int index)
    {
        if(index >= 0)
        {
            view = t.view(index);
            ptr = &view;
        }
    }
    OptionalView(const OptionalView&) = delete;
};

// RaggedIndices are the offsets tensors of each role (-1: dense).
struct RaggedIndices
{
    int q = -1, k = -1, v = -1, o = -1, stats = -1, dO = -1, dQ = -1, dK = -1, dV = -1, max = -1, sumExp = -1;
};

SdpaRagged raggedShapes(NodeContext& ctx, const RaggedIndices& r)
{
    return {shapeOrNull(ctx, r.q),  shapeOrNull(ctx, r.k),  shapeOrNull(ctx, r.v),  shapeOrNull(ctx, r.o), shapeOrNull(ctx, r.stats),
            shapeOrNull(ctx, r.dO), shapeOrNull(ctx, r.dQ), shapeOrNull(ctx, r.dK), shapeOrNull(ctx, r.dV),
            shapeOrNull(ctx, r.max), shapeOrNull(ctx, r.sumExp)};
}

// BoundRagged binds the offsets tensors inside a node lambda.
struct BoundRagged
{
    OptionalView q, k, v, o, stats, dO, dQ, dK, dV, max, sumExp;
    BoundRagged(const TensorBindings& t, const RaggedIndices& r)
        : q(t, r.q), k(t, r.k), v(t, r.v), o(t, r.o), stats(t, r.stats), dO(t, r.dO), dQ(t, r.dQ), dK(t, r.dK), dV(t, r.dV),
          max(t, r.max), sumExp(t, r.sumExp)
    {
    }
    SdpaRagged views() const
    {
        return {q.ptr, k.ptr, v.ptr, o.ptr, stats.ptr, dO.ptr, dQ.ptr, dK.ptr, dV.ptr, max.ptr, sumExp.ptr};
    }
};

SdpaParams runtimeParams(const CommonInputs& c, const TensorBindings& t)
{
    SdpaParams p = c.params;
    if(c.scaleTensor >= 0)
        p.scale = t.view(c.scaleTensor).load<double>(0);
    return p;
}

} // namespace

std::unique_ptr<PreparedNode> prepareSdpaForward(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_SdpaAttributes();
    refuseIf(ctx, a.block_mask_tensor_uid(), "a block mask");
    refuseIf(ctx, a.descale_q_tensor_uid(), "fp8 descale_q");
    refuseIf(ctx, a.descale_k_tensor_uid(), "fp8 descale_k");
    refuseIf(ctx, a.descale_v_tensor_uid(), "fp8 descale_v");
    refuseIf(ctx, a.descale_s_tensor_uid(), "fp8 descale_s");
    refuseIf(ctx, a.scale_s_tensor_uid(), "fp8 scale_s");
    refuseIf(ctx, a.scale_o_tensor_uid(), "fp8 scale_o");
    refuseIf(ctx, a.amax_s_tensor_uid(), "an amax_s output");
    refuseIf(ctx, a.amax_o_tensor_uid(), "an amax_o output");
    refuseIf(ctx, a.rng_dump_tensor_uid(), "an rng_dump output");
    const CommonInputs c = commonInputs(ctx, a);
    const int q = ctx.input(a.q_tensor_uid(), "q");
    const int k = ctx.input(a.k_tensor_uid(), "k");
    const int v = ctx.input(a.v_tensor_uid(), "v");
    const int o = ctx.output(a.o_tensor_uid(), "o");
    const int stats = a.stats_tensor_uid().has_value() ? ctx.output(a.stats_tensor_uid().value(), "stats") : -1;
    const int max = a.max_tensor_uid().has_value() ? ctx.output(a.max_tensor_uid().value(), "max") : -1;
    const int sumExp = a.sum_exp_tensor_uid().has_value() ? ctx.output(a.sum_exp_tensor_uid().value(), "sum_exp") : -1;
    const int pageK = a.page_table_k_tensor_uid().has_value() ? ctx.input(a.page_table_k_tensor_uid().value(), "page_table_k") : -1;
    const int pageV = a.page_table_v_tensor_uid().has_value() ? ctx.input(a.page_table_v_tensor_uid().value(), "page_table_v") : -1;
    const int sink = a.sink_token_tensor_uid().has_value() ? ctx.input(a.sink_token_tensor_uid().value(), "sink_token") : -1;
    ctx.requireFloating({q, k, v, o});
    for(int rowOutput : {stats, max, sumExp})
        if(rowOutput >= 0)
            ctx.requireFloating({rowOutput});
    RaggedIndices r;
    r.q = ctx.raggedOffsets(q, "q");
    r.k = ctx.raggedOffsets(k, "k");
    r.v = ctx.raggedOffsets(v, "v");
    r.o = ctx.raggedOffsets(o, "o");
    r.stats = stats >= 0 ? ctx.raggedOffsets(stats, "stats") : -1;
    r.max = max >= 0 ? ctx.raggedOffsets(max, "max") : -1;
    r.sumExp = sumExp >= 0 ? ctx.raggedOffsets(sumExp, "sum_exp") : -1;
    const int64_t maxSeqLenKv = a.max_seq_len_kv().has_value() ? a.max_seq_len_kv().value() : -1;
    ctx.require(!a.max_seq_len_kv().has_value() || maxSeqLenKv > 0,
                "max_seq_len_kv " + std::to_string(maxSeqLenKv) + " must be positive");
    SdpaForwardViews shapes{ctx.shape(q), ctx.shape(k), ctx.shape(v), ctx.shape(o)};
    shapes.bias = shapeOrNull(ctx, c.bias);
    shapes.seqLenQ = shapeOrNull(ctx, c.seqLenQ);
    shapes.seqLenKv = shapeOrNull(ctx, c.seqLenKv);
    shapes.stats = shapeOrNull(ctx, stats);
    shapes.max = shapeOrNull(ctx, max);
    shapes.sumExp = shapeOrNull(ctx, sumExp);
    shapes.ragged = raggedShapes(ctx, r);
    shapes.pageTableK = shapeOrNull(ctx, pageK);
    shapes.pageTableV = shapeOrNull(ctx, pageV);
    shapes.sink = shapeOrNull(ctx, sink);
    shapes.maxSeqLenKv = maxSeqLenKv;
    ctx.check(checkSdpaForward(shapes));
    return ctx.makeNode([=](const TensorBindings& t) {
        const OptionalView bias(t, c.bias), lq(t, c.seqLenQ), lkv(t, c.seqLenKv), st(t, stats), mx(t, max), se(t, sumExp),
            ptK(t, pageK), ptV(t, pageV), sk(t, sink);
        const BoundRagged ragged(t, r);
        SdpaForwardViews views{t.view(q), t.view(k), t.view(v), t.view(o)};
        views.bias = bias.ptr;
        views.seqLenQ = lq.ptr;
        views.seqLenKv = lkv.ptr;
        views.stats = st.ptr;
        views.max = mx.ptr;
        views.sumExp = se.ptr;
        views.ragged = ragged.views();
        views.pageTableK = ptK.ptr;
        views.pageTableV = ptV.ptr;
        views.sink = sk.ptr;
        views.maxSeqLenKv = maxSeqLenKv;
        sdpaForward(views, runtimeParams(c, t));
    });
}

std::unique_ptr<PreparedNode> prepareSdpaBackward(NodeContext& ctx)
{
    const auto& a = *ctx.node.attributes_as_SdpaBackwardAttributes();
    refuseIf(ctx, a.dropout_scale_inv_tensor_uid(), "a dropout scale_inv tensor");
    const CommonInputs c = commonInputs(ctx, a);
    const int q = ctx.input(a.q_tensor_uid(), "q");
    const int k = ctx.input(a.k_tensor_uid(), "k");
    const int v = ctx.input(a.v_tensor_uid(), "v");
    const int o = ctx.input(a.o_tensor_uid(), "o");
    const int dO = ctx.input(a.do_tensor_uid(), "do");
    const int stats = ctx.input(a.stats_tensor_uid(), "stats");
    const int dQ = ctx.output(a.dq_tensor_uid(), "dq");
    const int dK = ctx.output(a.dk_tensor_uid(), "dk");
    const int dV = ctx.output(a.dv_tensor_uid(), "dv");
    const int dBias = a.dbias_tensor_uid() ? ctx.output(*a.dbias_tensor_uid(), "dbias") : -1;
    ctx.requireFloating({q, k, v, o, dO, stats, dQ, dK, dV});
    if(dBias >= 0)
        ctx.requireFloating({dBias});
    RaggedIndices r;
    r.q = ctx.raggedOffsets(q, "q");
    r.k = ctx.raggedOffsets(k, "k");
    r.v = ctx.raggedOffsets(v, "v");
    r.o = ctx.raggedOffsets(o, "o");
    r.stats = ctx.raggedOffsets(stats, "stats");
    r.dO = ctx.raggedOffsets(dO, "do");
    r.dQ = ctx.raggedOffsets(dQ, "dq");
    r.dK = ctx.raggedOffsets(dK, "dk");
    r.dV = ctx.raggedOffsets(dV, "dv");
    SdpaBackwardViews shapes{ctx.shape(q),     ctx.shape(k),  ctx.shape(v),  ctx.shape(o), ctx.shape(dO),
                             ctx.shape(stats), ctx.shape(dQ), ctx.shape(dK), ctx.shape(dV)};
    shapes.bias = shapeOrNull(ctx, c.bias);
    shapes.seqLenQ = shapeOrNull(ctx, c.seqLenQ);
    shapes.seqLenKv = shapeOrNull(ctx, c.seqLenKv);
    shapes.ragged = raggedShapes(ctx, r);
    shapes.dBias = shapeOrNull(ctx, dBias);
    ctx.check(checkSdpaBackward(shapes));
    return ctx.makeNode([=](const TensorBindings& t) {
        const OptionalView bias(t, c.bias), lq(t, c.seqLenQ), lkv(t, c.seqLenKv), db(t, dBias);
        const BoundRagged ragged(t, r);
        SdpaBackwardViews views{t.view(q),     t.view(k),  t.view(v),  t.view(o), t.view(dO),
                                t.view(stats), t.view(dQ), t.view(dK), t.view(dV)};
        views.bias = bias.ptr;
        views.seqLenQ = lq.ptr;
        views.seqLenKv = lkv.ptr;
        views.ragged = ragged.views();
        views.dBias = db.ptr;
        sdpaBackward(views, runtimeParams(c, t));
    });
}

} // namespace hipdnngo::cpu_reference
