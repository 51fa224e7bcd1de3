// hipdnn-bench: the backend's overhead, measured side by side in one run.
//
// Every figure is a median over repeated runs and, where the budget is a ratio, is measured
// next to what it is compared with, so machine speed cancels out. The program prints one line
// per figure and exits non-zero when a budget is missed.
//
//   SetAttribute / GetAttribute (tensor dims, 4 int64)    vs a bare C→Go call      ≤ 3.0×
//   SetAttribute (conv pre-paddings, 2 int64)              vs a bare C→Go call      ≤ 3.0×, 0 Go allocations
//   Execute on a no-op engine                              vs the plugin's execute  ≤ +1 µs, 0 Go allocations
//   deserialize conv+bias+relu → heuristics → plan          absolute                 ≤ 50 µs
//   hipdnnCreate with 3 plugins (first and later handles)   reported
//   16 threads executing on one handle                      vs 1 thread              ≥ 1.7× throughput
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <flatbuffers/flatbuffers.h>
#include <hipdnn_backend.h>
#include <hipdnn_flatbuffers_sdk/engine_config_generated.h>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>

namespace
{

// Private hooks of a library built with -tags hipdnnbench (make bench builds one; the shipped
// library has no such symbols), looked up at start-up.
void (*hipdnn_bench_nop)(void);
uint64_t (*hipdnn_bench_go_allocs)(void);

void loadBenchHooks()
{
    hipdnn_bench_nop = reinterpret_cast<void (*)(void)>(dlsym(RTLD_DEFAULT, "hipdnn_bench_nop"));
    hipdnn_bench_go_allocs = reinterpret_cast<uint64_t (*)(void)>(dlsym(RTLD_DEFAULT, "hipdnn_bench_go_allocs"));
    if(hipdnn_bench_nop == nullptr || hipdnn_bench_go_allocs == nullptr)
    {
        std::fprintf(stderr, "hipdnn-bench: the loaded libhipdnn_backend.so has no benchmark hooks; "
                             "run it against the -tags hipdnnbench build (make bench does)\n");
        std::exit(2);
    }
}

using Clock = std::chrono::steady_clock;

int failures = 0;

void check(hipdnnStatus_t st, const char* what)
{
    if(st != HIPDNN_STATUS_SUCCESS)
    {
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
        hipdnnGetLastErrorString(msg, sizeof msg);
        std::fprintf(stderr, "hipdnn-bench: %s failed: %s: %s\n", what, hipdnnGetErrorString(st), msg);
        std::exit(2);
    }
}
#define CHECK(call) check((call), #call)

template <class F>
double nsPerCall(F&& f, int iters)
{
    auto t0 = Clock::now();
    for(int i = 0; i < iters; i++)
        f();
    return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / iters;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Runs both measurements interleaved, reps times, and returns their medians.
template <class A, class B>
std::pair<double, double> sideBySide(A&& a, B&& b, int iters, int reps = 15)
{
    std::vector<double> ra, rb;
    for(int r = 0; r < reps; r++)
    {
        ra.push_back(nsPerCall(a, iters));
        rb.push_back(nsPerCall(b, iters));
    }
    return {median(ra), median(rb)};
}

void report(const char* figure, const std::string& value, const std::string& against, const std::string& budget, bool ok)
{
    std::printf("%-52s %-22s %-34s %-16s %s\n", figure, value.c_str(), against.c_str(), budget.c_str(), ok ? "ok" : "MISSED");
    if(!ok)
        failures++;
}

std::string fmt(const char* f, double v)
{
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

// ---- graph building -----------------------------------------------------------------------

hipdnnBackendDescriptor_t tensor(int64_t uid, std::vector<int64_t> dims, bool virt)
{
    std::vector<int64_t> strides(dims.size());
    int64_t s = 1;
    for(size_t i = dims.size(); i-- > 0;)
    {
        strides[i] = s;
        s *= dims[i];
    }
    hipdnnBackendDescriptor_t t;
    hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &t));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, (int64_t)dims.size(), dims.data()));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, (int64_t)strides.size(), strides.data()));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt));
    CHECK(hipdnnBackendFinalize(t));
    return t;
}

