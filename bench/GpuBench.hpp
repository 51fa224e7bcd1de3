// What the GPU benches share (bench/cudnn_bench.cpp, bench/gpu_memory_bench.cpp): the CUDA
// runtime calls they need (dlopened, as the plugins do, so the benches build without CUDA), a
// hipDNN graph builder that records the buffers to allocate, plans on one named engine with
// optional knobs through the public C API, and a CUDA-event batch timer.
#pragma once

#include <hipdnn_backend.h>
#include <hipdnn_flatbuffers_sdk/graph_generated.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace gpubench
{

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

inline double nowUs()
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

[[noreturn]] inline void die(const std::string& m)
{
    std::fprintf(stderr, "bench: %s\n", m.c_str());
    std::exit(1);
}

// H dies with the backend's last error when a hipDNN call fails.
inline void H(hipdnnStatus_t s, const char* what)
{
    if(s != HIPDNN_STATUS_SUCCESS)
    {
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH] = {0};
        hipdnnGetLastErrorString(msg, sizeof msg);
        die(std::string(what) + ": status " + std::to_string(s) + ": " + msg);
    }
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

using Stream = void*; // cudaStream_t

// The CUDA runtime calls the benches make.
struct Rt
{
    int (*malloc_)(void**, size_t);
    int (*free_)(void*);
    int (*memset_)(void*, int, size_t);
    int (*memcpyAsync)(void*, const void*, size_t, int, Stream); // kind 3: device to device
    int (*streamCreate)(Stream*);
    int (*streamSync)(Stream);
    int (*eventCreate)(void**);
    int (*eventDestroy)(void*);
    int (*eventRecord)(void*, Stream);
    int (*eventSync)(void*);
    int (*elapsed)(float*, void*, void*);
    int (*devSync)();
    int (*getDeviceCount)(int*);
};

inline Rt& rt()
{
    static Rt r{};
    return r;
}

template <typename F>
void loadSym(void* h, const char* n, F* f)
{
    *f = reinterpret_cast<F>(dlsym(h, n));
    if(!*f)
        die(std::string("cudart lacks ") + n);
}

// loadRt loads the CUDA runtime, or returns false (the bench then says why and exits).
inline bool loadRt()
{
    void* h = dlopen("libcudart.so.13", RTLD_NOW);
    if(!h)
        h = dlopen("libcudart.so.12", RTLD_NOW);
    if(!h)
        return false;
    Rt& r = rt();
    loadSym(h, "cudaMalloc", &r.malloc_);
    loadSym(h, "cudaFree", &r.free_);
    loadSym(h, "cudaMemset", &r.memset_);
    loadSym(h, "cudaMemcpyAsync", &r.memcpyAsync);
    loadSym(h, "cudaStreamCreate", &r.streamCreate);
    loadSym(h, "cudaStreamSynchronize", &r.streamSync);
    loadSym(h, "cudaEventCreate", &r.eventCreate);
    loadSym(h, "cudaEventDestroy", &r.eventDestroy);
    loadSym(h, "cudaEventRecord", &r.eventRecord);
    loadSym(h, "cudaEventSynchronize", &r.eventSync);
    loadSym(h, "cudaEventElapsedTime", &r.elapsed);
    loadSym(h, "cudaDeviceSynchronize", &r.devSync);
    loadSym(h, "cudaGetDeviceCount", &r.getDeviceCount);
    int n = 0;
    return r.getDeviceCount(&n) == 0 && n > 0;
}

// ---- graphs --------------------------------------------------------------------------------

struct GraphSpec
{
    std::string name;
    std::vector<uint8_t> bytes;
    double flops = 0; // compute-bound figure: TFLOP/s
    double traffic = 0; // memory-bound figure (flops == 0): TB/s over the bytes read and written
    std::vector<std::pair<int64_t, size_t>> buffers; // uid, bytes (non-virtual)
};

inline size_t dtypeBytes(fbs::DataType t)
{
    return t == fbs::DataType::FLOAT ? 4 : 2;
}

// GB builds a hipDNN Graph FlatBuffer tensor by tensor and node by node, and records the bytes
// each non-virtual tensor spans.
struct GB
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fbs::TensorAttributes>> tensors;
    std::vector<flatbuffers::Offset<fbs::Node>> nodes;
    GraphSpec spec;
    void tensor(int64_t uid, fbs::DataType t, std::vector<int64_t> dims, std::vector<int64_t> strides, bool virt = false)
    {
        tensors.push_back(fbs::CreateTensorAttributesDirect(fbb, uid, nullptr, t, &strides, &dims, virt));
        if(!virt)
            buffer(uid, t, dims, strides);
    }
    // packed: a tensor with row-major strides.
    void packed(int64_t uid, fbs::DataType t, const std::vector<int64_t>& dims, bool virt = false)
    {
        std::vector<int64_t> strides(dims.size(), 1);
        for(size_t i = dims.size(); i-- > 1;)
            strides[i - 1] = strides[i] * dims[i];
        tensor(uid, t, dims, strides, virt);
    }
    // constant is an fp32 scalar held in the graph (TensorAttributes.value), bound by value.
    void constant(int64_t uid, float v)
    {
        const std::vector<int64_t> one{1};
        const fbs::Float32Value value(v);
        tensors.push_back(fbs::CreateTensorAttributesDirect(fbb, uid, nullptr, fbs::DataType::FLOAT, &one, &one, false,
                                                            fbs::TensorValue::Float32Value, fbb.CreateStruct(value).Union()));
    }
    void buffer(int64_t uid, fbs::DataType t, const std::vector<int64_t>& dims, const std::vector<int64_t>& strides)
    {
        size_t span = 1;
        for(size_t i = 0; i < dims.size(); ++i)
            span += static_cast<size_t>((dims[i] - 1) * strides[i]);
        spec.buffers.emplace_back(uid, span * dtypeBytes(t));
    }
    void node(fbs::NodeAttributes type, flatbuffers::Offset<void> attrs)
    {
        nodes.push_back(fbs::CreateNodeDirect(fbb, "n", fbs::DataType::FLOAT, type, attrs));
    }
    GraphSpec finish()
    {
        fbb.Finish(fbs::CreateGraphDirect(fbb, spec.name.c_str(), fbs::DataType::FLOAT, fbs::DataType::FLOAT,
                                          fbs::DataType::FLOAT, &tensors, &nodes));
        spec.bytes.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
        return spec;
    }
};

