// A user log callback that throws (conformance checklist item 75): the exception must not
// cross into the library or take the process down, synchronously or asynchronously, and the
// library keeps working (and keeps calling well-behaved callbacks) afterwards.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "testutil.h"

namespace {

std::atomic<int> thrown{0};
std::atomic<int> good_calls{0};

void throwing(hipdnnUserLogCallbackHandle_t, hipdnnSeverity_t, const char*) {
    thrown++;
    throw std::runtime_error("callback failure");
}

void throwing_int(hipdnnUserLogCallbackHandle_t, hipdnnSeverity_t, const char*) {
    thrown++;
    throw 42; // not even a std::exception
}

void good(hipdnnUserLogCallbackHandle_t, hipdnnSeverity_t, const char*) { good_calls++; }

void make_some_logs() {
    hipdnnHandle_t h = nullptr;
    CHECK_OK(hipdnnCreate(&h));
    CHECK_OK(hipdnnDestroy(h));
    CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, hipdnnCreate(nullptr));
    hipdnnLoggingCallback_ext(HIPDNN_SEV_ERROR, "[test] error from the test");
    tu_clear_last_error();
}

bool wait_for(std::atomic<int>& n, int want) {
    for (int i = 0; i < 300 && n.load() < want; i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return n.load() >= want;
}

} // namespace

int main() {
    int token_sync = 0, token_async = 0, token_good = 0;
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_INFO));
    CHECK_OK(hipdnnSetUserLogCallback_ext(throwing, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &token_sync));
    CHECK_OK(hipdnnSetUserLogCallback_ext(throwing_int, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_ASYNC, &token_async));
    CHECK_OK(hipdnnSetUserLogCallback_ext(good, HIPDNN_SEV_INFO, HIPDNN_LOG_CALLBACK_SYNC, &token_good));

    // Every call below logs through both throwing callbacks; each must still return normally.
    make_some_logs();
    CHECK(thrown.load() > 0);
    CHECK(wait_for(thrown, 8));
    int good_before = good_calls.load();
    CHECK(good_before > 0);

    // The library still works: a full descriptor round trip, and more logging.
    hipdnnBackendDescriptor_t t = nullptr;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &t));
    int64_t dims[1] = {4};
    hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 1, dims));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 1, dims));
    CHECK_OK(hipdnnBackendFinalize(t));
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));
    make_some_logs();
    CHECK(good_calls.load() > good_before);

    // Callbacks that threw can still be removed, and are then not called again.
    CHECK_OK(hipdnnSetUserLogCallback_ext(throwing, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &token_sync));
    CHECK_OK(hipdnnSetUserLogCallback_ext(throwing_int, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_ASYNC, &token_async));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    int after = thrown.load();
    make_some_logs();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK_EQ_INT(thrown.load(), after);
    CHECK_OK(hipdnnSetUserLogCallback_ext(good, HIPDNN_SEV_OFF, HIPDNN_LOG_CALLBACK_SYNC, &token_good));
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
    return check_finish("test_logging_throw");
}
