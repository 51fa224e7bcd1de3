// shim_test.h - helpers the cuDNN-frontend shim tests share: checks that keep going and count
// failures, building a graph to its plans, running it on every CPU engine that accepts it, and
// comparing with a double-precision reference.
//
// Tests include only the shim's umbrella, as ported programs do; host memory stands in for
// device memory (the CPU engines run on it). Built with ST_DEVICE_MEMORY (tests/shim/gpu.sh, the
// real CUDA runtime) the node tests copy their buffers to the GPU and run the cuDNN engine's plan.
#pragma once

#include <cudnn_frontend.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace fe = cudnn_frontend;

// CHECK, CHECK_FAIL and the counters come from the tests' one assertion core.
#include "../common/check.h"

// CHECK_FE_OK(call): the frontend call must succeed.
#define CHECK_FE_OK(call)                                                                              \
    do {                                                                                               \
        check_count++;                                                                                 \
        auto st_e_ = (call);                                                                           \
        if (st_e_.is_bad())                                                                            \
            CHECK_FAIL("%s returned %s: %s", #call, fe::to_string(st_e_.code), st_e_.err_msg.c_str()); \
    } while (0)

// CHECK_FE_ERR(code, needle, call): the call must fail with `code` and a message containing
// `needle`, which says what was wrong.
#define CHECK_FE_ERR(want, needle, call)                                                                            \
    do {                                                                                                            \
        check_count++;                                                                                              \
        auto st_e_ = (call);                                                                                        \
        if (st_e_.code != (want))                                                                                   \
            CHECK_FAIL("%s returned %s (\"%s\"), want %s", #call, fe::to_string(st_e_.code), st_e_.err_msg.c_str(), \
                    fe::to_string(want));                                                                           \
        else if (st_e_.err_msg.find(needle) == std::string::npos)                                                   \
            CHECK_FAIL("%s: message \"%s\" does not contain \"%s\"", #call, st_e_.err_msg.c_str(), needle);         \
    } while (0)

// st_handle_slot holds the test's one handle, made on first use and destroyed by st_finish
// (a handle left alive leaks its engine plugins' per-handle state, which LeakSanitizer reports).
inline cudnnHandle_t&
st_handle_slot() {
    static cudnnHandle_t h = nullptr;
    return h;
}

inline int
st_finish(const char* name) {
    if (st_handle_slot() != nullptr && cudnnDestroy(st_handle_slot()) != CUDNN_STATUS_SUCCESS) CHECK_FAIL("cudnnDestroy failed");
    st_handle_slot() = nullptr;
    return check_finish(name);
}

// st_handle is the test's one handle.
inline cudnnHandle_t
st_handle() {
    if (st_handle_slot() == nullptr && cudnnCreate(&st_handle_slot()) != CUDNN_STATUS_SUCCESS)
        std::fprintf(stderr, "cudnnCreate failed\n");
    return st_handle_slot();
}

// st_engine_loaded: whether the backend loaded the engine of that name (a machine without the
// oneDNN library has no HIPDNNGO_ONEDNN).
inline bool
st_engine_loaded(const char* name) {
    int64_t id = 0;
    return hipdnnGetEngineIdByName_ext(st_handle(), name, &id) == HIPDNN_STATUS_SUCCESS;
}

// st_fill gives v reproducible values in [lo, hi).
inline void
st_fill(std::vector<float>& v, unsigned seed, float lo = -1.f, float hi = 1.f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    for (auto& x : v) x = d(rng);
}

inline std::vector<int64_t>
st_packed(std::vector<int64_t> const& dim) {
    std::vector<int64_t> s(dim.size());
    int64_t n = 1;
    for (size_t i = dim.size(); i-- > 0;) {
        s[i] = n;
        n *= dim[i];
    }
    return s;
}

// st_tensor is a packed (row-major) fp32 graph input.
inline std::shared_ptr<fe::graph::Tensor_attributes>
st_tensor(fe::graph::Graph& g, const char* name, std::vector<int64_t> dim) {
    return g.tensor(fe::graph::Tensor_attributes().set_name(name).set_dim(dim).set_stride(st_packed(dim)).set_data_type(
        fe::DataType_t::FLOAT));
}

// st_device: built by gpu.sh (ST_DEVICE_MEMORY): buffers go to device memory, the GPU engines run.
#ifdef ST_DEVICE_MEMORY
constexpr bool st_device = true;
#else
constexpr bool st_device = false;
#endif

// st_build takes a graph through validate, build_operation_graph, create_execution_plans,
// check_support and build_plans(ALL); false (with failures recorded) when a step fails.
inline bool
st_build(fe::graph::Graph& g, const char* what) {
    auto step = [&](fe::error_t e, const char* s) {
        bool const declined = e.code == fe::error_code_t::GRAPH_NOT_SUPPORTED ||
                              e.code == fe::error_code_t::HEURISTIC_QUERY_FAILED;
        if (e.is_bad() && st_device && declined)  // the GPU engines' coverage is reported, not failed
            std::printf("%s: not on the GPU: %s: %s\n", what, s, e.err_msg.c_str());
        else if (e.is_bad())
            CHECK_FAIL("%s: %s: %s: %s", what, s, fe::to_string(e.code), e.err_msg.c_str());
        return e.is_good();
    };
    return step(g.validate(), "validate") && step(g.build_operation_graph(st_handle()), "build_operation_graph") &&
           step(g.create_execution_plans({fe::HeurMode_t::A}), "create_execution_plans") &&
           step(g.check_support(st_handle()), "check_support") &&
           step(g.build_plans(st_handle(), fe::BuildPlanPolicy_t::ALL), "build_plans");
}

// Binding maps each graph tensor to host memory the test owns.
using Binding = std::unordered_map<std::shared_ptr<fe::graph::Tensor_attributes>, void*>;

#ifdef ST_DEVICE_MEMORY

// st_bytes is the memory a tensor spans: the farthest element plus one, in its data type.
inline size_t
st_bytes(fe::graph::Tensor_attributes const& t) {
    int64_t last = 0;
    auto const& d = t.get_dim();
    auto const& s = t.get_stride();
    for (size_t i = 0; i < d.size() && i < s.size(); ++i) last += (d[i] - 1) * s[i];
    return static_cast<size_t>(last + 1) * ((fe::detail::get_element_size_in_bits(t.get_data_type()) + 7) / 8);
}

// DeviceCopies holds a GPU copy of every buffer of a binding (pass-by-value scalars stay on the
// host, as the variant pack takes them) and of a workspace, and copies the results back.
struct DeviceCopies {
    Binding device;
    std::vector<std::pair<void*, std::pair<void*, size_t>>> copies;  // device, (host, bytes)
    void* workspace = nullptr;

    DeviceCopies(Binding const& host, int64_t workspace_bytes) {
        for (auto const& kv : host) {
            if (kv.first->get_is_pass_by_value()) {
                device.emplace(kv.first, kv.second);
                continue;
            }
            size_t const n = st_bytes(*kv.first);
            void* d        = nullptr;
            if (cudaMalloc(&d, n) != cudaSuccess || cudaMemcpy(d, kv.second, n, cudaMemcpyHostToDevice) != cudaSuccess)
                CHECK_FAIL("copying tensor '%s' (%zu bytes) to the GPU failed", kv.first->get_name().c_str(), n);
            device.emplace(kv.first, d);
            copies.push_back({d, {kv.second, n}});
        }
        if (workspace_bytes > 0 && cudaMalloc(&workspace, static_cast<size_t>(workspace_bytes)) != cudaSuccess)
            CHECK_FAIL("allocating %lld bytes of GPU workspace failed", static_cast<long long>(workspace_bytes));
    }
    void
    copy_back() {
        if (cudaDeviceSynchronize() != cudaSuccess) CHECK_FAIL("cudaDeviceSynchronize failed");
        for (auto const& c : copies)
            if (cudaMemcpy(c.second.first, c.first, c.second.second, cudaMemcpyDeviceToHost) != cudaSuccess)
                CHECK_FAIL("copying a result back from the GPU failed");
    }
    ~DeviceCopies() {
        for (auto const& c : copies) (void)cudaFree(c.first);
        if (workspace) (void)cudaFree(workspace);
    }
};
#endif

// st_engine_runs: on the GPU build only the GPU engines' plans run (cuDNN and the runtime-compiled
// HIPDNNGO_CUDA_RTC; the CPU engines refuse device memory by name); on the CPU build, every engine's.
inline bool
st_engine_runs(std::string const& engine) {
    return !st_device || engine == "HIPDNNGO_CUDNN" || engine == "HIPDNNGO_CUDA_RTC";
}

// st_exec executes the graph's chosen plan on binding b, through GPU copies on the GPU build;
// false when the chosen plan is not one this build runs (the caller skips its checks).
inline bool
st_exec(fe::graph::Graph& g, Binding& b, void* host_workspace, const char* what) {
    std::string name;
    (void)g.get_plan_name(name);
    if (!st_engine_runs(name)) {
        std::printf("%s: chosen plan is on %s, not run on this build\n", what, name.c_str());
        return false;
    }
#ifdef ST_DEVICE_MEMORY
    (void)host_workspace;
    int64_t ws = 0;
    (void)g.get_workspace_size(ws);
    DeviceCopies d(b, ws);
    auto e = g.execute(st_handle(), d.device, d.workspace);
    d.copy_back();
#else
    auto e = g.execute(st_handle(), b, host_workspace);
#endif
    if (e.is_bad()) CHECK_FAIL("%s on %s: execute: %s: %s", what, name.c_str(), fe::to_string(e.code), e.err_msg.c_str());
    return e.is_good();
}

// st_run_all executes every built plan (one per CPU engine that took the graph; on the GPU
// build, the GPU engines') and calls check(engine name) after each; returns how many ran.
inline int
st_run_all(fe::graph::Graph& g, Binding& b, const char* what, std::function<void(std::string const&)> const& check) {
    int ran = 0;
    for (int64_t i = 0; i < g.get_execution_plan_count(); ++i) {
        int64_t ws = 0;
        if (g.get_workspace_size_plan_at_index(i, ws).is_bad()) continue;  // not built (engine declined)
        std::string name;
        (void)g.get_plan_name_at_index(i, name);
        if (!st_engine_runs(name)) continue;
#ifdef ST_DEVICE_MEMORY
        DeviceCopies d(b, ws);
        auto e = g.execute_plan_at_index(st_handle(), d.device, d.workspace, i);
        d.copy_back();
#else
        std::vector<unsigned char> workspace(static_cast<size_t>(ws) + 16);
        auto e = g.execute_plan_at_index(st_handle(), b, workspace.data(), i);
#endif
        if (e.is_bad()) {
            CHECK_FAIL("%s on %s: execute: %s: %s", what, name.c_str(), fe::to_string(e.code), e.err_msg.c_str());
            continue;
        }
        check(name);
        std::printf("%s: ran on %s\n", what, name.c_str());
        ++ran;
    }
    if (ran == 0 && st_device)  // the GPU engines' coverage is reported, not failed
        std::printf("%s: not on the GPU: no GPU engine built a plan for it\n", what);
    else if (ran == 0)
        CHECK_FAIL("%s: no CPU engine ran the graph", what);
    return ran;
}

// st_close compares got with want element by element.
inline void
st_close(const char* what, std::string const& engine, std::vector<float> const& got, std::vector<double> const& want,
         double tol = 1e-4) {
    if (got.size() != want.size()) {
        CHECK_FAIL("%s on %s: %zu values, want %zu", what, engine.c_str(), got.size(), want.size());
        return;
    }
    for (size_t i = 0; i < got.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= tol * (1.0 + std::fabs(want[i])))) {
            CHECK_FAIL("%s on %s: element %zu is %.7g, want %.7g", what, engine.c_str(), i, got[i], want[i]);
            return;
        }
}
