// Plugin tests for attention's variant layouts, through the C ABI: ragged (THD) tensors forward
// and backward, paged K/V caches with shuffled page tables, and sink tokens, each against a
// double loop written here over the logical per-batch data (the loops place and find rows by
// their own arithmetic: cumulative token counts, block lookups). Bad inputs are checked with
// their exact messages.
//
// Tolerance: as PluginOpTests (fp32 compute, rows of <= 10 keys, head dim 8): 2e-5 relative +
// 2e-5 absolute; a wrong offset, block or denominator moves values by O(0.1).
#include "PluginHarness.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <map>

using namespace cpuref_plugin_test;

namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kSentinel = 777.0f; // output elements that must stay untouched

template <typename T>
flatbuffers::Offset<void> pack(GraphBuilder& g, const T& attrs)
{
    return T::TableType::Pack(g.fbb, &attrs).Union();
}

void raggedTensor(GraphBuilder& g, int64_t uid, const Dims& dims, const Dims& strides, int64_t offsetsUid)
{
    const std::string name = "t" + std::to_string(uid);
    g.tensors.push_back(fbs::CreateTensorAttributesDirect(g.fbb, uid, name.c_str(), fbs::DataType::FLOAT, &strides, &dims, false,
                                                          fbs::TensorValue::NONE, 0, false, offsetsUid));
}

void execute(Context& c, const std::vector<hipdnnPluginDeviceBuffer_t>& buffers)
{
    std::vector<unsigned char> ws(c.workspace());
    Plugin& p = Plugin::get();
    const auto st =
        p.hipdnnEnginePluginExecuteOpGraph(c.handle.h, c.ctx, ws.data(), buffers.data(), static_cast<uint32_t>(buffers.size()));
    CPUREF_CHECK(st == HIPDNN_PLUGIN_STATUS_SUCCESS, "execute: " << p.lastError());
}

// expectRefusedWith: not applicable, and CreateExecutionContext says BAD_PARAM ending in `message`.
void expectRefusedWith(const std::vector<uint8_t>& graph, const std::string& message)
{
    CPUREF_CHECK(applicableCount(graph) == 0, "must not be applicable: " << message);
    Plugin& p = Plugin::get();
    Handle h;
    const auto cfg = engineConfig(kEngineId);
    const auto g = constData(graph), c = constData(cfg);
    hipdnnEnginePluginExecutionContext_t ctx = nullptr;
    const auto st = p.hipdnnEnginePluginCreateExecutionContext(h.h, &c, &g, &ctx);
    const std::string got = p.lastError();
    CPUREF_CHECK(st == HIPDNN_PLUGIN_STATUS_BAD_PARAM && got.size() >= message.size()
                     && got.compare(got.size() - message.size(), message.size(), message) == 0,
                 "status " << st << ", message '" << got << "', expected it to end with '" << message << "'");
}

void near(const char* what, double got, double want)
{
    CPUREF_CHECK(std::fabs(got - want) <= 2e-5 + 2e-5 * std::fabs(want), what << ": got " << got << ", expected " << want);
}