inline void pointwise(GB& g, fbs::PointwiseMode m, int64_t in0, int64_t in1, int64_t out)
{
    g.node(fbs::NodeAttributes::PointwiseAttributes,
           fbs::CreatePointwiseAttributes(
               g.fbb, m, flatbuffers::nullopt, flatbuffers::nullopt, flatbuffers::nullopt, flatbuffers::nullopt, in0,
               in1 >= 0 ? flatbuffers::Optional<int64_t>(in1) : flatbuffers::nullopt, flatbuffers::nullopt, out)
               .Union());
}

// ---- plans through the C API -----------------------------------------------------------------

struct Bound
{
    std::vector<int64_t> uids;
    std::vector<void*> ptrs;
    void* ws = nullptr;
};

// allocate gives every buffer of g device memory, zeroed (finite, and the same work every time),
// and a workspace of ws bytes.
inline Bound allocate(const GraphSpec& g, int64_t ws)
{
    Bound b;
    for(auto [uid, bytes] : g.buffers)
    {
        void* p = nullptr;
        if(rt().malloc_(&p, bytes) != 0)
            die("cudaMalloc failed");
        rt().memset_(p, 0, bytes);
        b.uids.push_back(uid);
        b.ptrs.push_back(p);
    }
    if(ws > 0 && rt().malloc_(&b.ws, static_cast<size_t>(ws)) != 0)
        die("cudaMalloc (workspace) failed");
    return b;
}

inline void release(Bound& b)
{
    for(void* p : b.ptrs)
        rt().free_(p);
    if(b.ws)
        rt().free_(b.ws);
    b = Bound{};
}

struct Plan
{
    std::vector<hipdnnBackendDescriptor_t> knobs;
    hipdnnBackendDescriptor_t graph = nullptr, engine = nullptr, cfg = nullptr, plan = nullptr, pack = nullptr;
    int64_t ws = 0;
};

using Knobs = std::vector<std::pair<std::string, int64_t>>;

