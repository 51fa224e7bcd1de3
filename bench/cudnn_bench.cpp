// GPU figures of the HIPDNNGO_CUDNN engine (plugins/cudnn), each against cuDNN called directly
// in the same process on the same graph and the same cuDNN engine config:
//
//   ours    hipDNN graph (FlatBuffer) -> hipdnnBackendCreateAndDeserializeGraph_ext -> engine
//           HIPDNNGO_CUDNN with knob cudnn.config = r -> plan -> hipdnnBackendExecute
//   direct  the same FlatBuffer translated into cuDNN backend descriptors (the plugin's own
//           translation, compiled into this program), config r of cuDNN's heuristics (mode A,
//           then fallback; r = the first whose plan builds) -> cudnnBackendExecute
//
// Device time: CUDA events around a batch of executes on one stream, median of several batches.
// Host time: wall clock per call on a tiny graph (no queue back-pressure).
// Graph -> plan: fresh (first time in the process) and repeated (served by the plan cache).
//
// usage: hipdnn-cudnn-bench [--quick]   (needs an NVIDIA GPU with cuDNN 9; prints a Markdown table)
#include "CudnnApi.hpp"
#include "Engine.hpp"
#include "Graph.hpp"
#include "GpuBench.hpp"

#include <cmath>
#include <stdexcept>

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
namespace cd = hipdnngo::cudnn;
using namespace gpubench;