// RaggedBuf is one THD tensor [B, H, S, W] (strides [S·H·W, W, H·W, 1]): batch b's token t at
// element tokens-before-b·H·W + t·H·W, the tail past the last token NaN (never to be read).
struct RaggedBuf
{
    int64_t H, W, S;
    std::vector<int64_t> lens, start; // start: first token of each batch
    std::vector<float> data;
    RaggedBuf(int64_t h, int64_t w, int64_t s, const std::vector<int64_t>& l, float fill) : H(h), W(w), S(s), lens(l)
    {
        int64_t tokens = 0;
        for(int64_t n : lens)
        {
            start.push_back(tokens);
            tokens += n;
        }
        data.assign(static_cast<size_t>(lens.size() * S * H * W), fill);
    }
    Dims dims() const { return {static_cast<int64_t>(lens.size()), H, S, W}; }
    Dims strides() const { return {S * H * W, W, H * W, 1}; }
    size_t at(int64_t b, int64_t h, int64_t t, int64_t x) const
    {
        return static_cast<size_t>((start[static_cast<size_t>(b)] + t) * H * W + h * W + x);
    }
    template <typename I>
    std::vector<I> offsets() const
    {
        std::vector<I> o;
        for(size_t b = 0; b <= lens.size(); ++b)
            o.push_back(static_cast<I>((b < lens.size() ? start[b] : start.back() + lens.back()) * H * W));
        return o;
    }
    void randomize(std::mt19937& rng)
    {
        std::fill(data.begin(), data.end(), std::numeric_limits<float>::quiet_NaN());
        std::uniform_real_distribution<float> u(-1, 1);
        for(size_t b = 0; b < lens.size(); ++b)
            for(int64_t t = 0; t < lens[b]; ++t)
                for(int64_t h = 0; h < H; ++h)
                    for(int64_t x = 0; x < W; ++x)
                        data[at(static_cast<int64_t>(b), h, t, x)] = u(rng);
    }
    // untouched: every element that is no token's still holds the fill value.
    bool untouched(float fill) const
    {
        std::vector<bool> token(data.size(), false);
        for(size_t b = 0; b < lens.size(); ++b)
            for(int64_t t = 0; t < lens[b]; ++t)
                for(int64_t h = 0; h < H; ++h)
                    for(int64_t x = 0; x < W; ++x)
                        token[at(static_cast<int64_t>(b), h, t, x)] = true;
        for(size_t i = 0; i < data.size(); ++i)
            if(!token[i] && data[i] != fill)
                return false;
        return true;
    }
};

enum class Mask
{
    None,
    TopLeft,
    BottomRight
};

} // namespace

