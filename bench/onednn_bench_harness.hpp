// onednn_bench_harness.hpp: what the cases of hipdnn-onednn-bench (onednn_bench.cpp) share: the
// backend side (JSON graphs, buffers, a finalized plan on one engine, the captured log), oneDNN
// called directly (a list of primitives on one stream), and a Case, one problem of both sides.
#pragma once

#include <hipdnn_backend.h>

#include <oneapi/dnnl/dnnl.hpp>

#include "TestPlan.hpp"

#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace onednn_bench
{

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

inline double nowMs() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// onceMs times one run of fn (the slow reference engine, after its warm-up run).
inline double onceMs(const std::function<void()>& fn)
{
    fn();
    const double t0 = nowMs();
    fn();
    return nowMs() - t0;
}

[[noreturn]] inline void die(const std::string& what)
{
    std::fprintf(stderr, "hipdnn-onednn-bench: %s\n", what.c_str());
    std::exit(2);
}

// ck throws on a failed backend call (a plan the engine declines is reported, not fatal).
inline void ck(hipdnnStatus_t s, const char* call)
{
    if(s != HIPDNN_STATUS_SUCCESS)
    {
        char msg[2048] = {0};
        hipdnnGetLastErrorString(msg, sizeof msg);
        throw std::runtime_error(std::string(call) + ": " + hipdnnGetErrorString(s) + ": " + msg);
    }
}

// The backend's log, captured while plans are built: the oneDNN plugin names the primitives and
// implementations of an execution context ("execution context: conv_fwd [jit:avx2]; ...") and
// why it declines a graph ("not applicable: ...").
inline std::mutex gLogMu;
inline std::vector<std::string> gLog;

inline void captureLog(hipdnnUserLogCallbackHandle_t, hipdnnSeverity_t, const char* msg)
{
    const std::lock_guard<std::mutex> lock(gLogMu);
    gLog.emplace_back(msg);
}

// loggedAfter: the text after `key` in the last captured line that contains it ("" if none).
inline std::string loggedAfter(const std::string& key)
{
    const std::lock_guard<std::mutex> lock(gLogMu);
    for(auto it = gLog.rbegin(); it != gLog.rend(); ++it)
        if(const size_t at = it->find(key); at != std::string::npos)
            return it->substr(at + key.size());
    return "";
}

// implsOf: the bracketed implementation of each step of a plugin plan description
// ("reorder w [jit:uni]; conv_fwd [jit:avx2]; workspace 1024 bytes" -> {jit:uni, jit:avx2}).
inline std::vector<std::string> implsOf(const std::string& describe)
{
    std::vector<std::string> out;
    size_t from = 0;
    while(from < describe.size())
    {
        size_t end = describe.find("; ", from);
        if(end == std::string::npos)
            end = describe.size();
        const std::string step = describe.substr(from, end - from);
        const size_t open = step.rfind(" ["), close = step.rfind(']');
        if(open != std::string::npos && close != std::string::npos && close > open)
            out.push_back(step.substr(open + 2, close - open - 2));
        from = end + 2;
    }
    return out;
}

inline std::string joined(const std::vector<std::string>& v)
{
    std::string s;
    for(const std::string& x : v)
        s += (s.empty() ? "" : ", ") + x;
    return s;
}

// ---- JSON graphs ------------------------------------------------------------------------------

struct T
{
    int64_t uid;
    std::string name, type;
    std::vector<int64_t> dims, strides;
    bool isVirtual = false;
};

inline std::string list(const std::vector<int64_t>& v)
{
    std::string s = "[";
    for(size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

inline std::string tensorJson(const T& t)
{
    return "{\"uid\": " + std::to_string(t.uid) + ", \"name\": \"" + t.name + "\", \"data_type\": \"" + t.type + "\", \"dims\": "
           + list(t.dims) + ", \"strides\": " + list(t.strides) + ", \"virtual\": " + (t.isVirtual ? "true" : "false") + "}";
}

inline std::string graphJson(const std::string& name, const std::string& io, const std::vector<T>& tensors,
                      const std::vector<std::string>& nodes, const std::string& extraTensors)
{
    std::string s = "{\"name\": \"" + name
                    + "\", \"compute_data_type\": \"float\", \"intermediate_data_type\": \"float\", "
                      "\"io_data_type\": \""
                    + io + "\", \"is_override_shape_enabled\": false, \"tensors\": [";
    for(size_t i = 0; i < tensors.size(); ++i)
        s += (i ? ", " : "") + tensorJson(tensors[i]);
    s += extraTensors + "], \"nodes\": [";
    for(size_t i = 0; i < nodes.size(); ++i)
        s += (i ? ", " : "") + nodes[i];
    return s + "]}";
}

inline std::string convParams()
{
    return "\"parameters\": {\"conv_mode\": \"CROSS_CORRELATION\", \"dilation\": [1, 1], \"post_padding\": [1, 1], "
           "\"pre_padding\": [1, 1], \"stride\": [1, 1]}";
}

// NHWC strides of an [N, C, H, W] tensor.
inline std::vector<int64_t> nhwc(const std::vector<int64_t>& d) { return {d[1] * d[2] * d[3], 1, d[3] * d[1], d[1]}; }

// ---- the backend side -------------------------------------------------------------------------

inline size_t typeSize(const std::string& t) { return t == "float" ? 4 : 2; }

inline size_t spanBytes(const T& t)
{
    size_t span = 1;
    for(size_t d = 0; d < t.dims.size(); ++d)
        span += static_cast<size_t>((t.dims[d] - 1) * t.strides[d]);
    return span * typeSize(t.type);
}

// Buffers: one host buffer per non-virtual tensor, filled with values in [-1, 1).
struct Buffers
{
    std::unordered_map<int64_t, std::vector<uint8_t>> bytes;

    explicit Buffers(const std::vector<T>& tensors)
    {
        std::mt19937 gen(7);
        std::uniform_real_distribution<float> dist(-1.f, 1.f);
        for(const T& t : tensors)
        {
            if(t.isVirtual)
                continue;
            std::vector<uint8_t>& b = bytes[t.uid];
            b.resize(spanBytes(t) + 64);
            if(t.type == "float")
                for(size_t i = 0; i + 4 <= b.size(); i += 4)
                {
                    const float v = dist(gen);
                    std::memcpy(&b[i], &v, 4);
                }
            else // bfloat16 or half, rounded to nearest even by the SDK's one conversion
                for(size_t i = 0; i + 2 <= b.size(); i += 2)
                {
                    const float v = dist(gen);
                    const uint16_t h = t.type == "half" ? hipdnnFloatToHalf(v) : hipdnnFloatToBfloat16(v);
                    std::memcpy(&b[i], &h, 2);
                }
        }
    }
    void* ptr(int64_t uid) { return bytes.at(uid).data(); }
};

// BackendRun: a finalized plan on one named engine with its variant pack (the oneDNN tests'
// TestPlan steps); a plan the engine declines throws.
struct BackendRun
{
    hipdnnHandle_t handle;
    testplan::Plan plan;
    testplan::Pack pack;

    BackendRun(hipdnnHandle_t h, const std::string& json, const char* engineName, Buffers& bufs, const std::vector<T>& tensors)
        : handle(h), plan(h, json, engineName), pack(plan, uidsOf(tensors), pointersOf(bufs, tensors))
    {
    }
    void execute() { ck(hipdnnBackendExecute(handle, plan.plan, pack.pack), "hipdnnBackendExecute"); }

private:
    static std::vector<int64_t> uidsOf(const std::vector<T>& tensors)
    {
        std::vector<int64_t> uids;
        for(const T& t : tensors)
            if(!t.isVirtual)
                uids.push_back(t.uid);
        return uids;
    }
    static std::vector<void*> pointersOf(Buffers& bufs, const std::vector<T>& tensors)
    {
        std::vector<void*> ptrs;
        for(const T& t : tensors)
            if(!t.isVirtual)
                ptrs.push_back(bufs.ptr(t.uid));
        return ptrs;
    }
};

// ---- oneDNN called directly -------------------------------------------------------------------

inline const dnnl::engine& eng()
{
    static const dnnl::engine e(dnnl::engine::kind::cpu, 0);
    return e;
}

// implOf: the implementation oneDNN picked for a primitive ("brg:avx512_core", "jit:uni").
inline std::string implOf(const dnnl::primitive& p)
{
    const char* s = nullptr;
    if(dnnl_primitive_desc_query(p.get_primitive_desc(), dnnl_query_impl_info_str, 0, &s) != dnnl_success || !s)
        return "?";
    return s;
}

// Direct: a list of primitives with their arguments, run on one stream.
struct Direct
{
    using Step = std::pair<dnnl::primitive, std::unordered_map<int, memory>>;
    std::vector<Step> steps;
    std::vector<std::string> impls; // implOf each step, in order
    std::vector<std::vector<uint8_t>> owned;

    void add(Step s)
    {
        impls.push_back(implOf(s.first));
        steps.push_back(std::move(s));
    }

    // scratch: a 64-byte aligned buffer, as the backend's workspace regions are.
    memory scratch(const memory::desc& md)
    {
        owned.emplace_back(md.get_size() + 64);
        uint8_t* p = owned.back().data();
        p += (64 - reinterpret_cast<uintptr_t>(p) % 64) % 64;
        return memory(md, eng(), p);
    }
    memory temp(const memory::desc& md) { return scratch(md); }
    void run()
    {
        dnnl::stream s(eng());
        for(auto& [p, args] : steps)
            p.execute(s, args);
        s.wait();
    }
};

inline memory::desc userMd(const T& t) { return memory::desc(t.dims, t.type == "float" ? dt::f32 : dt::bf16, t.strides); }

inline dnnl::primitive_attr userScratch(dnnl::post_ops ops = {})
{
    dnnl::primitive_attr a;
    a.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    a.set_post_ops(ops);
    return a;
}

// The user's weights into the primitive's layout (every call: the weights may change).
inline memory weightsIn(Direct& d, const memory& user, const memory::desc& want)
{
    if(want == user.get_desc())
        return user;
    memory w = d.temp(want);
    d.add({dnnl::reorder(user, w), {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, w}}});
    return w;
}

struct Case
{
    std::string name;
    double gflop;
    std::vector<T> tensors;
    std::vector<std::string> nodes;
    std::string io;
    std::function<void(Direct&, Buffers&)> direct;
    std::string extraTensors; // JSON of tensors without buffers (constants)
    double bytes = 0; // memory-bound problems: bytes moved, for GB/s
    // versus: "" when both sides run the problem as given; else the backend runs it with its
    // float tensors in this type ("half", "bfloat16"; staged through f32 where oneDNN has no
    // kernels for it) against oneDNN direct in fp32 (budget kStagedBudget; implementations are
    // listed, not compared).
    std::string versus;
    std::string directName; // what the direct side runs, when it is not the same problem in fp32
};

constexpr double kBudget = 0.90, kStagedBudget = 0.85;

// retyped: the case's tensors with every float tensor in type t.
inline std::vector<T> retyped(const std::vector<T>& tensors, const std::string& t)
{
    std::vector<T> out = tensors;
    for(T& x : out)
        if(x.type == "float" && x.name != "stats") // SDPA's stats stay fp32
            x.type = t;
    return out;
}

// versus: c, its backend side in type t against oneDNN direct in fp32.
inline Case versus(Case c, const std::string& t)
{
    c.versus = t;
    const std::string from = " fp32 ", to = std::string(" ") + (t == "half" ? "fp16" : "bf16") + " ";
    if(const size_t at = c.name.find(from); at != std::string::npos)
        c.name.replace(at, from.size(), to);
    c.name += " vs fp32";
    return c;
}

// SDPA training problems (onednn_bench_sdpa.cpp): the forward with stats and the backward.
Case sdpaFwdStats(int64_t B, int64_t H, int64_t S, int64_t D);
Case sdpaBwd(int64_t B, int64_t H, int64_t S, int64_t D);

} // namespace onednn_bench
