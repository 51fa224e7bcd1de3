// mha_bench.cpp - device time of PyTorch's cuDNN attention on hipDNN, for issue 23's speed
// criterion: the same shapes as tests/mha/bench_torch.py times through PyTorch's own cuDNN
// attention, in PyTorch's layout (BSHD storage seen as [b, h, s, d]).
//
// Paths, as in mha_driver.cpp:
//   - "graph": the driver's graphs (mha_graphs.h, MHA.cpp's node settings), built once, executed;
//   - "aten":  MHA.cpp's entry points run_cudnn_SDP_fprop / run_cudnn_SDP_bprop (built with
//              MHA_DRIVER_ENTRY_POINTS and linked with a fetched MHA.cpp), whose own graph cache
//              makes every call after the first a lookup and an execute.
// Passes: fwd (inference, no stats), fwd_train (with stats), bwd. Each is timed with CUDA events
// around a batch of calls on the handle's stream; rounds rotate the order of the paths, and the
// figure is the median round. One line per figure:
//   BENCH shape=<name> path=<graph|aten> pass=<fwd|fwd_train|bwd> ms=<median per call>
//
//   mha_bench [--path graph|aten|both] [--rounds R] [--iters N] [--only SUBSTRING] [--all-plans] [--quick]
// --quick runs one small shape a few times (the fake-CUDA smoke test in make test); --all-plans
// also times every candidate plan of the graphs (path=graph#k).
#ifndef MHA_STANDIN_CUDA
#error "mha_bench times device memory: build it with MHA_STANDIN_CUDA (real CUDA, or tests/shim/fake_cuda)"
#endif
#include <ATen/ATen.h>
#include <ATen/cudnn/Utils.h>
#ifdef MHA_DRIVER_ENTRY_POINTS
#include <ATen/native/cudnn/MHA.h>
#endif

#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "mha_graphs.h"

using namespace mha;