namespace
{

cd::cudaStream_t cudaStream(Stream s) { return static_cast<cd::cudaStream_t>(s); }

// ours plans g on HIPDNNGO_CUDNN with knob cudnn.config = rank (-1: the engine's own choice).
Plan planOurs(hipdnnHandle_t h, const GraphSpec& g, int64_t rank)
{
    Plan o;
    std::string why;
    if(!buildPlan(h, g, "HIPDNNGO_CUDNN", {{"cudnn.config", rank}}, &o, &why))
        die(g.name + " on HIPDNNGO_CUDNN: " + why);
    return o;
}

GraphSpec convGraph(fbs::DataType dt, const char* name, bool biasRelu, int64_t N, int64_t C, int64_t H, int64_t W, int64_t K)
{
    GB g;
    g.spec.name = name;
    g.tensor(1, dt, {N, C, H, W}, {H * W * C, 1, W * C, C});
    g.tensor(2, dt, {K, C, 3, 3}, {9 * C, 1, 3 * C, C});
    const std::vector<int64_t> pad{1, 1}, one{1, 1};
    g.tensor(3, biasRelu ? fbs::DataType::FLOAT : dt, {N, K, H, W}, {H * W * K, 1, W * K, K}, biasRelu);
    g.node(fbs::NodeAttributes::ConvolutionFwdAttributes,
           fbs::CreateConvolutionFwdAttributesDirect(g.fbb, 1, 2, 3, &pad, &pad, &one, &one, fbs::ConvMode::CROSS_CORRELATION)
               .Union());
    if(biasRelu)
    {
        g.tensor(4, dt, {1, K, 1, 1}, {K, 1, K, K});
        g.tensor(5, fbs::DataType::FLOAT, {N, K, H, W}, {H * W * K, 1, W * K, K}, true);
        g.tensor(6, dt, {N, K, H, W}, {H * W * K, 1, W * K, K});
        pointwise(g, fbs::PointwiseMode::ADD, 3, 4, 5);
        pointwise(g, fbs::PointwiseMode::RELU_FWD, 5, -1, 6);
    }
    g.spec.flops = 2.0 * N * K * H * W * C * 9;
    return g.finish();
}

GraphSpec matmulGraph(fbs::DataType dt, const char* name, int64_t M, int64_t N, int64_t K)
{
    GB g;
    g.spec.name = name;
    g.tensor(1, dt, {1, M, K}, {M * K, K, 1});
    g.tensor(2, dt, {1, K, N}, {K * N, N, 1});
    g.tensor(3, dt, {1, M, N}, {M * N, N, 1});
    g.node(fbs::NodeAttributes::MatmulAttributes, fbs::CreateMatmulAttributes(g.fbb, 1, 2, 3).Union());
    g.spec.flops = 2.0 * M * N * K;
    return g.finish();
}

// Layernorm inference over the last dim of [rows, cols], bf16 in and out, fp32 scale and bias.
GraphSpec layernormGraph(int64_t rows, int64_t cols)
{
    GB g;
    g.spec.name = "layernorm " + std::to_string(rows) + "x" + std::to_string(cols) + " bf16";
    g.tensor(1, fbs::DataType::BFLOAT16, {rows, cols}, {cols, 1});
    g.tensor(2, fbs::DataType::FLOAT, {cols}, {1});
    g.tensor(3, fbs::DataType::FLOAT, {cols}, {1});
    g.constant(4, 1e-5f);
    g.tensor(5, fbs::DataType::BFLOAT16, {rows, cols}, {cols, 1});
    g.node(fbs::NodeAttributes::LayernormAttributes,
           fbs::CreateLayernormAttributes(g.fbb, 1, 2, 3, 4, 5, 1, flatbuffers::nullopt, flatbuffers::nullopt,
                                          fbs::NormFwdPhase::INFERENCE)
               .Union());
    g.spec.traffic = 2.0 * rows * cols * 2; // x read once, y written once
    return g.finish();
}

// attentionGraph: causal SDPA, B×H×S×D bf16, forward (Q, K, V -> O) or backward (dQ, dK, dV from
// Q, K, V, O, dO and the fp32 stats). The backward counts five matmuls, 2.5× the forward's work.
GraphSpec attentionGraph(bool backward, int64_t B, int64_t Hh, int64_t S, int64_t D)
{
    GB g;
    g.spec.name = std::string("SDPA ") + (backward ? "bwd" : "fwd") + " causal B" + std::to_string(B) + " H" + std::to_string(Hh)
                  + " S" + std::to_string(S) + " D" + std::to_string(D) + " bf16";
    const std::vector<int64_t> dims{B, Hh, S, D}, strides{Hh * S * D, S * D, D, 1};
    for(int64_t uid = 1; uid <= (backward ? 9 : 4); ++uid)
        if(uid == 6)
            g.tensor(uid, fbs::DataType::FLOAT, {B, Hh, S, 1}, {Hh * S, S, 1, 1});
        else
            g.tensor(uid, fbs::DataType::BFLOAT16, dims, strides);
    const float scale = 1.0f / std::sqrt(static_cast<float>(D));
    if(backward)
    {
        fbs::SdpaBackwardAttributesBuilder a(g.fbb);
        a.add_q_tensor_uid(1);
        a.add_k_tensor_uid(2);
        a.add_v_tensor_uid(3);
        a.add_o_tensor_uid(4);
        a.add_do_tensor_uid(5);
        a.add_stats_tensor_uid(6);
        a.add_dq_tensor_uid(7);
        a.add_dk_tensor_uid(8);
        a.add_dv_tensor_uid(9);
        a.add_causal_mask(true);
        a.add_attn_scale_value(scale);
        const auto attrs = a.Finish();
        g.node(fbs::NodeAttributes::SdpaBackwardAttributes, attrs.Union());
    }
    else
    {
        fbs::SdpaAttributesBuilder a(g.fbb);
        a.add_q_tensor_uid(1);
        a.add_k_tensor_uid(2);
        a.add_v_tensor_uid(3);
        a.add_o_tensor_uid(4);
        a.add_causal_mask(true);
        a.add_attn_scale_value(scale);
        const auto attrs = a.Finish();
        g.node(fbs::NodeAttributes::SdpaAttributes, attrs.Union());
    }
    g.spec.flops = (backward ? 2.5 : 1.0) * 4.0 * B * Hh * S * S * D / 2; // causal: half of the score matrix
    return g.finish();
}

GraphSpec reluGraph()
{
    GB g;
    g.spec.name = "relu 64x64 fp32";
    g.tensor(1, fbs::DataType::FLOAT, {1, 64, 64}, {4096, 64, 1});
    g.tensor(2, fbs::DataType::FLOAT, {1, 64, 64}, {4096, 64, 1});
    pointwise(g, fbs::PointwiseMode::RELU_FWD, 1, -1, 2);
    return g.finish();
}

struct Direct
{
    std::shared_ptr<cd::GraphEntry> entry;
    std::shared_ptr<cd::Plan> plan;
    int64_t rank = -1;
    std::shared_ptr<cd::StreamHandle> lease; // never returned: the bench's stream lives to the end
    cd::cudnnHandle_t handle = nullptr;
    cd::cudnnBackendDescriptor_t pack = nullptr;
};

Direct buildDirect(const GraphSpec& g, cd::cudaStream_t stream)
{
    Direct d;
    const fbs::Graph* graph = fbs::GetGraph(g.bytes.data());
    const int device = cd::deviceOf(stream);
    d.entry = cd::entryFor(cd::readModel(*graph), device);
    if(!d.entry->error.empty())
        throw std::runtime_error("cuDNN rejects " + g.name + ": " + d.entry->error);
    d.plan = d.entry->plan(cd::Choice{});
    for(size_t i = 0; i < d.entry->configs.size(); ++i)
        if(d.entry->configs[i].engineIndex == d.plan->config.engineIndex && d.entry->configs[i].knobs == d.plan->config.knobs)
        {
            d.rank = static_cast<int64_t>(i);
            break;
        }
    d.lease = cd::leaseStreamHandle(device, stream);
    d.handle = d.lease->get();
    return d;
}

void bindDirect(Direct& d, const Bound& b)
{
    const cd::Api& a = cd::api();
    // Constants (a scale, an epsilon, the masks' -inf) go by value, from host memory, as the
    // plugin binds them.
    std::vector<int64_t> uids = b.uids;
    std::vector<void*> ptrs = b.ptrs;
    // The translation's own intermediates (SDPA backward) sit at the front of the workspace,
    // cuDNN's workspace after them, as the plugin lays them out.
    char* ws = static_cast<char*>(b.ws);
    for(const cd::TensorSpec& t : d.entry->model.tensors)
    {
        if(t.constant)
        {
            uids.push_back(t.uid);
            ptrs.push_back(const_cast<unsigned char*>(t.value.data()));
        }
        if(t.wsOffset >= 0)
        {
            uids.push_back(t.uid);
            ptrs.push_back(ws + t.wsOffset);
        }
    }
    void* cudnnWs = ws == nullptr ? nullptr : ws + d.entry->model.wsBytes;
    a.CreateDescriptor(cd::CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &d.pack);
    a.SetAttribute(d.pack, cd::CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, cd::CUDNN_TYPE_INT64, static_cast<int64_t>(uids.size()),
                   uids.data());
    a.SetAttribute(d.pack, cd::CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, cd::CUDNN_TYPE_VOID_PTR, static_cast<int64_t>(ptrs.size()),
                   ptrs.data());
    a.SetAttribute(d.pack, cd::CUDNN_ATTR_VARIANT_PACK_WORKSPACE, cd::CUDNN_TYPE_VOID_PTR, 1, &cudnnWs);
    if(a.Finalize(d.pack) != 0)
        die("direct variant pack");
}

template <typename F>
double hostUs(Stream stream, int reps, int batch, F&& run)
{
    std::vector<double> t;
    for(int r = 0; r < reps; ++r)
    {
        rt().streamSync(stream);
        const double s = nowUs();
        for(int i = 0; i < batch; ++i)
            run();
        t.push_back((nowUs() - s) / batch);
    }
    rt().streamSync(stream);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
    if(!loadRt())
        die("no CUDA runtime or no GPU");
    if(!cd::api().ok)
        die("cuDNN / CUDA unavailable: " + cd::api().why);
    Stream stream = nullptr;
    rt().streamCreate(&stream);

    hipdnnHandle_t h = nullptr;
    H(hipdnnCreate(&h), "hipdnnCreate");
    H(hipdnnSetStream(h, reinterpret_cast<hipStream_t>(stream)), "hipdnnSetStream");

    std::printf("cuDNN %zu, CUDA runtime %d, driver %d\n\n", cd::api().cudnnVersion, cd::api().cudartVersion,
                cd::api().driverVersion);
    std::vector<GraphSpec> graphs;
    graphs.push_back(convGraph(fbs::DataType::HALF, "conv fwd 3x3 N32 C256 56x56 K256 NHWC fp16", false, 32, 256, 56, 56, 256));
    graphs.push_back(
        convGraph(fbs::DataType::BFLOAT16, "conv fwd 3x3 N32 C256 56x56 K256 NHWC bf16", false, 32, 256, 56, 56, 256));
    graphs.push_back(
        convGraph(fbs::DataType::HALF, "conv fwd+bias+ReLU (fused) N32 C256 56x56 K256 fp16", true, 32, 256, 56, 56, 256));
    graphs.push_back(matmulGraph(fbs::DataType::BFLOAT16, "matmul 8192^3 bf16", 8192, 8192, 8192));
    graphs.push_back(matmulGraph(fbs::DataType::HALF, "matmul 8192^3 fp16", 8192, 8192, 8192));
    graphs.push_back(attentionGraph(false, 8, 16, 2048, 128));
    graphs.push_back(attentionGraph(true, 8, 16, 2048, 128));
    graphs.push_back(layernormGraph(8192, 8192));

    std::printf("| graph | cuDNN config | ours ms | direct ms | ours | direct | ours/direct |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    for(const GraphSpec& g : graphs)
    {
        Direct d;
        try
        {
            d = buildDirect(g, cudaStream(stream));
        }
        catch(const std::exception& e)
        {
            std::printf("| %s | not run: %s | | | | | |\n", g.name.c_str(), e.what());
            continue;
        }
        Plan o = planOurs(h, g, d.rank);
        if(o.ws != d.plan->workspace)
            die(g.name + ": workspace differs (ours " + std::to_string(o.ws) + ", direct " + std::to_string(d.plan->workspace)
                + ")");
        Bound b = allocate(g, std::max<int64_t>(o.ws, d.plan->workspace));
        bindPlan(o, b);
        bindDirect(d, b);
        const int rounds = quick ? 5 : 31, batch = quick ? 5 : 20;
        const cd::Api& a = cd::api();
        // Both paths run the same cuDNN plan on the same buffers, so any difference is host
        // overhead or noise (clocks, power, L2). Rounds interleave the two paths, alternating
        // which goes first; each round gives one ratio, and the figure is the median ratio
        // (times: the medians of each path's batches).
        std::vector<double> tO, tD, ratio;
        BatchTimer timer(stream);
        auto direct = [&] { a.Execute(d.handle, d.plan->plan->get(), d.pack); };
        auto ours = [&] { H(hipdnnBackendExecute(h, o.plan, o.pack), "execute"); };
        for(int round = 0; round < rounds; ++round)
        {
            double msD = 0, msO = 0;
            if(round % 2 == 0)
            {
                msD = timer.ms(batch, direct);
                msO = timer.ms(batch, ours);
            }
            else
            {
                msO = timer.ms(batch, ours);
                msD = timer.ms(batch, direct);
            }
            tO.push_back(msO);
            tD.push_back(msD);
            ratio.push_back(msD / msO);
        }
        const double tOurs = median(tO), tDirect = median(tD), r = median(ratio);
        const double work = g.flops > 0 ? g.flops : g.traffic; // per ms: /1e9 gives TFLOP/s or TB/s
        const char* unit = g.flops > 0 ? "TFLOP/s" : "TB/s";
        std::printf("| %s | %s | %.4f | %.4f | %.2f %s | %.2f %s | %.3f |\n", g.name.c_str(), d.plan->config.label().c_str(),
                    tOurs, tDirect, work / tOurs / 1e9, unit, work / tDirect / 1e9, unit, r);
        std::fflush(stdout);
        a.DestroyDescriptor(d.pack);
        destroyPlan(o);
        release(b);
    }

    // Host overhead per execute and graph -> plan, on a tiny graph.
    {
        const GraphSpec g = reluGraph();
        // Fresh builds, both after the big graphs above (libraries and kernels warm): ours on g,
        // cuDNN direct on a graph of another shape (the direct path has no cache to hit).
        const double o0 = nowUs();
        Plan o = planOurs(h, g, -1); // -1: the first config that builds, as the direct path picks
        const double oursFresh = nowUs() - o0;
        GB g2;
        g2.spec.name = "relu 64x65 fp32";
        g2.tensor(1, fbs::DataType::FLOAT, {1, 64, 65}, {4160, 65, 1});
        g2.tensor(2, fbs::DataType::FLOAT, {1, 64, 65}, {4160, 65, 1});
        pointwise(g2, fbs::PointwiseMode::RELU_FWD, 1, -1, 2);
        const GraphSpec gs2 = g2.finish();
        const double f0 = nowUs();
        Direct d2 = buildDirect(gs2, cudaStream(stream));
        const double directFresh = nowUs() - f0;
        Direct d = buildDirect(g, cudaStream(stream));
        std::vector<double> rep;
        for(int i = 0; i < 20; ++i)
        {
            const double r0 = nowUs();
            Plan o3 = planOurs(h, g, -1);
            rep.push_back(nowUs() - r0);
            destroyPlan(o3);
        }
        std::sort(rep.begin(), rep.end());
        const double oursRepeat = rep[rep.size() / 2];

        Bound b = allocate(g, std::max<int64_t>(o.ws, d.plan->workspace));
        bindPlan(o, b);
        bindDirect(d, b);
        const cd::Api& a = cd::api();
        const int reps = 9, batch = 500;
        double hd = 0, ho = 0;
        for(int round = 0; round < 2; ++round)
        {
            hd += hostUs(stream, reps, batch, [&] { a.Execute(d.handle, d.plan->plan->get(), d.pack); });
            ho += hostUs(stream, reps, batch, [&] { hipdnnBackendExecute(h, o.plan, o.pack); });
        }
        hd /= 2;
        ho /= 2;
        std::printf("\n| host time per execute (%s) | µs |\n|---|---|\n", g.name.c_str());
        std::printf("| cudnnBackendExecute (direct) | %.2f |\n| hipdnnBackendExecute (ours) | %.2f |\n| overhead | %+.2f |\n", hd,
                    ho, ho - hd);
        std::printf("\n| graph -> plan (%s) | µs |\n|---|---|\n", g.name.c_str());
        std::printf("| cuDNN direct, fresh (op graph + heuristics A/fallback + plan) | %.0f |\n", directFresh);
        std::printf("| ours, fresh graph (deserialize + finalize + heuristics + engine + plan) | %.0f |\n", oursFresh);
        std::printf("| ours, repeated identical graph (plan cache; median of 20) | %.0f |\n", oursRepeat);
        a.DestroyDescriptor(d.pack);
        destroyPlan(o);
    }
    hipdnnDestroy(h);
    return 0;
}
