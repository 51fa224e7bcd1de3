// Reference scaled dot-product attention, forward and backward:
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
// ALiBi (alibi_mask, cudnn-frontend's score modifier): S += slope_h · (j − i), after the mask, with
// i, j positions in the padded scores; slope_h = 2^(−8(h + 1)/n) for h < n, 2^(−8(h − n + ½)/n)
// after those, n the largest power of two <= H.
// Forward: a row with every key masked gives O = 0; stats (optional) = max + log(Σ exp(S - max));
// the max and sum_exp outputs (optional) are that max and that sum.
// Backward (cuDNN's definition, with the statistics and O as given): P = exp(S - stats),
// Δ = Σ dO·O, dS = P·(dO·Vᵀ - Δ), dQ = scale·dS·K, dK = scale·dSᵀ·Q, dV = Pᵀ·dO, the key and
// value gradients summed over the query heads that share a key / value head.
// Dropout (cudnn-frontend's definition): the probabilities that multiply V are P·M·scale, with M
// the node's dropout_mask, or, for a seed/offset draw, the engine's own Bernoulli mask read back
// from the rng_dump output (its keep rate checked against 1 - p). Backward: dV = (P·M·scale)ᵀ·dO,
// dS = P·(M·dO·Vᵀ - Δ·scale_inv)·scale. A backward seed/offset draw has no reference.
// dbias (backward, optional, [1 or B, 1 or H, Sq, Skv] as cuDNN's): dS, the gradient of the
// scores the bias is added to, summed over the batches and heads the bias broadcasts over; 0
// where a key is masked and on padding rows. Its bound lets each dS term be rounded to Q's type
// first, as fused attention holds dS (cuDNN: 0.06 off on terms of 65 with fp16 Q on the H100).
// Layouts: ragged tensors arrive already placed by their offsets (Buffers::dense); their rows
// past the lengths do not exist and are not compared. Paged K / V (forward) are gathered here
// from their block containers: key j of batch b is row j % block of block table[b][j / block];
// Skv is max_seq_len_kv, else the unpaged tensor's S, else the mask's last dim, else the
// smallest pages·block (cuDNN's inference). Sink tokens (forward): a logit σ_h per query head
// that joins the softmax denominator without a value, m = max(m, σ_h), z += exp(σ_h - m); a row
// with no visible key then gives O = 0 and stats = σ_h.
#include "reference_ops.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <tuple>

namespace hdrun
{

namespace
{

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// What forward and backward share: shapes, scale, mask, lengths and the band.
struct Sdpa
{
    const RefTensor *q = nullptr, *k = nullptr, *v = nullptr, *mask = nullptr;
    const RefTensor *seqQ = nullptr, *seqKv = nullptr;
    const RefTensor* sink = nullptr; // one logit per query head
    RefTensor kPaged, vPaged; // K / V gathered from paged containers
    std::vector<int64_t> ms; // mask strides over [B,H,Sq,Skv]
    const RefTensor* drop = nullptr; // dropout mask M
    std::vector<int64_t> dms; // its strides over [B,H,Sq,Skv]
    double dropScale = 1, dropScaleInv = 1;
    // fp8 per-tensor scaling (forward): scores of Q·descale_q and K·descale_k (folded into
    // scale), O = P·scale_s·V·descale_s·descale_v (oScale) times scale_o into O.
    bool fp8 = false;
    double oScale = 1, scaleO = 1;
    int64_t B = 0, H = 0, Sq = 0, D = 0, Hk = 0, Skv = 0, Hv = 0, Dv = 0;
    double scale = 1;
    std::vector<double> alibi; // a slope per query head, or empty
    bool bottomRight = false, hasRight = false, hasLeft = false;
    int64_t right = 0, left = 0;

    int64_t rowsOf(int64_t b) const
    {
        int64_t n = seqQ ? static_cast<int64_t>(seqQ->v[static_cast<size_t>(b)]) : Sq;
        return std::max<int64_t>(0, std::min(n, Sq));
    }
    int64_t keysOf(int64_t b) const
    {
        int64_t n = seqKv ? static_cast<int64_t>(seqKv->v[static_cast<size_t>(b)]) : Skv;
        return std::max<int64_t>(0, std::min(n, Skv));
    }
    bool masked(int64_t i, int64_t j, int64_t offset, int64_t skvb) const
    {
        return j >= skvb || (hasRight && j > i + offset + right) || (hasLeft && j < i + offset - left);
    }
    // keep returns M[b,h,i,j] (1 without dropout).
    double keep(int64_t b, int64_t h, int64_t i, int64_t j) const
    {
        return drop ? drop->v[static_cast<size_t>(b * dms[0] + h * dms[1] + i * dms[2] + j * dms[3])] : 1.0;
    }
    int64_t qIndex(int64_t b, int64_t h, int64_t i) const { return ((b * H + h) * Sq + i) * D; }
    int64_t kIndex(int64_t b, int64_t h, int64_t j) const { return ((b * Hk + h / (H / Hk)) * Skv + j) * D; }
    int64_t vIndex(int64_t b, int64_t h, int64_t j) const { return ((b * Hv + h / (H / Hv)) * Skv + j) * Dv; }

