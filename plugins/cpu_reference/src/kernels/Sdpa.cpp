#include "kernels/Sdpa.hpp"

#include "kernels/SdpaLayout.hpp"

#include "core/Parallel.hpp"

#include <hipdnn_plugin_sdk/helpers/Attention.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
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

// Geometry is the problem size read from q, k, v (skv given: paged K / V do not hold it).
struct Geometry
{
    int64_t b, hq, sq, d, hk, skv, hv, dv;
    Geometry(const TensorView& q, const TensorView& k, const TensorView& v, int64_t kvLen)
        : b(q.dims[0]), hq(q.dims[1]), sq(q.dims[2]), d(q.dims[3]), hk(k.dims[1]), skv(kvLen), hv(v.dims[1]), dv(v.dims[3])
    {
    }
};

bool allRank4(std::initializer_list<std::pair<const TensorView*, const char*>> views, std::string* err)
{
    for(const auto& [t, role] : views)
        if(t->rank != 4)
        {
            *err = std::string("sdpa: ") + role + " " + t->describe() + " must have rank 4 [B, H, S, D]";
            return false;
        }
    return true;
}

// PagedKv is what a forward's page tables say: pages per batch of k and v (0: not paged).
struct PagedKv
{
    int64_t pagesK = 0, pagesV = 0;
};

// kvLength is Skv: the keys' S, or for paged caches cuDNN's inference (Sdpa.hpp).
int64_t kvLength(const TensorView& k, const TensorView& v, const TensorView* bias, const PagedKv& paged, int64_t maxSeqLenKv)
{
    if(paged.pagesK == 0 && paged.pagesV == 0)
        return k.dims[2];
    if(maxSeqLenKv >= 0)
        return maxSeqLenKv;
    if(paged.pagesK == 0)
        return k.dims[2];
    if(paged.pagesV == 0)
        return v.dims[2];
    if(bias != nullptr && bias->rank == 4)
        return bias->dims[3];
    return std::min(paged.pagesK * k.dims[2], paged.pagesV * v.dims[2]);
}

// rowOutputOk checks a per-row output (stats, max, sum_exp): [B, Hq, Sq, 1] or [B, Hq, Sq].
std::string rowOutputOk(const TensorView* t, const char* role, const Geometry& g)
{
    if(t == nullptr)
        return "";
    const std::string r4 = dimsOk(*t, role, {g.b, g.hq, g.sq, 1});
    if(!r4.empty() && !dimsOk(*t, role, {g.b, g.hq, g.sq}).empty())
        return r4 + " (or [B, Hq, Sq])";
    return "";
}

std::string checkCommon(const TensorView& k, const TensorView& v, const TensorView& o, const Geometry& g,
                        const PagedKv& paged, const TensorView* bias, const TensorView* seqLenQ, const TensorView* seqLenKv,
                        const TensorView* stats)
{
    if(g.hk < 1 || g.hv < 1 || g.hq % g.hk != 0 || g.hq % g.hv != 0)
        return "sdpa: query heads " + std::to_string(g.hq) + " must be a multiple of key heads " + std::to_string(g.hk)
               + " and value heads " + std::to_string(g.hv);
    std::string err;
    if(paged.pagesK > 0)
    {
        if(k.dims[3] != g.d)
            err = "sdpa: paged k container " + k.describe() + " must have dims [blocks, Hk, block, " + std::to_string(g.d) + "]";
        else if(paged.pagesK * k.dims[2] < g.skv)
            err = "sdpa: page_table_k holds " + std::to_string(paged.pagesK) + " blocks of " + std::to_string(k.dims[2])
                  + " keys, fewer than Skv = " + std::to_string(g.skv);
    }
    else
        err = dimsOk(k, "k", {g.b, g.hk, g.skv, g.d});
    if(err.empty() && paged.pagesV > 0)
    {
        if(paged.pagesV * v.dims[2] < g.skv)
            err = "sdpa: page_table_v holds " + std::to_string(paged.pagesV) + " blocks of " + std::to_string(v.dims[2])
                  + " values, fewer than Skv = " + std::to_string(g.skv);
    }
    else if(err.empty())
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
    return rowOutputOk(stats, "stats", g);
}