hipdnnBackendDescriptor_t pointwise(hipdnnPointwiseMode_t mode, hipdnnBackendDescriptor_t in0, hipdnnBackendDescriptor_t in1,
                                    hipdnnBackendDescriptor_t out)
{
    hipdnnBackendDescriptor_t op;
    hipdnnDataType_t prec = HIPDNN_DATA_FLOAT;
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, &op));
    CHECK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in0));
    if(in1)
        CHECK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in1));
    CHECK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &out));
    CHECK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode));
    CHECK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec));
    CHECK(hipdnnBackendFinalize(op));
    return op;
}

// convBiasRelu returns the serialized bytes of y = relu(conv(x, w) + b).
std::vector<uint8_t> convBiasRelu(hipdnnHandle_t handle)
{
    auto x = tensor(1, {1, 16, 32, 32}, false), w = tensor(2, {32, 16, 3, 3}, false);
    auto c = tensor(3, {1, 32, 32, 32}, true), b = tensor(4, {1, 32, 1, 1}, false);
    auto s = tensor(5, {1, 32, 32, 32}, true), y = tensor(6, {1, 32, 32, 32}, false);
    hipdnnBackendDescriptor_t conv;
    int64_t pad[2] = {1, 1}, one[2] = {1, 1};
    hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
    hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, &conv));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &w));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &c));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, pad));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, pad));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, 2, one));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, 2, one));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &mode));
    CHECK(hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &comp));
    CHECK(hipdnnBackendFinalize(conv));
    auto add = pointwise(HIPDNN_POINTWISE_ADD, c, b, s);
    auto relu = pointwise(HIPDNN_POINTWISE_RELU_FWD, s, nullptr, y);
    hipdnnBackendDescriptor_t graph, ops[3] = {conv, add, relu};
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &graph));
    CHECK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, ops));
    CHECK(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle));
    CHECK(hipdnnBackendFinalize(graph));
    size_t n = 0;
    CHECK(hipdnnBackendGetSerializedBinaryGraph_ext(graph, 0, &n, nullptr));
    std::vector<uint8_t> bytes(n);
    CHECK(hipdnnBackendGetSerializedBinaryGraph_ext(graph, n, &n, bytes.data()));
    for(auto d : {graph, relu, add, conv, y, s, b, c, w, x})
        CHECK(hipdnnBackendDestroyDescriptor(d));
    return bytes;
}

// Plan is everything one execution needs: graph → heuristic → config → plan, and a pack.
struct Plan
{
    hipdnnBackendDescriptor_t graph{}, heur{}, cfg{}, plan{}, pack{};
    std::vector<float> data[4];
    void* ptrs[4]{};
};

Plan buildPlan(hipdnnHandle_t handle, const std::vector<uint8_t>& bytes)
{
    Plan p;
    CHECK(hipdnnBackendCreateAndDeserializeGraph_ext(&p.graph, bytes.data(), bytes.size()));
    CHECK(hipdnnBackendSetAttribute(p.graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle));
    CHECK(hipdnnBackendFinalize(p.graph));
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &p.heur));
    CHECK(hipdnnBackendSetAttribute(p.heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &p.graph));
    CHECK(hipdnnBackendSetAttribute(p.heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode));
    CHECK(hipdnnBackendFinalize(p.heur));
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &p.cfg));
    int64_t n = 0;
    CHECK(hipdnnBackendGetAttribute(p.heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &p.cfg));
    CHECK(hipdnnBackendFinalize(p.cfg));
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &p.plan));
    CHECK(hipdnnBackendSetAttribute(p.plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &p.cfg));
    CHECK(hipdnnBackendFinalize(p.plan));
    return p;
}

// attachPack gives a plan its buffers and variant pack (not part of the plan-build figure).
void attachPack(Plan& p)
{
    size_t sizes[4] = {16 * 32 * 32, 32 * 16 * 9, 32, 32 * 32 * 32};
    int64_t uids[4] = {1, 2, 4, 6};
    for(int i = 0; i < 4; i++)
    {
        p.data[i].assign(sizes[i], 0.5f);
        p.ptrs[i] = p.data[i].data();
    }
    void* ws = nullptr;
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &p.pack));
    CHECK(hipdnnBackendSetAttribute(p.pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 4, p.ptrs));
    CHECK(hipdnnBackendSetAttribute(p.pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 4, uids));
    CHECK(hipdnnBackendSetAttribute(p.pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws));
    CHECK(hipdnnBackendFinalize(p.pack));
}

Plan buildPlanWithPack(hipdnnHandle_t handle, const std::vector<uint8_t>& bytes)
{
    Plan p = buildPlan(handle, bytes);
    attachPack(p);
    return p;
}