CPUREF_TEST(plugin_sdpa_ragged_forward_backward_gqa_masks)
{
    // B 3, 4 query heads over 2 key heads, max lengths 6, D 8; lengths q {5, 2, 6}, kv {3, 6, 4}
    // (batch 0 under a bottom-right mask: rows 0 and 1 see no key). Every attention tensor is
    // THD-packed; q, o, do, dq share int64 offsets, k, v, dk, dv int32 ones, stats its own.
    const int64_t B = 3, H = 4, HK = 2, S = 6, D = 8;
    const std::vector<int64_t> lq{5, 2, 6}, lkv{3, 6, 4};
    for(Mask mask : {Mask::None, Mask::TopLeft, Mask::BottomRight})
    {
        std::mt19937 rng(7 + static_cast<int>(mask));
        RaggedBuf q(H, D, S, lq, 0), k(HK, D, S, lkv, 0), v(HK, D, S, lkv, 0), o(H, D, S, lq, kSentinel), st(H, 1, S, lq, kSentinel),
            dO(H, D, S, lq, 0), dq(H, D, S, lq, kSentinel), dk(HK, D, S, lkv, kSentinel), dv(HK, D, S, lkv, kSentinel);
        q.randomize(rng);
        k.randomize(rng);
        v.randomize(rng);
        dO.randomize(rng);
        GraphBuilder g;
        raggedTensor(g, 1, q.dims(), q.strides(), 30);
        raggedTensor(g, 2, k.dims(), k.strides(), 31);
        raggedTensor(g, 3, v.dims(), v.strides(), 31);
        raggedTensor(g, 4, o.dims(), o.strides(), 30);
        raggedTensor(g, 5, st.dims(), st.strides(), 32);
        raggedTensor(g, 6, dO.dims(), dO.strides(), 30);
        raggedTensor(g, 7, dq.dims(), dq.strides(), 30);
        raggedTensor(g, 8, dk.dims(), dk.strides(), 31);
        raggedTensor(g, 9, dv.dims(), dv.strides(), 31);
        g.tensor(10, fbs::DataType::INT32, {B, 1, 1, 1}, {1, 1, 1, 1});
        g.tensor(11, fbs::DataType::INT32, {B, 1, 1, 1}, {1, 1, 1, 1});
        g.tensor(30, fbs::DataType::INT64, {B + 1, 1, 1, 1}, {1, 1, 1, 1});
        g.tensor(31, fbs::DataType::INT32, {B + 1, 1, 1, 1}, {1, 1, 1, 1});
        g.tensor(32, fbs::DataType::INT32, {B + 1, 1, 1, 1}, {1, 1, 1, 1});
        fbs::SdpaAttributesT f;
        f.q_tensor_uid = 1;
        f.k_tensor_uid = 2;
        f.v_tensor_uid = 3;
        f.o_tensor_uid = 4;
        f.stats_tensor_uid = 5;
        f.seq_len_q_tensor_uid = 10;
        f.seq_len_kv_tensor_uid = 11;
        f.padding_mask = true;
        f.attn_scale_value = 0.3f;
        f.causal_mask = mask == Mask::TopLeft;
        f.causal_mask_bottom_right = mask == Mask::BottomRight;
        g.node("sdpa", fbs::NodeAttributes::SdpaAttributes, pack(g, f));
        fbs::SdpaBackwardAttributesT bw;
        bw.q_tensor_uid = 1;
        bw.k_tensor_uid = 2;
        bw.v_tensor_uid = 3;
        bw.o_tensor_uid = 4;
        bw.stats_tensor_uid = 5;
        bw.do_tensor_uid = 6;
        bw.dq_tensor_uid = 7;
        bw.dk_tensor_uid = 8;
        bw.dv_tensor_uid = 9;
        bw.seq_len_q_tensor_uid = 10;
        bw.seq_len_kv_tensor_uid = 11;
        bw.padding_mask = true;
        bw.attn_scale_value = 0.3f;
        bw.causal_mask = f.causal_mask;
        bw.causal_mask_bottom_right = f.causal_mask_bottom_right;
        g.node("sdpa_bwd", fbs::NodeAttributes::SdpaBackwardAttributes, pack(g, bw));
        const auto graph = g.finish();
        CPUREF_CHECK(applicableCount(graph) == 1, "ragged sdpa must be applicable: " << Plugin::get().lastError());
        Context c(graph, engineConfig(kEngineId));
        std::vector<int32_t> lensQ(lq.begin(), lq.end()), lensKv(lkv.begin(), lkv.end());
        std::vector<int64_t> offQ = q.offsets<int64_t>();
        std::vector<int32_t> offKv = k.offsets<int32_t>(), offSt = st.offsets<int32_t>();
        execute(c, {{1, q.data.data()},
                    {2, k.data.data()},
                    {3, v.data.data()},
                    {4, o.data.data()},
                    {5, st.data.data()},
                    {6, dO.data.data()},
                    {7, dq.data.data()},
                    {8, dk.data.data()},
                    {9, dv.data.data()},
                    {10, lensQ.data()},
                    {11, lensKv.data()},
                    {30, offQ.data()},
                    {31, offKv.data()},
                    {32, offSt.data()}});
        const char* name = mask == Mask::None ? "none" : mask == Mask::TopLeft ? "top-left" : "bottom-right";
        CPUREF_CHECK(o.untouched(kSentinel) && st.untouched(kSentinel) && dq.untouched(kSentinel) && dk.untouched(kSentinel)
                         && dv.untouched(kSentinel),
                     name << ": an element past the ragged rows was written");
        auto visible = [&](int64_t b, int64_t i, int64_t j) {
            const int64_t shift = mask == Mask::BottomRight ? lkv[b] - lq[b] : 0;
            return j < lkv[b] && (mask == Mask::None || j <= i + shift);
        };
        auto score = [&](int64_t b, int64_t h, int64_t i, int64_t j) {
            double s = 0;
            for(int64_t x = 0; x < D; ++x)
                s += double(q.data[q.at(b, h, i, x)]) * k.data[k.at(b, h / 2, j, x)];
            return 0.3 * s;
        };
        std::map<Dims, double> ek, ev;
        for(int64_t b = 0; b < B; ++b)
            for(int64_t h = 0; h < H; ++h)
                for(int64_t i = 0; i < lq[b]; ++i)
                {
                    double m = -kInf, l = 0;
                    for(int64_t j = 0; j < lkv[b]; ++j)
                        if(visible(b, i, j))
                            m = std::max(m, score(b, h, i, j));
                    for(int64_t j = 0; j < lkv[b]; ++j)
                        if(visible(b, i, j))
                            l += std::exp(score(b, h, i, j) - m);
                    const double lse = m == -kInf ? -kInf : m + std::log(l);
                    const double gotLse = st.data[st.at(b, h, i, 0)];
                    CPUREF_CHECK(lse == -kInf ? gotLse == -kInf : std::fabs(gotLse - lse) <= 2e-5 * (1 + std::fabs(lse)),
                                 name << " stats[" << b << "," << h << "," << i << "] " << gotLse << " vs " << lse);
                    std::vector<double> oi(D, 0.0);
                    for(int64_t j = 0; j < lkv[b]; ++j)
                        if(visible(b, i, j))
                            for(int64_t x = 0; x < D; ++x)
                                oi[x] += std::exp(score(b, h, i, j) - lse) * v.data[v.at(b, h / 2, j, x)];
                    for(int64_t x = 0; x < D; ++x)
                        near("ragged o", o.data[o.at(b, h, i, x)], oi[x]);
                    // Backward from the engine's own fp32 stats and o, as the kernel is defined.
                    double delta = 0;
                    for(int64_t x = 0; x < D; ++x)
                        delta += double(dO.data[dO.at(b, h, i, x)]) * o.data[o.at(b, h, i, x)];
                    std::vector<double> dqi(D, 0.0);
                    for(int64_t j = 0; j < lkv[b] && gotLse != -kInf; ++j)
                    {
                        if(!visible(b, i, j))
                            continue;
                        const double P = std::exp(score(b, h, i, j) - gotLse);
                        double dp = 0;
                        for(int64_t x = 0; x < D; ++x)
                            dp += double(dO.data[dO.at(b, h, i, x)]) * v.data[v.at(b, h / 2, j, x)];
                        const double dS = P * (dp - delta) * 0.3;
                        for(int64_t x = 0; x < D; ++x)
                        {
                            dqi[x] += dS * k.data[k.at(b, h / 2, j, x)];
                            ek[{b, h / 2, j, x}] += dS * q.data[q.at(b, h, i, x)];
                            ev[{b, h / 2, j, x}] += P * dO.data[dO.at(b, h, i, x)];
                        }
                    }
                    for(int64_t x = 0; x < D; ++x)
                        near("ragged dq", dq.data[dq.at(b, h, i, x)], dqi[x]);
                }
        for(int64_t b = 0; b < B; ++b)
            for(int64_t hk = 0; hk < HK; ++hk)
                for(int64_t j = 0; j < lkv[b]; ++j)
                    for(int64_t x = 0; x < D; ++x)
                    {
                        near("ragged dk", dk.data[dk.at(b, hk, j, x)], ek.count({b, hk, j, x}) ? ek[{b, hk, j, x}] : 0.0);
                        near("ragged dv", dv.data[dv.at(b, hk, j, x)], ev.count({b, hk, j, x}) ? ev[{b, hk, j, x}] : 0.0);
                    }
    }
}

