// hipdnn-onednn-bench: the HIPDNNGO_ONEDNN engine, timed through the backend's Execute, against
// oneDNN called directly on the same problem (same shapes, same user layouts, the primitives a
// careful oneDNN user would create: format_tag::any weights with a reorder from the user's
// layout, user-managed scratchpad, primitives created once), in one process, so both sides share
// one oneDNN library and one OpenMP runtime (same threads). Also the speed-up over the CPU
// reference engine.
//
// Method (a shared machine: other processes steal cores in bursts): after a warm-up, the two
// sides run in alternating blocks (direct then backend, backend then direct in the next round),
// each block a few runs whose fastest counts; every round gives one ratio direct / backend, and
// the figure is the median ratio over the rounds with its inter-quartile range. Before timing,
// the bench compares the oneDNN implementations each side runs (the plugin's execution-context
// log line against the direct primitives' impl_info_str) and fails on a difference.
//
// fp16 / bf16 problems ("... vs fp32"): the backend runs the problem with its float tensors in
// the 16-bit type (staged through f32 where oneDNN has no kernels for it: fp16 always, bf16
// without AVX-512 BF16 or under ONEDNN_MAX_CPU_ISA=AVX2; native bf16 otherwise) against oneDNN
// direct on the same problem in fp32, budget 0.85; the implementations are listed, not
// compared. RMSNorm (the engine's own kernel; oneDNN 2.6 has none) is compared with oneDNN's
// closest primitive, layer normalization without shift, on the same tensors.
//
// usage: hipdnn-onednn-bench [--rounds N] [--no-reference] [--only TEXT]
//   --only TEXT: only the problems whose name contains TEXT
//   exit 1 when a median ratio is below its budget or the two sides run different implementations
//
// The backend finds the plugins as usual (HIPDNN_PLUGIN_DIR or the library's plugin folder).
// Threads: oneDNN's OpenMP runtime on both sides (OMP_NUM_THREADS).
#include "onednn_bench_harness.hpp"

using namespace onednn_bench;

namespace
{

const memory::dims kS{1, 1}, kD{0, 0}, kP{1, 1};

Case convFwd(bool fused)
{
    const std::vector<int64_t> x{4, 64, 56, 56}, w{64, 64, 3, 3}, y{4, 64, 56, 56}, b{1, 64, 1, 1};
    Case c;
    c.name = fused ? "conv fwd+bias+relu fp32 NHWC N4 C64 56x56 K64 3x3" : "conv fwd fp32 NHWC N4 C64 56x56 K64 3x3";
    c.gflop = 2.0 * 4 * 56 * 56 * 64 * 64 * 9 * 1e-9;
    c.io = "float";
    c.tensors = {{1, "x", "float", x, nhwc(x)}, {2, "w", "float", w, nhwc(w)}, {3, "y", "float", y, nhwc(y), fused}};
    c.nodes.push_back("{\"type\": \"ConvolutionFwdAttributes\", \"name\": \"conv\", \"compute_data_type\": \"float\", "
                      "\"inputs\": {\"x_tensor_uid\": 1, \"w_tensor_uid\": 2}, \"outputs\": {\"y_tensor_uid\": 3}, "
                      + convParams() + "}");
    if(fused)
    {
        c.tensors.push_back({4, "b", "float", b, {64, 1, 1, 1}});
        c.tensors.push_back({5, "yb", "float", y, nhwc(y), true});
        c.tensors.push_back({6, "out", "float", y, nhwc(y)});
        c.nodes.push_back("{\"type\": \"PointwiseAttributes\", \"name\": \"bias\", \"compute_data_type\": \"float\", "
                          "\"inputs\": {\"in_0_tensor_uid\": 3, \"in_1_tensor_uid\": 4, \"operation\": \"add\"}, "
                          "\"outputs\": {\"out_0_tensor_uid\": 5}}");
        c.nodes.push_back("{\"type\": \"PointwiseAttributes\", \"name\": \"relu\", \"compute_data_type\": \"float\", "
                          "\"inputs\": {\"in_0_tensor_uid\": 5, \"operation\": \"relu_fwd\"}, "
                          "\"outputs\": {\"out_0_tensor_uid\": 6}}");
    }
    c.direct = [fused, c](Direct& d, Buffers& bufs) {
        const T &tx = c.tensors[0], &tw = c.tensors[1], &ty = fused ? c.tensors[5] : c.tensors[2];
        const memory::desc xMd = userMd(tx), yMd = userMd(ty);
        const memory::desc wAny({64, 64, 3, 3}, dt::f32, tag::any), bMd({64}, dt::f32, tag::x);
        dnnl::post_ops ops;
        if(fused)
            ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
        const auto desc =
            fused ? dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, xMd,
                                                    wAny, bMd, yMd, kS, kD, kP, kP)
                  : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, xMd,
                                                    wAny, yMd, kS, kD, kP, kP);
        const dnnl::convolution_forward::primitive_desc pd(desc, userScratch(ops), eng());
        const memory wUser(userMd(tw), eng(), bufs.ptr(2));
        const memory wMem = weightsIn(d, wUser, pd.weights_desc());
        std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(xMd, eng(), bufs.ptr(1))},
                                             {DNNL_ARG_WEIGHTS, wMem},
                                             {DNNL_ARG_DST, memory(yMd, eng(), bufs.ptr(fused ? 6 : 3))},
                                             {DNNL_ARG_SCRATCHPAD, d.scratch(pd.scratchpad_desc())}};
        if(fused)
            args[DNNL_ARG_BIAS] = memory(bMd, eng(), bufs.ptr(4));
        d.add({dnnl::convolution_forward(pd), args});
    };
    return c;
}