void destroyPlan(Plan& p)
{
    for(auto d : {p.pack, p.plan, p.cfg, p.heur, p.graph})
        if(d != nullptr)
            CHECK(hipdnnBackendDestroyDescriptor(d));
}

// ---- figures ------------------------------------------------------------------------------

void attributeFigures()
{
    hipdnnBackendDescriptor_t t;
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &t));
    int64_t dims[4] = {8, 64, 56, 56};
    auto [set, bare] =
        sideBySide([&] { hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, dims); },
                   [] { hipdnn_bench_nop(); }, 200000);
    report("hipdnnBackendSetAttribute (tensor dims, 4 int64)", fmt("%.1f ns", set), fmt("bare C->Go call %.1f ns", bare),
           "<= 3.0x", set / bare <= 3.0);
    std::printf("  ratio %.2fx\n", set / bare);
    hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
    CHECK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 4, dims));
    CHECK(hipdnnBackendFinalize(t));
    int64_t out[4], n;
    auto [get, bare2] =
        sideBySide([&] { hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, &n, out); },
                   [] { hipdnn_bench_nop(); }, 200000);
    report("hipdnnBackendGetAttribute (tensor dims, 4 int64)", fmt("%.1f ns", get), fmt("bare C->Go call %.1f ns", bare2),
           "<= 3.0x", get / bare2 <= 3.0);
    std::printf("  ratio %.2fx\n", get / bare2);
    CHECK(hipdnnBackendDestroyDescriptor(t));

    // Operation attributes store into the op's node in place, like tensor attributes.
    hipdnnBackendDescriptor_t conv;
    CHECK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, &conv));
    int64_t pads[2] = {1, 1};
    auto [opSet, bare3] =
        sideBySide([&] { hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, pads); },
                   [] { hipdnn_bench_nop(); }, 200000);
    report("hipdnnBackendSetAttribute (conv pre-paddings, 2 int64)", fmt("%.1f ns", opSet), fmt("bare C->Go call %.1f ns", bare3),
           "<= 3.0x", opSet / bare3 <= 3.0);
    std::printf("  ratio %.2fx\n", opSet / bare3);
    uint64_t allocs0 = hipdnn_bench_go_allocs();
    const int iters = 100000;
    for(int i = 0; i < iters; i++)
        hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, pads);
    double allocs = double(hipdnn_bench_go_allocs() - allocs0) / iters;
    report("  Go allocations per op SetAttribute", fmt("%.3f", allocs), "none", "0", allocs < 0.01);
    CHECK(hipdnnBackendDestroyDescriptor(conv));
}