namespace
{

// pagedGraph: q [2,4,3,8] dense, k / v containers [7,2,4,8] paged by tables 21 / 22
// ([2,1,3,1] int32 unless `tableType`), seq lens 10 / 11, o [2,4,3,8], stats 5, optional sink 24
// [1,4,1,1] float, bottom-right causal mask, and max 6 / sum_exp 7 outputs [2,4,3,1].
std::vector<uint8_t> pagedGraph(bool sink, bool causal, fbs::DataType tableType = fbs::DataType::INT32, bool rowOutputs = false)
{
    GraphBuilder g;
    g.tensor(1, fbs::DataType::FLOAT, {2, 4, 3, 8}, {96, 24, 8, 1});
    g.tensor(2, fbs::DataType::FLOAT, {7, 2, 4, 8}, {64, 32, 8, 1});
    g.tensor(3, fbs::DataType::FLOAT, {7, 2, 4, 8}, {64, 32, 8, 1});
    g.tensor(4, fbs::DataType::FLOAT, {2, 4, 3, 8}, {96, 24, 8, 1});
    g.tensor(5, fbs::DataType::FLOAT, {2, 4, 3, 1}, {12, 3, 1, 1});
    g.tensor(6, fbs::DataType::FLOAT, {2, 4, 3, 1}, {12, 3, 1, 1});
    g.tensor(7, fbs::DataType::FLOAT, {2, 4, 3, 1}, {12, 3, 1, 1});
    g.tensor(10, fbs::DataType::INT32, {2, 1, 1, 1}, {1, 1, 1, 1});
    g.tensor(11, fbs::DataType::INT32, {2, 1, 1, 1}, {1, 1, 1, 1});
    g.tensor(21, tableType, {2, 1, 3, 1}, {3, 3, 1, 1});
    g.tensor(22, fbs::DataType::INT32, {2, 1, 3, 1}, {3, 3, 1, 1});
    g.tensor(24, fbs::DataType::FLOAT, {1, 4, 1, 1}, {4, 1, 1, 1});
    fbs::SdpaAttributesT a;
    a.q_tensor_uid = 1;
    a.k_tensor_uid = 2;
    a.v_tensor_uid = 3;
    a.o_tensor_uid = 4;
    a.stats_tensor_uid = 5;
    a.seq_len_q_tensor_uid = 10;
    a.seq_len_kv_tensor_uid = 11;
    a.padding_mask = true;
    a.page_table_k_tensor_uid = 21;
    a.page_table_v_tensor_uid = 22;
    a.max_seq_len_kv = 10;
    a.attn_scale_value = 0.4f;
    a.causal_mask_bottom_right = causal;
    if(sink)
        a.sink_token_tensor_uid = 24;
    if(rowOutputs)
    {
        a.max_tensor_uid = 6;
        a.sum_exp_tensor_uid = 7;
    }
    g.node("sdpa", fbs::NodeAttributes::SdpaAttributes, pack(g, a));
    return g.finish();
}

struct PagedRun
{
    std::vector<float> q, k, v, o, stats, max, sumExp;
};

// runPaged executes pagedGraph with fixed inputs and the given tables / sinks.
PagedRun runPaged(bool sink, bool causal, const std::vector<int32_t>& tableK, const std::vector<int32_t>& tableV,
                  const std::vector<int32_t>& lensQ, const std::vector<int32_t>& lensKv, const std::vector<float>& sinks)
{
    PagedRun r;
    std::mt19937 rng(31);
    std::uniform_real_distribution<float> u(-1, 1);
    r.q.resize(2 * 4 * 3 * 8);
    r.k.resize(7 * 2 * 4 * 8);
    r.v.resize(7 * 2 * 4 * 8);
    for(auto* t : {&r.q, &r.k, &r.v})
        for(float& x : *t)
            x = u(rng);
    r.o.assign(2 * 4 * 3 * 8, kSentinel);
    r.stats.assign(2 * 4 * 3, kSentinel);
    r.max.assign(2 * 4 * 3, kSentinel);
    r.sumExp.assign(2 * 4 * 3, kSentinel);
    Context c(pagedGraph(sink, causal, fbs::DataType::INT32, true), engineConfig(kEngineId));
    execute(c, {{1, r.q.data()},
                {2, r.k.data()},
                {3, r.v.data()},
                {4, r.o.data()},
                {5, r.stats.data()},
                {6, r.max.data()},
                {7, r.sumExp.data()},
                {10, const_cast<int32_t*>(lensQ.data())},
                {11, const_cast<int32_t*>(lensKv.data())},
                {21, const_cast<int32_t*>(tableK.data())},
                {22, const_cast<int32_t*>(tableV.data())},
                {24, const_cast<float*>(sinks.data())}});
    return r;
}

// checkPaged compares a run with the double loop: key j of batch b is row j % 4 of block
// table[b][j / 4]; the sink (when given) joins each real row's denominator.
void checkPaged(const char* what, const PagedRun& r, bool sink, bool causal, const std::vector<int32_t>& tableK,
                const std::vector<int32_t>& tableV, const std::vector<int32_t>& lensQ, const std::vector<int32_t>& lensKv,
                const std::vector<float>& sinks)
{
    auto kAt = [&](const std::vector<float>& c, const std::vector<int32_t>& table, int64_t b, int64_t hk, int64_t j, int64_t x) {
        const int64_t block = table[static_cast<size_t>(b * 3 + j / 4)];
        return double(c[static_cast<size_t>(block * 64 + hk * 32 + (j % 4) * 8 + x)]);
    };
    for(int64_t b = 0; b < 2; ++b)
        for(int64_t h = 0; h < 4; ++h)
            for(int64_t i = 0; i < 3; ++i)
            {
                const size_t row = static_cast<size_t>((b * 4 + h) * 3 + i);
                if(i >= lensQ[b])
                {
                    CPUREF_CHECK(r.stats[row] == -kInf && r.o[row * 8] == 0.0f && r.max[row] == -kInf && r.sumExp[row] == 0.0f,
                                 what << ": padded row must be o 0, stats and max -inf, sum_exp 0");
                    continue;
                }
                std::vector<double> s;
                const int64_t last = causal ? i + lensKv[b] - lensQ[b] : lensKv[b] - 1;
                for(int64_t j = 0; j <= std::min<int64_t>(last, lensKv[b] - 1); ++j)
                {
                    double dot = 0;
                    for(int64_t x = 0; x < 8; ++x)
                        dot += r.q[row * 8 + x] * kAt(r.k, tableK, b, h / 2, j, x);
                    s.push_back(0.4 * dot);
                }
                double m = sink ? sinks[h] : -kInf;
                for(double x : s)
                    m = std::max(m, x);
                double l = sink ? std::exp(sinks[h] - m) : 0.0;
                for(double x : s)
                    l += std::exp(x - m);
                const double lse = m == -kInf ? -kInf : m + std::log(l);
                CPUREF_CHECK(lse == -kInf ? r.stats[row] == -kInf : std::fabs(r.stats[row] - lse) <= 2e-5 * (1 + std::fabs(lse)),
                             what << " stats[" << b << "," << h << "," << i << "] " << r.stats[row] << " vs " << lse);
                // max and sum_exp: the softmax's row max (sink included) and the sum of exp(s - max).
                CPUREF_CHECK(m == -kInf ? r.max[row] == -kInf : std::fabs(r.max[row] - m) <= 2e-5 * (1 + std::fabs(m)),
                             what << " max[" << b << "," << h << "," << i << "] " << r.max[row] << " vs " << m);
                CPUREF_CHECK(std::fabs(r.sumExp[row] - l) <= 2e-5 * (1 + l),
                             what << " sum_exp[" << b << "," << h << "," << i << "] " << r.sumExp[row] << " vs " << l);
                for(int64_t x = 0; x < 8; ++x)
                {
                    double acc = 0;
                    for(size_t j = 0; j < s.size(); ++j)
                        acc += std::exp(s[j] - lse) * kAt(r.v, tableV, b, h / 2, static_cast<int64_t>(j), x);
                    near(what, r.o[row * 8 + x], acc);
                }
            }
}

} // namespace

