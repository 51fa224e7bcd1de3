// Memory-bound GPU graphs (issue 24's table): each graph on HIPDNNGO_CUDA_RTC and on
// HIPDNNGO_CUDNN through the public C API, and a device-to-device copy of the same bytes (the
// ceiling), in one process. Device time from CUDA events around batches of executes on one
// stream; rounds interleave the paths (rotating which goes first); the figures are medians.
// Bandwidth counts each tensor the problem reads or writes once (as the anchors do):
// x and y for a forward norm; x, dy and dx for a backward one; input and output of a pointwise
// chain. The copy moves the graph's largest tensor (read + write).
//
// First build: the time of the first plan of each graph on HIPDNNGO_CUDA_RTC in this process.
// Run it twice with the same fresh HIPDNN_CACHE_DIR (plugins/cuda_rtc/tests/device_check.sh
// step `bench` does) for the cold and the warm kernel cache.
//
// usage: hipdnn-gpu-memory-bench [--quick] [--sweep] [--only SUBSTRING]
//   --sweep   also time every cuda_rtc configuration of the norm graphs (threads, rows per
//             block, blocks per SM, layernorm statistics in one pass, two or merged), to see what the engine's default leaves on the table
#include "GpuBench.hpp"

#include <cmath>

using namespace gpubench;

namespace
{

using DT = fbs::DataType;

// normFwd: layernorm (bias) or RMSNorm over the last dim of [rows, cols], bf16 x and y, scale
// (and bias) of type st, inference.
GraphSpec normFwd(bool layer, int64_t rows, int64_t cols, DT st)
{
    GB g;
    g.spec.name = std::string(layer ? "layernorm" : "RMSNorm") + " fwd " + std::to_string(rows) + "x" + std::to_string(cols)
                  + " bf16, " + (st == DT::FLOAT ? "fp32" : "bf16") + " scale";
    g.packed(1, DT::BFLOAT16, {rows, cols});
    g.packed(2, st, {1, cols});
    g.packed(3, st, {1, cols});
    g.constant(4, 1e-5f);
    g.packed(5, DT::BFLOAT16, {rows, cols});
    if(layer)
        g.node(fbs::NodeAttributes::LayernormAttributes,
               fbs::CreateLayernormAttributes(g.fbb, 1, 2, 3, 4, 5, 1, flatbuffers::nullopt, flatbuffers::nullopt,
                                              fbs::NormFwdPhase::INFERENCE)
                   .Union());
    else
        g.node(fbs::NodeAttributes::RMSNormAttributes,
               fbs::CreateRMSNormAttributes(g.fbb, 1, 2, 4, 5, flatbuffers::nullopt, flatbuffers::nullopt,
                                            fbs::NormFwdPhase::INFERENCE)
                   .Union());
    g.spec.traffic = 2.0 * static_cast<double>(rows * cols) * 2;
    return g.finish();
}

// normBwd: the backward of normFwd's training forward: x, dy (bf16), scale (fp32), the saved
// statistics (fp32 per row) in; dx (bf16), dscale (and dbias) (fp32) out.
GraphSpec normBwd(bool layer, int64_t rows, int64_t cols)
{
    GB g;
    g.spec.name = std::string(layer ? "layernorm" : "RMSNorm") + " bwd " + std::to_string(rows) + "x" + std::to_string(cols)
                  + " bf16";
    g.packed(1, DT::BFLOAT16, {rows, cols}); // dy
    g.packed(2, DT::BFLOAT16, {rows, cols}); // x
    g.packed(3, DT::FLOAT, {1, cols});       // scale
    g.packed(4, DT::FLOAT, {rows, 1});       // mean
    g.packed(5, DT::FLOAT, {rows, 1});       // inv_variance / inv_rms
    g.packed(6, DT::BFLOAT16, {rows, cols}); // dx
    g.packed(7, DT::FLOAT, {1, cols});       // dscale
    g.packed(8, DT::FLOAT, {1, cols});       // dbias
    if(layer)
    {
        g.constant(9, 1e-5f);
        g.node(fbs::NodeAttributes::LayernormBackwardAttributes,
               fbs::CreateLayernormBackwardAttributes(g.fbb, 1, 2, 3, 4, 5, 9, 6, 7, 8, 1).Union());
    }
    else
        g.node(fbs::NodeAttributes::RMSNormBackwardAttributes,
               fbs::CreateRMSNormBackwardAttributes(g.fbb, 1, 2, 3, 5, 6, 7, flatbuffers::nullopt).Union());
    g.spec.traffic = 3.0 * static_cast<double>(rows * cols) * 2;
    return g.finish();
}

// chain: y = GELU((x + bias) * scale), x and y bf16 [n, c, h, w], bias and scale bf16 [1, c, 1, 1].
GraphSpec chain(int64_t n, int64_t c, int64_t h, int64_t w)
{
    GB g;
    const double gib = static_cast<double>(n * c * h * w) * 2 / (1 << 30);
    char label[128];
    std::snprintf(label, sizeof label, "add -> mul -> GELU [%lld,%lld,%lld,%lld] bf16 (%.0f GiB)", static_cast<long long>(n),
                  static_cast<long long>(c), static_cast<long long>(h), static_cast<long long>(w), gib);
    g.spec.name = label;
    g.packed(1, DT::BFLOAT16, {n, c, h, w});
    g.packed(2, DT::BFLOAT16, {1, c, 1, 1});
    g.packed(3, DT::BFLOAT16, {1, c, 1, 1});
    g.packed(4, DT::FLOAT, {n, c, h, w}, true);
    g.packed(5, DT::FLOAT, {n, c, h, w}, true);
    g.packed(6, DT::BFLOAT16, {n, c, h, w});
    pointwise(g, fbs::PointwiseMode::ADD, 1, 2, 4);
    pointwise(g, fbs::PointwiseMode::MUL, 4, 3, 5);
    pointwise(g, fbs::PointwiseMode::GELU_FWD, 5, -1, 6);
    g.spec.traffic = 2.0 * static_cast<double>(n * c * h * w) * 2;
    return g.finish();
}

struct Path
{
    std::string label;
    Plan plan;
    bool ok = false;
    std::string why;
};

} // namespace

