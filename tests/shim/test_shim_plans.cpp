// Plan selection through the shim on the CPU engines: engine enumeration
// (get_engine_count, get_knobs_for_engine, create_execution_plan by index), autotune ordering the
// plans by measured time, build_plan_at_index choosing the plan execute() runs, and dynamic-shape
// graphs sharing a kernel cache.
#include "shim_test.h"

#include <algorithm>
#include <chrono>

namespace {

using EC = fe::error_code_t;

// A 3x3 convolution, fp32 NCHW [1, 64, 32, 32] -> [1, 64, 32, 32], pad 1: the reference engine
// takes about 5 ms, more than a preempted oneDNN run, and oneDNN about a tenth of that, so
// autotune's order is not a coin toss.
const int64_t C = 64, K = 64, H = 32, W = 32;

struct ConvGraph {
    fe::graph::Graph g;
    std::shared_ptr<fe::graph::Tensor_attributes> X, Wt, Y;
    std::vector<float> x, w, y;
    std::vector<double> want;
    ConvGraph() : x(C * H * W), w(K * C * 9), y(K * H * W), want(K * H * W) {
        g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        X  = st_tensor(g, "X", {1, C, H, W});
        Wt = st_tensor(g, "W", {K, C, 3, 3});
        Y  = g.conv_fprop(X, Wt, fe::graph::Conv_fprop_attributes().set_name("conv").set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1}));
        Y->set_output(true).set_stride(st_packed({1, K, H, W}));
        st_fill(x, 11);
        st_fill(w, 12);
        for (int64_t k = 0; k < K; ++k)
            for (int64_t h = 0; h < H; ++h)
                for (int64_t q = 0; q < W; ++q) {
                    double acc = 0;
                    for (int64_t c = 0; c < C; ++c)
                        for (int64_t r = 0; r < 3; ++r)
                            for (int64_t s = 0; s < 3; ++s) {
                                int64_t hh = h - 1 + r, ww = q - 1 + s;
                                if (hh < 0 || hh >= H || ww < 0 || ww >= W) continue;
                                acc += double(x[(c * H + hh) * W + ww]) * w[((k * C + c) * 3 + r) * 3 + s];
                            }
                    want[(k * H + h) * W + q] = acc;
                }
    }
    Binding binding() { return Binding{{X, x.data()}, {Wt, w.data()}, {Y, y.data()}}; }
};

std::vector<std::string>
plan_names(fe::graph::Graph& g) {
    std::vector<std::string> out;
    for (int64_t i = 0; i < g.get_execution_plan_count(); ++i) {
        std::string n;
        CHECK_FE_OK(g.get_plan_name_at_index(i, n));
        out.push_back(n);
    }
    return out;
}

// engines: the engine range is hipDNN's applicable engines; create_execution_plan takes an index
// of it (here in reverse order) and refuses cuDNN knobs.
void
engines() {
    ConvGraph a;
    int64_t count = -1;
    CHECK_FE_ERR(EC::GRAPH_EXECUTION_PLAN_CREATION_FAILED, "get_engine_count: call build_operation_graph first", a.g.get_engine_count(count));
    CHECK_FE_OK(a.g.validate());
    CHECK_FE_OK(a.g.build_operation_graph(st_handle()));
    CHECK_FE_OK(a.g.get_engine_count(count));
    CHECK(count >= 2);  // the oneDNN and reference engines both take an fp32 conv
    std::vector<fe::Knob> knobs{fe::Knob(fe::KnobType_t::TILE_SIZE, 4, 1, 1)};
    CHECK_FE_OK(a.g.get_knobs_for_engine(0, knobs));
    CHECK(knobs.empty());
    CHECK_FE_ERR(EC::INVALID_VALUE, "get_knobs_for_engine: engine 99 is out of range [0, ", a.g.get_knobs_for_engine(99, knobs));
    CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "create_execution_plan: knob type 2 has no counterpart",
                 a.g.create_execution_plan(0, {{fe::KnobType_t::TILE_SIZE, 1}}));
    for (int64_t id = count - 1; id >= 0; --id) CHECK_FE_OK(a.g.create_execution_plan(id, {}));
    CHECK(a.g.get_execution_plan_count() == count);
    CHECK_FE_OK(a.g.check_support());
    CHECK_FE_OK(a.g.build_plans(fe::BuildPlanPolicy_t::ALL));
    auto reversed = plan_names(a.g);
    // The same graph planned by the heuristic lists the engines the other way round.
    ConvGraph b;
    if (!st_build(b.g, "heuristic order")) return;
    auto ranked = plan_names(b.g);
    std::reverse(reversed.begin(), reversed.end());
    CHECK(reversed == ranked);
    Binding bind = a.binding();
    st_run_all(a.g, bind, "plans by engine index", [&](std::string const& e) { st_close("conv", e, a.y, a.want); });
}