dnnl::convolution_forward::primitive_desc convHint(const memory::desc& x, const memory::desc& w, const memory::desc& y)
{
    return dnnl::convolution_forward::primitive_desc(dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                                                                                     dnnl::algorithm::convolution_direct, x, w, y,
                                                                                     kS, kD, kP, kP),
                                                     eng());
}

Case convBwdData()
{
    const std::vector<int64_t> x{4, 64, 56, 56}, w{64, 64, 3, 3};
    Case c;
    c.name = "conv bwd-data fp32 NHWC N4 C64 56x56 K64 3x3";
    c.gflop = 2.0 * 4 * 56 * 56 * 64 * 64 * 9 * 1e-9;
    c.io = "float";
    c.tensors = {{1, "dy", "float", x, nhwc(x)}, {2, "w", "float", w, nhwc(w)}, {3, "dx", "float", x, nhwc(x)}};
    c.nodes.push_back("{\"type\": \"ConvolutionBwdAttributes\", \"name\": \"dgrad\", \"compute_data_type\": \"float\", "
                      "\"inputs\": {\"dy_tensor_uid\": 1, \"w_tensor_uid\": 2}, \"outputs\": {\"dx_tensor_uid\": 3}, "
                      + convParams() + "}");
    c.direct = [c](Direct& d, Buffers& bufs) {
        const memory::desc dyMd = userMd(c.tensors[0]), dxMd = userMd(c.tensors[2]);
        const memory::desc wAny({64, 64, 3, 3}, dt::f32, tag::any);
        const dnnl::convolution_backward_data::primitive_desc pd(
            dnnl::convolution_backward_data::desc(dnnl::algorithm::convolution_direct, dxMd, wAny, dyMd, kS, kD, kP, kP),
            userScratch(), eng(), convHint(dxMd, wAny, dyMd));
        const memory wMem = weightsIn(d, memory(userMd(c.tensors[1]), eng(), bufs.ptr(2)), pd.weights_desc());
        d.add({dnnl::convolution_backward_data(pd),
               {{DNNL_ARG_DIFF_DST, memory(dyMd, eng(), bufs.ptr(1))},
                {DNNL_ARG_WEIGHTS, wMem},
                {DNNL_ARG_DIFF_SRC, memory(dxMd, eng(), bufs.ptr(3))},
                {DNNL_ARG_SCRATCHPAD, d.scratch(pd.scratchpad_desc())}}});
    };
    return c;
}

