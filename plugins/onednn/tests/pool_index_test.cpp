// onednn_pool_index: max-pool backward through hipDNN's index tensor on HIPDNNGO_ONEDNN.
//  - dx must equal, exactly, the scatter dx[index(o)] += dy[o] computed here (dy holds small
//    integers, so every sum is exact in float whatever the order), with x full of ties and the
//    index its first maximum in window order (the CPU reference engine's forward convention);
//    the CPU reference engine must give the same dx;
//  - -1 (a padding maximum) where the window reaches into the padding sends that dy nowhere, on
//    both engines (dx equal to the scatter that skips it);
//  - an index that is not a position inside its output's window (one in the plane but outside
//    the window, and -1 for a window inside the input) fails the execute with PLUGIN_ERROR and a
//    message naming the element and its value, and the plan still runs correctly afterwards.
#include "TestPlan.hpp"

#include <cstring>

namespace
{

using testplan::ck;

// x [2, 3, 8, 9] -> 3x3 windows, stride 2, padding 1 on each side -> dy, index [2, 3, 4, 5].
constexpr int64_t N = 2, C = 3, H = 8, W = 9, OH = 4, OW = 5, K = 3, S = 2, P = 1;

const char* kGraph = R"({"name": "pool_index", "compute_data_type": "float", "intermediate_data_type": "float",
 "io_data_type": "float", "is_override_shape_enabled": false,
 "tensors": [
  {"uid": 1, "name": "dy", "data_type": "float", "dims": [2, 3, 4, 5], "strides": [60, 20, 5, 1], "virtual": false},
  {"uid": 2, "name": "dx", "data_type": "float", "dims": [2, 3, 8, 9], "strides": [216, 72, 9, 1], "virtual": false},
  {"uid": 3, "name": "index", "data_type": "int32", "dims": [2, 3, 4, 5], "strides": [60, 20, 5, 1], "virtual": false}],
 "nodes": [
  {"type": "ResampleBwdAttributes", "name": "poolb", "compute_data_type": "float",
   "inputs": {"dy_tensor_uid": 1, "index_tensor_uid": 3}, "outputs": {"dx_tensor_uid": 2},
   "attributes": {"pre_padding": [1, 1], "post_padding": [1, 1], "stride": [2, 2], "window": [3, 3],
                  "resample_mode": "MAXPOOL", "padding_mode": "NEG_INF_PAD"}}]})";

struct Data
{
    std::vector<float> x, dy, dx;
    std::vector<int32_t> index;
};

// scatter: d.dx from d.dy through d.index (-1: nowhere).
void scatter(Data& d)
{
    d.dx.assign(d.x.size(), 0.f);
    for(int64_t nc = 0; nc < N * C; ++nc)
        for(int64_t o = 0; o < OH * OW; ++o)
            if(const int32_t at = d.index[static_cast<size_t>(nc * OH * OW + o)]; at >= 0)
                d.dx[static_cast<size_t>(nc * H * W + at)] += d.dy[static_cast<size_t>(nc * OH * OW + o)];
}

Data makeData()
{
    Data d;
    d.x.resize(N * C * H * W);
    d.dy.resize(N * C * OH * OW);
    uint32_t seed = 7;
    auto next = [&](int mod) {
        seed = seed * 1664525u + 1013904223u;
        return static_cast<int>((seed >> 8) % static_cast<uint32_t>(mod));
    };
    for(float& v : d.x)
        v = static_cast<float>(next(3)); // three values: most windows hold ties
    for(float& v : d.dy)
        v = static_cast<float>(next(7) - 3);
    // The forward's index: the first maximum in window order, flat within the (n, c) plane.
    for(int64_t nc = 0; nc < N * C; ++nc)
        for(int64_t oh = 0; oh < OH; ++oh)
            for(int64_t ow = 0; ow < OW; ++ow)
            {
                int32_t arg = -1;
                float best = 0;
                for(int64_t kh = 0; kh < K; ++kh)
                    for(int64_t kw = 0; kw < K; ++kw)
                    {
                        const int64_t ih = oh * S - P + kh, iw = ow * S - P + kw;
                        if(ih < 0 || ih >= H || iw < 0 || iw >= W)
                            continue;
                        const float v = d.x[static_cast<size_t>(nc * H * W + ih * W + iw)];
                        if(arg < 0 || v > best)
                        {
                            best = v;
                            arg = static_cast<int32_t>(ih * W + iw);
                        }
                    }
                d.index.push_back(arg);
            }
    scatter(d);
    return d;
}

