// SDPA forward kernel and the shape checks the two directions share (SdpaCommon.hpp); the
// backward is in SdpaBackward.cpp. Conventions: Sdpa.hpp.
#include "kernels/SdpaCommon.hpp"

#include "core/Parallel.hpp"

#include <limits>
#include <tuple>

namespace hipdnngo::cpu_reference
{
namespace sdpa_detail
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

void throwIf(const std::string& err)
{
    if(!err.empty())
        throw KernelError(err);
}

} // namespace sdpa_detail

namespace
{

using namespace sdpa_detail;

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

void sdpaForward(const SdpaForwardViews& t, const SdpaParams& p)
{
    throwIf(checkSdpaForward(t));
    if(useDoubleAccumulator(p.accumulator, {&t.q, &t.k, &t.v, &t.o, t.bias, t.stats, t.max, t.sumExp, t.sink}))
        runForward<double>(t, p);
    else
        runForward<float>(t, p);
}

} // namespace hipdnngo::cpu_reference
