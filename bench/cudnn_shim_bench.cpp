// hipdnn-cudnn-shim-bench: the cuDNN-frontend shim's overhead against the same work done
// directly through the backend C API, in one run.
//   (no argument)  on the no-op engine, so the engine's own time does not hide the layer's:
//                  build (validate .. build_plans against descriptors, graph, heuristic, config
//                  and plan made by hand) and execute (Graph::execute with a repeated tensor map
//                  against hipdnnBackendExecute of a prepared plan and pack);
//   conv           a 3x3 convolution built on the installed engines (HIPDNN_PLUGIN_DIR), where a
//                  build does what a real program's build does.
// RFC 0012's budget: < 1 % added to build, < 1 us added per execute. On the no-op engine a build
// is nothing but descriptor traffic (tens of us), so the layer's own C++ work shows there as a
// ratio and is reported in us; the conv figure is the one the build budget is checked on.
#include <cudnn_frontend.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace fe = cudnn_frontend;
using Clock = std::chrono::steady_clock;
using Dims  = std::vector<int64_t>;

namespace {

void
die(const char* what) {
    char msg[512];
    hipdnnGetLastErrorString(msg, sizeof msg);
    std::fprintf(stderr, "hipdnn-cudnn-shim-bench: %s failed: %s\n", what, msg);
    std::exit(2);
}

#define OK(call) \
    if ((call) != HIPDNN_STATUS_SUCCESS) die(#call)

// Direct is a plan built by hand through the C API; it owns every descriptor it made.
struct Direct {
    std::vector<hipdnnBackendDescriptor_t> owned;
    hipdnnBackendDescriptor_t plan = nullptr;

    Direct()              = default;
    Direct(Direct const&) = delete;
    Direct& operator=(Direct const&) = delete;
    ~Direct() {
        for (auto it = owned.rbegin(); it != owned.rend(); ++it) hipdnnBackendDestroyDescriptor(*it);
    }

    hipdnnBackendDescriptor_t
    make(hipdnnBackendDescriptorType_t kind) {
        hipdnnBackendDescriptor_t d = nullptr;
        OK(hipdnnBackendCreateDescriptor(kind, &d));
        owned.push_back(d);
        return d;
    }

    hipdnnBackendDescriptor_t
    tensor(int64_t uid, Dims const& dims, Dims const& strides) {
        auto t              = make(HIPDNN_BACKEND_TENSOR_DESCRIPTOR);
        hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
        bool virt           = false;
        auto n              = static_cast<int64_t>(dims.size());
        OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
        OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
        OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, n, dims.data()));
        OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, n, strides.data()));
        OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt));
        OK(hipdnnBackendFinalize(t));
        return t;
    }

    // finish makes the graph of `op` and the plan of the heuristic's first config.
    void
    finish(hipdnnHandle_t h, hipdnnBackendDescriptor_t op) {
        auto graph = make(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
        OK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &op));
        OK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h));
        OK(hipdnnBackendFinalize(graph));
        auto heur                  = make(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
        hipdnnBackendHeurMode_t hm = HIPDNN_HEUR_MODE_FALLBACK;
        OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph));
        OK(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &hm));
        OK(hipdnnBackendFinalize(heur));
        auto cfg  = make(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR);
        int64_t n = 0;
        OK(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &cfg));
        OK(hipdnnBackendFinalize(cfg));
        plan = make(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
        OK(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg));
        OK(hipdnnBackendFinalize(plan));
    }
};

// The two graphs, each built both ways. add: C = A + B on [8, 64] (no-op engine). conv: a
// ResNet-style 3x3 layer, fp32 NHWC, x [1, 64, 28, 28], w [64, 64, 3, 3], padding 1.
const Dims ADD_DIM = {8, 64}, ADD_STRIDE = {64, 1};
const Dims X_DIM = {1, 64, 28, 28}, X_STRIDE = {64 * 28 * 28, 1, 28 * 64, 64};
const Dims W_DIM = {64, 64, 3, 3}, W_STRIDE = {64 * 9, 1, 3 * 64, 64};

void
direct_add(hipdnnHandle_t h, Direct& d) {
    hipdnnBackendDescriptor_t t[3];
    for (int i = 0; i < 3; ++i) t[i] = d.tensor(i + 1, ADD_DIM, ADD_STRIDE);
    auto op                    = d.make(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
    hipdnnPointwiseMode_t mode = HIPDNN_POINTWISE_ADD;
    hipdnnDataType_t prec      = HIPDNN_DATA_FLOAT;
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t[0]));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t[1]));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &t[2]));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec));
    OK(hipdnnBackendFinalize(op));
    d.finish(h, op);
}

void
direct_conv(hipdnnHandle_t h, Direct& d) {
    auto x = d.tensor(1, X_DIM, X_STRIDE), w = d.tensor(2, W_DIM, W_STRIDE), y = d.tensor(3, X_DIM, X_STRIDE);
    auto op                      = d.make(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
    int64_t pad[2]               = {1, 1}, one[2] = {1, 1};
    hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
    hipdnnDataType_t compute     = HIPDNN_DATA_FLOAT;
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &w));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, pad));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, pad));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, 2, one));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, 2, one));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &mode));
    OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &compute));
    OK(hipdnnBackendFinalize(op));
    d.finish(h, op);
}

using TensorPtr = std::shared_ptr<fe::graph::Tensor_attributes>;

// Shim is the same graph written as cudnn-frontend code.
struct Shim {
    fe::graph::Graph g;
    TensorPtr in0, in1, out;

    void
    build(cudnnHandle_t h) {
        out->set_output(true);
        auto e = g.build(h, {fe::HeurMode_t::A});
        if (e.is_bad()) {
            std::fprintf(stderr, "hipdnn-cudnn-shim-bench: shim build failed: %s\n", e.get_message().c_str());
            std::exit(2);
        }
    }
};