namespace {

struct Shape {
    const char* name;
    int64_t b, h, s, d;
    bool causal, bf16;
};

// The shapes of bench_torch.py (keep the two lists equal).
const std::vector<Shape> kShapes = {
    {"b2_h16_s4096_d128_bf16_causal", 2, 16, 4096, 128, true, true},
    {"b2_h16_s4096_d128_bf16", 2, 16, 4096, 128, false, true},
    {"b4_h32_s2048_d64_bf16_causal", 4, 32, 2048, 64, true, true},
    {"b8_h16_s1024_d64_fp16", 8, 16, 1024, 64, false, false},
};
const Shape kQuick = {"b1_h2_s64_d32_fp16_causal", 1, 2, 64, 32, true, false};

[[noreturn]] void
die(std::string const& msg) {
    std::fprintf(stderr, "mha_bench: %s\n", msg.c_str());
    std::exit(1);
}

// bshd: a [b, h, s, d] view of [b, s, h, d] storage with random I/O-type values in [-1, 1).
at::Tensor
bshd(Shape const& sh, std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<uint16_t> raw(static_cast<size_t>(sh.b * sh.s * sh.h * sh.d));
    for (auto& x : raw) x = toIo(u(rng), sh.bf16);
    at::Tensor flat = at::empty({static_cast<int64_t>(raw.size())}, at::TensorOptions{sh.bf16 ? at::kBFloat16 : at::kHalf});
    at::copyFromHost(flat.data_ptr(), raw.data(), raw.size() * 2);
    return flat.as_strided({sh.b, sh.h, sh.s, sh.d}, {sh.s * sh.h * sh.d, sh.d, sh.h * sh.d, 1}, 0);
}

struct Timer {
    cudaEvent_t a = nullptr, b = nullptr;
    Timer() {
        if (cudaEventCreate(&a) != cudaSuccess || cudaEventCreate(&b) != cudaSuccess) die("cudaEventCreate failed");
    }
    ~Timer() { cudaEventDestroy(a), cudaEventDestroy(b); }
    // ms: device time per call of `iters` calls of f on the default stream (the handle's).
    double ms(int iters, std::function<void()> const& f) {
        cudaEventRecord(a, nullptr);
        for (int i = 0; i < iters; ++i) f();
        cudaEventRecord(b, nullptr);
        cudaEventSynchronize(b);
        float t = 0;
        cudaEventElapsedTime(&t, a, b);
        return static_cast<double>(t) / iters;
    }
};

double
median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

struct Path {
    std::string path, pass;
    std::function<void()> call;
    std::vector<double> ms;
};

void
check(fe::error_t e, std::string const& what) {
    if (!e.is_good()) die(what + ": " + e.get_message());
}

void
benchShape(Shape const& sh, std::string const& which, int rounds, int iters, bool allPlans) {
    std::mt19937 rng(7);
    cudnnHandle_t h = at::native::getCudnnHandle();
    Case c;
    c.name = sh.name, c.bf16 = sh.bf16, c.causal = sh.causal, c.bshd = true;
    c.b = sh.b, c.hq = c.hk = c.hv = sh.h, c.sq = c.skv = sh.s, c.d = c.dv = sh.d;
    c.scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(sh.d)));
    at::Tensor q = bshd(sh, rng), k = bshd(sh, rng), v = bshd(sh, rng), o = bshd(sh, rng), dO = bshd(sh, rng);
    at::Tensor dq = at::empty_like(q), dk = at::empty_like(k), dv = at::empty_like(v);
    at::Tensor stats = at::empty({sh.b, sh.h, sh.s, 1}, at::TensorOptions{at::kFloat});
    std::vector<Path> paths;

    // graph: forward inference, forward with stats, backward (which reads the trained forward's O
    // and stats, so its numbers are those of a real step).
    Case inf = c, train = c, bwd = c;
    inf.stats = false, bwd.backward = true;
    auto gInf = newGraph(inf), gTrain = newGraph(train), gBwd = newGraph(bwd);
    Tensors tsInf, tsTrain, tsBwd;
    tsInf.scale = tsTrain.scale = tsBwd.scale = c.scale;
    tsInf.t     = {{kQ, q}, {kK, k}, {kV, v}, {kO, o}};
    tsTrain.t   = {{kQ, q}, {kK, k}, {kV, v}, {kO, o}, {kStats, stats}};
    tsBwd.t     = {{kQ, q}, {kK, k}, {kV, v}, {kO, o}, {kdO, dO}, {kStats, stats}, {kdQ, dq}, {kdK, dk}, {kdV, dv}};
    if (which != "aten") {
        check(buildForward(*gInf, inf, tsInf, h), std::string(sh.name) + " graph fwd build");
        check(buildForward(*gTrain, train, tsTrain, h), std::string(sh.name) + " graph fwd_train build");
        check(buildBackward(*gBwd, bwd, tsBwd, h), std::string(sh.name) + " graph bwd build");
        auto exec = [h](std::shared_ptr<fe::graph::Graph> g, Tensors* ts, std::string what) {
            return [h, g, ts, what] { check(execute(*g, *ts, h), what); };
        };
        paths.push_back({"graph", "fwd", exec(gInf, &tsInf, "graph fwd execute"), {}});
        paths.push_back({"graph", "fwd_train", exec(gTrain, &tsTrain, "graph fwd_train execute"), {}});
        paths.push_back({"graph", "bwd", exec(gBwd, &tsBwd, "graph bwd execute"), {}});
        if (allPlans) {
            // Every candidate the engines offer (the cuDNN engine: each of cuDNN's configs),
            // as path graph#k: shows what the default choice leaves on the table.
            for (auto [g, ts, pass] : {std::tuple{gInf, &tsInf, "fwd"}, {gTrain, &tsTrain, "fwd_train"}, {gBwd, &tsBwd, "bwd"}}) {
                check(g->build_plans(fe::BuildPlanPolicy_t::ALL), std::string(sh.name) + " build_plans(ALL)");
                for (int64_t k = 0; k < g->get_execution_plan_count(); ++k) {
                    auto run = [h, g = g, ts = ts, k] { return execute(*g, *ts, h, k); };
                    if (run().is_good()) paths.push_back({"graph#" + std::to_string(k), pass, [run] { check(run(), "execute_plan_at_index"); }, {}});
                }
            }
        }
    }
