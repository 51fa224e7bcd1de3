/* End to end through the public C API on the first CPU engine the heuristic ranks (oneDNN or the
 * CPU reference engine): the conv -> bias -> ReLU graph of sweep/fixture.h built with
 * descriptors, engines picked by the heuristic, a plan built and executed on host memory, and
 * the output checked against a naive loop. */
#include "sweep/fixture.h"
#include "testutil.h"

enum { N = 2, C = 3, H = 6, W = 5, K = 4 };

int main(void) {
    hipdnnHandle_t handle = NULL;
    CHECK_OK(hipdnnCreate(&handle));

    fx_err e = {{0}, HIPDNN_STATUS_SUCCESS};
    fx_conv f;
    if (fx_conv_build(&e, &f, handle, N, C, H, W, K, 0) != HIPDNN_STATUS_SUCCESS) {
        CHECK_FAIL("%s", e.text);
        CHECK_OK(hipdnnDestroy(handle));
        return check_finish("test_e2e_conv_bias_relu");
    }
    int64_t count = 0;
    CHECK_OK(hipdnnBackendGetAttribute(f.heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, NULL));
    CHECK(count >= 1);
    hipdnnBackendDescriptor_t engine = NULL;
    CHECK_OK(hipdnnBackendGetAttribute(f.cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, NULL, &engine));
    char name[128] = {0};
    int64_t name_len = 0;
    CHECK_OK(hipdnnBackendGetAttribute(engine, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof name, &name_len, name));
    /* The default ranking puts the oneDNN engine (when installed) before the reference engine. */
    CHECK(strcmp(name, "HIPDNNGO_ONEDNN") == 0 || strcmp(name, "HIPDNNGO_CPU_REFERENCE") == 0);
    CHECK_OK(hipdnnBackendDestroyDescriptor(engine));
    CHECK(f.ws_size >= 2 * N * K * H * W * 4); /* two virtual fp32 tensors live in the workspace */

    CHECK_OK(hipdnnBackendExecute(handle, f.plan, f.pack));
    double max_err = fx_conv_max_error(&f);
    CHECK(max_err < 1e-5);
    printf("max |error| vs naive loop: %g\n", max_err);

    CHECK_OK(fx_conv_destroy(&f));
    CHECK_OK(hipdnnDestroy(handle));
    return check_finish("test_e2e_conv_bias_relu");
}
