// plan_timer.h - times one execution for Graph::autotune. With CUDA's runtime header (cudnn.h
// finds it) it records CUDA events on the handle's stream, so device work is timed and not its
// launch; without it, the host clock around the call, which is right for hipDNN's CPU engines:
// they execute synchronously.
#pragma once

#include <chrono>

#include "../../cudnn.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace detail {

class plan_timer {
   public:
    explicit plan_timer(cudnnHandle_t handle) {
#ifdef HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME
        (void)cudnnGetStream(handle, &stream_);
        events_ = cudaEventCreate(&start_) == cudaSuccess && cudaEventCreate(&stop_) == cudaSuccess;
        (void)cudaDeviceSynchronize();
#else
        (void)handle;
#endif
    }
    ~plan_timer() {
#ifdef HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME
        if (start_) (void)cudaEventDestroy(start_);
        if (stop_) (void)cudaEventDestroy(stop_);
#endif
    }
    plan_timer(plan_timer const&) = delete;
    plan_timer& operator=(plan_timer const&) = delete;

    void
    start() {
#ifdef HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME
        if (events_) {
            (void)cudaEventRecord(start_, stream_);
            return;
        }
#endif
        t0_ = std::chrono::steady_clock::now();
    }
    // stop returns the milliseconds since start(), waiting for the stream's work first.
    float
    stop() {
#ifdef HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME
        if (events_) {
            float ms = 0.f;
            (void)cudaEventRecord(stop_, stream_);
            (void)cudaEventSynchronize(stop_);
            (void)cudaEventElapsedTime(&ms, start_, stop_);
            return ms;
        }
#endif
        return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0_).count();
    }

   private:
#ifdef HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    bool events_ = false;
#endif
    std::chrono::steady_clock::time_point t0_;
};

}  // namespace detail
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