Case convBwdWeights()
{
    const std::vector<int64_t> x{4, 64, 56, 56}, w{64, 64, 3, 3};
    Case c;
    c.name = "conv bwd-weights fp32 NHWC N4 C64 56x56 K64 3x3";
    c.gflop = 2.0 * 4 * 56 * 56 * 64 * 64 * 9 * 1e-9;
    c.io = "float";
    c.tensors = {{1, "x", "float", x, nhwc(x)}, {2, "dy", "float", x, nhwc(x)}, {3, "dw", "float", w, nhwc(w)}};
    c.nodes.push_back("{\"type\": \"ConvolutionWrwAttributes\", \"name\": \"wgrad\", \"compute_data_type\": \"float\", "
                      "\"inputs\": {\"x_tensor_uid\": 1, \"dy_tensor_uid\": 2}, \"outputs\": {\"dw_tensor_uid\": 3}, "
                      + convParams() + "}");
    c.direct = [c](Direct& d, Buffers& bufs) {
        const memory::desc xMd = userMd(c.tensors[0]), dyMd = userMd(c.tensors[1]), dwUser = userMd(c.tensors[2]);
        const memory::desc wAny({64, 64, 3, 3}, dt::f32, tag::any);
        const dnnl::convolution_backward_weights::primitive_desc pd(
            dnnl::convolution_backward_weights::desc(dnnl::algorithm::convolution_direct, xMd, wAny, dyMd, kS, kD, kP, kP),
            userScratch(), eng(), convHint(xMd, wAny, dyMd));
        const memory dwOut(dwUser, eng(), bufs.ptr(3));
        const bool reorderOut = pd.diff_weights_desc() != dwUser;
        const memory dw = reorderOut ? d.temp(pd.diff_weights_desc()) : dwOut;
        d.add({dnnl::convolution_backward_weights(pd),
               {{DNNL_ARG_SRC, memory(xMd, eng(), bufs.ptr(1))},
                {DNNL_ARG_DIFF_DST, memory(dyMd, eng(), bufs.ptr(2))},
                {DNNL_ARG_DIFF_WEIGHTS, dw},
                {DNNL_ARG_SCRATCHPAD, d.scratch(pd.scratchpad_desc())}}});
        if(reorderOut)
            d.add({dnnl::reorder(dw, dwOut), {{DNNL_ARG_FROM, dw}, {DNNL_ARG_TO, dwOut}}});
    };
    return c;
}

Case matmul(const std::string& type, int64_t M, int64_t K, int64_t N)
{
    Case c;
    c.name = "matmul " + std::string(type == "float" ? "fp32" : "bf16") + " " + std::to_string(M) + "x" + std::to_string(K) + "x"
             + std::to_string(N);
    c.gflop = 2.0 * M * K * N * 1e-9;
    c.io = type;
    c.tensors = {{1, "a", type, {M, K}, {K, 1}}, {2, "b", type, {K, N}, {N, 1}}, {3, "c", type, {M, N}, {N, 1}}};
    c.nodes.push_back("{\"type\": \"MatmulAttributes\", \"name\": \"mm\", \"compute_data_type\": \"float\", "
                      "\"inputs\": {\"a_tensor_uid\": 1, \"b_tensor_uid\": 2}, \"outputs\": {\"c_tensor_uid\": 3}}");
    c.direct = [c](Direct& d, Buffers& bufs) {
        const memory::desc a = userMd(c.tensors[0]), b = userMd(c.tensors[1]), o = userMd(c.tensors[2]);
        const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, o), userScratch(), eng());
        d.add({dnnl::matmul(pd),
               {{DNNL_ARG_SRC, memory(a, eng(), bufs.ptr(1))},
                {DNNL_ARG_WEIGHTS, memory(b, eng(), bufs.ptr(2))},
                {DNNL_ARG_DST, memory(o, eng(), bufs.ptr(3))},
                {DNNL_ARG_SCRATCHPAD, d.scratch(pd.scratchpad_desc())}}});
    };
    return c;
}

