// SDPA backward kernel (flash-attention form, P recomputed from the forward's stats); what it
// shares with the forward is in SdpaCommon.hpp. Conventions: Sdpa.hpp.
#include "kernels/SdpaCommon.hpp"

#include "core/Parallel.hpp"

#include <limits>
#include <tuple>

namespace hipdnngo::cpu_reference
{
namespace
{

using namespace sdpa_detail;

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

} // namespace

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

void sdpaBackward(const SdpaBackwardViews& t, const SdpaParams& p)
{
    throwIf(checkSdpaBackward(t));
    if(useDoubleAccumulator(p.accumulator, {&t.q, &t.k, &t.v, &t.o, &t.dO, &t.stats, &t.dQ, &t.dK, &t.dV, t.bias, t.dBias}))
        runBackward<double>(t, p);
    else
        runBackward<float>(t, p);
}

} // namespace hipdnngo::cpu_reference
