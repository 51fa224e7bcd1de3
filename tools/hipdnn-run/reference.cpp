#include "reference.hpp"

#include "reference_ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace hdrun
{

namespace
{

struct RefOpEntry
{
    const char* type;
    RefOp fn;
};

const RefOpEntry kRefOps[] = {
    {"ConvolutionFwdAttributes", refConvFwd},
    {"ConvolutionBwdAttributes", refConvBwdData},
    {"ConvolutionWrwAttributes", refConvBwdFilter},
    {"MatmulAttributes", refMatmul},
    {"PointwiseAttributes", refPointwise},
    {"ReductionAttributes", refReduction},
    {"BatchnormInferenceAttributes", refBatchnormInference},
    {"BatchnormInferenceAttributesVarianceExt", refBatchnormInferenceVariance},
    {"BatchnormAttributes", refBatchnormTraining},
    {"BatchnormBackwardAttributes", refBatchnormBackward},
    {"LayernormAttributes", refLayernorm},
    {"LayernormBackwardAttributes", refLayernormBackward},
    {"RMSNormAttributes", refRmsnorm},
    {"RMSNormBackwardAttributes", refRmsnormBackward},
    {"ResampleFwdAttributes", refResampleFwd},
    {"ResampleBwdAttributes", refResampleBwd},
    {"SdpaAttributes", refSdpaFwd},
    {"SdpaBackwardAttributes", refSdpaBwd},
};

} // namespace

RefOp refOpFor(const std::string& nodeType)
{
    for(const auto& e : kRefOps)
    {
        if(nodeType == e.type)
        {
            return e.fn;
        }
    }
    return nullptr;
}

std::string refOpNames()
{
    std::string s;
    for(const auto& e : kRefOps)
    {
        s += (s.empty() ? "" : ", ") + std::string(e.type);
    }
    return s;
}

std::vector<int64_t> denseStrides(const std::vector<int64_t>& dims)
{
    std::vector<int64_t> s(dims.size(), 1);
    for(size_t i = dims.size(); i-- > 1;)
    {
        s[i - 1] = s[i] * dims[i];
    }
    return s;
}

bool bcastStrides(const std::vector<int64_t>& in, const std::vector<int64_t>& out, std::vector<int64_t>* strides)
{
    std::vector<int64_t> dense = denseStrides(in);
    strides->assign(out.size(), 0);
    int64_t shift = static_cast<int64_t>(in.size()) - static_cast<int64_t>(out.size());
    // Leading dims of a higher-rank input must be 1.
    for(int64_t j = 0; j < shift; ++j)
    {
        if(in[static_cast<size_t>(j)] != 1)
        {
            return false;
        }
    }
    for(size_t i = 0; i < out.size(); ++i)
    {
        int64_t j = static_cast<int64_t>(i) + shift;
        if(j < 0)
        {
            continue;
        }
        int64_t d = in[static_cast<size_t>(j)];
        if(d == out[i])
        {
            (*strides)[i] = d == 1 ? 0 : dense[static_cast<size_t>(j)];
        }
        else if(d != 1)
        {
            return false;
        }
    }
    return true;
}

std::string dimsText(const std::vector<int64_t>& dims)
{
    std::ostringstream os;
    os << '[';
    for(size_t i = 0; i < dims.size(); ++i)
    {
        os << (i ? "," : "") << dims[i];
    }
    os << ']';
    return os.str();
}

const RefTensor* OpContext::in(int64_t uid) const
{
    auto it = values.find(uid);
    return it == values.end() ? nullptr : &it->second;
}

RefTensor* OpContext::out(int64_t uid)
{
    const Tensor* t = graph.tensor(uid);
    if(t == nullptr)
    {
        return nullptr;
    }
    RefTensor& r = values[uid];
    r.dims = t->dims;
    r.v.assign(static_cast<size_t>(std::max<int64_t>(t->numel(), 0)), 0.0);
    r.e.assign(r.v.size(), 0.0);
    r.skip.clear();
    return &r;
}

bool OpContext::scalar(int64_t uid, double* value) const
{
    const RefTensor* r = in(uid);
    if(r == nullptr || r->v.empty())
    {
        return false;
    }
    *value = r->v[0];
    return true;
}

namespace
{

double unitRoundoffOfCompute(DType t)
{
    switch(t)
    {
    case DType::Double: return dtypeUnitRoundoff(DType::Double);
    case DType::Half: return dtypeUnitRoundoff(DType::Half);
    case DType::BFloat16: return dtypeUnitRoundoff(DType::BFloat16);
    default: return dtypeUnitRoundoff(DType::Float);
    }
}

double absoluteFloor(DType t)
{
    switch(t)
    {
    case DType::Double: return 2.2250738585072014e-308;
    case DType::Half: return 5.9604644775390625e-8;
    case DType::Float:
    case DType::BFloat16: return 1.1754943508222875e-38;
    case DType::Fp8E4M3: return 0.001953125; // 2^-9, the smallest subnormal
    case DType::Fp8E5M2: return 1.52587890625e-5; // 2^-16
    default: return 0;
    }
}

// materialize puts an input tensor's exact values into the value map: a constant, a
// pass-by-value scalar or a buffer the engine read or wrote.
bool materialize(const Graph& g, const Buffers& buffers, int64_t uid, std::map<int64_t, RefTensor>* values)
{
    if(values->count(uid))
    {
        return true;
    }
    const Tensor* t = g.tensor(uid);
    if(t == nullptr || t->isVirtual || t->dtype == DType::Other)
    {
        return false;
    }
    RefTensor r;
    r.dims = t->dims;
    if(t->hasValue)
    {
        r.v.assign(static_cast<size_t>(std::max<int64_t>(t->numel(), 1)), t->value);
    }
    else
    {
        r.v = buffers.dense(*t);
        if(r.v.empty() && t->numel() != 0)
        {
            return false;
        }
    }
    (*values)[uid] = std::move(r);
    return true;
}

std::string indexText(const std::vector<int64_t>& dims, int64_t lin)
{
    std::vector<int64_t> idx(dims.size(), 0);
    for(size_t d = dims.size(); d-- > 0;)
    {
        if(dims[d] > 0)
        {
            idx[d] = lin % dims[d];
            lin /= dims[d];
        }
    }
    return dimsText(idx);
}

struct TensorCompare
{
    int64_t compared = 0;
    int64_t bad = 0;
    int64_t nonFinite = 0; // non-finite where the reference is finite
    int64_t agreeingNonFinite = 0; // non-finite exactly where the reference is (same value)
    double maxAbs = 0;
    double maxRatio = 0;
    int64_t worst = -1;
    double worstGot = 0, worstRef = 0, worstTol = 0;
};

TensorCompare compareTensor(const Tensor& t, const std::vector<double>& got, const RefTensor& ref)
{
    TensorCompare c;
    const double u = dtypeUnitRoundoff(t.dtype);
    const double floorAbs = absoluteFloor(t.dtype);
    const bool isInt = dtypeIsInt(t.dtype);
    for(size_t i = 0; i < got.size() && i < ref.v.size(); ++i)
    {
        if(!ref.skip.empty() && ref.skip[i])
        {
            continue;
        }
        ++c.compared;
        const double g = got[i];
        const double r = ref.v[i];
        const double e = ref.e.empty() ? 0.0 : ref.e[i];
        double tol = 0, diff = 0, ratio = 0;
        bool ok = true;
        if(!std::isfinite(g) || !std::isfinite(r))
        {
            bool same = (std::isnan(g) && std::isnan(r)) || g == r;
            if(same)
            {
                ++c.agreeingNonFinite;
                continue;
            }
            if(!std::isfinite(g))
            {
                ++c.nonFinite;
            }
            ok = false;
            diff = std::numeric_limits<double>::infinity();
            ratio = diff;
        }
        else if(isInt)
        {
            double lo = std::trunc(r - e), hi = std::trunc(r + e);
            diff = std::fabs(g - std::trunc(r));
            ok = g >= lo && g <= hi;
            tol = std::max(std::fabs(hi - std::trunc(r)), std::fabs(std::trunc(r) - lo));
            ratio = ok ? (diff > 0 ? diff / tol : 0) : std::numeric_limits<double>::infinity();
        }
        else
        {
            tol = e + 2.0 * u * std::fabs(r) + floorAbs;
            diff = std::fabs(g - r);
            ratio = diff / tol;
            ok = diff <= tol;
        }
        if(!ok)
        {
            ++c.bad;
        }
        c.maxAbs = std::max(c.maxAbs, diff);
        if(ratio > c.maxRatio || c.worst < 0)
        {
            c.maxRatio = std::max(ratio, c.maxRatio);
            c.worst = static_cast<int64_t>(i);
            c.worstGot = g;
            c.worstRef = r;
            c.worstTol = tol;
        }
    }
    return c;
}

int64_t countNonFinite(const std::vector<double>& v)
{
    int64_t n = 0;
    for(double x : v)
    {
        n += std::isfinite(x) ? 0 : 1;
    }
    return n;
}

} // namespace

CheckResult checkGraph(const Graph& g, const Buffers& buffers, bool quiet, bool compare, std::map<int64_t, RefTensor>* refs,
                       double minU)
{
    CheckResult result;
    std::map<int64_t, RefTensor> values;
    for(const Node& n : g.nodes)
    {
        std::string why;
        RefOp fn = refOpFor(n.type);
        if(fn == nullptr)
        {
            why = "no reference for " + n.type;
        }
        for(int64_t uid : n.inputs)
        {
            if(!why.empty())
            {
                break;
            }
            if(!materialize(g, buffers, uid, &values))
            {
                const Tensor* t = g.tensor(uid);
                why = (t != nullptr && t->dtype == DType::Other)
                          ? "input uid " + std::to_string(uid) + " has type " + t->dtypeText + ", which the reference cannot read"
                          : "input uid " + std::to_string(uid) + " comes from a node without reference";
            }
        }
        // SDPA dropout from a seed: the mask is the engine's own draw, which the reference reads
        // back from the rng_dump output (and checks) instead of drawing one.
        if(why.empty() && n.uid("rng_dump_tensor_uid") >= 0)
        {
            materialize(g, buffers, n.uid("rng_dump_tensor_uid"), &values);
        }
        OpContext ctx{g, n, values, std::max(minU, unitRoundoffOfCompute(n.compute)), {}};
        if(why.empty())
        {
            why = fn(ctx);
        }
        if(!why.empty())
        {
            ++result.uncheckedNodes;
            result.uncheckedWhy += (result.uncheckedWhy.empty() ? "" : "; ") + why;
            // The node's outputs are unknown to the reference; still require them finite.
            int64_t nf = 0;
            for(int64_t uid : n.outputs)
            {
                values.erase(uid);
                const Tensor* t = g.tensor(uid);
                if(compare && t != nullptr && !t->isVirtual && dtypeIsFloat(t->dtype))
                {
                    nf += countNonFinite(buffers.dense(*t));
                }
            }
            result.nonFinite += nf;
            if(!quiet)
            {
                std::printf("check: %s: %s%s\n", n.label().c_str(), why.c_str(),
                            nf ? (" (and " + std::to_string(nf) + " non-finite output values)").c_str() : " (outputs finite)");
            }
            continue;
        }
        for(int64_t uid : n.outputs)
        {
            const Tensor* t = g.tensor(uid);
            auto it = values.find(uid);
            if(t == nullptr || it == values.end())
            {
                continue;
            }
            RefTensor& ref = it->second;
            if(refs != nullptr)
            {
                (*refs)[uid] = ref;
            }
            if(!compare)
            {
                continue;
            }
            if(t->isVirtual)
            {
                // The engine stores the value in the tensor's type: one more rounding.
                double uv = dtypeUnitRoundoff(t->dtype);
                if(ref.e.empty())
                {
                    ref.e.assign(ref.v.size(), 0.0);
                }
                for(size_t i = 0; i < ref.v.size(); ++i)
                {
                    ref.e[i] += uv * std::fabs(ref.v[i]);
                }
                continue;
            }
            if(!dtypeIsFloat(t->dtype) && !dtypeIsInt(t->dtype))
            {
                continue;
            }
            std::vector<double> got = buffers.dense(*t);
            TensorCompare c = compareTensor(*t, got, ref);
            ++result.checkedTensors;
            bool failed = c.bad > 0;
            result.failedTensors += failed ? 1 : 0;
            result.nonFinite += c.nonFinite;
            result.maxAbsError = std::max(result.maxAbsError, c.maxAbs);
            result.maxTolRatio = std::max(result.maxTolRatio, c.maxRatio);
            if(!quiet || failed)
            {
                std::string notes;
                for(const auto& s : ctx.notes)
                {
                    notes += "; " + s;
                }
                std::printf("check: %s -> \"%s\" uid %lld %s: %lld compared, max |err| %.3g, max err/tol %.3g, "
                            "%lld non-finite%s: %s%s\n",
                            n.label().c_str(), t->name.c_str(), static_cast<long long>(uid), t->shape().c_str(),
                            static_cast<long long>(c.compared), c.maxAbs, c.maxRatio, static_cast<long long>(c.nonFinite),
                            c.agreeingNonFinite
                                ? (" (" + std::to_string(c.agreeingNonFinite) + " non-finite as in the reference)").c_str()
                                : "",
                            failed ? "FAIL" : "ok", notes.c_str());
                if(failed && c.worst >= 0)
                {
                    std::printf("       %lld of %lld elements out of tolerance; worst at %s: got %.9g, reference %.9g, "
                                "tolerance %.3g\n",
                                static_cast<long long>(c.bad), static_cast<long long>(c.compared),
                                indexText(t->dims, c.worst).c_str(), c.worstGot, c.worstRef, c.worstTol);
                }
            }
            // Downstream nodes read what the engine wrote, exactly.
            ref.v = std::move(got);
            ref.e.clear();
        }
    }
    return result;
}

double estimateFlops(const Graph& g)
{
    double total = 0;
    auto numel = [&](int64_t uid) -> double {
        const Tensor* t = g.tensor(uid);
        return t ? static_cast<double>(std::max<int64_t>(t->numel(), 0)) : 0.0;
    };
    for(const Node& n : g.nodes)
    {
        // Each reference multiply-add also tracks |terms| and errors: count 4 flops per MAC.
        if(n.type == "ConvolutionFwdAttributes" || n.type == "ConvolutionBwdAttributes" || n.type == "ConvolutionWrwAttributes")
        {
            bool fwd = n.type == "ConvolutionFwdAttributes";
            bool wrw = n.type == "ConvolutionWrwAttributes";
            const Tensor* y = g.tensor(n.uid(fwd ? "y_tensor_uid" : "dy_tensor_uid"));
            const Tensor* w = g.tensor(n.uid(wrw ? "dw_tensor_uid" : "w_tensor_uid"));
            if(y && w && w->dims.size() >= 2)
            {
                double perOut = 1;
                for(size_t i = 1; i < w->dims.size(); ++i)
                {
                    perOut *= static_cast<double>(w->dims[i]);
                }
                total += 4.0 * static_cast<double>(y->numel()) * perOut;
            }
        }
        else if(n.type == "MatmulAttributes")
        {
            const Tensor* a = g.tensor(n.uid("a_tensor_uid"));
            const Tensor* cT = g.tensor(n.uid("c_tensor_uid"));
            if(a && cT && !a->dims.empty())
            {
                total += 4.0 * static_cast<double>(cT->numel()) * static_cast<double>(a->dims.back());
            }
        }
        else if(n.type == "SdpaAttributes" || n.type == "SdpaBackwardAttributes")
        {
            const Tensor* q = g.tensor(n.uid("q_tensor_uid"));
            const Tensor* k = g.tensor(n.uid("k_tensor_uid"));
            const Tensor* v = g.tensor(n.uid("v_tensor_uid"));
            if(q && k && v && q->dims.size() == 4 && k->dims.size() == 4 && v->dims.size() == 4)
            {
                double skv = static_cast<double>(k->dims[2]);
                if(n.uid("page_table_k_tensor_uid") >= 0)
                {
                    skv *= static_cast<double>(k->dims[0]) / std::max<double>(1.0, static_cast<double>(q->dims[0]));
                }
                total += (n.type == "SdpaAttributes" ? 4.0 : 12.0) * static_cast<double>(q->dims[0] * q->dims[1] * q->dims[2])
                         * skv * static_cast<double>(q->dims[3] + v->dims[3]);
            }
        }
        else
        {
            double elems = 0;
            for(int64_t uid : n.inputs)
                elems += numel(uid);
            for(int64_t uid : n.outputs)
                elems += numel(uid);
            double factor = 20; // pointwise sensitivities, normalisation passes, windows
            if(n.type == "ResampleFwdAttributes" || n.type == "ResampleBwdAttributes")
            {
                std::vector<int64_t> win = n.ints("window");
                for(int64_t w : win)
                    factor *= static_cast<double>(std::max<int64_t>(w, 1));
            }
            total += factor * elems;
        }
    }
    return total;
}

} // namespace hdrun
