#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

#include "backend_api.hpp"

std::vector<std::string> resolveAll(void* lib, BackendApi& api) {
    std::vector<std::string> missing;
#define X(name)                               \
    {                                         \
        void* p = dlsym(lib, #name);          \
        if (p == nullptr)                     \
            missing.push_back(#name);         \
        std::memcpy(&api.name, &p, sizeof p); \
    }
    HIPDNN_HEADER_FUNCTIONS(X)
#undef X
    return missing;
}

std::string loadedFrom(const void* fn) {
    Dl_info info{};
    if (fn == nullptr || dladdr(fn, &info) == 0 || info.dli_fname == nullptr)
        return "";
    return info.dli_fname;
}

namespace {

constexpr int64_t N = 2, C = 4, H = 8, W = 8, K = 8, R = 3, S = 3, PAD = 1;

struct Checker {
    const BackendApi& api;
    const char* who;
    bool ok = true;

    // Returns true when status is SUCCESS; otherwise prints the call, the status and the
    // library's last error.
    bool operator()(hipdnnStatus_t status, const char* call, int line) {
        if (status == HIPDNN_STATUS_SUCCESS)
            return true;
        char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
        api.hipdnnGetLastErrorString(msg, sizeof msg);
        std::fprintf(stderr, "%s: line %d: %s -> %s: %s\n", who, line, call, api.hipdnnGetErrorString(status), msg);
        ok = false;
        return false;
    }
};

#define TRY(call)                         \
    do {                                  \
        if (!ck((call), #call, __LINE__)) \
            return false;                 \
    } while (0)

bool makeTensor(const BackendApi& a, Checker& ck, int64_t uid, std::vector<int64_t> dims, bool isVirtual,
                hipdnnBackendDescriptor_t* out) {
    std::vector<int64_t> strides(dims.size());
    int64_t s = 1;
    for (size_t i = dims.size(); i-- > 0;) {
        strides[i] = s;
        s *= dims[i];
    }
    hipdnnDataType_t type = HIPDNN_DATA_FLOAT;
    int64_t align = 16;
    bool virt = isVirtual;
    TRY(a.hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, out));
    TRY(a.hipdnnBackendSetAttribute(*out, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
    TRY(a.hipdnnBackendSetAttribute(*out, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &type));
    TRY(a.hipdnnBackendSetAttribute(*out, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, int64_t(dims.size()), dims.data()));
    TRY(a.hipdnnBackendSetAttribute(*out, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, int64_t(strides.size()),
                                    strides.data()));
    TRY(a.hipdnnBackendSetAttribute(*out, HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, HIPDNN_TYPE_INT64, 1, &align));
    TRY(a.hipdnnBackendSetAttribute(*out, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt));
    TRY(a.hipdnnBackendFinalize(*out));
    return true;
}

bool makePointwise(const BackendApi& a, Checker& ck, hipdnnPointwiseMode_t mode, hipdnnBackendDescriptor_t in0,
                   hipdnnBackendDescriptor_t in1, hipdnnBackendDescriptor_t out, hipdnnBackendDescriptor_t* op) {
    hipdnnDataType_t prec = HIPDNN_DATA_FLOAT;
    TRY(a.hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, op));
    TRY(a.hipdnnBackendSetAttribute(*op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode));
    TRY(a.hipdnnBackendSetAttribute(*op, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &prec));
    TRY(a.hipdnnBackendSetAttribute(*op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in0));
    if (in1 != nullptr)
        TRY(a.hipdnnBackendSetAttribute(*op, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in1));
    TRY(a.hipdnnBackendSetAttribute(*op, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &out));
    TRY(a.hipdnnBackendFinalize(*op));
    return true;
}

// Owns every descriptor it is given and destroys them in reverse order.
struct Descriptors {
    const BackendApi& api;
    std::deque<hipdnnBackendDescriptor_t> all; // stable addresses across add()
    hipdnnBackendDescriptor_t* add() {
        all.push_back(nullptr);
        return &all.back();
    }
    ~Descriptors() {
        for (size_t i = all.size(); i-- > 0;)
            if (all[i] != nullptr)
                api.hipdnnBackendDestroyDescriptor(all[i]);
    }
};

bool run(const BackendApi& a, Checker& ck) {
    hipdnnHandle_t handle = nullptr;
    TRY(a.hipdnnCreate(&handle));
    struct HandleGuard {
        const BackendApi& a;
        hipdnnHandle_t h;
        ~HandleGuard() { a.hipdnnDestroy(h); }
    } handleGuard{a, handle};
    Descriptors d{a, {}};

    hipdnnBackendDescriptor_t x, w, convOut, b, biased, y, conv, add, relu, graph, heur, plan, pack;
    if (!makeTensor(a, ck, 1, {N, C, H, W}, false, &x) || !makeTensor(a, ck, 2, {K, C, R, S}, false, &w)
        || !makeTensor(a, ck, 3, {N, K, H, W}, true, &convOut) || !makeTensor(a, ck, 4, {1, K, 1, 1}, false, &b)
        || !makeTensor(a, ck, 5, {N, K, H, W}, true, &biased) || !makeTensor(a, ck, 6, {N, K, H, W}, false, &y))
        return false;
    for (auto t : {x, w, convOut, b, biased, y})
        *d.add() = t;

    int64_t pad[2] = {PAD, PAD}, one[2] = {1, 1};
    hipdnnConvolutionMode_t mode = HIPDNN_CROSS_CORRELATION;
    hipdnnDataType_t compute = HIPDNN_DATA_FLOAT;
    TRY(a.hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, d.add()));
    conv = d.all.back();
    TRY(a.hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x));
    TRY(a.hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &w));
    TRY(a.hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                    &convOut));
    TRY(a.hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, pad));
    TRY(a.hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, pad));
    TRY(a.hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, 2, one));
    TRY(a.hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, 2, one));
    TRY(a.hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &mode));
    TRY(a.hipdnnBackendSetAttribute(conv, HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &compute));
    TRY(a.hipdnnBackendFinalize(conv));
    if (!makePointwise(a, ck, HIPDNN_POINTWISE_ADD, convOut, b, biased, d.add()))
        return false;
    add = d.all.back();
    if (!makePointwise(a, ck, HIPDNN_POINTWISE_RELU_FWD, biased, nullptr, y, d.add()))
        return false;
    relu = d.all.back();

    hipdnnBackendDescriptor_t ops[3] = {conv, add, relu};
    TRY(a.hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, d.add()));
    graph = d.all.back();
    TRY(a.hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 3, ops));
    TRY(a.hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle));
    TRY(a.hipdnnBackendFinalize(graph));

    hipdnnBackendHeurMode_t heurMode = HIPDNN_HEUR_MODE_FALLBACK;
    TRY(a.hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, d.add()));
    heur = d.all.back();
    TRY(a.hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph));
    TRY(a.hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &heurMode));
    TRY(a.hipdnnBackendFinalize(heur));
    int64_t count = 0;
    TRY(a.hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr));
    std::vector<hipdnnBackendDescriptor_t> configs(size_t(count > 0 ? count : 0));
    for (auto& c : configs) {
        TRY(a.hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, d.add()));
        c = d.all.back();
    }
    int64_t returned = 0;
    TRY(a.hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, count, &returned,
                                    configs.data()));
    hipdnnBackendDescriptor_t chosen = nullptr;
    for (int64_t i = 0; i < returned && chosen == nullptr; i++) {
        hipdnnBackendDescriptor_t engine = nullptr;
        char name[256] = {};
        int64_t len = 0;
        TRY(a.hipdnnBackendFinalize(configs[size_t(i)]));
        TRY(a.hipdnnBackendGetAttribute(configs[size_t(i)], HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                        nullptr, &engine));
        TRY(a.hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &len, name));
        a.hipdnnBackendDestroyDescriptor(engine);
        if (std::strcmp(name, "HIPDNNGO_CPU_REFERENCE") == 0)
            chosen = configs[size_t(i)];
    }
    if (chosen == nullptr) {
        std::fprintf(stderr,
                     "%s: none of %lld heuristic result(s) is HIPDNNGO_CPU_REFERENCE (plugins not found next to the library?)\n",
                     ck.who, (long long)returned);
        return false;
    }
    TRY(a.hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, d.add()));
    plan = d.all.back();
    TRY(a.hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &chosen));
    TRY(a.hipdnnBackendFinalize(plan));
    int64_t wsSize = 0;
    TRY(a.hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, nullptr, &wsSize));

    std::vector<float> xs(N * C * H * W), ws(K * C * R * S), bs(K), ys(N * K * H * W, -1.0f);
    uint32_t seed = 12345;
    auto next = [&] {
        seed = seed * 1664525u + 1013904223u;
        return float(seed >> 8) / float(1u << 24) * 2.0f - 1.0f;
    };
    for (auto* v : {&xs, &ws, &bs})
        for (auto& e : *v)
            e = next();
    std::vector<unsigned char> workspace(size_t(wsSize) + 1);
    void* ptrs[4] = {xs.data(), ws.data(), bs.data(), ys.data()};
    int64_t uids[4] = {1, 2, 4, 6};
    void* wsPtr = workspace.data();
    TRY(a.hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, d.add()));
    pack = d.all.back();
    TRY(a.hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 4, uids));
    TRY(a.hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 4, ptrs));
    TRY(a.hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &wsPtr));
    TRY(a.hipdnnBackendFinalize(pack));
    TRY(a.hipdnnBackendExecute(handle, plan, pack));

    int bad = 0;
    for (int64_t n = 0; n < N; n++)
        for (int64_t k = 0; k < K; k++)
            for (int64_t h = 0; h < H; h++)
                for (int64_t x0 = 0; x0 < W; x0++) {
                    double acc = bs[size_t(k)], mag = std::fabs(acc);
                    for (int64_t c = 0; c < C; c++)
                        for (int64_t r = 0; r < R; r++)
                            for (int64_t s = 0; s < S; s++) {
                                int64_t ih = h + r - PAD, iw = x0 + s - PAD;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                                    continue;
                                double t = double(xs[size_t(((n * C + c) * H + ih) * W + iw)])
                                           * double(ws[size_t(((k * C + c) * R + r) * S + s)]);
                                acc += t;
                                mag += std::fabs(t);
                            }
                    double want = acc > 0 ? acc : 0, got = ys[size_t(((n * K + k) * H + h) * W + x0)];
                    // 16 float32 roundoffs of the terms' magnitude: ample for a 36-term sum.
                    if (!(std::fabs(want - got) <= std::ldexp(mag, -20))) {
                        if (bad++ < 5)
                            std::fprintf(stderr, "%s: y[%lld,%lld,%lld,%lld] = %.9g, want %.9g\n", ck.who, (long long)n,
                                         (long long)k, (long long)h, (long long)x0, got, want);
                    }
                }
    if (bad != 0) {
        std::fprintf(stderr, "%s: %d of %lld outputs wrong\n", ck.who, bad, (long long)ys.size());
        return false;
    }
    return true;
}

} // namespace

bool runConvBiasRelu(const BackendApi& api, const char* who) {
    Checker ck{api, who};
    return run(api, ck) && ck.ok;
}
