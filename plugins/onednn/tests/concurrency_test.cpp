// onednn_concurrency: one HIPDNNGO_ONEDNN plan (conv -> bias -> ReLU, NHWC, weights reordered
// into the workspace) executed by 4 threads at once, each with its own output and workspace;
// every result must equal the single-threaded one bit for bit, and that one must match a naive
// double loop. Checks that Execute shares nothing mutable between calls (memory objects,
// stream and scratchpad are per call). Run twice: in fp32, and in fp16, where the plan is
// staged through f32 (the f32 copies and the engine's conversion steps live in each call's
// workspace).
#include "TestPlan.hpp"

#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <utility>

namespace
{

using testplan::ck;

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

constexpr int kThreads = 4, kIters = 25;

// worstError compares out with conv (pad 1) -> + bias -> ReLU computed in double, in the graph's
// NHWC layouts: x [2,16,12,12], w [32,16,3,3] (KRSC), out [2,32,12,12].
double worstError(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b,
                  const std::vector<float>& out)
{
    double worst = 0;
    for(int n = 0; n < 2; ++n)
        for(int y = 0; y < 12; ++y)
            for(int xx = 0; xx < 12; ++xx)
                for(int k = 0; k < 32; ++k)
                {
                    double acc = b[k];
                    for(int r = 0; r < 3; ++r)
                        for(int q = 0; q < 3; ++q)
                        {
                            const int iy = y + r - 1, ix = xx + q - 1;
                            if(iy < 0 || iy >= 12 || ix < 0 || ix >= 12)
                                continue;
                            for(int c = 0; c < 16; ++c)
                                acc += double(x[n * 2304 + iy * 192 + ix * 16 + c]) * w[k * 144 + r * 48 + q * 16 + c];
                        }
                    const double want = acc > 0 ? acc : 0;
                    worst = std::max(worst, std::fabs(want - out[n * 4608 + y * 384 + xx * 32 + k]));
                }
    return worst;
}

// The graph with every tensor in `type` ("float" or "half").
std::string graphIn(const std::string& type)
{
    std::string g = kGraph;
    for(size_t at = g.find("\"data_type\": \"float\""); at != std::string::npos;
        at = g.find("\"data_type\": \"float\"", at + 1))
        g.replace(at, std::strlen("\"data_type\": \"float\""), "\"data_type\": \"" + type + "\"");
    return g;
}

// Storage of one element type: float as is, or half bits through the SDK's conversion.
struct AsFloat
{
    using T = float;
    static T store(float v) { return v; }
    static float load(T v) { return v; }
    static constexpr const char* name = "float";
    static constexpr double tolerance = 1e-4;
};
struct AsHalf
{
    using T = uint16_t;
    static T store(float v) { return hipdnnFloatToHalf(v); }
    static float load(T v) { return hipdnnHalfToFloat(v); }
    static constexpr const char* name = "half";
    static constexpr double tolerance = 2e-2; // |out| < 10: half rounding <= 2^-8, plus f32 sums
};

// checkType runs the test on one handle for one element type; returns the number of failures.
template <class E>
int checkType(hipdnnHandle_t h)
{
    using T = typename E::T;
    const testplan::Plan plan(h, graphIn(E::name), "HIPDNNGO_ONEDNN");
    const int64_t wsSize = plan.workspaceSize;
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
    // The inputs in the element type; x, w, b hold exactly the values the engine sees.
    std::vector<T> xs(x.size()), ws(w.size()), bs(b.size());
    for(auto [v, st] : {std::pair{&x, &xs}, {&w, &ws}, {&b, &bs}})
        for(size_t i = 0; i < v->size(); ++i)
        {
            (*st)[i] = E::store(next());
            (*v)[i] = E::load((*st)[i]);
        }

    // One output and workspace per thread, plus the single-threaded run's.
    std::vector<std::vector<T>> outs(kThreads + 1, std::vector<T>(2 * 32 * 12 * 12, E::store(-7.f)));
    std::vector<testplan::Pack> packs;
    for(auto& out : outs)
        packs.emplace_back(plan, std::vector<int64_t>{1, 2, 4, 6}, std::vector<void*>{xs.data(), ws.data(), bs.data(), out.data()});
    const std::vector<T>& single = outs[kThreads];
    ck(hipdnnBackendExecute(h, plan.plan, packs[kThreads].pack), "execute (single)");
    // The threads are compared with this run, so it must be right itself (a no-op execute would
    // leave every output at the sentinel, equal to each other).
    std::vector<float> singleF(single.size());
    for(size_t i = 0; i < single.size(); ++i)
        singleF[i] = E::load(single[i]);
    const double err = worstError(x, w, b, singleF);
    if(!(err < E::tolerance))
    {
        std::fprintf(stderr, "FAIL: %s: the single-threaded result is off the double loop by %g\n", E::name, err);
        return 1;
    }

    std::atomic<int> mismatches{0}, errors{0};
    std::vector<std::thread> threads;
    for(int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for(int i = 0; i < kIters; ++i)
            {
                std::fill(outs[t].begin(), outs[t].end(), E::store(-7.f));
                if(hipdnnBackendExecute(h, plan.plan, packs[t].pack) != HIPDNN_STATUS_SUCCESS)
                    ++errors;
                else if(std::memcmp(outs[t].data(), single.data(), single.size() * sizeof(T)) != 0)
                    ++mismatches;
            }
        });
    for(auto& th : threads)
        th.join();
    if(errors || mismatches)
    {
        std::fprintf(stderr, "FAIL: %s: %d execute errors, %d results differing from the single-threaded run\n", E::name,
                     errors.load(), mismatches.load());
        return 1;
    }
    std::printf("PASS: %s: %d threads x %d executes of one plan (workspace %lld bytes) match the single-threaded run\n",
                E::name, kThreads, kIters, static_cast<long long>(wsSize));
    return 0;
}

int check(hipdnnHandle_t h) { return checkType<AsFloat>(h) + checkType<AsHalf>(h); }

} // namespace

int main() { return testplan::runWithHandle(check); }