// checkRagged checks each tensor's offsets; q-side tensors need seq_len_q, k-side seq_len_kv.
std::string checkRagged(std::initializer_list<std::pair<const TensorView*, const char*>> qSide,
                        std::initializer_list<std::pair<const TensorView*, const char*>> kvSide, int64_t batch, bool haveQ, bool haveKv)
{
    for(const auto& [t, role] : qSide)
        if(t != nullptr)
            if(std::string err = checkRaggedOffsets(*t, role, batch, haveQ, "seq_len_q"); !err.empty())
                return err;
    for(const auto& [t, role] : kvSide)
        if(t != nullptr)
            if(std::string err = checkRaggedOffsets(*t, role, batch, haveKv, "seq_len_kv"); !err.empty())
                return err;
    return "";
}

// statsRank4 sees a [B, H, S] stats tensor as [B, H, S, 1].
TensorView statsRank4(const TensorView& stats)
{
    if(stats.rank == 4)
        return stats;
    TensorView v = stats;
    v.rank = 4;
    v.dims[3] = 1;
    v.strides[3] = 1;
    return v;
}

// lengths reads per-batch valid lengths (or `full` for every batch when t is null).
std::vector<int64_t> lengths(const TensorView* t, int64_t batch, int64_t full, const char* role)
{
    std::vector<int64_t> out(static_cast<size_t>(batch), full);
    if(t == nullptr)
        return out;
    for(int64_t b = 0; b < batch; ++b)
    {
        const double v = t->load<double>(linearOffset(*t, b));
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

// Dense is a tensor widened to Acc in packed [B, H, S, W] order (rows it does not hold are 0).
template <typename Acc>
struct Dense
{
    std::vector<Acc> data;
    int64_t h, s, d;
    Dense(const SdpaRows& rows, int64_t batch, int64_t heads, int64_t seq, int64_t width, const std::vector<int64_t>& valid)
        : data(static_cast<size_t>(batch * heads * seq * width)), h(heads), s(seq), d(width)
    {
        gatherRows(rows, batch, heads, seq, width, valid, data.data());
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
    std::vector<Acc> alibi; // a slope per query head, or empty

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
        if(!alibi.empty())
            s += alibi[static_cast<size_t>(h)] * static_cast<Acc>(j - i);
        return s;
    }
};

template <typename Acc>
std::vector<Acc> alibiOf(const SdpaParams& p, int64_t heads)
{
    std::vector<Acc> slopes;
    if(p.alibi)
        for(float x : hipdnn_plugin_sdk::alibiSlopes(heads))
            slopes.push_back(static_cast<Acc>(x));
    return slopes;
}

template <typename Acc>
Acc resolveScale(const SdpaParams& p, int64_t headDim)
{
    return p.hasScale ? static_cast<Acc>(p.scale) : Acc(1) / std::sqrt(static_cast<Acc>(headDim));
}

// pagesOf returns P of a page table (0 when null); the table was checked at prepare.
int64_t pagesOf(const TensorView* table, int64_t batch)
{
    int64_t pages = 0;
    if(table != nullptr)
        checkPageTable(*table, "page table", batch, &pages);
    return pages;
}

PagedKv pagedOf(const SdpaForwardViews& t)
{
    return {pagesOf(t.pageTableK, t.q.dims[0]), pagesOf(t.pageTableV, t.q.dims[0])};
}

template <typename Acc>
void runForward(const SdpaForwardViews& t, const SdpaParams& p)
{
    const PagedKv paged = pagedOf(t);
    const Geometry g(t.q, t.k, t.v, kvLength(t.k, t.v, t.bias, paged, t.maxSeqLenKv));
    const std::vector<int64_t> sqLen = lengths(t.seqLenQ, g.b, g.sq, "seq_len_q");
    const std::vector<int64_t> skvLen = lengths(t.seqLenKv, g.b, g.skv, "seq_len_kv");
    const SdpaRows qRows{t.q, t.ragged.q}, kRows{t.k, t.ragged.k, t.pageTableK, paged.pagesK},
        vRows{t.v, t.ragged.v, t.pageTableV, paged.pagesV}, oRows{t.o, t.ragged.o};
    const SdpaRows statsRows{t.stats != nullptr ? statsRank4(*t.stats) : TensorView(), t.ragged.stats},
        maxRows{t.max != nullptr ? statsRank4(*t.max) : TensorView(), t.ragged.max},
        sumExpRows{t.sumExp != nullptr ? statsRank4(*t.sumExp) : TensorView(), t.ragged.sumExp};
    validateRows(qRows, sqLen, "q", false);
    validateRows(kRows, skvLen, "k", false);
    validateRows(vRows, skvLen, "v", false);
    validateRows(oRows, sqLen, "o", true);
    if(t.stats != nullptr)
        validateRows(statsRows, sqLen, "stats", true);
    if(t.max != nullptr)
        validateRows(maxRows, sqLen, "max", true);
    if(t.sumExp != nullptr)
        validateRows(sumExpRows, sqLen, "sum_exp", true);
    const Dense<Acc> q(qRows, g.b, g.hq, g.sq, g.d, sqLen), k(kRows, g.b, g.hk, g.skv, g.d, skvLen),
        v(vRows, g.b, g.hv, g.skv, g.dv, skvLen);
    TensorView bias;
    if(t.bias != nullptr)
    {
        const int64_t full[4] = {g.b, g.hq, g.sq, g.skv};
        bias = broadcastTo(*t.bias, 4, full);
    }
    const Scorer<Acc> scorer{q, k, t.bias ? &bias : nullptr, resolveScale<Acc>(p, g.d), g.hq / g.hk, alibiOf<Acc>(p, g.hq)};
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
            // The sink joins the denominator of real rows only (padding rows have no softmax).
            const bool sunk = t.sink != nullptr && i < sqB;
            const Acc sink = sunk ? t.sink->load<Acc>(linearOffset(*t.sink, h)) : negInf;
            const Acc mAll = std::max(m, sink);
            std::fill(acc.begin(), acc.end(), Acc(0));
            Acc l = sunk ? std::exp(sink - mAll) : Acc(0);
            if(m != negInf)
            {
                for(int64_t j = jb; j < je; ++j)
                {
                    const Acc e = std::exp(scores[static_cast<size_t>(j)] - mAll);
                    l += e;
                    const Acc* vr = v.row(b, h / groupV, j);
                    for(int64_t x = 0; x < g.dv; ++x)
                        acc[static_cast<size_t>(x)] += e * vr[x];
                }
            }
            const bool real = i < sqB;
            if(real || !oRows.holdsOnlyValidRows())
            {
                const int64_t oBase = oRows.rowOffset(b, h, i);
                for(int64_t x = 0; x < g.dv; ++x)
                    o.store(oBase + x * o.strides[3], m != negInf ? acc[static_cast<size_t>(x)] / l : Acc(0));
            }
            if(t.stats != nullptr && (real || !statsRows.holdsOnlyValidRows()))
                t.stats->store(statsRows.rowOffset(b, h, i), mAll != negInf ? mAll + std::log(l) : negInf);
            if(t.max != nullptr && (real || !maxRows.holdsOnlyValidRows()))
                t.max->store(maxRows.rowOffset(b, h, i), mAll);
            if(t.sumExp != nullptr && (real || !sumExpRows.holdsOnlyValidRows()))
                t.sumExp->store(sumExpRows.rowOffset(b, h, i), l);
        }
    });
}