int main(int argc, char** argv)
{
    bool quick = false, sweep = false;
    std::string only;
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        if(a == "--quick")
            quick = true;
        else if(a == "--sweep")
            sweep = true;
        else if(a == "--only" && i + 1 < argc)
            only = argv[++i];
        else
            die("usage: hipdnn-gpu-memory-bench [--quick] [--sweep] [--only SUBSTRING]");
    }
    if(!loadRt())
        die("no CUDA runtime or no GPU");
    Stream stream = nullptr;
    rt().streamCreate(&stream);
    hipdnnHandle_t h = nullptr;
    H(hipdnnCreate(&h), "hipdnnCreate");
    H(hipdnnSetStream(h, reinterpret_cast<hipStream_t>(stream)), "hipdnnSetStream");

    std::vector<GraphSpec> graphs;
    for(bool layer : {true, false})
        for(auto [rows, cols] : {std::pair<int64_t, int64_t>{8192, 8192}, {32768, 4096}})
            for(DT st : {DT::FLOAT, DT::BFLOAT16})
                graphs.push_back(normFwd(layer, rows, cols, st));
    graphs.push_back(normBwd(true, 8192, 8192));
    graphs.push_back(normBwd(false, 8192, 8192));
    graphs.push_back(chain(32, 64, 512, 512));

    const int rounds = quick ? 5 : 15, batch = quick ? 5 : 20;
    std::printf("| graph | first build, cuda_rtc (ms) | cuda_rtc ms | cuda_rtc TB/s | cuDNN engine ms | cuDNN TB/s | copy TB/s "
                "| cuda_rtc / cuDNN | cuda_rtc / copy |\n|---|---|---|---|---|---|---|---|---|\n");
    for(const GraphSpec& g : graphs)
    {
        if(!only.empty() && g.name.find(only) == std::string::npos)
            continue;
        Path rtc, cudnn;
        rtc.label = "cuda_rtc";
        cudnn.label = "cuDNN";
        const double b0 = nowUs();
        rtc.ok = buildPlan(h, g, "HIPDNNGO_CUDA_RTC", {}, &rtc.plan, &rtc.why);
        const double firstBuildMs = (nowUs() - b0) / 1000;
        cudnn.ok = buildPlan(h, g, "HIPDNNGO_CUDNN", {}, &cudnn.plan, &cudnn.why);
        int64_t wsBytes = std::max(rtc.ok ? rtc.plan.ws : 0, cudnn.ok ? cudnn.plan.ws : 0);
        Bound b = allocate(g, wsBytes);
        size_t largest = 0;
        for(auto [uid, bytes] : g.buffers)
            largest = std::max(largest, bytes);
        void *src = nullptr, *dst = nullptr;
        if(rt().malloc_(&src, largest) != 0 || rt().malloc_(&dst, largest) != 0)
            die("cudaMalloc (copy) failed");
        rt().memset_(src, 0, largest);
        for(Path* p : {&rtc, &cudnn})
            if(p->ok)
                bindPlan(p->plan, b);

        BatchTimer timer(stream);
        std::vector<std::vector<double>> times(3);
        auto exec = [&](Path& p) { return [&] { H(hipdnnBackendExecute(h, p.plan.plan, p.plan.pack), "execute"); }; };
        auto rtcRun = exec(rtc), cudnnRun = exec(cudnn);
        auto copyRun = [&] { rt().memcpyAsync(dst, src, largest, 3, stream); };
        for(int round = 0; round < rounds; ++round)
            for(int k = 0; k < 3; ++k)
            {
                const int which = (round + k) % 3;
                if(which == 0 && rtc.ok)
                    times[0].push_back(timer.ms(batch, rtcRun));
                if(which == 1 && cudnn.ok)
                    times[1].push_back(timer.ms(batch, cudnnRun));
                if(which == 2)
                    times[2].push_back(timer.ms(batch, copyRun));
            }
        const double copyMs = median(times[2]);
        const double copyTBs = 2.0 * static_cast<double>(largest) / copyMs / 1e9;
        auto cell = [&](const Path& p, const std::vector<double>& t, char* ms, char* tbs, size_t n) {
            if(!p.ok)
            {
                std::snprintf(ms, n, "declined");
                std::snprintf(tbs, n, "—");
                return;
            }
            std::snprintf(ms, n, "%.4f", median(t));
            std::snprintf(tbs, n, "%.2f", g.traffic / median(t) / 1e9);
        };
        char rms[32], rtbs[32], cms[32], ctbs[32], ratio[32] = "—", ofCopy[32] = "—";
        cell(rtc, times[0], rms, rtbs, sizeof rms);
        cell(cudnn, times[1], cms, ctbs, sizeof cms);
        if(rtc.ok && cudnn.ok)
            std::snprintf(ratio, sizeof ratio, "%.2f", median(times[1]) / median(times[0]));
        if(rtc.ok)
            std::snprintf(ofCopy, sizeof ofCopy, "%.2f", g.traffic / median(times[0]) / 1e9 / copyTBs);
        std::printf("| %s | %.1f | %s | %s | %s | %s | %.2f | %s | %s |\n", g.name.c_str(), firstBuildMs, rms, rtbs, cms, ctbs, copyTBs,
                    ratio, ofCopy);
        for(const Path* p : {&rtc, &cudnn})
            if(!p->ok)
                std::printf("|  %s declined: %s |\n", p->label.c_str(), p->why.c_str());
        std::fflush(stdout);

        // The sweep: every configuration of the engine's knobs on this graph, one batch each
        // round, against the default measured above.
        if(sweep && rtc.ok && g.name.find("GELU") == std::string::npos)
        {
            std::printf("|  sweep | threads | rows/block | blocks/SM | two-pass | ms | TB/s |\n");
            for(int64_t threads : {64, 128, 256, 512, 1024})
                for(int64_t rpb : {1, 2, 4})
                    for(int64_t bps : {0, 1, 2, 3, 4})
                        for(int64_t twoPass : {1, 0, 2})
                        {
                            if(twoPass != 1 && g.name.find("layernorm fwd") == std::string::npos)
                                continue; // the statistics knob is the layernorm forward's
                            Plan p;
                            std::string why;
                            const Knobs knobs{{"cuda_rtc.threads", threads},
                                              {"cuda_rtc.rows_per_block", rpb},
                                              {"cuda_rtc.blocks_per_sm", bps},
                                              {"cuda_rtc.two_pass", twoPass}};
                            if(!buildPlan(h, g, "HIPDNNGO_CUDA_RTC", knobs, &p, &why))
                                continue;
                            if(p.ws > wsBytes) // a larger grid keeps more partial rows (norm backward)
                            {
                                rt().free_(b.ws);
                                b.ws = nullptr;
                                if(rt().malloc_(&b.ws, static_cast<size_t>(p.ws)) != 0)
                                    die("cudaMalloc (workspace) failed");
                                wsBytes = p.ws;
                            }
                            bindPlan(p, b);
                            std::vector<double> t;
                            auto run = [&] { H(hipdnnBackendExecute(h, p.plan, p.pack), "execute"); };
                            for(int r = 0; r < (quick ? 3 : 7); ++r)
                                t.push_back(timer.ms(batch, run));
                            std::printf("|  | %lld | %lld | %lld | %lld | %.4f | %.2f |\n", static_cast<long long>(threads),
                                        static_cast<long long>(rpb), static_cast<long long>(bps), static_cast<long long>(twoPass),
                                        median(t), g.traffic / median(t) / 1e9);
                            destroyPlan(p);
                        }
            std::fflush(stdout);
        }
        for(Path* p : {&rtc, &cudnn})
            destroyPlan(p->plan);
        release(b);
        rt().free_(src);
        rt().free_(dst);
    }
    hipdnnDestroy(h);
    return 0;
}