Case layernorm(int64_t rows, int64_t cols)
{
    Case c;
    c.name = "layernorm fp32 [" + std::to_string(rows) + ", " + std::to_string(cols) + "] inference";
    c.gflop = 0; // memory bound: GB/s is printed instead
    c.io = "float";
    c.tensors = {{1, "x", "float", {rows, cols}, {cols, 1}},
                 {2, "scale", "float", {cols}, {1}},
                 {3, "bias", "float", {cols}, {1}},
                 {5, "y", "float", {rows, cols}, {cols, 1}}};
    c.extraTensors = ", {\"uid\": 4, \"name\": \"epsilon\", \"data_type\": \"double\", \"dims\": [1], "
                     "\"strides\": [1], \"virtual\": false, \"value_type\": \"Float64Value\", \"value\": 1e-05}";
    c.nodes.push_back("{\"type\": \"LayernormAttributes\", \"name\": \"ln\", \"compute_data_type\": \"float\", "
                      "\"inputs\": {\"x_tensor_uid\": 1, \"scale_tensor_uid\": 2, \"bias_tensor_uid\": 3, "
                      "\"epsilon_tensor_uid\": 4}, \"outputs\": {\"y_tensor_uid\": 5}, "
                      "\"attributes\": {\"normalized_dim_count\": 1, \"forward_phase\": \"INFERENCE\"}}");
    c.bytes = 2.0 * rows * cols * 4;
    c.direct = [c, rows, cols](Direct& d, Buffers& bufs) {
        const memory::desc x = userMd(c.tensors[0]), stat({rows}, dt::f32, tag::a), sc({cols}, dt::f32, tag::a);
        const dnnl::layer_normalization_forward::primitive_desc pd(
            dnnl::layer_normalization_forward::desc(dnnl::prop_kind::forward_inference, x, stat, 1e-5f,
                                                    dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift),
            userScratch(), eng());
        d.add({dnnl::layer_normalization_forward(pd),
               {{DNNL_ARG_SRC, memory(x, eng(), bufs.ptr(1))},
                {DNNL_ARG_SCALE, memory(sc, eng(), bufs.ptr(2))},
                {DNNL_ARG_SHIFT, memory(sc, eng(), bufs.ptr(3))},
                {DNNL_ARG_DST, memory(x, eng(), bufs.ptr(5))},
                {DNNL_ARG_SCRATCHPAD, d.scratch(pd.scratchpad_desc())}}});
    };
    return c;
}

// rmsnorm: RMSNorm inference [rows, cols] (scale, no bias) on the engine's kernel; oneDNN 2.6
// has no RMSNorm, so the direct side runs its closest primitive, layer normalization (fp32,
// scale, no shift) on the same tensors: the same passes over memory.
Case rmsnorm(int64_t rows, int64_t cols)
{
    Case c = layernorm(rows, cols);
    c.name = "rmsnorm fp32 [" + std::to_string(rows) + ", " + std::to_string(cols) + "] inference";
    c.directName = "layernorm fp32, the closest oneDNN primitive";
    c.tensors.erase(c.tensors.begin() + 2); // no bias
    c.nodes = {"{\"type\": \"RMSNormAttributes\", \"name\": \"rms\", \"compute_data_type\": \"float\", "
               "\"inputs\": {\"x_tensor_uid\": 1, \"scale_tensor_uid\": 2, \"epsilon_tensor_uid\": 4}, "
               "\"outputs\": {\"y_tensor_uid\": 5}, \"attributes\": {\"forward_phase\": \"INFERENCE\"}}"};
    c.direct = [rows, cols](Direct& d, Buffers& bufs) {
        const memory::desc x({rows, cols}, dt::f32, tag::ab), stat({rows}, dt::f32, tag::a), sc({cols}, dt::f32, tag::a);
        const dnnl::layer_normalization_forward::primitive_desc pd(
            dnnl::layer_normalization_forward::desc(dnnl::prop_kind::forward_inference, x, stat, 1e-5f,
                                                    dnnl::normalization_flags::use_scale),
            userScratch(), eng());
        d.add({dnnl::layer_normalization_forward(pd),
               {{DNNL_ARG_SRC, memory(x, eng(), bufs.ptr(1))},
                {DNNL_ARG_SCALE, memory(sc, eng(), bufs.ptr(2))},
                {DNNL_ARG_DST, memory(x, eng(), bufs.ptr(5))},
                {DNNL_ARG_SCRATCHPAD, d.scratch(pd.scratchpad_desc())}}});
    };
    return c;
}


