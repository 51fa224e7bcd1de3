// conv_bias_relu.cpp - cudnn-frontend v9 code, written the way NVIDIA's samples write it, that
// builds unchanged against hipDNN's shim: only the include path points at
// <prefix>/include/hipdnn_compatibility/cudnn (CMake: target hipdnn::cudnn_shim; pkg-config:
// hipdnn_cudnn_shim). It runs a convolution, a bias add and a ReLU as one graph, here in host
// memory on the CPU engines, and checks one output against a direct computation.
//
// tests/shim builds and runs it against the installed package (ctest example_cudnn_conv_bias_relu).
#include <cudnn_frontend.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <unordered_map>
#include <vector>

namespace fe = cudnn_frontend;

#define REQUIRE_OK(expr)                                                                  \
    do {                                                                                  \
        auto status_ = (expr);                                                            \
        if (status_.is_bad()) {                                                           \
            std::fprintf(stderr, "%s failed: %s\n", #expr, status_.get_message().c_str()); \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

int
main() {
    int64_t const n = 1, c = 8, h = 16, w = 16, k = 4, r = 3, s = 3;

    cudnnHandle_t handle;
    if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS) return 1;

    auto graph = std::make_shared<fe::graph::Graph>();
    graph->set_io_data_type(fe::DataType_t::FLOAT)
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);

    // Channels-last tensors, as the samples use.
    auto X = graph->tensor(fe::graph::Tensor_attributes()
                               .set_name("image")
                               .set_dim({n, c, h, w})
                               .set_stride({c * h * w, 1, c * w, c}));
    auto W = graph->tensor(fe::graph::Tensor_attributes()
                               .set_name("filter")
                               .set_dim({k, c, r, s})
                               .set_stride({c * r * s, 1, c * s, c}));
    auto B = graph->tensor(fe::graph::Tensor_attributes().set_name("bias").set_dim({1, k, 1, 1}).set_stride({k, 1, k, k}));

    auto conv_options = fe::graph::Conv_fprop_attributes().set_padding({1, 1}).set_stride({1, 1}).set_dilation({1, 1});
    auto conv_output  = graph->conv_fprop(X, W, conv_options);
    auto biased       = graph->pointwise(conv_output, B, fe::graph::Pointwise_attributes().set_mode(fe::PointwiseMode_t::ADD));
    auto Y            = graph->pointwise(biased, fe::graph::Pointwise_attributes().set_mode(fe::PointwiseMode_t::RELU_FWD));
    Y->set_output(true);

    REQUIRE_OK(graph->validate());
    REQUIRE_OK(graph->build_operation_graph(handle));
    REQUIRE_OK(graph->create_execution_plans({fe::HeurMode_t::A}));
    REQUIRE_OK(graph->check_support(handle));
    REQUIRE_OK(graph->build_plans(handle, fe::BuildPlanPolicy_t::HEURISTICS_CHOICE));

    std::vector<float> x(n * c * h * w), filt(k * c * r * s), bias(k), y(n * k * h * w);
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 7) * 0.25f - 0.5f;
    for (size_t i = 0; i < filt.size(); ++i) filt[i] = float(i % 5) * 0.1f - 0.2f;
    for (size_t i = 0; i < bias.size(); ++i) bias[i] = 0.1f * float(i);

    int64_t workspace_size = 0;
    REQUIRE_OK(graph->get_workspace_size(workspace_size));
    std::vector<unsigned char> workspace(static_cast<size_t>(workspace_size) + 1);

    std::unordered_map<std::shared_ptr<fe::graph::Tensor_attributes>, void*> variant_pack = {
        {X, x.data()}, {W, filt.data()}, {B, bias.data()}, {Y, y.data()}};
    REQUIRE_OK(graph->execute(handle, variant_pack, workspace.data()));

    // Output (0, 1, 5, 7), computed directly (NHWC indexing throughout).
    int64_t const ko = 1, ho = 5, wo = 7;
    double acc = bias[ko];
    for (int64_t ci = 0; ci < c; ++ci)
        for (int64_t ri = 0; ri < r; ++ri)
            for (int64_t si = 0; si < s; ++si) {
                int64_t hi = ho - 1 + ri, wi = wo - 1 + si;
                if (hi < 0 || hi >= h || wi < 0 || wi >= w) continue;
                acc += double(x[(hi * w + wi) * c + ci]) * filt[ko * c * r * s + (ri * s + si) * c + ci];
            }
    double const want = acc > 0 ? acc : 0;
    float const got   = y[(ho * w + wo) * k + ko];
    std::string plan;
    REQUIRE_OK(graph->get_plan_name(plan));
    std::printf("conv -> bias -> ReLU on %s: y(0,1,5,7) = %.6f (expected %.6f)\n", plan.c_str(), got, want);
    cudnnDestroy(handle);
    return std::fabs(got - want) <= 1e-4 * (1 + std::fabs(want)) ? 0 : 1;
}