void executeFigure(hipdnnHandle_t handle, const std::vector<uint8_t>& graphBytes)
{
    Plan p = buildPlanWithPack(handle, graphBytes);
    // The same plugin instance the backend loaded, driven directly with the same buffers.
    void* lib = dlopen(BENCH_NOOP_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
    if(!lib)
    {
        std::fprintf(stderr, "hipdnn-bench: no-op plugin not loaded: %s\n", dlerror());
        std::exit(2);
    }
    auto create = (hipdnnEnginePluginCreate_fn)dlsym(lib, "hipdnnEnginePluginCreate");
    auto createCtx = (hipdnnEnginePluginCreateExecutionContext_fn)dlsym(lib, "hipdnnEnginePluginCreateExecutionContext");
    auto execute = (hipdnnEnginePluginExecuteOpGraph_fn)dlsym(lib, "hipdnnEnginePluginExecuteOpGraph");
    auto destroyCtx = (hipdnnEnginePluginDestroyExecutionContext_fn)dlsym(lib, "hipdnnEnginePluginDestroyExecutionContext");
    auto destroy = (hipdnnEnginePluginDestroy_fn)dlsym(lib, "hipdnnEnginePluginDestroy");
    hipdnnEnginePluginHandle_t ph;
    create(&ph);
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(hipdnn_flatbuffers_sdk::data_objects::CreateEngineConfig(fbb, hipdnnPluginEngineNameToId("HIPDNNGO_BENCH_NOOP")));
    hipdnnPluginConstData_t cfg{fbb.GetBufferPointer(), fbb.GetSize()}, graph{graphBytes.data(), graphBytes.size()};
    hipdnnEnginePluginExecutionContext_t ctx;
    if(createCtx(ph, &cfg, &graph, &ctx) != HIPDNN_PLUGIN_STATUS_SUCCESS)
    {
        std::fprintf(stderr, "hipdnn-bench: direct context creation failed\n");
        std::exit(2);
    }
    hipdnnPluginDeviceBuffer_t bufs[4];
    int64_t uids[4] = {1, 2, 4, 6};
    for(int i = 0; i < 4; i++)
        bufs[i] = {uids[i], p.ptrs[i]};

    uint64_t allocs0 = hipdnn_bench_go_allocs();
    const int iters = 100000;
    for(int i = 0; i < iters; i++)
        hipdnnBackendExecute(handle, p.plan, p.pack);
    double allocsPerCall = double(hipdnn_bench_go_allocs() - allocs0) / iters;

    auto [viaBackend, direct] =
        sideBySide([&] { hipdnnBackendExecute(handle, p.plan, p.pack); }, [&] { execute(ph, ctx, nullptr, bufs, 4); }, 100000);
    double added = viaBackend - direct;
    report("hipdnnBackendExecute, no-op engine", fmt("%.1f ns", viaBackend), fmt("plugin execute directly %.1f ns", direct),
           "<= +1000 ns", added <= 1000);
    std::printf("  added %.1f ns per call; Go allocations per call %.3f (budget 0)\n", added, allocsPerCall);
    if(allocsPerCall > 0.001)
    {
        std::printf("  MISSED: Execute allocates\n");
        failures++;
    }
    // A new variant pack per call, as cudnn-frontend makes one per execute: each is checked once
    // against the plan (required tensors, workspace, alignment, memory kinds) on the Go path.
    int64_t packUIDs[4] = {1, 2, 4, 6};
    void* noWorkspace = nullptr;
    auto freshPack = [&] {
        hipdnnBackendDescriptor_t v;
        hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &v);
        hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 4, p.ptrs);
        hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 4, packUIDs);
        hipdnnBackendSetAttribute(v, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &noWorkspace);
        hipdnnBackendFinalize(v);
        hipdnnBackendExecute(handle, p.plan, v);
        hipdnnBackendDestroyDescriptor(v);
    };
    auto [fresh, reused] = sideBySide(freshPack, [&] { hipdnnBackendExecute(handle, p.plan, p.pack); }, 20000, 7);
    report("  the same with a new variant pack per call", fmt("%.2f us", fresh / 1000), fmt("the pack reused %.1f ns", reused),
           "report", true);
    destroyCtx(ph, ctx);
    destroy(ph);
    dlclose(lib);
    destroyPlan(p);
}

void planBuildFigure(hipdnnHandle_t handle, const std::vector<uint8_t>& graphBytes)
{
    // The first builds of a process also pay for growing the Go heap (page faults, which are
    // slow in a VM); they are reported on their own, and the budget is the steady state after
    // a warm-up, which is what a program building plans repeatedly sees.
    const int warmup = 200;
    int runs = getenv("HIPDNN_BENCH_PLAN_RUNS") ? atoi(getenv("HIPDNN_BENCH_PLAN_RUNS")) : 1000;
    std::vector<double> us;
    double first = 0;
    for(int r = 0; r < warmup + runs; r++)
    {
        auto t0 = Clock::now();
        Plan p = buildPlan(handle, graphBytes);
        double t = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
        if(r == 0)
            first = t;
        if(r >= warmup)
            us.push_back(t);
        destroyPlan(p);
    }
    double m = median(us);
    report("deserialize conv+bias+relu -> heuristics -> plan", fmt("%.1f us", m),
           fmt("(median of %.0f after warm-up)", double(runs)), "<= 50 us", m <= 50);
    report("  the same, first build in this process", fmt("%.1f us", first), "(cold: heap growth)", "report", true);
}

void createFigure()
{
    std::vector<double> us;
    for(int r = 0; r < 50; r++)
    {
        auto t0 = Clock::now();
        hipdnnHandle_t h;
        CHECK(hipdnnCreate(&h));
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
        CHECK(hipdnnDestroy(h));
    }
    report("hipdnnCreate, 3 plugins loaded (later handles)", fmt("%.1f us", median(us)), "(plugins load once per process)",
           "report", true);
}