// run executes the plan on (dy, index) into a fresh dx; returns the status and the last error.
hipdnnStatus_t run(hipdnnHandle_t h, const testplan::Plan& plan, Data& d, std::vector<int32_t>& index, std::vector<float>* dx,
                   std::string* error)
{
    dx->assign(d.x.size(), -7.f);
    return testplan::execute(h, plan, {1, 2, 3}, {d.dy.data(), dx->data(), index.data()}, error);
}

int check(hipdnnHandle_t h)
{
    int failures = 0;
    Data d = makeData();
    for(const char* engine : {"HIPDNNGO_ONEDNN", "HIPDNNGO_CPU_REFERENCE"})
    {
        const testplan::Plan plan(h, kGraph, engine);
        std::vector<float> dx;
        std::string error;
        ck(run(h, plan, d, d.index, &dx, &error), engine);
        if(std::memcmp(dx.data(), d.dx.data(), dx.size() * sizeof(float)) != 0)
        {
            std::fprintf(stderr, "FAIL: %s: dx differs from the scatter of dy through the index\n", engine);
            ++failures;
        }
    }

    // -1 on every output of the first row and column (their windows start in the padding).
    Data e = d;
    for(int64_t nc = 0; nc < N * C; ++nc)
        for(int64_t o = 0; o < OH * OW; ++o)
            if(o / OW == 0 || o % OW == 0)
                e.index[static_cast<size_t>(nc * OH * OW + o)] = -1;
    scatter(e);
    for(const char* engine : {"HIPDNNGO_ONEDNN", "HIPDNNGO_CPU_REFERENCE"})
    {
        const testplan::Plan plan(h, kGraph, engine);
        std::vector<float> dx;
        std::string error;
        ck(run(h, plan, e, e.index, &dx, &error), engine);
        if(std::memcmp(dx.data(), e.dx.data(), dx.size() * sizeof(float)) != 0)
        {
            std::fprintf(stderr, "FAIL: %s: with -1 (padding maxima) in the index, dx differs from the scatter\n", engine);
            ++failures;
        }
    }

    const testplan::Plan plan(h, kGraph, "HIPDNNGO_ONEDNN");
    struct Bad
    {
        int64_t n, c, oh, ow;
        int32_t value;
        const char* want;
    } bads[] = {
        // Output (3, 4)'s window covers rows 5-7 and columns 7-8; position 0 is in the plane but not there.
        {1, 2, 3, 4, 0,
         "max-pool index tensor uid 3 ('index'): element [1, 2, 3, 4] is 0, which is not an input "
         "position inside that output's pooling window"},
        // Output (1, 1)'s window, rows 1-3 and columns 1-3, lies inside the input: no padding maximum.
        {0, 1, 1, 1, -1,
         "max-pool index tensor uid 3 ('index'): element [0, 1, 1, 1] is -1, which is not an input "
         "position inside that output's pooling window"},
    };
    for(const Bad& b : bads)
    {
        std::vector<int32_t> index = d.index;
        index[static_cast<size_t>(((b.n * C + b.c) * OH + b.oh) * OW + b.ow)] = b.value;
        std::vector<float> dx;
        std::string error;
        const hipdnnStatus_t s = run(h, plan, d, index, &dx, &error);
        if(s != HIPDNN_STATUS_PLUGIN_ERROR || error.find(b.want) == std::string::npos
           || error.find("HIPDNN_PLUGIN_STATUS_BAD_PARAM") == std::string::npos)
        {
            std::fprintf(stderr,
                         "FAIL: index %d at [%lld, %lld, %lld, %lld]: got %s \"%s\", want PLUGIN_ERROR with "
                         "HIPDNN_PLUGIN_STATUS_BAD_PARAM and \"%s\"\n",
                         b.value, static_cast<long long>(b.n), static_cast<long long>(b.c), static_cast<long long>(b.oh),
                         static_cast<long long>(b.ow), hipdnnGetErrorString(s), error.c_str(), b.want);
            ++failures;
        }
        // The plan is unharmed by the failed call.
        ck(run(h, plan, d, d.index, &dx, &error), "execute after a rejected index");
        if(std::memcmp(dx.data(), d.dx.data(), dx.size() * sizeof(float)) != 0)
        {
            std::fprintf(stderr, "FAIL: dx wrong after a rejected index\n");
            ++failures;
        }
    }
    if(failures == 0)
        std::printf("PASS: max-pool backward routes dy exactly through the index on both engines; bad indices "
                    "are rejected with the element named; -1 in a window reaching into the padding sends its dy nowhere\n");
    return failures;
}

} // namespace

int main() { return testplan::runWithHandle(check); }