// Figure: one problem's measurement. Times are the medians over the rounds of each block's
// fastest run; ratio = direct / backend (> 1: the backend is faster).
struct Figure
{
    double directMs = 0, backendMs = 0;
    double ratio = 0, q1 = 0, q3 = 0; // median and inter-quartile range of the per-round ratios
    int rounds = 0, block = 0;
};

double quantile(std::vector<double> v, double q)
{
    std::sort(v.begin(), v.end());
    const double at = q * static_cast<double>(v.size() - 1);
    const size_t lo = static_cast<size_t>(at);
    const size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

// fastestOf times `runs` calls of fn one by one and returns the fastest.
double fastestOf(int runs, const std::function<void()>& fn)
{
    double best = 1e300;
    for(int i = 0; i < runs; ++i)
    {
        const double t0 = nowMs();
        fn();
        best = std::min(best, nowMs() - t0);
    }
    return best;
}

// measure: warm-up, then `rounds` rounds of one block per side in alternating order. A block
// holds enough runs to last about 10 ms (at least one), so short problems are not timed by a
// single run that one preemption can double.
Figure measure(Direct& direct, BackendRun& backend, int rounds)
{
    auto d = [&] { direct.run(); };
    auto b = [&] { backend.execute(); };
    // Warm-up: caches, page faults of the buffers and workspace, OpenMP's thread team.
    double warm = 0;
    for(int i = 0; i < 3 || warm < 200; ++i)
        warm += fastestOf(1, d) + fastestOf(1, b);
    const double single = std::min(fastestOf(2, d), fastestOf(2, b));
    Figure f;
    f.rounds = rounds;
    f.block = std::max(1, std::min(50, static_cast<int>(std::ceil(10.0 / std::max(single, 1e-3)))));
    std::vector<double> td, tb, ratio;
    for(int r = 0; r < rounds; ++r)
    {
        double x, y;
        if(r % 2 == 0)
        {
            x = fastestOf(f.block, d);
            y = fastestOf(f.block, b);
        }
        else
        {
            y = fastestOf(f.block, b);
            x = fastestOf(f.block, d);
        }
        td.push_back(x);
        tb.push_back(y);
        ratio.push_back(x / y);
    }
    f.directMs = quantile(td, 0.5);
    f.backendMs = quantile(tb, 0.5);
    f.ratio = quantile(ratio, 0.5);
    f.q1 = quantile(ratio, 0.25);
    f.q3 = quantile(ratio, 0.75);
    return f;
}

std::string isaName()
{
    switch(dnnl::get_effective_cpu_isa())
    {
    case dnnl::cpu_isa::avx2: return "avx2";
    case dnnl::cpu_isa::avx512_core: return "avx512_core";
    case dnnl::cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_amx: return "avx512_core_amx";
    default: return std::to_string(static_cast<int>(dnnl::get_effective_cpu_isa()));
    }
}

} // namespace