    // score returns S[b,h,i,j] and its error bound.
    double score(int64_t b, int64_t h, int64_t i, int64_t j, double u, double* err) const
    {
        const int64_t qb = qIndex(b, h, i), kb = kIndex(b, h, j);
        double dot = 0, abs = 0, ein = 0;
        for(int64_t d = 0; d < D; ++d)
        {
            const double qv = q->v[static_cast<size_t>(qb + d)], kv = k->v[static_cast<size_t>(kb + d)];
            dot += qv * kv;
            abs += std::fabs(qv * kv);
            ein += std::fabs(qv) * k->err(kb + d) + std::fabs(kv) * q->err(qb + d);
        }
        double s = scale * dot;
        double e = std::fabs(scale) * (ein + kSumFactor * std::sqrt(static_cast<double>(D)) * u * abs);
        if(mask)
        {
            const int64_t mi = b * ms[0] + h * ms[1] + i * ms[2] + j * ms[3];
            s += mask->v[static_cast<size_t>(mi)];
            e += mask->err(mi);
        }
        if(!alibi.empty())
            s += alibi[static_cast<size_t>(h)] * static_cast<double>(j - i);
        *err = e + kOpFactor * u * std::fabs(s);
        return s;
    }
};

// pagesOf is P of a page table holding B·P block indices.
int64_t pagesOf(const RefTensor& table, int64_t batch) { return batch > 0 ? table.numel() / batch : 0; }

// kvLength is Skv (the header's rule for paged caches).
int64_t kvLength(const OpContext& c, const Sdpa& a, const RefTensor* tableK, const RefTensor* tableV)
{
    const Node& n = c.node;
    if(!tableK && !tableV)
        return a.k->dims[2];
    if(const hdjson::Value* m = n.field("max_seq_len_kv"))
        if(m->asInt() > 0)
            return m->asInt();
    if(!tableK)
        return a.k->dims[2];
    if(!tableV)
        return a.v->dims[2];
    if(const Tensor* mt = c.tensor(n.uid("attn_mask_tensor_uid")); mt && mt->dims.size() == 4)
        return mt->dims[3];
    return std::min(pagesOf(*tableK, a.B) * a.k->dims[2], pagesOf(*tableV, a.B) * a.v->dims[2]);
}

// gatherPaged lays a paged container out as [B, heads, Skv, width]; keys past a batch's
// length stay 0 (they are masked).
std::string gatherPaged(const Sdpa& a, const RefTensor& table, const RefTensor& container, int64_t heads, int64_t width,
                        const char* role, RefTensor* out)
{
    if(container.dims.size() != 4 || container.dims[1] != heads || container.dims[3] != width)
        return std::string("no reference: SDPA paged ") + role + " container " + dimsText(container.dims)
               + " is not [blocks, heads, block, D]";
    const int64_t blocks = container.dims[0], block = container.dims[2], pages = pagesOf(table, a.B);
    if(pages * block < a.Skv)
        return std::string("no reference: SDPA page table of ") + role + " covers fewer than Skv keys";
    out->dims = {a.B, heads, a.Skv, width};
    out->v.assign(static_cast<size_t>(a.B * heads * a.Skv * width), 0.0);
    if(!container.e.empty())
        out->e.assign(out->v.size(), 0.0);
    for(int64_t b = 0; b < a.B; ++b)
        for(int64_t j = 0; j < a.keysOf(b); ++j)
        {
            const double blk = table.v[static_cast<size_t>(b * pages + j / block)];
            if(!(blk >= 0 && blk < static_cast<double>(blocks)))
                return std::string("no reference: SDPA page table of ") + role + " names block " + std::to_string(blk)
                       + " of " + std::to_string(blocks);
            for(int64_t h = 0; h < heads; ++h)
                for(int64_t x = 0; x < width; ++x)
                {
                    const size_t from = static_cast<size_t>(((static_cast<int64_t>(blk) * heads + h) * block + j % block) * width + x);
                    const size_t to = static_cast<size_t>(((b * heads + h) * a.Skv + j) * width + x);
                    out->v[to] = container.v[from];
                    if(!container.e.empty())
                        out->e[to] = container.e[from];
                }
        }
    return "";
}

// setupDropout reads the node's dropout: a given mask with its scales, or a seed/offset draw
// whose mask is the engine's rng_dump output (forward only).
std::string setupDropout(OpContext& c, bool backward, Sdpa* a, std::ostringstream* note)
{
    const Node& n = c.node;
    const hdjson::Value* pv = n.field("dropout_probability");
    const double p = pv ? pv->asDouble() : 0.0;
    const int64_t maskUid = n.uid("dropout_mask_tensor_uid"), dumpUid = n.uid("rng_dump_tensor_uid");
    if(maskUid >= 0)
    {
        a->drop = c.in(maskUid);
        if(!a->drop || !bcastStrides(a->drop->dims, {a->B, a->H, a->Sq, a->Skv}, &a->dms))
            return "no reference: SDPA dropout mask does not broadcast to [B,H,Sq,Skv]";
        if(!c.scalar(n.uid("dropout_scale_tensor_uid"), &a->dropScale))
            return "no reference: SDPA dropout mask without a readable dropout_scale";
        if(backward && !c.scalar(n.uid("dropout_scale_inv_tensor_uid"), &a->dropScaleInv))
            return "no reference: SDPA backward dropout mask without a readable dropout_scale_inv";
        *note << ", dropout mask, scale " << a->dropScale;
        return "";
    }
    if(p <= 0)
        return "";
    if(backward)
        return "no reference for SDPA backward dropout from seed/offset: the mask is the engine's own draw, and the "
               "backward node has no rng_dump output";
    if(dumpUid < 0)
        return "no reference for SDPA dropout from seed/offset without an rng_dump output: the mask is the engine's own "
               "draw";
    const RefTensor* dump = c.in(dumpUid); // the engine's output, read back (checkGraph)
    if(!dump || dump->dims != std::vector<int64_t>{a->B, a->H, a->Sq, a->Skv})
        return "no reference: SDPA rng_dump is not [B,H,Sq,Skv]";
    // The draw must be a mask that keeps about 1 - p: every value 0 or 1, the kept fraction
    // within 6 standard deviations of 1 - p. Otherwise the reference of the dump is 0.5, so the
    // check fails on it.
    double kept = 0;
    bool binary = true;
    for(double x : dump->v)
    {
        binary = binary && (x == 0.0 || x == 1.0);
        kept += x;
    }
    const double nAll = static_cast<double>(dump->v.size()), rate = kept / nAll;
    const double sigma = std::sqrt(p * (1 - p) / nAll);
    const bool plausible = binary && std::fabs(rate - (1 - p)) <= 6 * sigma;
    a->dropScale = 1.0 / (1.0 - p);
    *note << ", dropout p " << p << " from the engine's mask (kept " << rate << ", expected " << 1 - p << " +- " << 6 * sigma
          << (binary ? "" : ", values other than 0 and 1") << ")";
    RefTensor copy = *dump;
    RefTensor* ref = c.out(dumpUid);
    *ref = copy;
    if(!plausible)
        std::fill(ref->v.begin(), ref->v.end(), 0.5);
    a->drop = ref;
    a->dms = {a->H * a->Sq * a->Skv, a->Sq * a->Skv, a->Skv, 1};
    return "";
}

// setupFp8 reads an SDPA forward's fp8 scale tensors (all six or none); "" on success.
std::string setupFp8(OpContext& c, bool backward, Sdpa* a, std::ostringstream* note)
{
    static const char* kKeys[] = {"descale_q_tensor_uid", "descale_k_tensor_uid", "descale_v_tensor_uid",
                                  "descale_s_tensor_uid", "scale_s_tensor_uid",   "scale_o_tensor_uid"};
    double v[6];
    int given = 0;
    for(int i = 0; i < 6; ++i)
        given += c.node.uid(kKeys[i]) >= 0 && c.scalar(c.node.uid(kKeys[i]), &v[i]);
    const bool amax = c.node.uid("amax_s_tensor_uid") >= 0 || c.node.uid("amax_o_tensor_uid") >= 0;
    if(given == 0 && !amax)
        return "";
    if(backward || given != 6)
        return "no reference for SDPA fp8 scaling other than the forward's six readable scale tensors";
    a->fp8 = true;
    a->scale *= v[0] * v[1];
    a->oScale = v[4] * v[3] * v[2];
    a->scaleO = v[5];
    *note << ", fp8 scaling (descale q " << v[0] << " k " << v[1] << " v " << v[2] << " s " << v[3] << ", scale s " << v[4]
          << " o " << v[5] << ")";
    return "";
}

// setup reads everything but the direction-specific tensors; "" on success.
std::string setup(OpContext& c, bool backward, Sdpa* a)
{
    const Node& n = c.node;
    if(n.uid("block_mask_tensor_uid") >= 0)
        return "no reference for SDPA with a block mask";
    a->q = c.in(n.uid("q_tensor_uid"));
    a->k = c.in(n.uid("k_tensor_uid"));
    a->v = c.in(n.uid("v_tensor_uid"));
    const Tensor* ot = c.tensor(n.uid("o_tensor_uid"));
    if(!a->q || !a->k || !a->v || !ot)
        return "no reference: SDPA q, k, v or o missing";
    if(a->q->dims.size() != 4 || a->k->dims.size() != 4 || a->v->dims.size() != 4 || ot->dims.size() != 4)
        return "no reference for SDPA tensors of rank other than 4";
    a->B = a->q->dims[0];
    a->H = a->q->dims[1];
    a->Sq = a->q->dims[2];
    a->D = a->q->dims[3];
    a->Hk = a->k->dims[1];
    a->Hv = a->v->dims[1];
    a->Dv = a->v->dims[3];
    const RefTensor* tableK = c.in(n.uid("page_table_k_tensor_uid"));
    const RefTensor* tableV = c.in(n.uid("page_table_v_tensor_uid"));
    if((n.uid("page_table_k_tensor_uid") >= 0 && !tableK) || (n.uid("page_table_v_tensor_uid") >= 0 && !tableV))
        return "no reference: SDPA page table unreadable";
    a->Skv = kvLength(c, *a, tableK, tableV);
    if((!tableK && a->k->dims[0] != a->B) || (!tableV && a->v->dims[0] != a->B) || a->k->dims[3] != a->D
       || (!tableK && a->k->dims[2] != a->Skv) || (!tableV && a->v->dims[2] != a->Skv)
       || ot->dims != std::vector<int64_t>{a->B, a->H, a->Sq, a->Dv})
        return "no reference: SDPA shapes q " + dimsText(a->q->dims) + ", k " + dimsText(a->k->dims) + ", v "
               + dimsText(a->v->dims) + ", o " + dimsText(ot->dims) + " do not agree";
    if(a->Hk <= 0 || a->Hv <= 0 || a->H % a->Hk != 0 || a->H % a->Hv != 0)
        return "no reference: SDPA query heads not a multiple of key/value heads";

    std::ostringstream note;
    a->scale = 1.0 / std::sqrt(static_cast<double>(a->D));
    if(const hdjson::Value* s = n.field("attn_scale_value"))
    {
        a->scale = s->asDouble();
        note << "scale " << a->scale << " (attn_scale_value)";
    }
    else if(n.uid("scale_tensor_uid") >= 0)
    {
        if(!c.scalar(n.uid("scale_tensor_uid"), &a->scale))
            return "no reference: SDPA scale tensor unreadable";
        note << "scale " << a->scale << " (scale tensor)";
    }
    else
    {
        note << "scale 1/sqrt(" << a->D << ") (default)";
    }
    if(n.uid("attn_mask_tensor_uid") >= 0)
    {
        const Tensor* mt = c.tensor(n.uid("attn_mask_tensor_uid"));
        if(mt && !dtypeIsFloat(mt->dtype))
            return "no reference for SDPA with a non-floating attention mask";
        a->mask = c.in(n.uid("attn_mask_tensor_uid"));
        if(!a->mask || !bcastStrides(a->mask->dims, {a->B, a->H, a->Sq, a->Skv}, &a->ms))
            return "no reference: SDPA attention mask does not broadcast to [B,H,Sq,Skv]";
        note << ", additive mask";
    }
    const int64_t sqUid = n.uid("seq_len_q_tensor_uid"), skvUid = n.uid("seq_len_kv_tensor_uid");
    if(sqUid >= 0 || skvUid >= 0)
    {
        a->seqQ = sqUid >= 0 ? c.in(sqUid) : nullptr;
        a->seqKv = skvUid >= 0 ? c.in(skvUid) : nullptr;
        if((sqUid >= 0 && (!a->seqQ || a->seqQ->numel() < a->B)) || (skvUid >= 0 && (!a->seqKv || a->seqKv->numel() < a->B)))
            return "no reference: SDPA sequence length tensors have fewer than B elements";
        note << ", padded rows from seq_len tensors";
    }
    if((tableK || tableV) && !a->seqKv)
        return "no reference: SDPA with a paged K/V cache needs seq_len_kv";
    for(const auto& [table, container, out, heads, width, role] :
        {std::tuple<const RefTensor*, const RefTensor**, RefTensor*, int64_t, int64_t, const char*>{tableK, &a->k, &a->kPaged, a->Hk,
                                                                                                      a->D, "k"},
         {tableV, &a->v, &a->vPaged, a->Hv, a->Dv, "v"}})
    {
        if(table == nullptr)
            continue;
        std::string why = gatherPaged(*a, *table, **container, heads, width, role, out);
        if(!why.empty())
            return why;
        note << ", paged " << role << " (" << (*container)->dims[0] << " blocks of " << (*container)->dims[2] << ")";
        *container = out;
    }
    if(n.uid("sink_token_tensor_uid") >= 0)
    {
        a->sink = c.in(n.uid("sink_token_tensor_uid"));
        if(!a->sink || a->sink->numel() != a->H)
            return "no reference: SDPA sink tokens are not one value per query head";
        note << ", sink tokens";
    }
    if(n.flag("alibi_mask"))
    {
        int64_t pow2 = 1;
        while(pow2 * 2 <= a->H)
            pow2 *= 2;
        for(int64_t h = 0; h < a->H; ++h)
            a->alibi.push_back(std::exp2(-8.0 * (h < pow2 ? double(h + 1) : double(h - pow2) + 0.5) / double(pow2)));
        note << ", ALiBi";
    }
    std::string why = setupDropout(c, backward, a, &note);
    if(why.empty())
        why = setupFp8(c, backward, a, &note);
    if(!why.empty())
        return why;
    a->bottomRight = n.flag("causal_mask_bottom_right") || n.str("diagonal_alignment") == "BOTTOM_RIGHT";
    if(const hdjson::Value* r = n.field("right_bound"))
    {
        if(r->asInt(-1) >= 0)
        {
            a->hasRight = true;
            a->right = r->asInt();
        }
    }
    if(const hdjson::Value* l = n.field("left_bound"))
    {
        if(l->asInt(-1) >= 0)
        {
            a->hasLeft = true;
            a->left = l->asInt();
        }
    }
    if(n.flag("causal_mask") || n.flag("causal_mask_bottom_right"))
    {
        a->right = a->hasRight ? std::min<int64_t>(a->right, 0) : 0;
        a->hasRight = true;
    }
    if(a->hasRight)
        note << ", right bound " << a->right << (a->bottomRight ? " bottom-right" : " top-left");
    if(a->hasLeft)
        note << ", left bound " << a->left;
    if(a->H != a->Hk || a->H != a->Hv)
        note << ", " << a->H << " query heads over " << a->Hk << " key / " << a->Hv << " value heads";
    if(backward)
        note << ", backward with the given stats and o";
    c.notes.push_back(note.str());
    return "";
}

} // namespace

std::string refSdpaFwd(OpContext& c)
{
    Sdpa a;
    std::string why = setup(c, false, &a);
    if(!why.empty())
        return why;
    const int64_t B = a.B, H = a.H, Sq = a.Sq, Skv = a.Skv, Dv = a.Dv;
    RefTensor* o = c.out(c.node.uid("o_tensor_uid"));
    o->skip.assign(o->v.size(), 0);
    // Per-row outputs: the statistics, the max and the sum of exponentials.
    RefTensor *stats = nullptr, *rowMax = nullptr, *sumExp = nullptr;
    for(auto [key, out] : {std::pair{"stats_tensor_uid", &stats}, std::pair{"max_tensor_uid", &rowMax},
                           std::pair{"sum_exp_tensor_uid", &sumExp}})
        if(const Tensor* st = c.tensor(c.node.uid(key)))
        {
            if(st->numel() != B * H * Sq)
                return std::string("no reference: SDPA ") + key + " tensor is not [B,H,Sq,1]";
            *out = c.out(st->uid);
            (*out)->skip.assign((*out)->v.size(), 0);
        }
    auto skipRow = [&](size_t row) {
        for(RefTensor* t : {stats, rowMax, sumExp})
            if(t)
                t->skip[row] = 1;
    };
    RefTensor *amaxS = nullptr, *amaxO = nullptr;
    if(a.fp8)
    {
        amaxS = c.node.uid("amax_s_tensor_uid") >= 0 ? c.out(c.node.uid("amax_s_tensor_uid")) : nullptr;
        amaxO = c.node.uid("amax_o_tensor_uid") >= 0 ? c.out(c.node.uid("amax_o_tensor_uid")) : nullptr;
        for(RefTensor* t : {amaxS, amaxO})
            if(t && t->v.size() != 1)
                return "no reference: an SDPA amax output holds more than one value";
    }
    double maxP = 0, maxPErr = 0, maxO = 0, maxOErr = 0;
    const double u = c.u;
    // Fused attention holds the probabilities in Q's type for P.V (cuDNN's pattern requires it,
    // as GPU flash-attention kernels do); P in a type narrower than the compute type adds
    // u(Q)·Σ_j p_j·|v_j| to each output. Engines that keep P in the compute type are within it.
    const Tensor* qt = c.tensor(c.node.uid("q_tensor_uid"));
    const double uP = qt ? std::max(0.0, dtypeUnitRoundoff(qt->dtype) - u) : 0.0;
    std::vector<double> s(static_cast<size_t>(Skv)), es(static_cast<size_t>(Skv)), p(static_cast<size_t>(Skv)),
        w(static_cast<size_t>(Skv));
    for(int64_t b = 0; b < B; ++b)
    {
        const int64_t sqb = a.rowsOf(b), skvb = a.keysOf(b);
        const int64_t offset = a.bottomRight ? skvb - sqb : 0;
        for(int64_t h = 0; h < H; ++h)
            for(int64_t i = 0; i < Sq; ++i)
            {
                const size_t rowO = static_cast<size_t>(((b * H + h) * Sq + i) * Dv);
                const size_t rowS = static_cast<size_t>((b * H + h) * Sq + i);
                if(i >= sqb)
                {
                    std::fill(o->skip.begin() + static_cast<std::ptrdiff_t>(rowO),
                              o->skip.begin() + static_cast<std::ptrdiff_t>(rowO + static_cast<size_t>(Dv)), 1);
                    skipRow(rowS);
                    continue;
                }
                double m = kNegInf, em = 0; // the row max and its error
                int64_t valid = 0;
                for(int64_t j = 0; j < Skv; ++j)
                {
                    if(a.masked(i, j, offset, skvb))
                    {
                        s[static_cast<size_t>(j)] = kNegInf;
                        continue;
                    }
                    s[static_cast<size_t>(j)] = a.score(b, h, i, j, u, &es[static_cast<size_t>(j)]);
                    if(s[static_cast<size_t>(j)] > m)
                    {
                        m = s[static_cast<size_t>(j)];
                        em = es[static_cast<size_t>(j)];
                    }
                    ++valid;
                }
                if(m == kNegInf && !a.sink)
                {
                    // Every key masked: the output row is zero; the statistics are -inf.
                    skipRow(rowS);
                    continue;
                }
                // A sink joins the denominator (and the running max) without a value.
                const double sink = a.sink ? a.sink->v[static_cast<size_t>(h)] : kNegInf;
                if(sink > m)
                {
                    m = sink;
                    em = 0;
                }
                double z = a.sink ? std::exp(sink - m) : 0.0, pes = 0;
                for(int64_t j = 0; j < Skv; ++j)
                {
                    p[static_cast<size_t>(j)] =
                        s[static_cast<size_t>(j)] == kNegInf ? 0.0 : std::exp(s[static_cast<size_t>(j)] - m);
                    z += p[static_cast<size_t>(j)];
                }
                for(int64_t j = 0; j < Skv; ++j)
                {
                    p[static_cast<size_t>(j)] /= z;
                    if(p[static_cast<size_t>(j)] > 0)
                        pes += p[static_cast<size_t>(j)] * es[static_cast<size_t>(j)];
                }
                for(int64_t j = 0; j < Skv; ++j)
                {
                    const size_t jj = static_cast<size_t>(j);
                    w[jj] = a.keep(b, h, i, j) * a.dropScale * a.oScale; // dropout's or fp8's factor on P
                    if(p[jj] > maxP)
                    {
                        maxP = p[jj];
                        maxPErr = p[jj] * (es[jj] + pes) + kOpFactor * u * p[jj];
                    }
                }
                for(int64_t dv = 0; dv < Dv; ++dv)
                {
                    double acc = 0;
                    for(int64_t j = 0; j < Skv; ++j)
                    {
                        if(p[static_cast<size_t>(j)] > 0)
                            acc += p[static_cast<size_t>(j)] * w[static_cast<size_t>(j)]
                                   * a.v->v[static_cast<size_t>(a.vIndex(b, h, j) + dv)];
                    }
                    double sens = 0, absPV = 0, ev = 0;
                    for(int64_t j = 0; j < Skv; ++j)
                    {
                        const double pj = p[static_cast<size_t>(j)], wj = w[static_cast<size_t>(j)];
                        if(pj <= 0)
                            continue;
                        const int64_t vi = a.vIndex(b, h, j) + dv;
                        const double vv = a.v->v[static_cast<size_t>(vi)];
                        sens += pj * std::fabs(wj * vv - acc) * es[static_cast<size_t>(j)];
                        absPV += pj * std::fabs(wj * vv);
                        ev += pj * std::fabs(wj) * a.v->err(vi);
                    }
                    const double err = sens + ev + kSumFactor * std::sqrt(static_cast<double>(valid)) * u * absPV + uP * absPV
                                       + kOpFactor * u * std::fabs(acc);
                    if(std::fabs(acc) > maxO)
                    {
                        maxO = std::fabs(acc);
                        maxOErr = err;
                    }
                    o->v[rowO + static_cast<size_t>(dv)] = acc * a.scaleO;
                    o->e[rowO + static_cast<size_t>(dv)] = err * std::fabs(a.scaleO);
                }
                if(stats)
                {
                    const double lse = m + std::log(z);
                    stats->v[rowS] = lse;
                    stats->e[rowS] =
                        pes + kOpFactor * u * std::fabs(lse) + kSumFactor * std::sqrt(static_cast<double>(valid)) * u;
                }
                if(rowMax)
                {
                    rowMax->v[rowS] = m;
                    rowMax->e[rowS] = em + kOpFactor * u * std::fabs(m);
                }
                if(sumExp)
                {
                    // Each term exp(s_j - m) carries s_j's error and m's, relatively.
                    sumExp->v[rowS] = z;
                    sumExp->e[rowS] = z * (pes + em + kSumFactor * std::sqrt(static_cast<double>(valid)) * u);
                }
            }
    }
    if(amaxS)
    {
        amaxS->v[0] = maxP;
        amaxS->e.assign(1, maxPErr);
    }
    if(amaxO)
    {
        amaxO->v[0] = maxO;
        amaxO->e.assign(1, maxOErr);
    }
    return "";
}

std::string refSdpaBwd(OpContext& c)
{
    Sdpa a;
    std::string why = setup(c, true, &a);
    if(!why.empty())
        return why;
    const Node& n = c.node;
    const RefTensor* o = c.in(n.uid("o_tensor_uid"));
    const RefTensor* dO = c.in(n.uid("do_tensor_uid"));
    const RefTensor* st = c.in(n.uid("stats_tensor_uid"));
    const Tensor* dqt = c.tensor(n.uid("dq_tensor_uid"));
    const Tensor* dkt = c.tensor(n.uid("dk_tensor_uid"));
    const Tensor* dvt = c.tensor(n.uid("dv_tensor_uid"));
    if(!o || !dO || !st || !dqt || !dkt || !dvt)
        return "no reference: SDPA backward needs o, do, stats, dq, dk and dv";
    const int64_t B = a.B, H = a.H, Sq = a.Sq, D = a.D, Skv = a.Skv, Dv = a.Dv;
    if(dO->dims != o->dims || st->numel() != B * H * Sq || dqt->dims != a.q->dims || dkt->dims != a.k->dims
       || dvt->dims != a.v->dims)
        return "no reference: SDPA backward shapes do not agree";
    // dbias [Bb, Hb, Sq, Skv]: row (b, h, i) of dS adds into row (b mod Bb, h mod Hb, i).
    const Tensor* dbt = c.tensor(n.uid("dbias_tensor_uid"));
    if(n.uid("dbias_tensor_uid") >= 0
       && (!dbt || dbt->dims.size() != 4 || (dbt->dims[0] != 1 && dbt->dims[0] != B) || (dbt->dims[1] != 1 && dbt->dims[1] != H)
           || dbt->dims[2] != Sq || dbt->dims[3] != Skv))
        return "no reference: SDPA dbias must be [1 or B, 1 or H, Sq, Skv]";
    RefTensor* dq = c.out(dqt->uid);
    RefTensor* dk = c.out(dkt->uid);
    RefTensor* dv = c.out(dvt->uid);
    RefTensor* dbias = dbt ? c.out(dbt->uid) : nullptr;
    std::vector<double> dbAbs, dbCount;
    if(dbias)
        dbAbs.assign(dbias->v.size(), 0.0), dbCount.assign(dbias->v.size(), 0.0);
    auto dbiasRow = [&](int64_t b, int64_t h, int64_t i) {
        return (((b % dbt->dims[0]) * dbt->dims[1] + h % dbt->dims[1]) * Sq + i) * Skv;
    };
    dq->skip.assign(dq->v.size(), 0);
    std::vector<double> dkAbs(dk->v.size(), 0.0), dvAbs(dv->v.size(), 0.0), dkCount(dk->v.size(), 0.0),
        dvCount(dv->v.size(), 0.0);
    const double u = c.u;
    // Fused attention's backward feeds P and dS to its matmuls in Q's type (as the forward's
    // P.V): each product term gains u(Q) relative to the compute type.
    const Tensor* qt = c.tensor(n.uid("q_tensor_uid"));
    const double uP = qt ? std::max(0.0, dtypeUnitRoundoff(qt->dtype) - u) : 0.0;
    std::vector<double> p(static_cast<size_t>(Skv)), ep(static_cast<size_t>(Skv)), ds(static_cast<size_t>(Skv)),
        eds(static_cast<size_t>(Skv));
    for(int64_t b = 0; b < B; ++b)
    {
        const int64_t sqb = a.rowsOf(b), skvb = a.keysOf(b);
        const int64_t offset = a.bottomRight ? skvb - sqb : 0;
        for(int64_t h = 0; h < H; ++h)
            for(int64_t i = 0; i < Sq; ++i)
            {
                const int64_t qb = a.qIndex(b, h, i);
                const int64_t ob = ((b * H + h) * Sq + i) * Dv;
                const size_t si = static_cast<size_t>((b * H + h) * Sq + i);
                if(i >= sqb)
                {
                    std::fill(dq->skip.begin() + static_cast<std::ptrdiff_t>(qb),
                              dq->skip.begin() + static_cast<std::ptrdiff_t>(qb + D), 1);
                    continue;
                }
                const double lse = st->v[si], eLse = st->err(static_cast<int64_t>(si));
                // Δ = Σ dO·O
                double delta = 0, deltaAbs = 0, eDelta = 0;
                for(int64_t d = 0; d < Dv; ++d)
                {
                    const double x = dO->v[static_cast<size_t>(ob + d)], y = o->v[static_cast<size_t>(ob + d)];
                    delta += x * y;
                    deltaAbs += std::fabs(x * y);
                    eDelta += std::fabs(x) * o->err(ob + d) + std::fabs(y) * dO->err(ob + d);
                }
                eDelta += kSumFactor * std::sqrt(static_cast<double>(Dv)) * u * deltaAbs;
                for(int64_t j = 0; j < Skv; ++j)
                {
                    const size_t jj = static_cast<size_t>(j);
                    if(a.masked(i, j, offset, skvb) || !std::isfinite(lse))
                    {
                        p[jj] = 0;
                        ds[jj] = 0;
                        continue;
                    }
                    double es = 0;
                    const double s = a.score(b, h, i, j, u, &es);
                    p[jj] = std::exp(s - lse);
                    ep[jj] = p[jj] * (es + eLse) + kOpFactor * u * p[jj];
                    // dP = dO·V_j
                    const int64_t vb = a.vIndex(b, h, j);
                    double dp = 0, dpAbs = 0, edp = 0;
                    for(int64_t d = 0; d < Dv; ++d)
                    {
                        const double x = dO->v[static_cast<size_t>(ob + d)], y = a.v->v[static_cast<size_t>(vb + d)];
                        dp += x * y;
                        dpAbs += std::fabs(x * y);
                        edp += std::fabs(x) * a.v->err(vb + d) + std::fabs(y) * dO->err(ob + d);
                    }
                    edp += kSumFactor * std::sqrt(static_cast<double>(Dv)) * u * dpAbs;
                    // dropout: dS = P·(M·dP - Δ·scale_inv)·scale (M = 1, scales 1 without)
                    const double mk = a.keep(b, h, i, j), sc = a.dropScale, si = a.dropScaleInv;
                    const double inner = mk * dp - delta * si;
                    ds[jj] = p[jj] * inner * sc;
                    eds[jj] = std::fabs(sc) * (ep[jj] * std::fabs(inner) + p[jj] * (std::fabs(mk) * edp + std::fabs(si) * eDelta))
                              + kOpFactor * u * std::fabs(ds[jj]);
                    if(dbias)
                    {
                        const size_t at = static_cast<size_t>(dbiasRow(b, h, i) + j);
                        dbias->v[at] += ds[jj];
                        dbias->e[at] += eds[jj] + uP * std::fabs(ds[jj]); // dS as it is summed: in Q's type
                        dbAbs[at] += std::fabs(ds[jj]);
                        dbCount[at] += 1;
                    }
                    const double pd = p[jj] * mk * sc, epd = ep[jj] * std::fabs(mk * sc); // P as it multiplied V
                    // dV_j += P·dO ; dK_j += scale·dS·q
                    for(int64_t d = 0; d < Dv; ++d)
                    {
                        const size_t vi = static_cast<size_t>(vb + d);
                        const double x = dO->v[static_cast<size_t>(ob + d)];
                        dv->v[vi] += pd * x;
                        dv->e[vi] += (epd + uP * std::fabs(pd)) * std::fabs(x) + std::fabs(pd) * dO->err(ob + d);
                        dvAbs[vi] += std::fabs(pd * x);
                        dvCount[vi] += 1;
                    }
                    const int64_t kb = a.kIndex(b, h, j);
                    for(int64_t d = 0; d < D; ++d)
                    {
                        const size_t ki = static_cast<size_t>(kb + d);
                        const double x = a.q->v[static_cast<size_t>(qb + d)];
                        dk->v[ki] += a.scale * ds[jj] * x;
                        dk->e[ki] += std::fabs(a.scale)
                                     * ((eds[jj] + uP * std::fabs(ds[jj])) * std::fabs(x) + std::fabs(ds[jj]) * a.q->err(qb + d));
                        dkAbs[ki] += std::fabs(a.scale * ds[jj] * x);
                        dkCount[ki] += 1;
                    }
                }
                // dQ_i = scale·Σ_j dS·K_j
                for(int64_t d = 0; d < D; ++d)
                {
                    double acc = 0, abs = 0, e = 0;
                    int64_t terms = 0;
                    for(int64_t j = 0; j < Skv; ++j)
                    {
                        const size_t jj = static_cast<size_t>(j);
                        if(ds[jj] == 0 && p[jj] == 0)
                            continue;
                        const int64_t ki = a.kIndex(b, h, j) + d;
                        const double kv = a.k->v[static_cast<size_t>(ki)];
                        acc += ds[jj] * kv;
                        abs += std::fabs(ds[jj] * kv);
                        e += (eds[jj] + uP * std::fabs(ds[jj])) * std::fabs(kv) + std::fabs(ds[jj]) * a.k->err(ki);
                        ++terms;
                    }
                    const size_t qi = static_cast<size_t>(qb + d);
                    dq->v[qi] = a.scale * acc;
                    dq->e[qi] = std::fabs(a.scale) * (e + kSumFactor * std::sqrt(static_cast<double>(terms)) * u * abs)
                                + kOpFactor * u * std::fabs(a.scale * acc);
                }
            }
    }
    // Ragged dK / dV have no rows past seq_len_kv: nothing there to compare.
    for(RefTensor* g : {dk, dv})
    {
        const Tensor* gt = g == dk ? dkt : dvt;
        if(!gt->ragged)
            continue;
        const int64_t heads = g->dims[1], width = g->dims[3];
        g->skip.assign(g->v.size(), 0);
        for(int64_t b = 0; b < B; ++b)
            for(int64_t j = a.keysOf(b); j < Skv; ++j)
                for(int64_t h = 0; h < heads; ++h)
                {
                    const size_t at = static_cast<size_t>(((b * heads + h) * Skv + j) * width);
                    std::fill(g->skip.begin() + static_cast<std::ptrdiff_t>(at),
                              g->skip.begin() + static_cast<std::ptrdiff_t>(at + static_cast<size_t>(width)), 1);
                }
    }
    for(size_t i = 0; i < dk->v.size(); ++i)
        dk->e[i] += kSumFactor * std::sqrt(std::max(dkCount[i], 1.0)) * u * dkAbs[i];
    for(size_t i = 0; i < dv->v.size(); ++i)
        dv->e[i] += kSumFactor * std::sqrt(std::max(dvCount[i], 1.0)) * u * dvAbs[i];
    for(size_t i = 0; i < dbAbs.size(); ++i)
        dbias->e[i] += kSumFactor * std::sqrt(std::max(dbCount[i], 1.0)) * u * dbAbs[i];
    return "";
}

} // namespace hdrun