CPUREF_TEST(plugin_sdpa_paged_kv_shuffled_page_tables)
{
    // 7 blocks of 4 keys; batch 0 uses blocks 5, 0, 3 for K and 2, 6, 1 for V (10 keys), batch
    // 1 blocks 6, 2 / 4, 0 and one unused page holding an out-of-range index (7 keys need 2).
    const std::vector<int32_t> tableK{5, 0, 3, 6, 2, 99}, tableV{2, 6, 1, 4, 0, -1}, lensQ{3, 2}, lensKv{10, 7};
    const std::vector<float> sinks{0, 0, 0, 0};
    for(bool causal : {false, true})
    {
        const PagedRun r = runPaged(false, causal, tableK, tableV, lensQ, lensKv, sinks);
        checkPaged(causal ? "paged o (bottom-right causal)" : "paged o", r, false, causal, tableK, tableV, lensQ, lensKv, sinks);
    }
    // A used page naming a block the container lacks is an execute error.
    Plugin& p = Plugin::get();
    Context c(pagedGraph(false, false), engineConfig(kEngineId));
    std::vector<float> q(192), kv(448), o(192), st(24);
    std::vector<int32_t> badK{5, 0, 3, 6, 9, 0}, lq{3, 2}, lkv{10, 7};
    std::vector<unsigned char> ws(c.workspace());
    const hipdnnPluginDeviceBuffer_t bufs[] = {{1, q.data()},      {2, kv.data()},   {3, kv.data()},
                                               {4, o.data()},      {5, st.data()},   {10, lq.data()},
                                               {11, lkv.data()},   {21, badK.data()}, {22, const_cast<int32_t*>(tableV.data())}};
    CPUREF_CHECK(p.hipdnnEnginePluginExecuteOpGraph(c.handle.h, c.ctx, ws.data(), bufs, 9) == HIPDNN_PLUGIN_STATUS_BAD_PARAM
                     && p.lastError().find("sdpa: page table of k [1][1] = 9 is not a block of the container (0 to 6)")
                            != std::string::npos,
                 "bad page: " << p.lastError());
}