int main(int argc, char** argv)
{
    int rounds = 41;
    bool reference = true;
    std::string only;
    for(int i = 1; i < argc; ++i)
    {
        if(std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = std::max(3, std::atoi(argv[++i]));
        else if(std::strcmp(argv[i], "--no-reference") == 0)
            reference = false;
        else if(std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else
            die(std::string("unknown argument ") + argv[i] + " (usage: hipdnn-onednn-bench [--rounds N] [--no-reference] [--only TEXT])");
    }
    // The plugin's log is read through a callback; its lines stay off stderr unless asked for.
    setenv("HIPDNN_LOG_FILE", "/dev/null", 0);
    hipdnnHandle_t handle = nullptr;
    try
    {
        ck(hipdnnCreate(&handle), "hipdnnCreate");
    }
    catch(const std::exception& e)
    {
        die(e.what());
    }
    static int logTag;
    hipdnnSetUserLogCallback_ext(captureLog, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &logTag);
    hipdnnSeverity_t userLevel = HIPDNN_SEV_OFF;
    hipdnnBackendGetGlobalLogLevel_ext(&userLevel);

    const dnnl_version_t* v = dnnl_version();
    const char* omp = std::getenv("OMP_NUM_THREADS");
    std::printf("hipdnn-onednn-bench: HIPDNNGO_ONEDNN through hipdnnBackendExecute vs oneDNN %d.%d.%d called directly,\n"
                "one process, OMP_NUM_THREADS=%s on both sides. %d rounds per problem, each a block of runs per side\n"
                "in alternating order (a block's fastest run counts); ratio = direct / backend per round: median\n"
                "[inter-quartile range] (budget: median >= 0.90; fp16 / bf16 \"vs fp32\": the backend in that\n"
                "type, staged through f32 where oneDNN has no kernels, against oneDNN direct in fp32: >= 0.85).\n"
                "Times: medians of the block minima. oneDNN's effective ISA: %s.\n\n",
                v->major, v->minor, v->patch, omp ? omp : "(unset)", rounds, isaName().c_str());
    std::printf("%-50s %9s %10s %11s %6s %13s %6s %11s %8s\n", "problem", "direct ms", "backend ms", "backend", "ratio",
                "[q1, q3]", "block", "ref ms", "speed-up");

    std::vector<Case> cases{convFwd(false),
                            convBwdData(),
                            convBwdWeights(),
                            matmul("float", 1024, 1024, 1024),
                            matmul("bfloat16", 1024, 1024, 1024),
                            convFwd(true),
                            layernorm(4096, 1024),
                            rmsnorm(4096, 1024),
                            // fp16 (staged through f32: oneDNN 2.6 has no CPU fp16 kernels) and bf16
                            // (native with AVX-512 BF16, staged under ONEDNN_MAX_CPU_ISA=AVX2)
                            // against the same problem in fp32 through oneDNN directly.
                            versus(convFwd(false), "half"),
                            versus(matmul("float", 1024, 1024, 1024), "half"),
                            versus(layernorm(4096, 1024), "half"),
                            versus(rmsnorm(4096, 1024), "half"),
                            versus(convFwd(false), "bfloat16"),
                            versus(matmul("float", 1024, 1024, 1024), "bfloat16"),
                            // SDPA for training (the direct side: its own primitive sequence)
                            sdpaFwdStats(2, 8, 512, 64),
                            sdpaBwd(2, 8, 512, 64),
                            versus(sdpaFwdStats(2, 8, 512, 64), "bfloat16"),
                            versus(sdpaBwd(2, 8, 512, 64), "bfloat16")};
    int missed = 0, notRun = 0;
    std::vector<std::string> implLines;
    for(const Case& c : cases)
    {
        if(!only.empty() && c.name.find(only) == std::string::npos)
            continue;
        Buffers bufs(c.tensors);
        const std::vector<T> backendTensors = c.versus.empty() ? c.tensors : retyped(c.tensors, c.versus);
        Buffers backendBufs(backendTensors);
        Buffers& bb = c.versus.empty() ? bufs : backendBufs;
        const std::string json =
            graphJson("bench", c.versus.empty() ? c.io : c.versus, backendTensors, c.nodes, c.extraTensors);
        Direct direct;
        std::string directError, backendError;
        try
        {
            c.direct(direct, bufs);
        }
        catch(const dnnl::error& e)
        {
            directError = e.what();
        }
        {
            const std::lock_guard<std::mutex> lock(gLogMu);
            gLog.clear();
        }
        std::unique_ptr<BackendRun> run;
        hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO);
        try
        {
            run = std::make_unique<BackendRun>(handle, json, "HIPDNNGO_ONEDNN", bb, backendTensors);
        }
        catch(const std::exception& e)
        {
            const std::string why = loggedAfter("not applicable: ");
            backendError = why.empty() ? e.what() : why;
        }
        hipdnnBackendSetGlobalLogLevel_ext(userLevel);
        if(!run || !directError.empty())
        {
            // Neither side has it (oneDNN lacks the kernels on this CPU): no figure. Only one
            // side: a figure the backend cannot deliver counts as missed.
            const bool backendOnlyMissing = !run && directError.empty();
            missed += backendOnlyMissing ? 1 : 0;
            ++notRun;
            std::printf("%-50s not measured: %s%s%s%s\n", c.name.c_str(),
                        directError.empty() ? "" : ("oneDNN direct: " + directError).c_str(),
                        !directError.empty() && !backendError.empty() ? "; " : "",
                        backendError.empty() ? "" : ("HIPDNNGO_ONEDNN: " + backendError).c_str(),
                        backendOnlyMissing ? "  BUDGET MISSED" : "");
            std::fflush(stdout);
            continue;
        }
        // Both sides must run the same oneDNN implementations in the same order (a problem in
        // another type, or another problem: listed only).
        const std::string context = loggedAfter("execution context: ");
        const std::vector<std::string> backendImpls = implsOf(context);
        const bool compared = c.versus.empty() && c.directName.empty();
        const bool sameImpls = !compared || backendImpls == direct.impls;
        const std::string staging = context.rfind("[", 0) == 0 ? context.substr(1, context.find("] ") - 1) : "native";
        implLines.push_back(c.name + ": "
                            + (!compared ? "direct " + (c.directName.empty() ? "" : "(" + c.directName + ") ")
                                               + joined(direct.impls) + "; backend " + joined(backendImpls) + " (" + staging
                                               + ")"
                               : sameImpls ? "both " + joined(direct.impls)
                                           : "DIFFERENT: direct " + joined(direct.impls) + "; backend " + joined(backendImpls)));

        const Figure f = measure(direct, *run, rounds);
        std::string refMs = "-", speedup = "-";
        if(reference)
        {
            BackendRun ref(handle, json, "HIPDNNGO_CPU_REFERENCE", bb, backendTensors);
            const double tr = onceMs([&] { ref.execute(); });
            char b1[32], b2[32];
            std::snprintf(b1, sizeof b1, "%.1f", tr);
            std::snprintf(b2, sizeof b2, "%.1fx", tr / f.backendMs);
            refMs = b1;
            speedup = b2;
        }
        const double budget = c.versus.empty() ? kBudget : kStagedBudget;
        const bool ok = f.ratio >= budget && sameImpls;
        missed += ok ? 0 : 1;
        char rate[32], spread[32];
        if(c.gflop > 0)
            std::snprintf(rate, sizeof rate, "%.1f GF/s", c.gflop / (f.backendMs * 1e-3));
        else
            std::snprintf(rate, sizeof rate, "%.1f GB/s", c.bytes * 1e-9 / (f.backendMs * 1e-3));
        std::snprintf(spread, sizeof spread, "[%.2f, %.2f]", f.q1, f.q3);
        std::printf("%-50s %9.3f %10.3f %11s %5.2fx %13s %6d %11s %8s%s\n", c.name.c_str(), f.directMs, f.backendMs, rate,
                    f.ratio, spread, f.block, refMs.c_str(), speedup.c_str(),
                    ok          ? ""
                    : sameImpls ? "  BUDGET MISSED"
                                : "  DIFFERENT IMPLEMENTATIONS");
        std::fflush(stdout);
    }
    hipdnnSetUserLogCallback_ext(captureLog, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &logTag);
    hipdnnDestroy(handle);
    std::printf("\noneDNN implementations (direct and backend, in step order):\n");
    for(const std::string& l : implLines)
        std::printf("  %s\n", l.c_str());
    std::printf("\n%s%s\n",
                missed ? "some figures are below their budget or run other implementations"
                       : "all measured figures within budget (median >= 0.90x of oneDNN direct, 0.85x staged vs fp32)",
                notRun ? "; some problems not measured (see above)" : "");
    return missed ? 1 : 0;
}
