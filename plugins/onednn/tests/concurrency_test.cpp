// onednn_concurrency: one HIPDNNGO_ONEDNN plan (conv -> bias -> ReLU, NHWC, weights reordered
// into the workspace) executed by 4 threads at once, each with its own output and workspace;
// every result must equal the single-threaded one bit for bit. Checks that Execute shares
// nothing mutable between calls (memory objects, stream and scratchpad are per call).
#include "TestPlan.hpp"

#include <atomic>
#include <cstring>
#include <thread>

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

// check runs the test on one handle; returns the number of failures.
int check(hipdnnHandle_t h)
{
    const testplan::Plan plan(h, kGraph, "HIPDNNGO_ONEDNN");
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
    for(auto* v : {&x, &w, &b})
        for(float& f : *v)
            f = next();

    // One output and workspace per thread, plus the single-threaded run's.
    std::vector<std::vector<float>> outs(kThreads + 1, std::vector<float>(2 * 32 * 12 * 12, -7.f));
    std::vector<testplan::Pack> packs;
    for(auto& out : outs)
        packs.emplace_back(plan, std::vector<int64_t>{1, 2, 4, 6}, std::vector<void*>{x.data(), w.data(), b.data(), out.data()});
    const std::vector<float>& single = outs[kThreads];
    ck(hipdnnBackendExecute(h, plan.plan, packs[kThreads].pack), "execute (single)");

    std::atomic<int> mismatches{0}, errors{0};
    std::vector<std::thread> threads;
    for(int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for(int i = 0; i < kIters; ++i)
            {
                std::fill(outs[t].begin(), outs[t].end(), -7.f);
                if(hipdnnBackendExecute(h, plan.plan, packs[t].pack) != HIPDNN_STATUS_SUCCESS)
                    ++errors;
                else if(std::memcmp(outs[t].data(), single.data(), single.size() * sizeof(float)) != 0)
                    ++mismatches;
            }
        });
    for(auto& th : threads)
        th.join();
    if(errors || mismatches)
    {
        std::fprintf(stderr, "FAIL: %d execute errors, %d results differing from the single-threaded run\n", errors.load(),
                     mismatches.load());
        return 1;
    }
    std::printf("PASS: %d threads x %d executes of one plan (workspace %lld bytes) match the single-threaded run\n", kThreads,
                kIters, static_cast<long long>(wsSize));
    return 0;
}

} // namespace

int main() { return testplan::runWithHandle(check); }
