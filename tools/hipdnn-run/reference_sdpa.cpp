// Reference scaled dot-product attention, forward:
//
//   S = scale · Q·Kᵀ (+ attn_mask),  masked positions = -inf,  P = softmax over keys,  O = P·V
//
// q [B,H,Sq,D], k [B,Hk,Skv,D], v [B,Hv,Skv,Dv], o [B,H,Sq,Dv]; query head h reads key head
// h / (H/Hk) and value head h / (H/Hv) (GQA / MQA). scale = attn_scale_value, else the scale
// tensor, else 1/sqrt(D). attn_mask is additive, broadcast right-aligned to [B,H,Sq,Skv].
// Masking, per batch with lengths sq_b = seq_len_q[b], skv_b = seq_len_kv[b] (the full extents
// without seq_len tensors): diagonal offset = skv_b - sq_b for bottom-right alignment
// (diagonal_alignment BOTTOM_RIGHT or causal_mask_bottom_right), 0 for top-left; causal masks set
// the right bound to 0; key j is masked for query i when j > i + offset + right_bound, when
// j < i + offset - left_bound, or when j >= skv_b. Query rows i >= sq_b are padding: not compared.
// A row with every key masked gives O = 0. stats (optional) = max + log(Σ exp(S - max)).
#include "reference_ops.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace hdrun
{

std::string refSdpaFwd(OpContext& c)
{
    const Node& n = c.node;
    static const char* kUnsupportedInputs[][2] = {
        {"page_table_k_tensor_uid", "paged K/V"},     {"page_table_v_tensor_uid", "paged K/V"},
        {"sink_token_tensor_uid", "sink tokens"},      {"dropout_mask_tensor_uid", "dropout"},
        {"seed_tensor_uid", "dropout"},                {"offset_tensor_uid", "dropout"},
        {"dropout_scale_tensor_uid", "dropout"},       {"block_mask_tensor_uid", "a block mask"},
        {"descale_q_tensor_uid", "fp8 descaling"},     {"descale_k_tensor_uid", "fp8 descaling"},
        {"descale_v_tensor_uid", "fp8 descaling"},     {"descale_s_tensor_uid", "fp8 descaling"},
        {"scale_s_tensor_uid", "fp8 scaling"},         {"scale_o_tensor_uid", "fp8 scaling"},
        {"max_tensor_uid", "a max output"},            {"sum_exp_tensor_uid", "a sum_exp output"},
        {"rng_dump_tensor_uid", "an rng_dump output"}, {"amax_s_tensor_uid", "an amax output"},
        {"amax_o_tensor_uid", "an amax output"}};
    for(const auto& u : kUnsupportedInputs)
    {
        if(n.uid(u[0]) >= 0)
            return std::string("no reference for SDPA with ") + u[1];
    }
    if(n.flag("alibi_mask"))
        return "no reference for SDPA with an ALiBi mask";
    if(const hdjson::Value* p = n.field("dropout_probability"))
    {
        if(p->asDouble() > 0)
            return "no reference for SDPA with dropout";
    }
    const int64_t qu = n.uid("q_tensor_uid"), ku = n.uid("k_tensor_uid"), vu = n.uid("v_tensor_uid"),
                  ou = n.uid("o_tensor_uid");
    const RefTensor* q = c.in(qu);
    const RefTensor* k = c.in(ku);
    const RefTensor* v = c.in(vu);
    const Tensor* ot = c.tensor(ou);
    if(!q || !k || !v || !ot)
        return "no reference: SDPA q, k, v or o missing";
    for(int64_t uid : {qu, ku, vu, ou})
    {
        if(c.tensor(uid)->ragged)
            return "no reference for SDPA with ragged tensors";
    }
    if(q->dims.size() != 4 || k->dims.size() != 4 || v->dims.size() != 4 || ot->dims.size() != 4)
        return "no reference for SDPA tensors of rank other than 4";
    const int64_t B = q->dims[0], H = q->dims[1], Sq = q->dims[2], D = q->dims[3];
    const int64_t Hk = k->dims[1], Skv = k->dims[2], Hv = v->dims[1], Dv = v->dims[3];
    if(k->dims[0] != B || v->dims[0] != B || k->dims[3] != D || v->dims[2] != Skv || ot->dims[0] != B
       || ot->dims[1] != H || ot->dims[2] != Sq || ot->dims[3] != Dv)
        return "no reference: SDPA shapes q " + dimsText(q->dims) + ", k " + dimsText(k->dims) + ", v "
               + dimsText(v->dims) + ", o " + dimsText(ot->dims) + " do not agree";
    if(Hk <= 0 || Hv <= 0 || H % Hk != 0 || H % Hv != 0)
        return "no reference: SDPA query heads not a multiple of key/value heads";

    std::ostringstream note;
    double scale = 1.0 / std::sqrt(static_cast<double>(D));
    if(const hdjson::Value* s = n.field("attn_scale_value"))
    {
        scale = s->asDouble();
        note << "scale " << scale << " (attn_scale_value)";
    }
    else if(n.uid("scale_tensor_uid") >= 0)
    {
        if(!c.scalar(n.uid("scale_tensor_uid"), &scale))
            return "no reference: SDPA scale tensor unreadable";
        note << "scale " << scale << " (scale tensor)";
    }
    else
    {
        note << "scale 1/sqrt(" << D << ") (default)";
    }

    const RefTensor* mask = nullptr;
    std::vector<int64_t> ms;
    const std::vector<int64_t> scoreDims = {B, H, Sq, Skv};
    if(n.uid("attn_mask_tensor_uid") >= 0)
    {
        const Tensor* mt = c.tensor(n.uid("attn_mask_tensor_uid"));
        if(mt && !dtypeIsFloat(mt->dtype))
            return "no reference for SDPA with a non-floating attention mask";
        mask = c.in(n.uid("attn_mask_tensor_uid"));
        if(!mask || !bcastStrides(mask->dims, scoreDims, &ms))
            return "no reference: SDPA attention mask does not broadcast to " + dimsText(scoreDims);
        note << ", additive mask";
    }

    const RefTensor* seqQ = nullptr;
    const RefTensor* seqKv = nullptr;
    if(n.uid("seq_len_q_tensor_uid") >= 0 || n.uid("seq_len_kv_tensor_uid") >= 0)
    {
        seqQ = c.in(n.uid("seq_len_q_tensor_uid"));
        seqKv = c.in(n.uid("seq_len_kv_tensor_uid"));
        if((n.uid("seq_len_q_tensor_uid") >= 0 && (!seqQ || seqQ->numel() < B))
           || (n.uid("seq_len_kv_tensor_uid") >= 0 && (!seqKv || seqKv->numel() < B)))
            return "no reference: SDPA sequence length tensors have fewer than B elements";
        note << ", padded rows from seq_len tensors";
    }

    const bool bottomRight = n.flag("causal_mask_bottom_right") || n.str("diagonal_alignment") == "BOTTOM_RIGHT";
    bool hasRight = false, hasLeft = false;
    int64_t right = 0, left = 0;
    if(const hdjson::Value* r = n.field("right_bound"))
    {
        if(r->asInt(-1) >= 0)
        {
            hasRight = true;
            right = r->asInt();
        }
    }
    if(const hdjson::Value* l = n.field("left_bound"))
    {
        if(l->asInt(-1) >= 0)
        {
            hasLeft = true;
            left = l->asInt();
        }
    }
    if(n.flag("causal_mask") || n.flag("causal_mask_bottom_right"))
    {
        right = hasRight ? std::min<int64_t>(right, 0) : 0;
        hasRight = true;
    }
    if(hasRight)
        note << ", right bound " << right << (bottomRight ? " bottom-right" : " top-left");
    if(hasLeft)
        note << ", left bound " << left;
    if(H != Hk || H != Hv)
        note << ", " << H << " query heads over " << Hk << " key / " << Hv << " value heads";
    c.notes.push_back(note.str());

    RefTensor* o = c.out(ou);
    o->skip.assign(o->v.size(), 0);
    RefTensor* stats = nullptr;
    const Tensor* st = c.tensor(n.uid("stats_tensor_uid"));
    if(st)
    {
        if(st->numel() != B * H * Sq)
            return "no reference: SDPA stats tensor is not [B,H,Sq,1]";
        stats = c.out(st->uid);
        stats->skip.assign(stats->v.size(), 0);
    }

    const double u = c.u;
    const double kNegInf = -std::numeric_limits<double>::infinity();
    std::vector<double> s(static_cast<size_t>(Skv)), es(static_cast<size_t>(Skv)), p(static_cast<size_t>(Skv));
    for(int64_t b = 0; b < B; ++b)
    {
        int64_t sqb = seqQ ? std::min<int64_t>(static_cast<int64_t>(seqQ->v[static_cast<size_t>(b)]), Sq) : Sq;
        int64_t skvb = seqKv ? std::min<int64_t>(static_cast<int64_t>(seqKv->v[static_cast<size_t>(b)]), Skv) : Skv;
        sqb = std::max<int64_t>(sqb, 0);
        skvb = std::max<int64_t>(skvb, 0);
        const int64_t offset = bottomRight ? skvb - sqb : 0;
        for(int64_t h = 0; h < H; ++h)
        {
            const int64_t kh = h / (H / Hk), vh = h / (H / Hv);
            for(int64_t i = 0; i < Sq; ++i)
            {
                const size_t rowO = static_cast<size_t>(((b * H + h) * Sq + i) * Dv);
                const size_t rowS = static_cast<size_t>((b * H + h) * Sq + i);
                if(i >= sqb)
                {
                    std::fill(o->skip.begin() + static_cast<std::ptrdiff_t>(rowO),
                              o->skip.begin() + static_cast<std::ptrdiff_t>(rowO + static_cast<size_t>(Dv)), 1);
                    if(stats)
                        stats->skip[rowS] = 1;
                    continue;
                }
                const int64_t qb = ((b * H + h) * Sq + i) * D;
                double m = kNegInf;
                int64_t valid = 0;
                for(int64_t j = 0; j < Skv; ++j)
                {
                    bool masked = j >= skvb || (hasRight && j > i + offset + right) || (hasLeft && j < i + offset - left);
                    if(masked)
                    {
                        s[static_cast<size_t>(j)] = kNegInf;
                        continue;
                    }
                    const int64_t kb = ((b * Hk + kh) * Skv + j) * D;
                    double dot = 0, abs = 0, ein = 0;
                    for(int64_t d = 0; d < D; ++d)
                    {
                        const double qv = q->v[static_cast<size_t>(qb + d)], kv = k->v[static_cast<size_t>(kb + d)];
                        dot += qv * kv;
                        abs += std::fabs(qv * kv);
                        ein += std::fabs(qv) * k->err(kb + d) + std::fabs(kv) * q->err(qb + d);
                    }
                    double sv = scale * dot;
                    double e = std::fabs(scale) * (ein + kSumFactor * std::sqrt(static_cast<double>(D)) * u * abs);
                    if(mask)
                    {
                        const int64_t mi = b * ms[0] + h * ms[1] + i * ms[2] + j * ms[3];
                        sv += mask->v[static_cast<size_t>(mi)];
                        e += mask->err(mi);
                    }
                    e += kOpFactor * u * std::fabs(sv);
                    s[static_cast<size_t>(j)] = sv;
                    es[static_cast<size_t>(j)] = e;
                    m = std::max(m, sv);
                    ++valid;
                }
                if(m == kNegInf)
                {
                    // Every key masked: the output row is zero; the statistic is -inf.
                    for(int64_t dv = 0; dv < Dv; ++dv)
                    {
                        o->v[rowO + static_cast<size_t>(dv)] = 0;
                        o->e[rowO + static_cast<size_t>(dv)] = 0;
                    }
                    if(stats)
                        stats->skip[rowS] = 1;
                    continue;
                }
                double z = 0;
                for(int64_t j = 0; j < Skv; ++j)
                {
                    double pj = s[static_cast<size_t>(j)] == kNegInf ? 0.0 : std::exp(s[static_cast<size_t>(j)] - m);
                    p[static_cast<size_t>(j)] = pj;
                    z += pj;
                }
                double pes = 0;
                for(int64_t j = 0; j < Skv; ++j)
                {
                    p[static_cast<size_t>(j)] /= z;
                    if(p[static_cast<size_t>(j)] > 0)
                        pes += p[static_cast<size_t>(j)] * es[static_cast<size_t>(j)];
                }
                for(int64_t dv = 0; dv < Dv; ++dv)
                {
                    double acc = 0;
                    for(int64_t j = 0; j < Skv; ++j)
                    {
                        if(p[static_cast<size_t>(j)] > 0)
                            acc += p[static_cast<size_t>(j)] * v->v[static_cast<size_t>(((b * Hv + vh) * Skv + j) * Dv + dv)];
                    }
                    double sens = 0, absPV = 0, ev = 0;
                    for(int64_t j = 0; j < Skv; ++j)
                    {
                        const double pj = p[static_cast<size_t>(j)];
                        if(pj <= 0)
                            continue;
                        const int64_t vi = ((b * Hv + vh) * Skv + j) * Dv + dv;
                        const double vv = v->v[static_cast<size_t>(vi)];
                        sens += pj * std::fabs(vv - acc) * es[static_cast<size_t>(j)];
                        absPV += pj * std::fabs(vv);
                        ev += pj * v->err(vi);
                    }
                    o->v[rowO + static_cast<size_t>(dv)] = acc;
                    o->e[rowO + static_cast<size_t>(dv)]
                        = sens + ev + kSumFactor * std::sqrt(static_cast<double>(valid)) * u * absPV + kOpFactor * u * std::fabs(acc);
                }
                if(stats)
                {
                    const double lse = m + std::log(z);
                    stats->v[rowS] = lse;
                    stats->e[rowS] = pes + kOpFactor * u * std::fabs(lse)
                                     + kSumFactor * std::sqrt(static_cast<double>(valid)) * u;
                }
            }
        }
    }
    return "";
}

} // namespace hdrun
