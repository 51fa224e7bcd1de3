// Row programs: pointwise and reduction nodes over the same trailing axes (softmax, log-sum-exp,
// norms lowered to their ops).
#include "ModelRead.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace hipdnngo::cuda_rtc::model
{

// readRowProgram: a graph of pointwise and reduction nodes whose reductions all reduce the same
// trailing axes of the same shape (softmax: max, sub, exp, sum, div). Layernorm / RMSNorm forward
// nodes in it (a pointwise prologue: residual add -> layernorm) are lowered to the same ops, as
// the reference computes them (two passes, fp32).
Program readRowProgram(const fbs::Graph& graph, Program p)
{
    p.pattern = Pattern::RowProgram;
    RowProg& rp = p.rp;
    // The shape and the reduced axes: from the first reduction or norm.
    bool found = false;
    for(const fbs::Node* node : *graph.nodes())
    {
        if(node->attributes_type() == fbs::NodeAttributes::ReductionAttributes)
        {
            const fbs::ReductionAttributes& a = *node->attributes_as_ReductionAttributes();
            if(!p.has(a.in_tensor_uid()) || !p.has(a.out_tensor_uid()))
                throw Unsupported("reduction: a tensor is not in the graph");
            const Tensor& in = p.t(a.in_tensor_uid());
            const Tensor& out = p.t(a.out_tensor_uid());
            if(in.rank() != out.rank())
                throw Unsupported("reduction: input and output must have the same rank");
            p.space = in.dims;
            const int R = in.rank();
            int from = R;
            while(from > 0 && out.dims[static_cast<size_t>(from) - 1] == 1)
                --from;
            for(int d = 0; d < from; ++d)
                if(out.dims[static_cast<size_t>(d)] != in.dims[static_cast<size_t>(d)])
                    throw Unsupported("row program: a reduction must reduce the trailing axes only");
            rp.k = R - from;
            found = true;
        }
        else if(node->attributes_type() == fbs::NodeAttributes::LayernormAttributes
                || node->attributes_type() == fbs::NodeAttributes::RMSNormAttributes)
        {
            const NormFwd n = node->attributes_type() == fbs::NodeAttributes::LayernormAttributes
                                  ? readLayernorm(*node->attributes_as_LayernormAttributes(), p)
                                  : readRmsnorm(*node->attributes_as_RMSNormAttributes());
            if(!p.has(n.x) || !p.has(n.scale))
                throw Unsupported("norm: a tensor is not in the graph");
            p.space = p.t(n.x).dims;
            rp.k = n.k != 0 ? n.k : trailingAxesFromScale(p.t(n.x), p.t(n.scale));
            found = true;
        }
        if(found)
            break;
    }
    if(!found || rp.k == 0)
        throw Unsupported("row program: nothing is reduced");
    const int R = static_cast<int>(p.space.size());
    const int from = R - rp.k;
    for(int d = 0; d < R; ++d)
        (d < from ? rp.rows : rp.n) *= p.space[static_cast<size_t>(d)];
    std::vector<int64_t> rowDims = p.space;
    for(int d = from; d < R; ++d)
        rowDims[static_cast<size_t>(d)] = 1;

    // The ops: graph nodes, with norms lowered.
    std::vector<RowOp> raw;
    int64_t next = 0;
    for(const Tensor& t : p.tensors)
        next = std::max(next, t.uid);
    auto temp = [&](bool full) {
        Tensor t;
        t.uid = ++next;
        t.name = "row_tmp";
        t.dims = full ? p.space : rowDims;
        t.strides.assign(t.dims.size(), 0);
        t.isVirtual = true;
        p.tensors.push_back(t);
        return t.uid;
    };
    auto pw = [&](fbs::PointwiseMode m, int64_t a, int64_t b, int64_t out) {
        RowOp op;
        op.pw.mode = static_cast<int>(m);
        op.pw.in[0] = a;
        op.pw.in[1] = b;
        op.pw.out = out;
        raw.push_back(op);
    };
    auto red = [&](fbs::ReductionMode m, int64_t in, int64_t out) {
        RowOp op;
        op.reduce = true;
        op.redMode = static_cast<int>(m);
        op.pw.in[0] = in;
        op.pw.out = out;
        raw.push_back(op);
    };
    for(const fbs::Node* node : *graph.nodes())
    {
        const fbs::NodeAttributes type = node->attributes_type();
        if(type == fbs::NodeAttributes::ReductionAttributes)
        {
            const fbs::ReductionAttributes& a = *node->attributes_as_ReductionAttributes();
            if(static_cast<int>(a.mode()) < 1 || static_cast<int>(a.mode()) > 9)
                throw Unsupported("reduction mode " + std::to_string(static_cast<int>(a.mode())) + " is unknown");
            red(a.mode(), a.in_tensor_uid(), a.out_tensor_uid());
        }
        else if(type == fbs::NodeAttributes::PointwiseAttributes)
        {
            RowOp op;
            op.pw = readPointwise(*node->attributes_as_PointwiseAttributes());
            raw.push_back(op);
        }
        else
        {
            const bool layer = type == fbs::NodeAttributes::LayernormAttributes;
            const NormFwd n = layer ? readLayernorm(*node->attributes_as_LayernormAttributes(), p)
                                    : readRmsnorm(*node->attributes_as_RMSNormAttributes());
            for(int64_t uid : {n.x, n.scale, n.bias, n.eps, n.y, n.mean, n.inv})
                if(uid >= 0 && !p.has(uid))
                    throw Unsupported("norm: tensor uid " + std::to_string(uid) + " is not in the graph");
            const int k = n.k != 0 ? n.k : trailingAxesFromScale(p.t(n.x), p.t(n.scale));
            if(k != rp.k || p.t(n.x).dims != p.space)
                throw Unsupported("row program: the norm does not normalize the same trailing axes of the same shape");
            if(!p.t(n.eps).scalarArg())
                throw Unsupported("row program: a norm's epsilon must be a constant or a pass-by-value scalar here");
            const int64_t eps = n.eps;
            const int64_t sq = temp(true), var = temp(false), ve = temp(false), inv = temp(false), xh = temp(true);
            int64_t centered = n.x;
            int64_t mean = -1;
            if(layer)
            {
                mean = temp(false);
                centered = temp(true);
                red(fbs::ReductionMode::AVG, n.x, mean);
                pw(fbs::PointwiseMode::SUB, n.x, mean, centered);
            }
            pw(fbs::PointwiseMode::MUL, centered, centered, sq);
            red(fbs::ReductionMode::AVG, sq, var);
            pw(fbs::PointwiseMode::ADD, var, eps, ve);
            pw(fbs::PointwiseMode::RSQRT, ve, -1, inv);
            pw(fbs::PointwiseMode::MUL, centered, inv, xh);
            if(n.bias >= 0)
            {
                const int64_t ys = temp(true);
                pw(fbs::PointwiseMode::MUL, xh, n.scale, ys);
                pw(fbs::PointwiseMode::ADD, ys, n.bias, n.y);
            }
            else
            {
                pw(fbs::PointwiseMode::MUL, xh, n.scale, n.y);
            }
            if(layer && n.mean >= 0)
                pw(fbs::PointwiseMode::IDENTITY, mean, -1, n.mean);
            if(n.inv >= 0)
                pw(fbs::PointwiseMode::IDENTITY, inv, -1, n.inv);
        }
    }

    std::set<int64_t> produced, written;
    for(const RowOp& op : raw) // every tensor the graph writes
        written.insert(op.pw.out);
    for(RowOp op : raw)
    {
        if(op.reduce)
        {
            if(!p.has(op.pw.in[0]) || !p.has(op.pw.out) || p.level(op.pw.in[0]) != Level::Full || p.level(op.pw.out) != Level::Row)
                throw Unsupported("row program: every reduction must reduce the same trailing axes of the same shape");
            op.level = Level::Row;
        }
        else
        {
            if(op.pw.mode == static_cast<int>(fbs::PointwiseMode::GEN_INDEX))
                throw Unsupported("row program: gen_index is not supported");
            bool full = false;
            for(int i = 0; i < pwArity(op.pw.mode); ++i)
            {
                if(!p.has(op.pw.in[i]))
                    throw Unsupported("pointwise input uid " + std::to_string(op.pw.in[i]) + " is not in the graph");
                const Level l = p.level(op.pw.in[i]);
                full = full || l == Level::Full || l == Level::Param;
            }
            if(!p.has(op.pw.out))
                throw Unsupported("pointwise output uid " + std::to_string(op.pw.out) + " is not in the graph");
            op.level = full ? Level::Full : Level::Row;
            if(p.level(op.pw.out) != op.level)
                throw Unsupported("row program: pointwise output " + std::to_string(op.pw.out) + " does not have the shape of its inputs");
        }
        for(int i = 0; i < (op.reduce ? 1 : pwArity(op.pw.mode)); ++i)
        {
            const Tensor& t = p.t(op.pw.in[i]);
            if(t.isVirtual && produced.count(t.uid) == 0)
                throw Unsupported("row program: virtual input " + std::to_string(t.uid) + " is read before it is written");
            if(!t.isVirtual && written.count(t.uid) != 0 && produced.count(t.uid) == 0)
                throw Unsupported("row program: tensor " + std::to_string(t.uid) + " is read before the graph writes it");
            if(!t.isVirtual && p.level(t.uid) == Level::Full && !denseOver(t, from))
                throw Unsupported("row program: the rows of tensor " + std::to_string(t.uid) + " must be packed (contiguous)");
        }
        const Tensor& o = p.t(op.pw.out);
        if(produced.count(o.uid) != 0 || o.scalarArg())
            throw Unsupported("row program: tensor " + std::to_string(o.uid) + " is written twice or is a scalar");
        if(!o.isVirtual && op.level == Level::Full && !denseOver(o, from))
            throw Unsupported("row program: the rows of output " + std::to_string(o.uid) + " must be packed (contiguous)");
        produced.insert(o.uid);
        rp.ops.push_back(op);
    }
    p.summary = "row_program(" + dimsText(p.space) + ", " + std::to_string(rp.rows) + " rows of " + std::to_string(rp.n) + ":";
    for(const RowOp& op : rp.ops)
        p.summary += std::string(" ") + (op.reduce ? std::string("reduce_") + reductionName(op.redMode) : pwModeName(op.pw.mode));
    p.summary += ")";
    return p;
}

// isRowProgram: pointwise and reduction nodes only, with a reduction that a single-reduction
// pattern does not cover (more than one, or pointwise work before it).
bool isRowProgram(const fbs::Graph& graph, bool* maybe)
{
    int reductions = 0;
    *maybe = false;
    bool pointwiseFirst = false;
    for(flatbuffers::uoffset_t i = 0; i < graph.nodes()->size(); ++i)
    {
        const fbs::Node* n = graph.nodes()->Get(i);
        if(n == nullptr)
            return false;
        if(n->attributes_type() == fbs::NodeAttributes::ReductionAttributes)
        {
            reductions++;
            pointwiseFirst = pointwiseFirst || i > 0;
        }
        else if(n->attributes_type() == fbs::NodeAttributes::LayernormAttributes
                || n->attributes_type() == fbs::NodeAttributes::RMSNormAttributes)
        {
            if(i == 0) // a norm first is the norm-forward pattern (with its epilogue)
                return false;
            reductions += 2;
        }
        else if(n->attributes_type() != fbs::NodeAttributes::PointwiseAttributes)
            return false;
    }
    // One reduction among pointwise nodes: a single reduction (with a prologue and an epilogue)
    // may cover it; *maybe says to try both.
    *maybe = reductions == 1 && graph.nodes()->size() > 1;
    return reductions > 1 || (reductions == 1 && pointwiseFirst);
}

} // namespace hipdnngo::cuda_rtc::model