// buildPlan plans g on the engine named `engine` with the given knob values. The message of a
// failure is returned in *why (and the plan is empty) so that a bench can report an engine that
// declines a graph.
inline bool buildPlan(hipdnnHandle_t h, const GraphSpec& g, const char* engine, const Knobs& knobs, Plan* o, std::string* why)
{
    auto ok = [&](hipdnnStatus_t s, const char* what) {
        if(s == HIPDNN_STATUS_SUCCESS)
            return true;
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH] = {0};
        hipdnnGetLastErrorString(msg, sizeof msg);
        *why = std::string(what) + ": " + msg;
        return false;
    };
    *o = Plan{};
    if(!ok(hipdnnBackendCreateAndDeserializeGraph_ext(&o->graph, g.bytes.data(), g.bytes.size()), "deserialize graph")
       || !ok(hipdnnBackendSetAttribute(o->graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h), "graph handle")
       || !ok(hipdnnBackendFinalize(o->graph), "finalize graph"))
        return false;
    int64_t id = 0;
    if(!ok(hipdnnGetEngineIdByName_ext(h, engine, &id), "engine id")
       || !ok(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &o->engine), "engine")
       || !ok(hipdnnBackendSetAttribute(o->engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &o->graph),
              "engine graph")
       || !ok(hipdnnBackendSetAttribute(o->engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id), "engine index")
       || !ok(hipdnnBackendFinalize(o->engine), "engine"))
        return false;
    for(const auto& [name, value] : knobs)
    {
        hipdnnBackendDescriptor_t k = nullptr;
        if(!ok(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, &k), "knob choice"))
            return false;
        o->knobs.push_back(k);
        if(!ok(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR,
                                         static_cast<int64_t>(name.size()), name.c_str()),
               "knob type")
           || !ok(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1, &value), "knob value")
           || !ok(hipdnnBackendFinalize(k), "knob choice"))
            return false;
    }
    if(!ok(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &o->cfg), "engine config")
       || !ok(hipdnnBackendSetAttribute(o->cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &o->engine),
              "cfg engine"))
        return false;
    if(!o->knobs.empty()
       && !ok(hipdnnBackendSetAttribute(o->cfg, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                        static_cast<int64_t>(o->knobs.size()), o->knobs.data()),
              "cfg knobs"))
        return false;
    if(!ok(hipdnnBackendFinalize(o->cfg), "engine config")
       || !ok(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &o->plan), "plan")
       || !ok(hipdnnBackendSetAttribute(o->plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &o->cfg),
              "plan cfg")
       || !ok(hipdnnBackendFinalize(o->plan), "plan")
       || !ok(hipdnnBackendGetAttribute(o->plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, nullptr, &o->ws),
              "workspace"))
        return false;
    return true;
}

inline void destroyPlan(Plan& o)
{
    for(auto d : {o.pack, o.plan, o.cfg})
        if(d)
            hipdnnBackendDestroyDescriptor(d);
    for(auto d : o.knobs)
        hipdnnBackendDestroyDescriptor(d);
    for(auto d : {o.engine, o.graph})
        if(d)
            hipdnnBackendDestroyDescriptor(d);
    o = Plan{};
}

inline void bindPlan(Plan& o, const Bound& b)
{
    H(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &o.pack), "variant pack");
    H(hipdnnBackendSetAttribute(o.pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                static_cast<int64_t>(b.uids.size()), b.uids.data()),
      "pack uids");
    H(hipdnnBackendSetAttribute(o.pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
                                static_cast<int64_t>(b.ptrs.size()), b.ptrs.data()),
      "pack ptrs");
    void* ws = b.ws;
    H(hipdnnBackendSetAttribute(o.pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &ws), "pack ws");
    H(hipdnnBackendFinalize(o.pack), "finalize pack");
}

// BatchTimer times batches of calls on a stream with one pair of CUDA events.
class BatchTimer
{
public:
    explicit BatchTimer(Stream stream) : stream_(stream)
    {
        rt().eventCreate(&e0_);
        rt().eventCreate(&e1_);
    }
    ~BatchTimer()
    {
        rt().eventDestroy(e0_);
        rt().eventDestroy(e1_);
    }
    BatchTimer(const BatchTimer&) = delete;
    BatchTimer& operator=(const BatchTimer&) = delete;

    // ms is the device time per call of `batch` back-to-back calls of run, after 3 untimed
    // calls (the path's caches and clocks warm, as the other path just ran).
    template <typename F>
    double ms(int batch, F&& run)
    {
        for(int i = 0; i < 3; ++i)
            run();
        rt().streamSync(stream_);
        rt().eventRecord(e0_, stream_);
        for(int i = 0; i < batch; ++i)
            run();
        rt().eventRecord(e1_, stream_);
        rt().eventSync(e1_);
        float total = 0;
        rt().elapsed(&total, e0_, e1_);
        return total / batch;
    }

private:
    Stream stream_;
    void *e0_ = nullptr, *e1_ = nullptr;
};

} // namespace gpubench
