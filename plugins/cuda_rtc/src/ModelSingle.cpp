// Single fused patterns: a pointwise DAG, a reduction, a norm forward or backward or batchnorm
// with a pointwise prologue / epilogue.
#include "ModelRead.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace hipdnngo::cuda_rtc::model
{

// checkPrologue: the pointwise nodes before a reduction run once per element of its input
// (dims `space`), so they may write tensors of that space, and nothing after the reduction may
// read or write what they write; the last value they compute must be the reduction's input.
static void checkPrologue(const Program& p, const std::vector<int64_t>& space)
{
    std::set<int64_t> later{p.red.out};
    for(const PwOp& op : p.pw)
        later.insert(op.out);
    checkPointwiseDag(p, p.pre, space, {}, later);
    std::set<int64_t> mine;
    for(const PwOp& op : p.pre)
    {
        if(later.count(op.out) != 0)
            throw Unsupported("pointwise " + std::string(pwModeName(op.mode)) + ": tensor " + std::to_string(op.out)
                              + " is written twice");
        mine.insert(op.out);
    }
    if(mine.count(p.red.in) == 0)
        throw Unsupported("reduction: its input " + std::to_string(p.red.in)
                          + " is not written by the pointwise nodes before it (a prologue must feed the reduction)");
    for(const PwOp& op : p.pw)
        for(int i = 0; i < pwArity(op.mode); ++i)
            if(mine.count(op.in[i]) != 0)
                throw Unsupported("pointwise " + std::string(pwModeName(op.mode)) + " after the reduction reads tensor "
                                  + std::to_string(op.in[i]) + ", which is per element of the reduction's input");
}

Program readSingle(const fbs::Graph& graph, Program p)
{
    std::set<int64_t> produced;
    // Pointwise nodes before a reduction are its prologue: they run per input element.
    flatbuffers::uoffset_t at = 0;
    const flatbuffers::uoffset_t count = graph.nodes()->size();
    while(at < count && graph.nodes()->Get(at) != nullptr
          && graph.nodes()->Get(at)->attributes_type() == fbs::NodeAttributes::PointwiseAttributes)
        ++at;
    if(at == count || graph.nodes()->Get(at) == nullptr
       || graph.nodes()->Get(at)->attributes_type() != fbs::NodeAttributes::ReductionAttributes)
        at = 0;
    for(flatbuffers::uoffset_t i = 0; i < at; ++i)
        p.pre.push_back(readPointwise(*graph.nodes()->Get(i)->attributes_as_PointwiseAttributes()));
    size_t first = at;
    const fbs::Node* head = graph.nodes()->Get(at);
    if(head == nullptr)
        throw Unsupported("graph has a null node");
    switch(head->attributes_type())
    {
    case fbs::NodeAttributes::LayernormAttributes:
        p.pattern = Pattern::NormFwd;
        p.norm = readLayernorm(*head->attributes_as_LayernormAttributes(), p);
        first = 1;
        break;
    case fbs::NodeAttributes::RMSNormAttributes:
        p.pattern = Pattern::NormFwd;
        p.norm = readRmsnorm(*head->attributes_as_RMSNormAttributes());
        first = 1;
        break;
    case fbs::NodeAttributes::PointwiseAttributes:
    case fbs::NodeAttributes::BatchnormInferenceAttributes:
    case fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt: p.pattern = Pattern::Pointwise; break;
    case fbs::NodeAttributes::BatchnormAttributes:
    {
        const fbs::BatchnormAttributes& a = *head->attributes_as_BatchnormAttributes();
        if(a.peer_stats_tensor_uid() != nullptr && a.peer_stats_tensor_uid()->size() != 0)
            throw Unsupported("batchnorm: peer statistics (multi-device) are not supported");
        p.pattern = Pattern::BnFwd;
        Batchnorm& b = p.bn;
        auto opt = [](const flatbuffers::Optional<int64_t>& v) { return v.has_value() ? v.value() : int64_t{-1}; };
        b.x = a.x_tensor_uid();
        b.scale = a.scale_tensor_uid();
        b.bias = a.bias_tensor_uid();
        b.eps = a.epsilon_tensor_uid();
        b.y = a.y_tensor_uid();
        b.mean = opt(a.mean_tensor_uid());
        b.inv = opt(a.inv_variance_tensor_uid());
        b.nextMean = opt(a.next_running_mean_tensor_uid());
        b.nextVar = opt(a.next_running_variance_tensor_uid());
        b.prevMean = b.nextMean >= 0 ? opt(a.prev_running_mean_tensor_uid()) : -1;
        b.prevVar = b.nextVar >= 0 ? opt(a.prev_running_variance_tensor_uid()) : -1;
        b.momentum = (b.nextMean >= 0 || b.nextVar >= 0) ? opt(a.momentum_tensor_uid()) : -1;
        if((b.nextMean >= 0 && b.prevMean < 0) || (b.nextVar >= 0 && b.prevVar < 0)
           || ((b.nextMean >= 0 || b.nextVar >= 0) && b.momentum < 0))
            throw Unsupported("batchnorm: running statistics need the previous ones and a momentum");
        first = 1;
        break;
    }
    case fbs::NodeAttributes::BatchnormBackwardAttributes:
    {
        const fbs::BatchnormBackwardAttributes& a = *head->attributes_as_BatchnormBackwardAttributes();
        if(a.peer_stats_tensor_uid() != nullptr && a.peer_stats_tensor_uid()->size() != 0)
            throw Unsupported("batchnorm backward: peer statistics (multi-device) are not supported");
        if(!a.mean_tensor_uid().has_value() || !a.inv_variance_tensor_uid().has_value())
            throw Unsupported("batchnorm backward needs the saved mean and inv_variance");
        p.pattern = Pattern::BnBwd;
        Batchnorm& b = p.bn;
        b.dy = a.dy_tensor_uid();
        b.x = a.x_tensor_uid();
        b.mean = a.mean_tensor_uid().value();
        b.inv = a.inv_variance_tensor_uid().value();
        b.scale = a.scale_tensor_uid();
        b.dx = a.dx_tensor_uid();
        b.dscale = a.dscale_tensor_uid();
        b.dbias = a.dbias_tensor_uid();
        first = 1;
        break;
    }
    case fbs::NodeAttributes::ReductionAttributes:
    {
        const fbs::ReductionAttributes& a = *head->attributes_as_ReductionAttributes();
        p.pattern = Pattern::Reduce;
        p.red.mode = static_cast<int>(a.mode());
        if(p.red.mode < 1 || p.red.mode > 9)
            throw Unsupported("reduction mode " + std::to_string(p.red.mode) + " is unknown");
        p.red.in = a.in_tensor_uid();
        p.red.out = a.out_tensor_uid();
        first = at + 1;
        break;
    }
    case fbs::NodeAttributes::LayernormBackwardAttributes:
    {
        const fbs::LayernormBackwardAttributes& a = *head->attributes_as_LayernormBackwardAttributes();
        p.pattern = Pattern::NormBwd;
        NormBwd& b = p.bwd;
        b.kind = NormKind::Layer;
        b.dy = a.dy_tensor_uid();
        b.x = a.x_tensor_uid();
        b.scale = a.scale_tensor_uid();
        b.mean = a.mean_tensor_uid().has_value() ? a.mean_tensor_uid().value() : -1;
        b.inv = a.inv_variance_tensor_uid().has_value() ? a.inv_variance_tensor_uid().value() : -1;
        b.eps = a.epsilon_tensor_uid().has_value() ? a.epsilon_tensor_uid().value() : -1;
        b.dx = a.dx_tensor_uid();
        b.dscale = a.dscale_tensor_uid();
        b.dbias = a.dbias_tensor_uid();
        b.k = static_cast<int>(a.normalized_dim_count());
        first = 1;
        break;
    }
    case fbs::NodeAttributes::RMSNormBackwardAttributes:
    {
        const fbs::RMSNormBackwardAttributes& a = *head->attributes_as_RMSNormBackwardAttributes();
        p.pattern = Pattern::NormBwd;
        NormBwd& b = p.bwd;
        b.kind = NormKind::Rms;
        b.dy = a.dy_tensor_uid();
        b.x = a.x_tensor_uid();
        b.scale = a.scale_tensor_uid();
        b.inv = a.inv_rms_tensor_uid();
        b.dx = a.dx_tensor_uid();
        b.dscale = a.dscale_tensor_uid();
        b.dbias = a.dbias_tensor_uid().has_value() ? a.dbias_tensor_uid().value() : -1;
        b.k = 0;
        first = 1;
        break;
    }
    default:
        throw Unsupported(std::string("node '") + (head->name() ? head->name()->str() : "") + "' ("
                          + fbs::EnumNameNodeAttributes(head->attributes_type())
                          + ") is not a pattern this engine generates code for (pointwise chains; layernorm, RMSNorm and "
                            "batchnorm forward and backward; reductions; softmax-like row programs)");
    }
    for(flatbuffers::uoffset_t i = static_cast<flatbuffers::uoffset_t>(first); i < count; ++i)
    {
        const fbs::Node* node = graph.nodes()->Get(i);
        if(node == nullptr)
            throw Unsupported("graph has a null node");
        if(p.pattern == Pattern::Pointwise && node->attributes_type() == fbs::NodeAttributes::BatchnormInferenceAttributes)
        {
            const fbs::BatchnormInferenceAttributes& a = *node->attributes_as_BatchnormInferenceAttributes();
            lowerBatchnormInference(p, a.x_tensor_uid(), a.mean_tensor_uid(), a.inv_variance_tensor_uid(), -1, -1,
                                    a.scale_tensor_uid(), a.bias_tensor_uid(), a.y_tensor_uid());
            continue;
        }
        if(p.pattern == Pattern::Pointwise && node->attributes_type() == fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt)
        {
            const fbs::BatchnormInferenceAttributesVarianceExt& a = *node->attributes_as_BatchnormInferenceAttributesVarianceExt();
            if(p.t(a.epsilon_tensor_uid()).elements() != 1)
                throw Unsupported("batchnorm inference: epsilon must hold one element");
            lowerBatchnormInference(p, a.x_tensor_uid(), a.mean_tensor_uid(), -1, a.variance_tensor_uid(), a.epsilon_tensor_uid(),
                                    a.scale_tensor_uid(), a.bias_tensor_uid(), a.y_tensor_uid());
            continue;
        }
        if(node->attributes_type() != fbs::NodeAttributes::PointwiseAttributes)
            throw Unsupported(std::string("node '") + (node->name() ? node->name()->str() : "") + "' ("
                              + fbs::EnumNameNodeAttributes(node->attributes_type())
                              + ") after the first node: only pointwise nodes (and batchnorm inference in pointwise "
                                "graphs) are fused after it");
        p.pw.push_back(readPointwise(*node->attributes_as_PointwiseAttributes()));
    }
    for(const std::vector<PwOp>* ops : {&p.pre, &p.pw})
        for(const PwOp& op : *ops)
        {
            for(int k = 0; k < pwArity(op.mode); ++k)
                if(!p.has(op.in[k]))
                    throw Unsupported("pointwise input uid " + std::to_string(op.in[k]) + " is not in the graph");
            if(!p.has(op.out))
                throw Unsupported("pointwise output uid " + std::to_string(op.out) + " is not in the graph");
        }

    if(p.pattern == Pattern::BnBwd && !p.pw.empty())
        throw Unsupported("pointwise nodes after a batchnorm backward are not fused yet");
    if(p.pattern == Pattern::BnFwd || p.pattern == Pattern::BnBwd)
    {
        checkBatchnorm(p);
        if(p.pattern == Pattern::BnFwd)
        {
            produced.insert(p.bn.y);
        }
        else
        {
            const Tensor& x = p.t(p.bn.x);
            p.summary = "batchnorm_bwd(" + std::string(dtypeName(x.dt)) + " " + dimsText(x.dims) + ")";
            return p;
        }
    }
    else if(p.pattern == Pattern::NormBwd)
    {
        if(!p.pw.empty())
            throw Unsupported("pointwise nodes after a norm backward are not fused yet");
        checkNormBwd(p);
        const Tensor& x = p.t(p.bwd.x);
        p.summary = std::string(p.bwd.kind == NormKind::Layer ? "layernorm" : "rmsnorm") + "_bwd(" + dtypeName(x.dt) + " "
                    + dimsText(x.dims) + ", " + std::to_string(p.bwd.rows) + " rows of " + std::to_string(p.bwd.n) + ")";
        return p;
    }
    if(p.pattern == Pattern::BnFwd)
    {
        const Tensor& x = p.t(p.bn.x);
        p.summary = "batchnorm_fwd(" + std::string(dtypeName(x.dt)) + " " + dimsText(x.dims) + ", " + std::to_string(p.bn.channels)
                    + " channels of " + std::to_string(p.bn.members) + ")";
        if(p.t(p.bn.y).isVirtual && p.pw.empty())
            throw Unsupported("batchnorm output y is virtual and nothing reads it");
    }
    else if(p.pattern == Pattern::Reduce)
    {
        Reduce& r = p.red;
        for(int64_t uid : {r.in, r.out})
            if(!p.has(uid))
                throw Unsupported("reduction: tensor uid " + std::to_string(uid) + " is not in the graph");
        const Tensor& in = p.t(r.in);
        const Tensor& out = p.t(r.out);
        if(in.scalarArg())
            throw Unsupported("reduction: the input must be a tensor, not a scalar");
        if(!p.pre.empty())
            checkPrologue(p, in.dims);
        else if(in.isVirtual)
            throw Unsupported("reduction: its virtual input " + std::to_string(r.in) + " is written by no node before it");
        if(out.rank() != in.rank())
            throw Unsupported("reduction: input and output must have the same rank");
        for(int d = 0; d < in.rank(); ++d)
            if(out.dims[static_cast<size_t>(d)] != 1 && out.dims[static_cast<size_t>(d)] != in.dims[static_cast<size_t>(d)])
                throw Unsupported("reduction: output dims must equal the input's or be 1");
        if(out.isVirtual && p.pw.empty())
            throw Unsupported("reduction output is virtual and nothing reads it");
        r.inDims = in.dims;
        p.space = out.dims;
        r.rows = out.elements();
        r.members = in.elements() / r.rows;
        produced.insert(r.out);
        for(const PwOp& op : p.pre)
            p.summary += std::string(pwModeName(op.mode)) + "+";
        p.summary += std::string("reduction_") + reductionName(r.mode) + "(" + dtypeName(in.dt) + " " + dimsText(in.dims) + " -> "
                    + dimsText(out.dims) + ")";
    }
    else if(p.pattern == Pattern::NormFwd)
    {
        checkNormFwd(p);
        produced.insert(p.norm.y);
        const Tensor& x = p.t(p.norm.x);
        p.summary = std::string(p.norm.kind == NormKind::Layer ? "layernorm" : "rmsnorm") + "_fwd("
                    + dtypeName(x.dt) + " " + dimsText(x.dims) + ", " + std::to_string(p.norm.rows) + " rows of "
                    + std::to_string(p.norm.n) + ")";
        if(p.t(p.norm.y).isVirtual && p.pw.empty())
            throw Unsupported("norm output y is virtual and nothing reads it");
    }
    else
    {
        // The iteration space: the dims of the non-virtual outputs (all the same).
        for(const PwOp& op : p.pw)
        {
            const Tensor& o = p.t(op.out);
            if(o.isVirtual)
                continue;
            if(p.space.empty())
                p.space = o.dims;
            else if(o.dims != p.space)
                throw Unsupported("pointwise outputs of different dims ([" + dimsText(p.space) + "] and [" + dimsText(o.dims)
                                  + "]) are not fused into one kernel");
        }
        if(p.space.empty())
            throw Unsupported("pointwise graph writes no tensor in memory");
        p.summary = "pointwise(" + dimsText(p.space) + ")";
    }
    std::set<int64_t> written;
    if(p.pattern == Pattern::Reduce)
        written.insert(p.red.out);
    if(p.pattern == Pattern::BnFwd)
        for(int64_t uid : {p.bn.y, p.bn.mean, p.bn.inv, p.bn.nextMean, p.bn.nextVar})
            if(uid >= 0)
                written.insert(uid);
    if(p.pattern == Pattern::NormFwd)
        for(int64_t uid : {p.norm.y, p.norm.mean, p.norm.inv})
            if(uid >= 0)
                written.insert(uid);
    checkPointwiseDag(p, p.pw, p.space, produced, written);
    // Every virtual tensor must be written by a node of the graph; every written non-virtual
    // tensor is an output in the space (checked above).
    for(const PwOp& op : p.pw)
        p.summary += std::string("+") + pwModeName(op.mode);
    return p;
}

} // namespace hipdnngo::cuda_rtc::model
