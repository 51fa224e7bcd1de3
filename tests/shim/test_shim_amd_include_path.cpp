// AMD's spelling: `#include <hipdnn_compatibility/cudnn/cudnn_frontend.h>` with only the
// package's include root on the path (this test links hipdnn_backend, not hipdnn::cudnn_shim).
// The shim's own includes are relative, so both spellings find the same headers.
#include <hipdnn_compatibility/cudnn/cudnn_frontend.h>

#include <cstdio>

int
main() {
    static_assert(CUDNN_FRONTEND_VERSION == 12300, "the shim's version header");
    cudnn_frontend::graph::Graph g;
    auto X = g.tensor(cudnn_frontend::graph::Tensor_attributes().set_name("X").set_dim({2}).set_stride({1}));
    (void)g.pointwise(X, cudnn_frontend::graph::Pointwise_attributes().set_mode(cudnn_frontend::PointwiseMode_t::ABS));
    auto e = g.validate();
    std::printf("test_shim_amd_include_path: %s\n", e.is_good() ? "PASS" : e.get_message().c_str());
    return e.is_good() ? 0 : 1;
}