// autotune: with the slow engine's plan first, autotune puts the fast one first and execute()
// uses it.
void
autotune() {
    ConvGraph a;
    std::unordered_map<int64_t, void*> none;
    CHECK_FE_OK(a.g.validate());
    CHECK_FE_OK(a.g.build_operation_graph(st_handle()));
    int64_t count = 0;
    CHECK_FE_OK(a.g.get_engine_count(count));
    std::vector<std::string> names;
    CHECK_FE_ERR(EC::GRAPH_EXECUTION_FAILED, "autotune: no built plan executed", a.g.autotune(st_handle(), none, nullptr));
    for (int64_t id = 0; id < count; ++id) CHECK_FE_OK(a.g.create_execution_plan(id, {}));
    CHECK_FE_OK(a.g.build_plans(fe::BuildPlanPolicy_t::ALL));
    names = plan_names(a.g);
    auto onednn = std::find(names.begin(), names.end(), "HIPDNNGO_ONEDNN");
    auto ref    = std::find(names.begin(), names.end(), "HIPDNNGO_CPU_REFERENCE");
    if (onednn == names.end() || ref == names.end()) {
        CHECK_FAIL("autotune needs both CPU engines; plans are on %zu engines", names.size());
        return;
    }
    // Rebuild with the reference engine's plan first, so autotune has to move the oneDNN one up.
    ConvGraph b;
    CHECK_FE_OK(b.g.validate());
    CHECK_FE_OK(b.g.build_operation_graph(st_handle()));
    CHECK_FE_OK(b.g.create_execution_plan(ref - names.begin(), {}));
    CHECK_FE_OK(b.g.create_execution_plan(onednn - names.begin(), {}));
    CHECK_FE_OK(b.g.build_plans(fe::BuildPlanPolicy_t::ALL));
    CHECK(plan_names(b.g) == (std::vector<std::string>{"HIPDNNGO_CPU_REFERENCE", "HIPDNNGO_ONEDNN"}));
    std::string chosen;
    CHECK_FE_OK(b.g.get_plan_name(chosen));
    CHECK(chosen == "HIPDNNGO_CPU_REFERENCE");
    int64_t ws = b.g.get_autotune_workspace_size();
    std::vector<unsigned char> workspace(static_cast<size_t>(ws) + 16);
    std::unordered_map<int64_t, void*> by_uid{{b.X->get_uid(), b.x.data()}, {b.Wt->get_uid(), b.w.data()}, {b.Y->get_uid(), b.y.data()}};
    // Timing on a loaded 2-core machine (ctest -j, ASan) can be preempted: a few tries, each of
    // which times both plans afresh, before calling the order wrong.
    for (int attempt = 0; attempt < 3; ++attempt) {
        CHECK_FE_OK(b.g.autotune(st_handle(), by_uid, workspace.data()));
        if (plan_names(b.g).front() == "HIPDNNGO_ONEDNN") break;
    }
    if (plan_names(b.g) != std::vector<std::string>{"HIPDNNGO_ONEDNN", "HIPDNNGO_CPU_REFERENCE"}) {
        // Say what this machine measures, so a failure tells a wrong order from a slow oneDNN.
        std::string times;
        for (int64_t i = 0; i < 2; ++i) {
            auto t0 = std::chrono::steady_clock::now();
            CHECK_FE_OK(b.g.execute_plan_at_index(st_handle(), by_uid, workspace.data(), i));
            times += plan_names(b.g)[i] + " " + std::to_string(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count()) + " ms; ";
        }
        CHECK_FAIL("autotune left %s first; one more run of each here: %s", plan_names(b.g).front().c_str(), times.c_str());
    }
    CHECK_FE_OK(b.g.get_plan_name(chosen));
    CHECK(chosen == "HIPDNNGO_ONEDNN");
    std::fill(b.y.begin(), b.y.end(), 0.f);
    Binding bind = b.binding();
    CHECK_FE_OK(b.g.execute(st_handle(), bind, workspace.data()));
    st_close("conv after autotune", chosen, b.y, b.want);
}