CPUREF_TEST(plugin_sdpa_sink_tokens)
{
    // The paged graph with sinks {2, -1, 0.5, 3}: stats include the sink, o shrinks by the
    // sink's share; under the bottom-right mask batch 1 (Sq 2, Skv 1) row 0 sees no key. A last
    // run with one key per batch and Sq 3 checks such rows: o = 0 and stats = the sink.
    const std::vector<int32_t> tableK{5, 0, 3, 6, 2, 1}, tableV{2, 6, 1, 4, 0, 3};
    const std::vector<float> sinks{2.0f, -1.0f, 0.5f, 3.0f};
    for(bool causal : {false, true})
    {
        const std::vector<int32_t> lensQ{3, 2}, lensKv{10, 1};
        const PagedRun with = runPaged(true, causal, tableK, tableV, lensQ, lensKv, sinks);
        checkPaged("sink o", with, true, causal, tableK, tableV, lensQ, lensKv, sinks);
        const PagedRun without = runPaged(false, causal, tableK, tableV, lensQ, lensKv, sinks);
        double change = 0;
        for(size_t i = 0; i < with.o.size(); ++i)
            change = std::max(change, std::fabs(double(with.o[i]) - without.o[i]));
        CPUREF_CHECK(change > 0.05, "sinks must change o measurably: max change " << change);
    }
    const std::vector<int32_t> lensQ{3, 3}, lensKv{1, 1};
    const PagedRun r = runPaged(true, true, tableK, tableV, lensQ, lensKv, sinks);
    checkPaged("sink o, fully masked rows", r, true, true, tableK, tableV, lensQ, lensKv, sinks);
    for(int64_t h = 0; h < 4; ++h)
    {
        const size_t row = static_cast<size_t>((1 * 4 + h) * 3);
        CPUREF_CHECK(r.stats[row] == sinks[h] && r.o[row * 8] == 0.0f,
                     "a row that sees no key: stats " << r.stats[row] << " (expected the sink " << sinks[h] << "), o " << r.o[row * 8]);
    }
}

