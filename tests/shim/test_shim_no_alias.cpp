// HIPDNN_CUDNN_SHIM_NO_ALIAS: the shim declares no `cudnn_frontend` name, so a program can hold
// the real cudnn-frontend's namespace (here a stand-in) next to it and reach the shim by its
// full name. CUDA's runtime header is included after the shim (stand-in from fake_cuda): the
// shim's own stream typedef agrees with it.
#define HIPDNN_CUDNN_SHIM_NO_ALIAS
#define HIPDNN_CUDNN_SHIM_NO_CUDA_INCLUDE

namespace cudnn_frontend {  // the "real" frontend's namespace
int real_frontend_marker = 1;
}

#include <cudnn_frontend.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <vector>

namespace shim = hipdnn_frontend::compatibility::cudnn_frontend;

int
main() {
    int failures = 0;
    cudnnHandle_t h = nullptr;
    if (cudnnCreate(&h) != CUDNN_STATUS_SUCCESS) return 1;
    shim::graph::Graph g;
    g.set_io_data_type(shim::DataType_t::FLOAT).set_compute_data_type(shim::DataType_t::FLOAT);
    auto X = g.tensor(shim::graph::Tensor_attributes().set_name("X").set_dim({4}).set_stride({1}));
    auto Y = g.pointwise(X, shim::graph::Pointwise_attributes().set_mode(shim::PointwiseMode_t::NEG));
    Y->set_output(true);
    auto e = g.build(h, {shim::HeurMode_t::A});
    if (e.is_bad()) {
        std::fprintf(stderr, "build: %s\n", e.err_msg.c_str());
        failures++;
    }
    std::vector<float> x{1, -2, 3, -4}, y(4), ws(64);
    std::unordered_map<std::shared_ptr<shim::graph::Tensor_attributes>, void*> vp{{X, x.data()}, {Y, y.data()}};
    if (g.execute(h, vp, ws.data()).is_bad() || y != std::vector<float>{-1, 2, -3, 4}) failures++;
    failures += cudnn_frontend::real_frontend_marker == 1 ? 0 : 1;
    cudnnDestroy(h);
    std::printf(failures ? "test_shim_no_alias: FAIL\n" : "test_shim_no_alias: PASS\n");
    return failures ? 1 : 0;
}