// build_plan_at_index: as upstream, the plan built last is the one execute() runs (NVIDIA's
// autotuning sample times the plans itself, builds its pick and executes with that plan's
// workspace).
void
build_at_index() {
    ConvGraph a;
    if (!st_build(a.g, "build_plan_at_index")) return;
    CHECK_FE_OK(a.g.build_plans(fe::BuildPlanPolicy_t::ALL));
    std::vector<std::string> names = plan_names(a.g);
    if (names.size() < 2) {
        CHECK_FAIL("build_plan_at_index needs two plans; the graph has %zu", names.size());
        return;
    }
    std::unordered_map<int64_t, void*> by_uid{{a.X->get_uid(), a.x.data()}, {a.Wt->get_uid(), a.w.data()}, {a.Y->get_uid(), a.y.data()}};
    for (int64_t pick : {int64_t{1}, int64_t{0}, int64_t{1}}) {
        CHECK_FE_OK(a.g.build_plan_at_index(pick));
        std::string chosen;
        CHECK_FE_OK(a.g.get_plan_name(chosen));
        CHECK(chosen == names[static_cast<size_t>(pick)]);
        int64_t ws = -1;
        CHECK_FE_OK(a.g.get_workspace_size_plan_at_index(pick, ws));
        std::vector<unsigned char> workspace(static_cast<size_t>(std::max<int64_t>(ws, 0)));
        std::fill(a.y.begin(), a.y.end(), 0.f);
        CHECK_FE_OK(a.g.execute(st_handle(), by_uid, ws > 0 ? workspace.data() : nullptr));
        st_close("conv after build_plan_at_index", chosen, a.y, a.want);
    }
}

// dynamic shapes: graphs of several shapes with dynamic shapes on and one kernel cache each
// build and compute their own shape.
void
dynamic_shapes() {
    auto cache = std::make_shared<fe::KernelCache>();
    CHECK(!cache->is_finalized());
    std::string json;
    CHECK_FE_ERR(EC::GRAPH_NOT_SUPPORTED, "KernelCache::to_json: hipDNN keeps no compiled kernels", cache->to_json(json));
    for (int64_t rows : {2, 5, 9}) {
        fe::graph::Graph g;
        g.set_io_data_type(fe::DataType_t::FLOAT).set_compute_data_type(fe::DataType_t::FLOAT);
        g.set_dynamic_shape_enabled(true).set_kernel_cache(cache);
        auto A = st_tensor(g, "A", {rows, 3});
        auto B = st_tensor(g, "B", {rows, 3});
        auto Y = g.pointwise(A, B, fe::graph::Pointwise_attributes().set_name("mul").set_mode(fe::PointwiseMode_t::MUL));
        Y->set_output(true);
        if (!st_build(g, "dynamic shape")) return;
        CHECK(cache->is_finalized());
        std::vector<float> a(rows * 3), b(rows * 3), y(rows * 3);
        st_fill(a, 21);
        st_fill(b, 22);
        std::vector<double> want(y.size());
        for (size_t i = 0; i < y.size(); ++i) want[i] = double(a[i]) * b[i];
        Binding bind{{A, a.data()}, {B, b.data()}, {Y, y.data()}};
        st_run_all(g, bind, "dynamic shape", [&](std::string const& e) { st_close("dynamic shape", e, y, want); });
    }
    CHECK(cache->build_count() == 3);
}

}  // namespace

int
main() {
    engines();
    autotune();
    build_at_index();
    dynamic_shapes();
    return st_finish("test_shim_plans");
}