// threadThroughput runs call(i) in a loop on each of `threads` threads for 400 ms and returns
// calls per second. Each thread makes one call before the clock starts (attaching it to Go).
template <typename Call>
double threadThroughput(int threads, Call call)
{
    std::atomic<bool> go{false}, stop{false};
    std::atomic<uint64_t> total{0};
    std::vector<std::thread> ts;
    for(int i = 0; i < threads; i++)
    {
        ts.emplace_back([&, i] {
            call(i);
            while(!go.load())
                std::this_thread::yield();
            uint64_t n = 0;
            while(!stop.load(std::memory_order_relaxed))
            {
                call(i);
                n++;
            }
            total += n;
        });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    go = true;
    auto t0 = Clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    stop = true;
    double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    for(auto& t : ts)
        t.join();
    return total.load() / secs;
}

void scalingFigure(hipdnnHandle_t handle, const std::vector<uint8_t>& graphBytes)
{
    std::vector<Plan> plans;
    for(int i = 0; i < 16; i++)
        plans.push_back(buildPlanWithPack(handle, graphBytes));
    auto execute = [&](int i) { hipdnnBackendExecute(handle, plans[i].plan, plans[i].pack); };
    auto bare = [](int) { hipdnn_bench_nop(); };
    // The bare C->Go call is the ceiling: every exported call passes the Go runtime's own
    // cgo-callback path, which takes a runtime lock (see README, Performance).
    std::vector<double> ratios, one, many, bareRatios;
    for(int r = 0; r < 5; r++)
    {
        double a = threadThroughput(1, execute), b = threadThroughput(16, execute);
        one.push_back(a);
        many.push_back(b);
        ratios.push_back(b / a);
        bareRatios.push_back(threadThroughput(16, bare) / threadThroughput(1, bare));
    }
    for(auto& p : plans)
        destroyPlan(p);
    unsigned cores = std::thread::hardware_concurrency();
    double need = cores >= 2 ? 1.7 : 0.9;
    report("16 threads executing on one handle", fmt("%.2f Mexec/s", median(many) / 1e6),
           fmt("1 thread %.2f Mexec/s", median(one) / 1e6), cores >= 2 ? ">= 1.7x" : ">= 0.9x (1 core)", median(ratios) >= need);
    std::printf("  scaling %.2fx on %u cores; a bare C->Go call scales %.2fx in the same run\n", median(ratios), cores,
                median(bareRatios));
}

} // namespace

// hipdnn-bench [FIGURE]: FIGURE (create, attributes, execute, plan, scaling) runs only that
// figure, for profiling; the default runs all of them.
int main(int argc, char** argv)
{
    std::string only = argc > 1 ? argv[1] : "";
    auto wanted = [&](const char* name) { return only.empty() || only == name; };
    loadBenchHooks();
    // Three plugins: the no-op engine and two small test plugins.
    std::string good = std::string(BENCH_TEST_PLUGIN_DIR) + "/default/libtest_good_default_plugin.so";
    std::string hashed = std::string(BENCH_TEST_PLUGIN_DIR) + "/custom/libtest_hashed_name_plugin.so";
    const char* paths[3] = {BENCH_NOOP_PLUGIN, good.c_str(), hashed.c_str()};
    CHECK(hipdnnSetEnginePluginPaths_ext(3, paths, HIPDNN_PLUGIN_LOADING_ABSOLUTE));
    setenv("HIPDNN_HEUR_FALLBACK_ENGINE_ORDER", "HIPDNNGO_BENCH_NOOP", 1);

    auto t0 = Clock::now();
    hipdnnHandle_t handle;
    CHECK(hipdnnCreate(&handle));
    double firstUs = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    size_t nplugins = 0, len = 0;
    CHECK(hipdnnGetLoadedEnginePluginPaths_ext(handle, &nplugins, nullptr, &len));

    std::printf("hipdnn-bench  backend %s, %u cores\n\n", hipdnnVersionString_ext(), std::thread::hardware_concurrency());
    std::printf("%-52s %-22s %-34s %-16s %s\n", "figure", "value", "compared with", "budget", "result");
    report("hipdnnCreate, first handle (loads plugins)", fmt("%.0f us", firstUs), fmt("%.0f plugins loaded", double(nplugins)),
           "report", nplugins == 3);
    if(wanted("create"))
        createFigure();
    if(wanted("attributes"))
        attributeFigures();
    auto graphBytes = convBiasRelu(handle);
    if(wanted("execute"))
        executeFigure(handle, graphBytes);
    if(wanted("plan"))
        planBuildFigure(handle, graphBytes);
    if(wanted("scaling"))
        scalingFigure(handle, graphBytes);
    CHECK(hipdnnDestroy(handle));
    std::printf("\n%s\n", failures ? "SOME BUDGETS MISSED" : "all budgets met");
    return failures ? 1 : 0;
}
