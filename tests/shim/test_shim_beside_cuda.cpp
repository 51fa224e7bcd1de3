// The shim compiled beside CUDA's runtime and fp16/bf16 headers (test stand-ins from
// tests/shim/fake_cuda, spelled as CUDA spells them): it takes CUDA's stream and half types,
// reports the runtime version it was compiled with, and a half scalar lowers as a 2-byte value.
#include <cuda_runtime_api.h>  // before the shim, as CUDA programs do

#include "shim_test.h"

#include <cuda_bf16.h>  // after the shim: no redefinition
#include <cuda_fp16.h>

int
main() {
    static_assert(std::is_same<cudaStream_t, CUstream_st*>::value, "CUDA's stream type");
    CHECK(cudnnGetCudartVersion() == 12040);
    cudaStream_t s = nullptr;
    CHECK(cudnnSetStream(st_handle(), s) == CUDNN_STATUS_SUCCESS);
    half h{0x3c00};  // 1.0 in binary16
    auto t = fe::graph::Tensor_attributes(h);
    CHECK(t.get_data_type() == fe::DataType_t::HALF);
    std::vector<uint8_t> bytes;
    CHECK(t.scalar_bytes(bytes) && bytes.size() == 2);
    nv_bfloat16 b{0x3f80};
    CHECK(fe::graph::Tensor_attributes(b).get_data_type() == fe::DataType_t::BFLOAT16);
    return st_finish("test_shim_beside_cuda");
}
