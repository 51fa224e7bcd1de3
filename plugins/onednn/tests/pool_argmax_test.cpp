// onednn_pool_argmax: max-pool forward with hipDNN's index output on HIPDNNGO_ONEDNN (oneDNN's
// workspace turned into flat in-plane positions, zero padding applied by the engine), against
// the CPU reference engine: y and the index must be identical, element for element. x holds
// small integers from -2 to 2, so most windows hold ties (both engines take the first maximum in
// window order) and, with ZERO_PAD, many windows reaching into the padding have a maximum <= 0
// (y 0, index -1; a tie at 0 goes to whichever comes first). Cases: NCHW ZERO_PAD int32, NHWC
// NEG_INF_PAD int64, windows entirely in the padding (ZERO_PAD and NEG_INF_PAD: index -1, y 0 or
// -inf), 1-D, fp16 x / y (staged through f32), a uint8 index. Each case must also hold
// at least one -1 where padding can win, so the test cannot pass with the padding rules broken.
#include "TestPlan.hpp"

#include <cmath>
#include <cstring>

namespace
{

using testplan::ck;

struct Case
{
    const char* name;
    std::vector<int64_t> x; // [N, C, spatial...]
    std::vector<int64_t> window, stride, pre, post;
    const char* pad; // ZERO_PAD / NEG_INF_PAD
    const char* index; // int32 / int64 / uint8
    const char* io; // float / half
    bool nhwc;
    bool expectPaddingMaxima; // at least one index -1
};

std::string list(const std::vector<int64_t>& v)
{
    std::string s = "[";
    for(size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

std::vector<int64_t> strides(const std::vector<int64_t>& d, bool nhwc)
{
    std::vector<size_t> order;
    order.push_back(0);
    if(!nhwc)
        order.push_back(1);
    for(size_t i = 2; i < d.size(); ++i)
        order.push_back(i);
    if(nhwc)
        order.push_back(1);
    std::vector<int64_t> s(d.size());
    int64_t acc = 1;
    for(size_t i = order.size(); i-- > 0;)
    {
        s[order[i]] = acc;
        acc *= d[order[i]];
    }
    return s;
}

std::vector<int64_t> outDims(const Case& c)
{
    std::vector<int64_t> y{c.x[0], c.x[1]};
    for(size_t i = 0; i < c.window.size(); ++i)
        y.push_back((c.x[2 + i] + c.pre[i] + c.post[i] - c.window[i]) / c.stride[i] + 1);
    return y;
}

std::string graphJson(const Case& c)
{
    const std::vector<int64_t> y = outDims(c);
    auto tensor = [&](int uid, const char* name, const char* type, const std::vector<int64_t>& d) {
        return std::string("{\"uid\": ") + std::to_string(uid) + ", \"name\": \"" + name + "\", \"data_type\": \"" + type
               + "\", \"dims\": " + list(d) + ", \"strides\": " + list(strides(d, c.nhwc)) + ", \"virtual\": false}";
    };
    return std::string("{\"name\": \"pool_argmax\", \"compute_data_type\": \"float\", \"intermediate_data_type\": \"float\", ")
           + "\"io_data_type\": \"" + c.io + "\", \"is_override_shape_enabled\": false, \"tensors\": [" + tensor(1, "x", c.io, c.x)
           + ", " + tensor(2, "y", c.io, y) + ", " + tensor(3, "index", c.index, y) + "], \"nodes\": [{\"type\": "
           + "\"ResampleFwdAttributes\", \"name\": \"pool\", \"compute_data_type\": \"float\", \"inputs\": {\"x_tensor_uid\": 1}, "
           + "\"outputs\": {\"y_tensor_uid\": 2, \"index_tensor_uid\": 3}, \"attributes\": {\"pre_padding\": " + list(c.pre)
           + ", \"post_padding\": " + list(c.post) + ", \"stride\": " + list(c.stride) + ", \"window\": " + list(c.window)
           + ", \"resample_mode\": \"MAXPOOL\", \"padding_mode\": \"" + c.pad + "\"}}]}";
}

int64_t count(const std::vector<int64_t>& d)
{
    int64_t n = 1;
    for(int64_t v : d)
        n *= v;
    return n;
}

size_t typeSize(const char* t)
{
    const std::string s = t;
    return s == "float" || s == "int32" ? 4 : s == "int64" ? 8 : s == "half" ? 2 : 1;
}

int64_t readIndex(const char* t, const std::vector<uint8_t>& b, int64_t i)
{
    const std::string s = t;
    if(s == "int32")
        return reinterpret_cast<const int32_t*>(b.data())[i];
    if(s == "int64")
        return reinterpret_cast<const int64_t*>(b.data())[i];
    return b[static_cast<size_t>(i)];
}

int checkCase(hipdnnHandle_t h, const Case& c)
{
    const std::string json = graphJson(c);
    const int64_t nx = count(c.x), ny = count(outDims(c));
    std::vector<uint8_t> x(static_cast<size_t>(nx) * typeSize(c.io));
    uint32_t seed = 11;
    for(int64_t i = 0; i < nx; ++i)
    {
        seed = seed * 1664525u + 1013904223u;
        const float v = static_cast<float>(static_cast<int>((seed >> 8) % 5u) - 2);
        if(std::string(c.io) == "half")
        {
            const uint16_t hb = v == 0 ? 0 : static_cast<uint16_t>((v < 0 ? 0x8000u : 0u) | (std::fabs(v) == 1 ? 0x3C00u : 0x4000u));
            std::memcpy(&x[static_cast<size_t>(i) * 2], &hb, 2);
        }
        else
            std::memcpy(&x[static_cast<size_t>(i) * 4], &v, 4);
    }
    std::vector<uint8_t> y[2], index[2];
    const char* engines[2] = {"HIPDNNGO_ONEDNN", "HIPDNNGO_CPU_REFERENCE"};
    for(int e = 0; e < 2; ++e)
    {
        y[e].assign(static_cast<size_t>(ny) * typeSize(c.io), 0xAB);
        index[e].assign(static_cast<size_t>(ny) * typeSize(c.index), 0xAB);
        const testplan::Plan plan(h, json, engines[e]);
        testplan::Pack pack(plan, {1, 2, 3}, {x.data(), y[e].data(), index[e].data()});
        ck(hipdnnBackendExecute(h, plan.plan, pack.pack), engines[e]);
    }
    int failures = 0;
    if(y[0] != y[1])
    {
        std::fprintf(stderr, "FAIL: %s: y differs between the engines\n", c.name);
        ++failures;
    }
    int64_t paddingMaxima = 0, differ = 0;
    for(int64_t i = 0; i < ny; ++i)
    {
        const int64_t a = readIndex(c.index, index[0], i), b = readIndex(c.index, index[1], i);
        paddingMaxima += (std::string(c.index) == "uint8" ? a == 255 : a == -1) ? 1 : 0;
        if(a != b && differ++ < 5)
            std::fprintf(stderr, "FAIL: %s: index element %lld: oneDNN %lld, reference %lld\n", c.name,
                         static_cast<long long>(i), static_cast<long long>(a), static_cast<long long>(b));
    }
    failures += differ > 0;
    if(c.expectPaddingMaxima && paddingMaxima == 0)
    {
        std::fprintf(stderr, "FAIL: %s: no padding maximum (-1) in the index; the case does not test the padding\n", c.name);
        ++failures;
    }
    std::printf("%s: %s (%lld outputs, %lld padding maxima)\n", c.name, failures ? "FAIL" : "ok", static_cast<long long>(ny),
                static_cast<long long>(paddingMaxima));
    return failures;
}

int check(hipdnnHandle_t h)
{
    const Case cases[] = {
        {"nchw_zero_pad_i32", {2, 3, 8, 9}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, "ZERO_PAD", "int32", "float", false, true},
        {"nhwc_neg_inf_i64", {2, 16, 7, 7}, {3, 2}, {1, 2}, {1, 0}, {1, 1}, "NEG_INF_PAD", "int64", "float", true, false},
        {"all_padding_zero_pad", {1, 2, 4, 4}, {2, 2}, {2, 2}, {2, 2}, {2, 2}, "ZERO_PAD", "int32", "float", false, true},
        {"all_padding_neg_inf", {1, 2, 4, 4}, {2, 2}, {2, 2}, {2, 2}, {2, 2}, "NEG_INF_PAD", "int32", "float", false, true},
        {"1d_zero_pad_i32", {2, 4, 20}, {4}, {3}, {2}, {2}, "ZERO_PAD", "int32", "float", false, true},
        {"fp16_nhwc_zero_pad_i32", {2, 4, 8, 8}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, "ZERO_PAD", "int32", "half", true, true},
        {"nchw_u8_no_padding", {2, 3, 8, 8}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, "NEG_INF_PAD", "uint8", "float", false, false},
    };
    int failures = 0;
    for(const Case& c : cases)
        failures += checkCase(h, c);
    if(failures == 0)
        std::printf("PASS: max-pool forward y and index identical to the CPU reference engine\n");
    return failures;
}

} // namespace

int main() { return testplan::runWithHandle(check); }