void
shim_add(cudnnHandle_t h, Shim& s) {
    s.g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    s.in0 = s.g.tensor(fe::graph::Tensor_attributes().set_name("A").set_dim(ADD_DIM).set_stride(ADD_STRIDE));
    s.in1 = s.g.tensor(fe::graph::Tensor_attributes().set_name("B").set_dim(ADD_DIM).set_stride(ADD_STRIDE));
    s.out = s.g.pointwise(s.in0, s.in1, fe::graph::Pointwise_attributes().set_mode(fe::PointwiseMode_t::ADD));
    s.build(h);
}

void
shim_conv(cudnnHandle_t h, Shim& s) {
    s.g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
    s.in0 = s.g.tensor(fe::graph::Tensor_attributes().set_name("X").set_dim(X_DIM).set_stride(X_STRIDE));
    s.in1 = s.g.tensor(fe::graph::Tensor_attributes().set_name("W").set_dim(W_DIM).set_stride(W_STRIDE));
    s.out = s.g.conv_fprop(s.in0, s.in1,
                           fe::graph::Conv_fprop_attributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
    s.build(h);
}

template <typename F>
double
ns_per(int iters, F&& f) {
    auto t0 = Clock::now();
    for (int i = 0; i < iters; ++i) f();
    return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / iters;
}

// BuildFigure times building (and destroying) the graph both ways: one untimed build each first
// (the first pays one-time costs: plugin state, caches), then interleaved rounds so drift hits
// both alike; the ratio is the median of the per-round ratios.
struct BuildFigure {
    double shim_us = 0, direct_us = 0, ratio = 0;
};

template <typename D, typename S>
BuildFigure
time_builds(hipdnnHandle_t h, int rounds, int per_round, D direct, S shim) {
    { Direct d; direct(h, d); Shim s; shim(h, s); }
    std::vector<double> ratios, shim_ns, direct_ns;
    for (int r = 0; r < rounds; ++r) {
        double dn = ns_per(per_round, [&] { Direct d; direct(h, d); });
        double sn = ns_per(per_round, [&] { Shim s; shim(h, s); });
        direct_ns.push_back(dn), shim_ns.push_back(sn), ratios.push_back(sn / dn);
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    return {median(shim_ns) / 1e3, median(direct_ns) / 1e3, median(ratios)};
}

int
bench_noop(hipdnnHandle_t h) {
    auto b = time_builds(h, 9, 200, direct_add, shim_add);

    Direct d;
    direct_add(h, d);
    Shim s;
    shim_add(h, s);
    std::vector<float> a(512), bb(512), c(512);
    void* ptrs[3]   = {a.data(), bb.data(), c.data()};
    int64_t uids[3] = {1, 2, 3};
    hipdnnBackendDescriptor_t pack = nullptr;
    void* ws                       = nullptr;
    OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 3, ptrs));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 3, uids));
    OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws));
    OK(hipdnnBackendFinalize(pack));
    std::unordered_map<TensorPtr, void*> map{{s.in0, a.data()}, {s.in1, bb.data()}, {s.out, c.data()}};

    const int iters    = 200000;
    double direct_exec = 0, shim_exec = 0;
    for (int round = 0; round < 4; ++round) {
        direct_exec += ns_per(iters, [&] {
            if (hipdnnBackendExecute(h, d.plan, pack) != HIPDNN_STATUS_SUCCESS) die("hipdnnBackendExecute");
        });
        shim_exec += ns_per(iters, [&] {
            if (s.g.execute(h, map, nullptr).is_bad()) die("Graph::execute");
        });
    }
    direct_exec /= 4, shim_exec /= 4;
    double const added = shim_exec - direct_exec;
    std::printf("cuDNN-frontend shim overhead (no-op engine, C = A + B on [8, 64]):\n");
    std::printf("  build   : shim %.1f us, C API %.1f us: the shim's own work adds %.1f us per build (ratio %.3fx)\n",
                b.shim_us, b.direct_us, b.shim_us - b.direct_us, b.ratio);
    std::printf("  execute : shim %.0f ns, hipdnnBackendExecute %.0f ns, added %.0f ns per call (RFC budget < 1000 ns): %s\n",
                shim_exec, direct_exec, added, added < 1000 ? "within budget" : "OVER BUDGET");
    hipdnnBackendDestroyDescriptor(pack);
    return added < 1000 ? 0 : 1;
}

int
bench_conv(hipdnnHandle_t h) {
    auto b = time_builds(h, 15, 20, direct_conv, shim_conv);
    bool const ok = b.ratio < 1.01;
    std::printf("cuDNN-frontend shim build on the installed engines (3x3 conv, fp32 NHWC [1, 64, 28, 28]):\n");
    std::printf("  build   : shim %.1f us, C API %.1f us, ratio %.3fx (median of 15 rounds; RFC budget < 1.01x): %s\n",
                b.shim_us, b.direct_us, b.ratio, ok ? "within budget" : "OVER BUDGET");
    return ok ? 0 : 1;
}

}  // namespace

int
main(int argc, char** argv) {
    bool const conv = argc > 1 && std::strcmp(argv[1], "conv") == 0;
    if (!conv) {
        const char* plugin = BENCH_NOOP_PLUGIN;
        OK(hipdnnSetEnginePluginPaths_ext(1, &plugin, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    }
    hipdnnHandle_t h = nullptr;
    OK(hipdnnCreate(&h));
    int const rc = conv ? bench_conv(h) : bench_noop(h);
    hipdnnDestroy(h);
    return rc;
}
