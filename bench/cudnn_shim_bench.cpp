// hipdnn-cudnn-shim-bench: the cuDNN-frontend shim's overhead against the same work done
// directly through the backend C API, in one run, on the no-op engine (so the engine's own time
// does not hide the layer's): build (validate .. build_plans against descriptors, graph,
// heuristic, config and plan made by hand) as a ratio, and execute (Graph::execute with a
// repeated tensor map against hipdnnBackendExecute of a prepared plan and pack) as ns per call.
// RFC 0012's budget: < 1 % added to build, < 1 us added per execute; the figures are printed
// next to it (the execute budget decides the exit status).
#include <cudnn_frontend.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace fe = cudnn_frontend;
using Clock = std::chrono::steady_clock;

namespace {

const std::vector<int64_t> DIM = {8, 64}, STRIDE = {64, 1};

void
die(const char* what) {
    char msg[512];
    hipdnnGetLastErrorString(msg, sizeof msg);
    std::fprintf(stderr, "hipdnn-cudnn-shim-bench: %s failed: %s\n", what, msg);
    std::exit(2);
}

#define OK(call) \
    if ((call) != HIPDNN_STATUS_SUCCESS) die(#call)

// The direct build: what the shim lowers C = A + B to, by hand.
struct Direct {
    hipdnnBackendDescriptor_t t[3] = {}, op = nullptr, graph = nullptr, heur = nullptr, cfg = nullptr, plan = nullptr;

    explicit Direct(hipdnnHandle_t h) {
        for (int i = 0; i < 3; ++i) {
            OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &t[i]));
            int64_t uid = i + 1;
            hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
            bool virt = false;
            OK(hipdnnBackendSetAttribute(t[i], HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
            OK(hipdnnBackendSetAttribute(t[i], HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
            OK(hipdnnBackendSetAttribute(t[i], HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 2, DIM.data()));
            OK(hipdnnBackendSetAttribute(t[i], HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 2, STRIDE.data()));
            OK(hipdnnBackendSetAttribute(t[i], HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt));
            OK(hipdnnBackendFinalize(t[i]));
        }
        OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, &op));
        hipdnnPointwiseMode_t mode = HIPDNN_POINTWISE_ADD;
        hipdnnDataType_t prec = HIPDNN_DATA_FLOAT;
        OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t[0]));
        OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t[1]));
        OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t[2]));
        OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode));
        OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec));
        OK(hipdnnBackendFinalize(op));
        OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &graph));
        OK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &op));
        OK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
        OK(hipdnnBackendFinalize(graph));
        OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur));
        hipdnnBackendHeurMode_t hm = HIPDNN_HEUR_MODE_FALLBACK;
        OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph));
        OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &hm));
        OK(hipdnnBackendFinalize(heur));
        OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfg));
        int64_t n = 0;
        OK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &cfg));
        OK(hipdnnBackendFinalize(cfg));
        OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan));
        OK(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
        OK(hipdnnBackendFinalize(plan));
    }
    ~Direct() {
        for (auto d : {plan, cfg, heur, graph, op, t[0], t[1], t[2]})
            if (d) hipdnnBackendDestroyDescriptor(d);
    }
};

struct Shim {
    fe::graph::Graph g;
    std::shared_ptr<fe::graph::Tensor_attributes> A, B, C;

    explicit Shim(cudnnHandle_t h) {
        g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        A = g.tensor(fe::graph::Tensor_attributes().set_name("A").set_dim(DIM).set_stride(STRIDE));
        B = g.tensor(fe::graph::Tensor_attributes().set_name("B").set_dim(DIM).set_stride(STRIDE));
        C = g.pointwise(A, B, fe::graph::Pointwise_attributes().set_mode(fe::PointwiseMode_t::ADD));
        C->set_output(true);
        auto e = g.build(h, {fe::HeurMode_t::A});
        if (e.is_bad()) {
            std::fprintf(stderr, "hipdnn-cudnn-shim-bench: shim build failed: %s\n", e.get_message().c_str());
            std::exit(2);
        }
    }
};

template <typename F>
double
ns_per(int iters, F&& f) {
    auto t0 = Clock::now();
    for (int i = 0; i < iters; ++i) f();
    return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / iters;
}

}  // namespace

int
main() {
    const char* plugin = BENCH_NOOP_PLUGIN;
    OK(hipdnnSetEnginePluginPaths_ext(1, &plugin, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    hipdnnHandle_t h = nullptr;
    OK(hipdnnCreate(&h));

    // Build: one untimed round each first (the first build pays one-time costs: plugin state,
    // caches), then alternate the two in rounds so drift affects both alike.
    const int builds = 200;
    { Direct warm_d(h); Shim warm_s(h); }
    double direct_build = 0, shim_build = 0;
    for (int round = 0; round < 4; ++round) {
        direct_build += ns_per(builds, [&] { Direct d(h); });
        shim_build += ns_per(builds, [&] { Shim s(h); });
    }

    Direct d(h);
    Shim s(h);
    std::vector<float> a(512), b(512), c(512);
    void* ptrs[3] = {a.data(), b.data(), c.data()};
    int64_t uids[3] = {1, 2, 3};
    hipdnnBackendDescriptor_t pack = nullptr;
    void* ws = nullptr;
    OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 3, ptrs));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 3, uids));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws));
    OK(hipdnnBackendFinalize(pack));
    std::unordered_map<std::shared_ptr<fe::graph::Tensor_attributes>, void*> map{
        {s.A, a.data()}, {s.B, b.data()}, {s.C, c.data()}};

    const int iters = 200000;
    double direct_exec = 0, shim_exec = 0;
    for (int round = 0; round < 4; ++round) {
        direct_exec += ns_per(iters, [&] {
            if (hipdnnBackendExecute(h, d.plan, pack) != HIPDNN_STATUS_SUCCESS) die("hipdnnBackendExecute");
        });
        shim_exec += ns_per(iters, [&] {
            if (s.g.execute(h, map, nullptr).is_bad()) die("Graph::execute");
        });
    }
    direct_build /= 4, shim_build /= 4, direct_exec /= 4, shim_exec /= 4;
    double const added = shim_exec - direct_exec;
    std::printf("cuDNN-frontend shim overhead (no-op engine, C = A + B on [8, 64]):\n");
    std::printf("  build   : shim %.1f us, C API %.1f us, ratio %.3fx (RFC budget < 1.01x)\n", shim_build / 1e3,
                direct_build / 1e3, shim_build / direct_build);
    std::printf("  execute : shim %.0f ns, hipdnnBackendExecute %.0f ns, added %.0f ns per call (RFC budget < 1000 ns): %s\n",
                shim_exec, direct_exec, added, added < 1000 ? "within budget" : "OVER BUDGET");
    hipdnnBackendDestroyDescriptor(pack);
    hipdnnDestroy(h);
    return added < 1000 ? 0 : 1;
}
