#include "kernels/Sdpa.hpp"

#include "core/Parallel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace hipdnngo::cpu_reference
{
namespace
{

std::string dimsOk(const TensorView& t, const char* role, std::initializer_list<int64_t> want)
{
    bool ok = t.rank == static_cast<int>(want.size());
    int d = 0;
    for(int64_t w : want)
    {
        ok = ok && t.dims[d] == w;
        ++d;
    }
    if(ok)
        return "";
    std::string s = "[";
    d = 0;
    for(int64_t w : want)
        s += (d++ ? "," : "") + std::to_string(w);
    return std::string("sdpa: ") + role + " " + t.describe() + " must have dims " + s + "]";
}

// Geometry is the problem size read from q, k, v.
struct Geometry
{
    int64_t b, hq, sq, d, hk, skv, hv, dv;
    explicit Geometry(const TensorView& q, const TensorView& k, const TensorView& v)
        : b(q.dims[0]), hq(q.dims[1]), sq(q.dims[2]), d(q.dims[3]), hk(k.dims[1]), skv(k.dims[2]), hv(v.dims[1]), dv(v.dims[3])
    {
    }
};

std::string checkCommon(const TensorView& q, const TensorView& k, const TensorView& v, const TensorView& o,
                        const TensorView* bias, const TensorView* seqLenQ, const TensorView* seqLenKv, const TensorView* stats)
{
    for(const auto& [t, role] : {std::pair<const TensorView*, const char*>{&q, "q"}, {&k, "k"}, {&v, "v"}, {&o, "o"}})
        if(t->rank != 4)
            return std::string("sdpa: ") + role + " " + t->describe() + " must have rank 4 [B, H, S, D]";
    const Geometry g(q, k, v);
    if(g.hk < 1 || g.hv < 1 || g.hq % g.hk != 0 || g.hq % g.hv != 0)
        return "sdpa: query heads " + std::to_string(g.hq) + " must be a multiple of key heads " + std::to_string(g.hk)
               + " and value heads " + std::to_string(g.hv);
    std::string err = dimsOk(k, "k", {g.b, g.hk, g.skv, g.d});
    if(err.empty())
        err = dimsOk(v, "v", {g.b, g.hv, g.skv, g.dv});
    if(err.empty())
        err = dimsOk(o, "o", {g.b, g.hq, g.sq, g.dv});
    if(!err.empty())
        return err;
    if(bias != nullptr)
    {
        const int64_t full[4] = {g.b, g.hq, g.sq, g.skv};
        if(bias->rank < 1 || bias->rank > 4 || !isBroadcastableTo(*bias, 4, full))
            return "sdpa: bias " + bias->describe() + " does not broadcast to [B, Hq, Sq, Skv] = [" + std::to_string(g.b) + ","
                   + std::to_string(g.hq) + "," + std::to_string(g.sq) + "," + std::to_string(g.skv) + "]";
    }
    for(const auto& [t, role] : {std::pair<const TensorView*, const char*>{seqLenQ, "seq_len_q"}, {seqLenKv, "seq_len_kv"}})
    {
        if(t == nullptr)
            continue;
        if(isFloatingPoint(t->dtype) || t->dtype == DataType::Boolean)
            return std::string("sdpa: ") + role + " " + t->describe() + " must have an integer type";
        if(t->elementCount() != g.b)
            return std::string("sdpa: ") + role + " " + t->describe() + " must hold one length per batch (" + std::to_string(g.b)
                   + ")";
    }
    if(stats != nullptr)
    {
        const std::string r4 = dimsOk(*stats, "stats", {g.b, g.hq, g.sq, 1});
        if(!r4.empty() && !dimsOk(*stats, "stats", {g.b, g.hq, g.sq}).empty())
            return r4 + " (or [B, Hq, Sq])";
    }
    return "";
}

// elementOffset returns the offset of the linear (row-major logical) index `i` of t.
int64_t elementOffset(const TensorView& t, int64_t i)
{
    int64_t off = 0;
    for(int d = t.rank - 1; d >= 0; --d)
    {
        off += (i % t.dims[d]) * t.strides[d];
        i /= t.dims[d];
    }
    return off;
}

// lengths reads per-batch valid lengths (or `full` for every batch when t is null).
std::vector<int64_t> lengths(const TensorView* t, int64_t batch, int64_t full, const char* role)
{
    std::vector<int64_t> out(static_cast<size_t>(batch), full);
    if(t == nullptr)
        return out;
    for(int64_t b = 0; b < batch; ++b)
    {
        const double v = t->load<double>(elementOffset(*t, b));
        if(!(v >= 0 && v <= static_cast<double>(full)))
            throw KernelError(std::string("sdpa: ") + role + "[" + std::to_string(b) + "] = " + std::to_string(v)
                              + " is outside [0, " + std::to_string(full) + "]");
        out[static_cast<size_t>(b)] = static_cast<int64_t>(v);
    }
    return out;
}

// visibleRange returns [begin, end) of the keys row i sees (band ∩ [0, skvB)).
void visibleRange(const SdpaMask& m, int64_t i, int64_t sqB, int64_t skvB, int64_t& begin, int64_t& end)
{
    const int64_t off = m.bottomRight ? skvB - sqB : 0;
    begin = m.leftBound >= 0 ? std::max<int64_t>(0, i + off - m.leftBound) : 0;
    end = m.rightBound >= 0 ? std::min<int64_t>(skvB, i + off + m.rightBound + 1) : skvB;
}

// Dense is a tensor widened to Acc in packed [B, H, S, D] order.
template <typename Acc>
struct Dense
{
    std::vector<Acc> data;
    int64_t h, s, d;
    explicit Dense(const TensorView& t) : data(static_cast<size_t>(t.elementCount())), h(t.dims[1]), s(t.dims[2]), d(t.dims[3])
    {
        gatherDense(t, data.data());
    }
    const Acc* row(int64_t b, int64_t head, int64_t i) const { return data.data() + ((b * h + head) * s + i) * d; }
};

// Scores computes the scaled, biased scores of one row over its visible range.
template <typename Acc>
struct Scorer
{
    const Dense<Acc>& q;
    const Dense<Acc>& k;
    const TensorView* bias; // broadcast to [B, Hq, Sq, Skv] or null
    Acc scale;
    int64_t groupK;

    Acc score(int64_t b, int64_t h, int64_t i, int64_t j) const
    {
        const Acc* qr = q.row(b, h, i);
        const Acc* kr = k.row(b, h / groupK, j);
        Acc dot = Acc(0);
        for(int64_t x = 0; x < q.d; ++x)
            dot += qr[x] * kr[x];
        Acc s = dot * scale;
        if(bias != nullptr)
            s += bias->load<Acc>(b * bias->strides[0] + h * bias->strides[1] + i * bias->strides[2] + j * bias->strides[3]);
        return s;
    }
};

template <typename Acc>
Acc resolveScale(const SdpaParams& p, int64_t headDim)
{
    return p.hasScale ? static_cast<Acc>(p.scale) : Acc(1) / std::sqrt(static_cast<Acc>(headDim));
}

int64_t statsOffset(const TensorView& stats, int64_t b, int64_t h, int64_t i)
{
    return b * stats.strides[0] + h * stats.strides[1] + i * stats.strides[2];
}

template <typename Acc>
void runForward(const SdpaForwardViews& t, const SdpaParams& p)
{
    const Geometry g(t.q, t.k, t.v);
    const Dense<Acc> q(t.q), k(t.k), v(t.v);
    const std::vector<int64_t> sqLen = lengths(t.seqLenQ, g.b, g.sq, "seq_len_q");
    const std::vector<int64_t> skvLen = lengths(t.seqLenKv, g.b, g.skv, "seq_len_kv");
    TensorView bias;
    if(t.bias != nullptr)
    {
        const int64_t full[4] = {g.b, g.hq, g.sq, g.skv};
        bias = broadcastTo(*t.bias, 4, full);
    }
    const Scorer<Acc> scorer{q, k, t.bias ? &bias : nullptr, resolveScale<Acc>(p, g.d), g.hq / g.hk};
    const int64_t groupV = g.hq / g.hv;
    const TensorView& o = t.o;
    const Acc negInf = -std::numeric_limits<Acc>::infinity();

    parallelFor(g.b * g.hq * g.sq, std::max<int64_t>(1, 64 / std::max<int64_t>(g.skv, 1)), [&](int64_t begin, int64_t end) {
        std::vector<Acc> scores(static_cast<size_t>(g.skv)), acc(static_cast<size_t>(g.dv));
        for(int64_t row = begin; row < end; ++row)
        {
            const int64_t i = row % g.sq, h = (row / g.sq) % g.hq, b = row / (g.sq * g.hq);
            const int64_t sqB = sqLen[static_cast<size_t>(b)], skvB = skvLen[static_cast<size_t>(b)];
            int64_t jb = 0, je = 0;
            if(i < sqB)
                visibleRange(p.mask, i, sqB, skvB, jb, je);
            Acc m = negInf;
            for(int64_t j = jb; j < je; ++j)
            {
                scores[static_cast<size_t>(j)] = scorer.score(b, h, i, j);
                m = std::max(m, scores[static_cast<size_t>(j)]);
            }
            std::fill(acc.begin(), acc.end(), Acc(0));
            Acc l = Acc(0);
            if(m != negInf)
            {
                for(int64_t j = jb; j < je; ++j)
                {
                    const Acc e = std::exp(scores[static_cast<size_t>(j)] - m);
                    l += e;
                    const Acc* vr = v.row(b, h / groupV, j);
                    for(int64_t x = 0; x < g.dv; ++x)
                        acc[static_cast<size_t>(x)] += e * vr[x];
                }
            }
            const int64_t oBase = b * o.strides[0] + h * o.strides[1] + i * o.strides[2];
            for(int64_t x = 0; x < g.dv; ++x)
                o.store(oBase + x * o.strides[3], m != negInf ? acc[static_cast<size_t>(x)] / l : Acc(0));
            if(t.stats != nullptr)
                t.stats->store(statsOffset(*t.stats, b, h, i), m != negInf ? m + std::log(l) : negInf);
        }
    });
}

template <typename Acc>
void runBackward(const SdpaBackwardViews& t, const SdpaParams& p)
{
    const Geometry g(t.q, t.k, t.v);
    const Dense<Acc> q(t.q), k(t.k), v(t.v), o(t.o), dO(t.dO);
    const std::vector<int64_t> sqLen = lengths(t.seqLenQ, g.b, g.sq, "seq_len_q");
    const std::vector<int64_t> skvLen = lengths(t.seqLenKv, g.b, g.skv, "seq_len_kv");
    TensorView bias;
    if(t.bias != nullptr)
    {
        const int64_t full[4] = {g.b, g.hq, g.sq, g.skv};
        bias = broadcastTo(*t.bias, 4, full);
    }
    const Acc scale = resolveScale<Acc>(p, g.d);
    const Scorer<Acc> scorer{q, k, t.bias ? &bias : nullptr, scale, g.hq / g.hk};
    const int64_t groupK = g.hq / g.hk, groupV = g.hq / g.hv;
    const Acc negInf = -std::numeric_limits<Acc>::infinity();

    // Per query head: dQ directly, dK / dV partial sums (reduced over head groups below).
    std::vector<Acc> dq(static_cast<size_t>(g.b * g.hq * g.sq * g.d), Acc(0));
    std::vector<Acc> dkPart(static_cast<size_t>(g.b * g.hq * g.skv * g.d), Acc(0));
    std::vector<Acc> dvPart(static_cast<size_t>(g.b * g.hq * g.skv * g.dv), Acc(0));
    parallelFor(g.b * g.hq, 1, [&](int64_t begin, int64_t end) {
        for(int64_t bh = begin; bh < end; ++bh)
        {
            const int64_t b = bh / g.hq, h = bh % g.hq;
            const int64_t sqB = sqLen[static_cast<size_t>(b)], skvB = skvLen[static_cast<size_t>(b)];
            Acc* dkHead = dkPart.data() + bh * g.skv * g.d;
            Acc* dvHead = dvPart.data() + bh * g.skv * g.dv;
            for(int64_t i = 0; i < sqB; ++i)
            {
                const Acc lse = t.stats.load<Acc>(statsOffset(t.stats, b, h, i));
                if(lse == negInf)
                    continue; // the forward saw no key for this row
                int64_t jb = 0, je = 0;
                visibleRange(p.mask, i, sqB, skvB, jb, je);
                const Acc* qi = q.row(b, h, i);
                const Acc* oi = o.row(b, h, i);
                const Acc* doi = dO.row(b, h, i);
                Acc delta = Acc(0);
                for(int64_t x = 0; x < g.dv; ++x)
                    delta += doi[x] * oi[x];
                Acc* dqi = dq.data() + ((b * g.hq + h) * g.sq + i) * g.d;
                for(int64_t j = jb; j < je; ++j)
                {
                    const Acc prob = std::exp(scorer.score(b, h, i, j) - lse);
                    const Acc* vj = v.row(b, h / groupV, j);
                    Acc dp = Acc(0);
                    for(int64_t x = 0; x < g.dv; ++x)
                        dp += doi[x] * vj[x];
                    const Acc ds = prob * (dp - delta) * scale;
                    const Acc* kj = k.row(b, h / groupK, j);
                    Acc* dkj = dkHead + j * g.d;
                    for(int64_t x = 0; x < g.d; ++x)
                    {
                        dqi[x] += ds * kj[x];
                        dkj[x] += ds * qi[x];
                    }
                    Acc* dvj = dvHead + j * g.dv;
                    for(int64_t x = 0; x < g.dv; ++x)
                        dvj[x] += prob * doi[x];
                }
            }
        }
    });
    scatterDense(dq.data(), t.dQ);
    // dK[b, hk] = Σ over the query heads of group hk (fixed head order).
    auto reduceGroups = [&](const std::vector<Acc>& part, int64_t heads, int64_t group, int64_t width, const TensorView& out) {
        parallelFor(g.b * heads * g.skv, std::max<int64_t>(1, 1024 / std::max<int64_t>(width, 1)),
                    [&](int64_t begin, int64_t end) {
                        for(int64_t r = begin; r < end; ++r)
                        {
                            const int64_t j = r % g.skv, hk = (r / g.skv) % heads, b = r / (g.skv * heads);
                            const int64_t base = b * out.strides[0] + hk * out.strides[1] + j * out.strides[2];
                            for(int64_t x = 0; x < width; ++x)
                            {
                                Acc sum = Acc(0);
                                for(int64_t h = hk * group; h < (hk + 1) * group; ++h)
                                    sum += part[static_cast<size_t>(((b * g.hq + h) * g.skv + j) * width + x)];
                                out.store(base + x * out.strides[3], sum);
                            }
                        }
                    });
    };
    reduceGroups(dkPart, g.hk, groupK, g.d, t.dK);
    reduceGroups(dvPart, g.hv, groupV, g.dv, t.dV);
}

bool wantsDouble(Accumulator acc, std::initializer_list<const TensorView*> views)
{
    if(acc != Accumulator::Auto)
        return acc == Accumulator::Double;
    for(const TensorView* v : views)
        if(v != nullptr && v->dtype == DataType::Double)
            return true;
    return false;
}

void throwIf(const std::string& err)
{
    if(!err.empty())
        throw KernelError(err);
}

} // namespace

std::string checkSdpaForward(const SdpaForwardViews& t)
{
    return checkCommon(t.q, t.k, t.v, t.o, t.bias, t.seqLenQ, t.seqLenKv, t.stats);
}

std::string checkSdpaBackward(const SdpaBackwardViews& t)
{
    std::string err = checkCommon(t.q, t.k, t.v, t.o, t.bias, t.seqLenQ, t.seqLenKv, &t.stats);
    if(!err.empty())
        return err;
    const Geometry g(t.q, t.k, t.v);
    err = dimsOk(t.dO, "dO", {g.b, g.hq, g.sq, g.dv});
    if(err.empty())
        err = dimsOk(t.dQ, "dQ", {g.b, g.hq, g.sq, g.d});
    if(err.empty())
        err = dimsOk(t.dK, "dK", {g.b, g.hk, g.skv, g.d});
    if(err.empty())
        err = dimsOk(t.dV, "dV", {g.b, g.hv, g.skv, g.dv});
    return err;
}

void sdpaForward(const SdpaForwardViews& t, const SdpaParams& p)
{
    throwIf(checkSdpaForward(t));
    if(wantsDouble(p.accumulator, {&t.q, &t.k, &t.v, &t.o, t.bias, t.stats}))
        runForward<double>(t, p);
    else
        runForward<float>(t, p);
}

void sdpaBackward(const SdpaBackwardViews& t, const SdpaParams& p)
{
    throwIf(checkSdpaBackward(t));
    if(wantsDouble(p.accumulator, {&t.q, &t.k, &t.v, &t.o, &t.dO, &t.stats, &t.dQ, &t.dK, &t.dV, t.bias}))
        runBackward<double>(t, p);
    else
        runBackward<float>(t, p);
}

} // namespace hipdnngo::cpu_reference
