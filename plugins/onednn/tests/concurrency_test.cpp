// onednn_concurrency: one HIPDNNGO_ONEDNN plan (conv -> bias -> ReLU, NHWC, weights reordered
// into the workspace) executed by 4 threads at once, each with its own output and workspace;
// every result must equal the single-threaded one bit for bit. Checks that Execute shares
// nothing mutable between calls (memory objects, stream and scratchpad are per call).
#include <hipdnn_backend.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace
{

int failures = 0;

void ck(hipdnnStatus_t s, const char* what)
{
    if(s != HIPDNN_STATUS_SUCCESS)
    {
        char msg[2048] = {0};
        hipdnnGetLastErrorString(msg, sizeof msg);
        std::fprintf(stderr, "FAIL: %s: %s: %s\n", what, hipdnnGetErrorString(s), msg);
        std::exit(1);
    }
}

const char* kGraph = R"({"name": "concurrency", "compute_data_type": "float", "intermediate_data_type": "float",
 "io_data_type": "float", "is_override_shape_enabled": false,
 "tensors": [
  {"uid": 1, "name": "x", "data_type": "float", "dims": [2, 16, 12, 12], "strides": [2304, 1, 192, 16], "virtual": false},
  {"uid": 2, "name": "w", "data_type": "float", "dims": [32, 16, 3, 3], "strides": [144, 1, 48, 16], "virtual": false},
  {"uid": 3, "name": "y", "data_type": "float", "dims": [2, 32, 12, 12], "strides": [4608, 1, 384, 32], "virtual": true},
  {"uid": 4, "name": "b", "data_type": "float", "dims": [1, 32, 1, 1], "strides": [32, 1, 1, 1], "virtual": false},
  {"uid": 5, "name": "yb", "data_type": "float", "dims": [2, 32, 12, 12], "strides": [4608, 1, 384, 32], "virtual": true},
  {"uid": 6, "name": "out", "data_type": "float", "dims": [2, 32, 12, 12], "strides": [4608, 1, 384, 32], "virtual": false}],
 "nodes": [
  {"type": "ConvolutionFwdAttributes", "name": "conv", "compute_data_type": "float",
   "inputs": {"x_tensor_uid": 1, "w_tensor_uid": 2}, "outputs": {"y_tensor_uid": 3},
   "parameters": {"conv_mode": "CROSS_CORRELATION", "pre_padding": [1, 1], "post_padding": [1, 1], "stride": [1, 1], "dilation": [1, 1]}},
  {"type": "PointwiseAttributes", "name": "bias", "compute_data_type": "float",
   "inputs": {"in_0_tensor_uid": 3, "in_1_tensor_uid": 4, "operation": "add"}, "outputs": {"out_0_tensor_uid": 5}},
  {"type": "PointwiseAttributes", "name": "relu", "compute_data_type": "float",
   "inputs": {"in_0_tensor_uid": 5, "operation": "relu_fwd"}, "outputs": {"out_0_tensor_uid": 6}}]})";

struct Run
{
    std::vector<float> out;
    std::vector<uint8_t> ws;
    hipdnnBackendDescriptor_t pack = nullptr;
};

} // namespace

int main()
{
    hipdnnHandle_t h = nullptr;
    ck(hipdnnCreate(&h), "hipdnnCreate");
    hipdnnBackendDescriptor_t graph = nullptr, engine = nullptr, cfg = nullptr, plan = nullptr;
    const std::string json = kGraph;
    ck(hipdnnBackendCreateAndDeserializeJsonGraph_ext(&graph, json.data(), json.size()), "deserialize");
    ck(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h), "graph handle");
    ck(hipdnnBackendFinalize(graph), "finalize graph");
    int64_t id = 0;
    ck(hipdnnGetEngineIdByName_ext(h, "HIPDNNGO_ONEDNN", &id), "engine id");
    ck(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine), "engine");
    ck(hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph), "engine graph");
    ck(hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id), "engine index");
    ck(hipdnnBackendFinalize(engine), "finalize engine");
    ck(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfg), "config");
    ck(hipdnnBackendSetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &engine), "config engine");
    ck(hipdnnBackendFinalize(cfg), "finalize config");
    ck(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan), "plan");
    ck(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg), "plan config");
    ck(hipdnnBackendFinalize(plan), "finalize plan");
    int64_t wsSize = 0;
    ck(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, nullptr, &wsSize), "ws");
    if(wsSize <= 0)
    {
        std::fprintf(stderr, "FAIL: expected a workspace (weights reorder), got %lld bytes\n", static_cast<long long>(wsSize));
        return 1;
    }

    std::vector<float> x(2 * 16 * 12 * 12), w(32 * 16 * 9), b(32);
    uint32_t seed = 12345;
    auto next = [&] {
        seed = seed * 1664525u + 1013904223u;
        return static_cast<float>(seed >> 8) / 16777216.f * 2.f - 1.f;
    };
    for(auto* v : {&x, &w, &b})
        for(float& f : *v)
            f = next();

    auto makeRun = [&](Run& r) {
        r.out.assign(2 * 32 * 12 * 12, -7.f);
        r.ws.assign(static_cast<size_t>(wsSize) + 64, 0);
        void* ws = r.ws.data() + (64 - reinterpret_cast<uintptr_t>(r.ws.data()) % 64) % 64;
        int64_t uids[] = {1, 2, 4, 6};
        void* ptrs[] = {x.data(), w.data(), b.data(), r.out.data()};
        ck(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &r.pack), "pack");
        ck(hipdnnBackendSetAttribute(r.pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 4, uids), "uids");
        ck(hipdnnBackendSetAttribute(r.pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 4, ptrs), "ptrs");
        ck(hipdnnBackendSetAttribute(r.pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws), "ws");
        ck(hipdnnBackendFinalize(r.pack), "finalize pack");
    };
    Run single;
    makeRun(single);
    ck(hipdnnBackendExecute(h, plan, single.pack), "execute (single)");

    constexpr int kThreads = 4, kIters = 25;
    std::vector<Run> runs(kThreads);
    for(Run& r : runs)
        makeRun(r);
    std::atomic<int> mismatches{0}, errors{0};
    std::vector<std::thread> threads;
    for(int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for(int i = 0; i < kIters; ++i)
            {
                std::fill(runs[t].out.begin(), runs[t].out.end(), -7.f);
                if(hipdnnBackendExecute(h, plan, runs[t].pack) != HIPDNN_STATUS_SUCCESS)
                    ++errors;
                else if(std::memcmp(runs[t].out.data(), single.out.data(), single.out.size() * sizeof(float)) != 0)
                    ++mismatches;
            }
        });
    for(auto& th : threads)
        th.join();
    if(errors || mismatches)
    {
        std::fprintf(stderr, "FAIL: %d execute errors, %d results differing from the single-threaded run\n",
                     errors.load(), mismatches.load());
        failures++;
    }
    for(Run& r : runs)
        hipdnnBackendDestroyDescriptor(r.pack);
    hipdnnBackendDestroyDescriptor(single.pack);
    for(auto* d : {plan, cfg, engine, graph})
        hipdnnBackendDestroyDescriptor(d);
    hipdnnDestroy(h);
    if(failures == 0)
        std::printf("PASS: %d threads x %d executes of one plan (workspace %lld bytes) match the single-threaded run\n",
                    kThreads, kIters, static_cast<long long>(wsSize));
    return failures ? 1 : 0;
}
