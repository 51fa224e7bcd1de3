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

namespace
{

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

double nowMs() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// onceMs times one run of fn (the slow reference engine, after its warm-up run).
double onceMs(const std::function<void()>& fn)
{
    fn();
    const double t0 = nowMs();
    fn();
    return nowMs() - t0;
}

[[noreturn]] void die(const std::string& what)
{
    std::fprintf(stderr, "hipdnn-onednn-bench: %s\n", what.c_str());
    std::exit(2);
}

// ck throws on a failed backend call (a plan the engine declines is reported, not fatal).
void ck(hipdnnStatus_t s, const char* call)
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
std::mutex gLogMu;
std::vector<std::string> gLog;

void captureLog(hipdnnUserLogCallbackHandle_t, hipdnnSeverity_t, const char* msg)
{
    const std::lock_guard<std::mutex> lock(gLogMu);
    gLog.emplace_back(msg);
}

// loggedAfter: the text after `key` in the last captured line that contains it ("" if none).
std::string loggedAfter(const std::string& key)
{
    const std::lock_guard<std::mutex> lock(gLogMu);
    for(auto it = gLog.rbegin(); it != gLog.rend(); ++it)
        if(const size_t at = it->find(key); at != std::string::npos)
            return it->substr(at + key.size());
    return "";
}

// implsOf: the bracketed implementation of each step of a plugin plan description
// ("reorder w [jit:uni]; conv_fwd [jit:avx2]; workspace 1024 bytes" -> {jit:uni, jit:avx2}).
std::vector<std::string> implsOf(const std::string& describe)
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

std::string joined(const std::vector<std::string>& v)
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

std::string list(const std::vector<int64_t>& v)
{
    std::string s = "[";
    for(size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

std::string tensorJson(const T& t)
{
    return "{\"uid\": " + std::to_string(t.uid) + ", \"name\": \"" + t.name + "\", \"data_type\": \"" + t.type + "\", \"dims\": "
           + list(t.dims) + ", \"strides\": " + list(t.strides) + ", \"virtual\": " + (t.isVirtual ? "true" : "false") + "}";
}

std::string graphJson(const std::string& name, const std::string& io, const std::vector<T>& tensors,
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

std::string convParams()
{
    return "\"parameters\": {\"conv_mode\": \"CROSS_CORRELATION\", \"dilation\": [1, 1], \"post_padding\": [1, 1], "
           "\"pre_padding\": [1, 1], \"stride\": [1, 1]}";
}

// NHWC strides of an [N, C, H, W] tensor.
std::vector<int64_t> nhwc(const std::vector<int64_t>& d) { return {d[1] * d[2] * d[3], 1, d[3] * d[1], d[1]}; }

// ---- the backend side -------------------------------------------------------------------------

size_t typeSize(const std::string& t) { return t == "float" ? 4 : 2; }

size_t spanBytes(const T& t)
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

const dnnl::engine& eng()
{
    static const dnnl::engine e(dnnl::engine::kind::cpu, 0);
    return e;
}

// implOf: the implementation oneDNN picked for a primitive ("brg:avx512_core", "jit:uni").
std::string implOf(const dnnl::primitive& p)
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

memory::desc userMd(const T& t) { return memory::desc(t.dims, t.type == "float" ? dt::f32 : dt::bf16, t.strides); }

dnnl::primitive_attr userScratch(dnnl::post_ops ops = {})
{
    dnnl::primitive_attr a;
    a.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    a.set_post_ops(ops);
    return a;
}

// The user's weights into the primitive's layout (every call: the weights may change).
memory weightsIn(Direct& d, const memory& user, const memory::desc& want)
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
std::vector<T> retyped(const std::vector<T>& tensors, const std::string& t)
{
    std::vector<T> out = tensors;
    for(T& x : out)
        if(x.type == "float" && x.name != "stats") // SDPA's stats stay fp32
            x.type = t;
    return out;
}

// versus: c, its backend side in type t against oneDNN direct in fp32.
Case versus(Case c, const std::string& t)
{
    c.versus = t;
    const std::string from = " fp32 ", to = std::string(" ") + (t == "half" ? "fp16" : "bf16") + " ";
    if(const size_t at = c.name.find(from); at != std::string::npos)
        c.name.replace(at, from.size(), to);
    c.name += " vs fp32";
    return c;
}

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

// ---- SDPA (training): forward with stats, backward ---------------------------------------------
// [B, H, S, D] dense, scale 1/sqrt(D), no mask. The direct side is a plain primitive sequence of
// its own (not the engine's): the forward normalises O instead of P (O = (E V) / Z with
// E = exp(S - rowmax), Z = rowsum(E), stats = rowmax + log Z); the backward follows the textbook
// order with Delta from a binary mul and a sum reduction. Per-row operands go through a
// [1, rows, n] view, where they are oneDNN's per-channel broadcast (vectorised in 2.6).

constexpr float kSdpaScale = 0.125f; // 1 / sqrt(64)

std::string sdpaAttrs()
{
    return "\"attributes\": {\"alibi_mask\": false, \"padding_mask\": false, \"causal_mask\": false, "
           "\"causal_mask_bottom_right\": false, \"diagonal_alignment\": \"TOP_LEFT\", \"attn_scale_value\": 0.125}";
}

std::vector<int64_t> bhsd(int64_t, int64_t H, int64_t S, int64_t D) { return {H * S * D, S * D, D, 1}; }

// The direct side's helpers: a primitive over user buffers with a user scratchpad.
template <typename Prim, typename PD>
void addPrim(Direct& d, const PD& pd, std::unordered_map<int, memory> args)
{
    if(pd.scratchpad_desc().get_size() > 0)
        args[DNNL_ARG_SCRATCHPAD] = d.scratch(pd.scratchpad_desc());
    d.add({Prim(pd), std::move(args)});
}

dnnl::primitive_attr withOps(std::initializer_list<std::pair<dnnl::algorithm, float>> elt)
{
    dnnl::post_ops ops;
    for(const auto& e : elt)
        ops.append_eltwise(1.f, e.first, e.second, 0.f);
    return userScratch(ops);
}

Case sdpaFwdStats(int64_t B, int64_t H, int64_t S, int64_t D)
{
    Case c;
    c.name = "sdpa fwd+stats fp32 B" + std::to_string(B) + " H" + std::to_string(H) + " S" + std::to_string(S) + " D"
             + std::to_string(D);
    c.directName = "oneDNN primitives, O normalised after PV";
    c.gflop = 4.0 * B * H * S * S * D * 1e-9;
    c.io = "float";
    const std::vector<int64_t> qd{B, H, S, D};
    c.tensors = {{1, "q", "float", qd, bhsd(B, H, S, D)}, {2, "k", "float", qd, bhsd(B, H, S, D)},
                 {3, "v", "float", qd, bhsd(B, H, S, D)}, {4, "o", "float", qd, bhsd(B, H, S, D)},
                 {5, "stats", "float", {B, H, S, 1}, {H * S, S, 1, 1}}};
    c.nodes.push_back("{\"type\": \"SdpaAttributes\", \"name\": \"sdpa\", \"compute_data_type\": \"float\", "
                      "\"inputs\": {\"q_tensor_uid\": 1, \"k_tensor_uid\": 2, \"v_tensor_uid\": 3}, "
                      "\"outputs\": {\"o_tensor_uid\": 4, \"stats_tensor_uid\": 5}, "
                      + sdpaAttrs() + "}");
    c.direct = [B, H, S, D](Direct& d, Buffers& bufs) {
        using namespace dnnl;
        const int64_t rows = B * H * S;
        const memory::desc q({B, H, S, D}, dt::f32, tag::abcd), kT({B, H, D, S}, dt::f32, tag::abdc),
            s4({B, H, S, S}, dt::f32, tag::abcd), s3({1, rows, S}, dt::f32, tag::abc), r3({1, rows, 1}, dt::f32, tag::abc),
            r4({B, H, S, 1}, dt::f32, tag::abcd), o3({1, rows, D}, dt::f32, tag::abc);
        const memory Q(q, eng(), bufs.ptr(1)), K(kT, eng(), bufs.ptr(2)), V(q, eng(), bufs.ptr(3)), O(q, eng(), bufs.ptr(4));
        const memory O3(o3, eng(), bufs.ptr(4)), St(r3, eng(), bufs.ptr(5));
        const memory Sm = d.temp(s4), M = d.temp(r4), Z = d.temp(r4);
        const memory S3(s3, eng(), Sm.get_data_handle()), M3(r3, eng(), M.get_data_handle());
        const memory Z3(r3, eng(), Z.get_data_handle());
        using mm = dnnl::matmul;
        const primitive_attr scaled = withOps({{algorithm::eltwise_linear, kSdpaScale}});
        const primitive_attr expAfter = withOps({{algorithm::eltwise_exp, 0.f}});
        const reduction::desc rowMax(algorithm::reduction_max, s4, r4, 0.f, 0.f);
        const reduction::desc rowSum(algorithm::reduction_sum, s4, r4, 0.f, 0.f);
        const eltwise_forward::desc logZ(prop_kind::forward_inference, algorithm::eltwise_log, r3, 0.f, 0.f);
        addPrim<mm>(d, mm::primitive_desc(mm::desc(q, kT, s4), scaled, eng()),
                    {{DNNL_ARG_SRC, Q}, {DNNL_ARG_WEIGHTS, K}, {DNNL_ARG_DST, Sm}});
        addPrim<reduction>(d, reduction::primitive_desc(rowMax, userScratch(), eng()), {{DNNL_ARG_SRC, Sm}, {DNNL_ARG_DST, M}});
        addPrim<binary>(d, binary::primitive_desc(binary::desc(algorithm::binary_sub, s3, r3, s3), expAfter, eng()),
                        {{DNNL_ARG_SRC_0, S3}, {DNNL_ARG_SRC_1, M3}, {DNNL_ARG_DST, S3}});
        addPrim<reduction>(d, reduction::primitive_desc(rowSum, userScratch(), eng()), {{DNNL_ARG_SRC, Sm}, {DNNL_ARG_DST, Z}});
        addPrim<mm>(d, mm::primitive_desc(mm::desc(s4, q, q), userScratch(), eng()),
                    {{DNNL_ARG_SRC, Sm}, {DNNL_ARG_WEIGHTS, V}, {DNNL_ARG_DST, O}});
        addPrim<binary>(d, binary::primitive_desc(binary::desc(algorithm::binary_div, o3, r3, o3), userScratch(), eng()),
                        {{DNNL_ARG_SRC_0, O3}, {DNNL_ARG_SRC_1, Z3}, {DNNL_ARG_DST, O3}});
        addPrim<eltwise_forward>(d, eltwise_forward::primitive_desc(logZ, userScratch(), eng()),
                                 {{DNNL_ARG_SRC, Z3}, {DNNL_ARG_DST, Z3}});
        addPrim<binary>(d, binary::primitive_desc(binary::desc(algorithm::binary_add, r3, r3, r3), userScratch(), eng()),
                        {{DNNL_ARG_SRC_0, M3}, {DNNL_ARG_SRC_1, Z3}, {DNNL_ARG_DST, St}});
    };
    return c;
}

Case sdpaBwd(int64_t B, int64_t H, int64_t S, int64_t D)
{
    Case c;
    c.name = "sdpa bwd fp32 B" + std::to_string(B) + " H" + std::to_string(H) + " S" + std::to_string(S) + " D"
             + std::to_string(D);
    c.directName = "oneDNN primitives, textbook order";
    c.gflop = 10.0 * B * H * S * S * D * 1e-9;
    c.io = "float";
    const std::vector<int64_t> qd{B, H, S, D};
    const std::vector<int64_t> st = bhsd(B, H, S, D);
    c.tensors = {{1, "q", "float", qd, st},  {2, "k", "float", qd, st},  {3, "v", "float", qd, st},
                 {4, "o", "float", qd, st},  {5, "do", "float", qd, st}, {6, "stats", "float", {B, H, S, 1}, {H * S, S, 1, 1}},
                 {7, "dq", "float", qd, st}, {8, "dk", "float", qd, st}, {9, "dv", "float", qd, st}};
    c.nodes.push_back("{\"type\": \"SdpaBackwardAttributes\", \"name\": \"sdpa_bwd\", \"compute_data_type\": \"float\", "
                      "\"inputs\": {\"q_tensor_uid\": 1, \"k_tensor_uid\": 2, \"v_tensor_uid\": 3, \"o_tensor_uid\": 4, "
                      "\"do_tensor_uid\": 5, \"stats_tensor_uid\": 6}, "
                      "\"outputs\": {\"dq_tensor_uid\": 7, \"dk_tensor_uid\": 8, \"dv_tensor_uid\": 9}, "
                      + sdpaAttrs() + "}");
    c.direct = [B, H, S, D](Direct& d, Buffers& bufs) {
        using namespace dnnl;
        const int64_t rows = B * H * S;
        const memory::desc q({B, H, S, D}, dt::f32, tag::abcd), qT({B, H, D, S}, dt::f32, tag::abdc),
            s4({B, H, S, S}, dt::f32, tag::abcd), sT({B, H, S, S}, dt::f32, tag::abdc), s3({1, rows, S}, dt::f32, tag::abc),
            r3({1, rows, 1}, dt::f32, tag::abc), o3({1, rows, D}, dt::f32, tag::abc);
        auto user = [&](int uid, const memory::desc& md) { return memory(md, eng(), bufs.ptr(uid)); };
        const memory Pm = d.temp(s4), dPm = d.temp(s4), X = d.temp(o3), Delta = d.temp(r3);
        const memory P3(s3, eng(), Pm.get_data_handle()), dP3(s3, eng(), dPm.get_data_handle());
        const memory PT(sT, eng(), Pm.get_data_handle()), dST(sT, eng(), dPm.get_data_handle());
        const primitive_attr scaled = withOps({{algorithm::eltwise_linear, kSdpaScale}});
        const primitive_attr expAfter = withOps({{algorithm::eltwise_exp, 0.f}});
        const reduction::desc rowSum(algorithm::reduction_sum, o3, r3, 0.f, 0.f);
        using mm = dnnl::matmul;
        auto bin = [&](algorithm alg, const memory::desc& src0, const memory::desc& src1, const primitive_attr& attr) {
            return binary::primitive_desc(binary::desc(alg, src0, src1, src0), attr, eng());
        };
        addPrim<mm>(d, mm::primitive_desc(mm::desc(q, qT, s4), scaled, eng()),
                    {{DNNL_ARG_SRC, user(1, q)}, {DNNL_ARG_WEIGHTS, user(2, qT)}, {DNNL_ARG_DST, Pm}});
        addPrim<binary>(d, bin(algorithm::binary_sub, s3, r3, expAfter), // P = exp(S - stats)
                        {{DNNL_ARG_SRC_0, P3}, {DNNL_ARG_SRC_1, user(6, r3)}, {DNNL_ARG_DST, P3}});
        addPrim<mm>(d, mm::primitive_desc(mm::desc(sT, q, q), userScratch(), eng()),
                    {{DNNL_ARG_SRC, PT}, {DNNL_ARG_WEIGHTS, user(5, q)}, {DNNL_ARG_DST, user(9, q)}});
        addPrim<mm>(d, mm::primitive_desc(mm::desc(q, qT, s4), userScratch(), eng()),
                    {{DNNL_ARG_SRC, user(5, q)}, {DNNL_ARG_WEIGHTS, user(3, qT)}, {DNNL_ARG_DST, dPm}});
        addPrim<binary>(d, bin(algorithm::binary_mul, o3, o3, userScratch()),
                        {{DNNL_ARG_SRC_0, user(5, o3)}, {DNNL_ARG_SRC_1, user(4, o3)}, {DNNL_ARG_DST, X}});
        addPrim<reduction>(d, reduction::primitive_desc(rowSum, userScratch(), eng()),
                           {{DNNL_ARG_SRC, X}, {DNNL_ARG_DST, Delta}});
        addPrim<binary>(d, bin(algorithm::binary_sub, s3, r3, userScratch()),
                        {{DNNL_ARG_SRC_0, dP3}, {DNNL_ARG_SRC_1, Delta}, {DNNL_ARG_DST, dP3}});
        addPrim<binary>(d, bin(algorithm::binary_mul, s3, s3, userScratch()),
                        {{DNNL_ARG_SRC_0, dP3}, {DNNL_ARG_SRC_1, P3}, {DNNL_ARG_DST, dP3}});
        addPrim<mm>(d, mm::primitive_desc(mm::desc(s4, q, q), scaled, eng()),
                    {{DNNL_ARG_SRC, dPm}, {DNNL_ARG_WEIGHTS, user(2, q)}, {DNNL_ARG_DST, user(7, q)}});
        addPrim<mm>(d, mm::primitive_desc(mm::desc(sT, q, q), scaled, eng()),
                    {{DNNL_ARG_SRC, dST}, {DNNL_ARG_WEIGHTS, user(1, q)}, {DNNL_ARG_DST, user(8, q)}});
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