template <typename Acc>
void runBackward(const SdpaBackwardViews& t, const SdpaParams& p)
{
    const Geometry g(t.q, t.k, t.v, t.k.dims[2]);
    const std::vector<int64_t> sqLen = lengths(t.seqLenQ, g.b, g.sq, "seq_len_q");
    const std::vector<int64_t> skvLen = lengths(t.seqLenKv, g.b, g.skv, "seq_len_kv");
    const SdpaRows qRows{t.q, t.ragged.q}, kRows{t.k, t.ragged.k}, vRows{t.v, t.ragged.v}, oRows{t.o, t.ragged.o},
        dORows{t.dO, t.ragged.dO}, statsRows{statsRank4(t.stats), t.ragged.stats}, dQRows{t.dQ, t.ragged.dQ},
        dKRows{t.dK, t.ragged.dK}, dVRows{t.dV, t.ragged.dV};
    for(const auto& [rows, role, valid, output] :
        {std::tuple<const SdpaRows&, const char*, const std::vector<int64_t>&, bool>{qRows, "q", sqLen, false},
         {kRows, "k", skvLen, false},
         {vRows, "v", skvLen, false},
         {oRows, "o", sqLen, false},
         {dORows, "dO", sqLen, false},
         {statsRows, "stats", sqLen, false},
         {dQRows, "dQ", sqLen, true},
         {dKRows, "dK", skvLen, true},
         {dVRows, "dV", skvLen, true}})
        validateRows(rows, valid, role, output);
    const Dense<Acc> q(qRows, g.b, g.hq, g.sq, g.d, sqLen), k(kRows, g.b, g.hk, g.skv, g.d, skvLen),
        v(vRows, g.b, g.hv, g.skv, g.dv, skvLen), o(oRows, g.b, g.hq, g.sq, g.dv, sqLen), dO(dORows, g.b, g.hq, g.sq, g.dv, sqLen),
        stats(statsRows, g.b, g.hq, g.sq, 1, sqLen);
    TensorView bias;
    if(t.bias != nullptr)
    {
        const int64_t full[4] = {g.b, g.hq, g.sq, g.skv};
        bias = broadcastTo(*t.bias, 4, full);
    }
    const Acc scale = resolveScale<Acc>(p, g.d);
    const Scorer<Acc> scorer{q, k, t.bias ? &bias : nullptr, scale, g.hq / g.hk, alibiOf<Acc>(p, g.hq)};
    const int64_t groupK = g.hq / g.hk, groupV = g.hq / g.hv;
    const Acc negInf = -std::numeric_limits<Acc>::infinity();

    // dS of one visible key before the scale: P·(dP − Δ), with P = exp(s − lse) returned in *prob.
    auto gradS = [&](int64_t b, int64_t h, int64_t i, int64_t j, Acc lse, Acc delta, const Acc* doi, Acc* prob) {
        *prob = std::exp(scorer.score(b, h, i, j) - lse);
        const Acc* vj = v.row(b, h / groupV, j);
        Acc dp = Acc(0);
        for(int64_t x = 0; x < g.dv; ++x)
            dp += doi[x] * vj[x];
        return *prob * (dp - delta);
    };
    auto deltaOf = [&](int64_t b, int64_t h, int64_t i) {
        const Acc *oi = o.row(b, h, i), *doi = dO.row(b, h, i);
        Acc delta = Acc(0);
        for(int64_t x = 0; x < g.dv; ++x)
            delta += doi[x] * oi[x];
        return delta;
    };

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
                const Acc lse = *stats.row(b, h, i);
                if(lse == negInf)
                    continue; // the forward saw no key for this row
                int64_t jb = 0, je = 0;
                visibleRange(p.mask, i, sqB, skvB, jb, je);
                const Acc* qi = q.row(b, h, i);
                const Acc* doi = dO.row(b, h, i);
                const Acc delta = deltaOf(b, h, i);
                Acc* dqi = dq.data() + ((b * g.hq + h) * g.sq + i) * g.d;
                for(int64_t j = jb; j < je; ++j)
                {
                    Acc prob;
                    const Acc ds = gradS(b, h, i, j, lse, delta, doi, &prob) * scale;
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
    // dQ rows; ragged dQ has no rows past seq_len_q.
    parallelFor(g.b * g.hq * g.sq, std::max<int64_t>(1, 1024 / std::max<int64_t>(g.d, 1)), [&](int64_t begin, int64_t end) {
        for(int64_t r = begin; r < end; ++r)
        {
            const int64_t i = r % g.sq, h = (r / g.sq) % g.hq, b = r / (g.sq * g.hq);
            if(dQRows.holdsOnlyValidRows() && i >= sqLen[static_cast<size_t>(b)])
                continue;
            const int64_t base = dQRows.rowOffset(b, h, i);
            for(int64_t x = 0; x < g.d; ++x)
                t.dQ.store(base + x * t.dQ.strides[3], dq[static_cast<size_t>(r * g.d + x)]);
        }
    });
    // dK[b, hk] = Σ over the query heads of group hk (fixed head order).
    auto reduceGroups = [&](const std::vector<Acc>& part, int64_t heads, int64_t group, int64_t width, const SdpaRows& rows) {
        const TensorView& out = rows.view;
        parallelFor(g.b * heads * g.skv, std::max<int64_t>(1, 1024 / std::max<int64_t>(width, 1)),
                    [&](int64_t begin, int64_t end) {
                        for(int64_t r = begin; r < end; ++r)
                        {
                            const int64_t j = r % g.skv, hk = (r / g.skv) % heads, b = r / (g.skv * heads);
                            if(rows.holdsOnlyValidRows() && j >= skvLen[static_cast<size_t>(b)])
                                continue;
                            const int64_t base = rows.rowOffset(b, hk, j);
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
    reduceGroups(dkPart, g.hk, groupK, g.d, dKRows);
    reduceGroups(dvPart, g.hv, groupV, g.dv, dVRows);
    if(t.dBias == nullptr)
        return;
    // dbias row (bb, hb, i) sums dS over b = bb, bb + Bb, ... and h = hb, hb + Hb, ... (Bb is 1 or
    // B, Hb 1 or Hq), recomputed here so that every row has one owner and one summation order.
    const TensorView& db = *t.dBias;
    const int64_t bB = db.dims[0], bH = db.dims[1];
    parallelFor(bB * bH * g.sq, 1, [&](int64_t begin, int64_t end) {
        std::vector<Acc> row(static_cast<size_t>(g.skv));
        for(int64_t r = begin; r < end; ++r)
        {
            const int64_t i = r % g.sq, hb = (r / g.sq) % bH, bb = r / (g.sq * bH);
            std::fill(row.begin(), row.end(), Acc(0));
            for(int64_t b = bb; b < g.b; b += bB)
                for(int64_t h = hb; h < g.hq; h += bH)
                {
                    const int64_t sqB = sqLen[static_cast<size_t>(b)], skvB = skvLen[static_cast<size_t>(b)];
                    const Acc lse = i < sqB ? *stats.row(b, h, i) : negInf;
                    if(lse == negInf)
                        continue;
                    int64_t jb = 0, je = 0;
                    visibleRange(p.mask, i, sqB, skvB, jb, je);
                    const Acc delta = deltaOf(b, h, i);
                    Acc prob;
                    for(int64_t j = jb; j < je; ++j)
                        row[static_cast<size_t>(j)] += gradS(b, h, i, j, lse, delta, dO.row(b, h, i), &prob);
                }
            const int64_t base = bb * db.strides[0] + hb * db.strides[1] + i * db.strides[2];
            for(int64_t j = 0; j < g.skv; ++j)
                db.store(base + j * db.strides[3], row[static_cast<size_t>(j)]);
        }
    });
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
    std::string err;
    if(!allRank4({{&t.q, "q"}, {&t.k, "k"}, {&t.v, "v"}, {&t.o, "o"}}, &err))
        return err;
    const int64_t batch = t.q.dims[0];
    PagedKv paged;
    if(t.pageTableK != nullptr && (err = checkPageTable(*t.pageTableK, "page_table_k", batch, &paged.pagesK)).empty()
       && t.ragged.k != nullptr)
        err = "sdpa: k cannot be both paged and ragged";
    if(err.empty() && t.pageTableV != nullptr
       && (err = checkPageTable(*t.pageTableV, "page_table_v", batch, &paged.pagesV)).empty() && t.ragged.v != nullptr)
        err = "sdpa: v cannot be both paged and ragged";
    if(err.empty() && (t.pageTableK != nullptr || t.pageTableV != nullptr) && t.seqLenKv == nullptr)
        err = "sdpa: a paged K/V cache needs the seq_len_kv tensor";
    if(!err.empty())
        return err;
    const Geometry g(t.q, t.k, t.v, kvLength(t.k, t.v, t.bias, paged, t.maxSeqLenKv));
    err = checkCommon(t.k, t.v, t.o, g, paged, t.bias, t.seqLenQ, t.seqLenKv, t.stats);
    if(err.empty())
        err = rowOutputOk(t.max, "max", g);
    if(err.empty())
        err = rowOutputOk(t.sumExp, "sum_exp", g);
    if(err.empty())
        err = checkRagged({{t.ragged.q, "q"}, {t.ragged.o, "o"}, {t.ragged.stats, "stats"}, {t.ragged.max, "max"},
                           {t.ragged.sumExp, "sum_exp"}},
                          {{t.ragged.k, "k"}, {t.ragged.v, "v"}}, g.b, t.seqLenQ != nullptr, t.seqLenKv != nullptr);
    for(const auto& [offsets, out, role] : {std::tuple{t.ragged.stats, t.stats, "stats"}, std::tuple{t.ragged.max, t.max, "max"},
                                            std::tuple{t.ragged.sumExp, t.sumExp, "sum_exp"}})
        if(err.empty() && offsets != nullptr && out == nullptr)
            err = std::string("sdpa: ragged offsets for a ") + role + " output that is not given";
    if(err.empty() && t.sink != nullptr)
    {
        const TensorView& s = *t.sink;
        if(!isFloatingPoint(s.dtype) || s.elementCount() != g.hq || (s.rank == 4 && s.dims[1] != g.hq))
            err = "sdpa: sink " + s.describe() + " must be a floating-point tensor of one logit per query head ([1, "
                  + std::to_string(g.hq) + ", 1, 1] or [" + std::to_string(g.hq) + "])";
    }
    return err;
}

std::string checkSdpaBackward(const SdpaBackwardViews& t)
{
    std::string err;
    if(!allRank4({{&t.q, "q"}, {&t.k, "k"}, {&t.v, "v"}, {&t.o, "o"}}, &err))
        return err;
    const Geometry g(t.q, t.k, t.v, t.k.dims[2]);
    err = checkCommon(t.k, t.v, t.o, g, PagedKv(), t.bias, t.seqLenQ, t.seqLenKv, &t.stats);
    if(!err.empty())
        return err;
    err = dimsOk(t.dO, "dO", {g.b, g.hq, g.sq, g.dv});
    if(err.empty())
        err = dimsOk(t.dQ, "dQ", {g.b, g.hq, g.sq, g.d});
    if(err.empty())
        err = dimsOk(t.dK, "dK", {g.b, g.hk, g.skv, g.d});
    if(err.empty())
        err = dimsOk(t.dV, "dV", {g.b, g.hv, g.skv, g.dv});
    if(err.empty() && t.dBias != nullptr)
    {
        const TensorView& db = *t.dBias;
        if(db.rank != 4 || (db.dims[0] != 1 && db.dims[0] != g.b) || (db.dims[1] != 1 && db.dims[1] != g.hq)
           || db.dims[2] != g.sq || db.dims[3] != g.skv)
            err = "sdpa: dbias " + db.describe() + " must have dims [1 or B = " + std::to_string(g.b) + ", 1 or Hq = "
                  + std::to_string(g.hq) + ", Sq = " + std::to_string(g.sq) + ", Skv = " + std::to_string(g.skv) + "]";
    }
    if(err.empty())
        err = checkRagged({{t.ragged.q, "q"}, {t.ragged.o, "o"}, {t.ragged.stats, "stats"}, {t.ragged.dO, "dO"}, {t.ragged.dQ, "dQ"}},
                          {{t.ragged.k, "k"}, {t.ragged.v, "v"}, {t.ragged.dK, "dK"}, {t.ragged.dV, "dV"}}, g.b,
                          t.seqLenQ != nullptr, t.seqLenKv != nullptr);
    return err;
}

void sdpaForward(const SdpaForwardViews& t, const SdpaParams& p)
{
    throwIf(checkSdpaForward(t));
    if(wantsDouble(p.accumulator, {&t.q, &t.k, &t.v, &t.o, t.bias, t.stats, t.max, t.sumExp, t.sink}))
        runForward<double>(t, p);
    else
        runForward<float>(t, p);
}

void sdpaBackward(const SdpaBackwardViews& t, const SdpaParams& p)
{
    throwIf(checkSdpaBackward(t));
    if(wantsDouble(p.accumulator, {&t.q, &t.k, &t.v, &t.o, &t.dO, &t.stats, &t.dQ, &t.dK, &t.dV, t.bias, t.dBias}))
        runBackward<double>(t, p);
    else
        runBackward<float>(t, p);
}

} // namespace hipdnngo::cpu_reference