CPUREF_TEST(plugin_sdpa_layout_bad_inputs_messages)
{
    // Page table of the wrong type.
    expectRefusedWith(pagedGraph(false, false, fbs::DataType::FLOAT),
                      "node 0 ('sdpa', Sdpa): sdpa: page_table_k float[2,1,3,1]/[3,3,1,1] must be int32 or int64");
    // Ragged offsets of the wrong shape ([B] instead of [B+1]), a missing seq_len, and a ragged
    // tensor in an op that does not take them.
    auto raggedGraph = [](const Dims& offsetDims, bool seqLenQ) {
        GraphBuilder g;
        raggedTensor(g, 1, {2, 2, 4, 8}, {64, 8, 16, 1}, 30);
        g.tensor(2, fbs::DataType::FLOAT, {2, 2, 4, 8}, {64, 32, 8, 1});
        g.tensor(3, fbs::DataType::FLOAT, {2, 2, 4, 8}, {64, 32, 8, 1});
        g.tensor(4, fbs::DataType::FLOAT, {2, 2, 4, 8}, {64, 32, 8, 1});
        g.tensor(10, fbs::DataType::INT32, {2, 1, 1, 1}, {1, 1, 1, 1});
        g.tensor(30, fbs::DataType::INT32, offsetDims, {1, 1, 1, 1});
        fbs::SdpaAttributesT a;
        a.q_tensor_uid = 1;
        a.k_tensor_uid = 2;
        a.v_tensor_uid = 3;
        a.o_tensor_uid = 4;
        if(seqLenQ)
            a.seq_len_q_tensor_uid = 10;
        g.node("sdpa", fbs::NodeAttributes::SdpaAttributes, pack(g, a));
        return g.finish();
    };
    expectRefusedWith(raggedGraph({2, 1, 1, 1}, true),
                      "node 0 ('sdpa', Sdpa): sdpa: ragged offsets of q int32[2,1,1,1]/[1,1,1,1] must hold B+1 = 3 offsets");
    expectRefusedWith(raggedGraph({3, 1, 1, 1}, false),
                      "node 0 ('sdpa', Sdpa): sdpa: ragged q needs the seq_len_q tensor (its rows per batch)");
    CPUREF_CHECK(applicableCount(raggedGraph({3, 1, 1, 1}, true)) == 1, "the same graph with seq_len_q and B+1 offsets is fine");
    // Offsets that run past the tensor are an execute error.
    Plugin& p = Plugin::get();
    Context c(raggedGraph({3, 1, 1, 1}, true), engineConfig(kEngineId));
    std::vector<float> buf(128);
    std::vector<int32_t> lens{4, 4}, offsets{0, 100, 128};
    std::vector<unsigned char> ws(c.workspace());
    const hipdnnPluginDeviceBuffer_t bufs[] = {{1, buf.data()},  {2, buf.data()},  {3, buf.data()},
                                               {4, buf.data()},  {10, lens.data()}, {30, offsets.data()}};
    CPUREF_CHECK(p.hipdnnEnginePluginExecuteOpGraph(c.handle.h, c.ctx, ws.data(), bufs, 6) == HIPDNN_PLUGIN_STATUS_BAD_PARAM
                     && p.lastError().find("sdpa: ragged offset of q batch 1 = 100 with 4 rows reaches past the tensor's 128 "
                                           "elements")
                            != std::string::npos,
                 "offset past the end: " << p.lastError());
}
