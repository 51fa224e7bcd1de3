/* The stub cudnn.h compiled as C with no GPU headers: the handle is hipDNN's, the stream passes
 * through, statuses map onto cuDNN 9's values and names, and the version functions report what
 * docs/cudnn-shim.md says. */
#include <cudnn.h>
#include <stdio.h>
#include <string.h>

#include "../common/check.h"


int main(void) {
    cudnnHandle_t h = NULL;
    cudaStream_t got = NULL;
    hipdnnHandle_t same;
    int v;

    CHECK(cudnnCreate(&h) == CUDNN_STATUS_SUCCESS);
    same = h; /* the same object: usable with the hipDNN API too */
    CHECK(hipdnnSetStream(same, NULL) == HIPDNN_STATUS_SUCCESS);
    CHECK(cudnnSetStream(h, NULL) == CUDNN_STATUS_SUCCESS);
    CHECK(cudnnGetStream(h, &got) == CUDNN_STATUS_SUCCESS && got == NULL);
    CHECK(cudnnGetStream(h, NULL) == CUDNN_STATUS_BAD_PARAM_NULL_POINTER);
    CHECK(cudnnDestroy(h) == CUDNN_STATUS_SUCCESS);
    CHECK(cudnnCreate(NULL) == CUDNN_STATUS_BAD_PARAM_NULL_POINTER);

    /* Every hipDNN status maps onto a cuDNN status with a name. */
    for (v = HIPDNN_STATUS_SUCCESS; v <= HIPDNN_STATUS_VERSION_MISMATCH; v++) {
        cudnnStatus_t c = cudnnStatusFromHipdnn((hipdnnStatus_t)v);
        CHECK(strncmp(cudnnGetErrorString(c), "CUDNN_STATUS_", 13) == 0);
        CHECK(strcmp(cudnnGetErrorString(c), "CUDNN_STATUS_UNKNOWN") != 0);
        CHECK((v == HIPDNN_STATUS_SUCCESS) == (c == CUDNN_STATUS_SUCCESS));
    }
    CHECK(cudnnStatusFromHipdnn(HIPDNN_STATUS_BAD_PARAM) == CUDNN_STATUS_BAD_PARAM);
    CHECK(cudnnStatusFromHipdnn(HIPDNN_STATUS_NOT_SUPPORTED) == CUDNN_STATUS_NOT_SUPPORTED);
    CHECK(CUDNN_STATUS_BAD_PARAM == 2000 && CUDNN_STATUS_NOT_SUPPORTED == 3000 && CUDNN_STATUS_EXECUTION_FAILED == 5000);
    CHECK(strcmp(cudnnGetErrorString(CUDNN_STATUS_NOT_SUPPORTED), "CUDNN_STATUS_NOT_SUPPORTED") == 0);

    CHECK(cudnnGetVersion() == CUDNN_VERSION);
    CHECK(CUDNN_VERSION == CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL);
    CHECK(CUDNN_MAJOR == 9);
    CHECK(cudnnGetCudartVersion() == 0); /* compiled with no CUDA runtime */
    CHECK(CUDNN_DATA_BFLOAT16 == 9 && CUDNN_DATA_FP8_E4M3 == 12 && CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC == 4);

    return check_finish("test_shim_cudnn_h");
}