#ifdef MHA_DRIVER_ENTRY_POINTS
    at::Tensor seed = at::detail::fromInt64({1234}, {1}, at::kLong), offset = at::detail::fromInt64({0}, {1}, at::kLong);
    if (which != "graph") {
        // o and stats stay allocated across calls, as PyTorch's caching allocator makes them free.
        auto fwd = [=](bool training) mutable {
            return [=]() mutable {
                at::native::run_cudnn_SDP_fprop(c.b, c.hq, c.sq, c.skv, c.d, c.dv, c.scale, training, c.causal, 0.0, q, k, v,
                                                std::nullopt, stats, o, seed, offset);
            };
        };
        paths.push_back({"aten", "fwd", fwd(false), {}});
        paths.push_back({"aten", "fwd_train", fwd(true), {}});
        paths.push_back({"aten", "bwd",
                         [=]() mutable {
                             at::native::run_cudnn_SDP_bprop(c.b, c.hq, c.sq, c.skv, c.d, c.dv, c.scale, c.causal, 0.0f, q, k,
                                                             v, std::nullopt, o, dO, stats, dq, dk, dv, seed, offset);
                         },
                         {}});
    }
#endif
    if (paths.empty()) die("--path " + which + ": nothing to time in this build");
    Timer timer;
    for (auto& p : paths) p.call();  // first calls: plan builds (aten: its graph cache) and warm-up
    if (cudaDeviceSynchronize() != cudaSuccess) die("warm-up failed on the device");
    for (int r = 0; r < rounds; ++r)
        for (size_t i = 0; i < paths.size(); ++i) {
            Path& p = paths[(i + static_cast<size_t>(r)) % paths.size()];
            p.ms.push_back(timer.ms(iters, p.call));
        }
    if (cudaDeviceSynchronize() != cudaSuccess) die("a timed call failed on the device");
    for (auto& p : paths)
        std::printf("BENCH shape=%s path=%s pass=%s ms=%.5f\n", sh.name, p.path.c_str(), p.pass.c_str(), median(p.ms));
}

}  // namespace

// benchMain: the program, called by main or, in the shared-library build (MHA_BENCH_SHARED,
// bench_inprocess.py), by mha_bench_run from a Python process that times PyTorch's side too.
static int
benchMain(int argc, char** argv) {
    std::string which = "graph";
#ifdef MHA_DRIVER_ENTRY_POINTS
    which = "both";
#endif
    int rounds = 9, iters = 10;
    bool quick = false, allPlans = false;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--path" && i + 1 < argc) which = argv[++i];
        else if (a == "--rounds" && i + 1 < argc) rounds = std::max(1, std::atoi(argv[++i]));
        else if (a == "--iters" && i + 1 < argc) iters = std::max(1, std::atoi(argv[++i]));
        else if (a == "--only" && i + 1 < argc) only = argv[++i];
        else if (a == "--quick") quick = true;
        else if (a == "--all-plans") allPlans = true;
        else {
            std::fprintf(stderr, "usage: %s [--path graph|aten|both] [--rounds R] [--iters N] [--only SUBSTRING] [--all-plans] [--quick]\n", argv[0]);
            return 2;
        }
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    at::zeroNewTensors() = false;  // PyTorch's empty() leaves memory as it is
    try {
        if (quick) benchShape(kQuick, which, 2, 2, allPlans);
        else
            for (Shape const& s : kShapes)
                if (only.empty() || std::string(s.name).find(only) != std::string::npos) benchShape(s, which, rounds, iters, allPlans);
    } catch (std::exception const& e) {
        die(e.what());
    }
    return 0;
}

#ifdef MHA_BENCH_SHARED
extern "C" __attribute__((visibility("default"))) int
mha_bench_run(int argc, char** argv) {
    return benchMain(argc, argv);
}
#else
int
main(int argc, char** argv) {
    return benchMain(argc, argv);
}
#endif
