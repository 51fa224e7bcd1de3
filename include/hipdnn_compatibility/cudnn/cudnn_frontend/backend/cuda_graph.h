// cuda_graph.h - CUDA graphs for Graph::populate_cuda_graph / update_cuda_graph. cuDNN builds
// its graph natively; hipDNN has no such call, so the shim records one execution of the plan by
// stream capture (the plan must carry SUPPORTS_CUDA_GRAPH_NATIVE_API, hipDNN's
// SUPPORTS_GRAPH_CAPTURE) and adds the captured graph as the one child node of the user's graph.
// An update captures again with the new pointers and swaps that node; the capture has the same
// shape, so cudaGraphExecChildGraphNodeSetParams accepts it as upstream's update.
//
// Needs CUDA's runtime header, which cudnn.h finds (HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "../../cudnn_frontend_utils.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace detail {

#ifdef HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME
inline error_t
cuda_failed(char const* what, cudaError_t e) {
    return {error_code_t::CUDA_API_FAILED, std::string(what) + " failed: " + cudaGetErrorString(e)};
}

// capture_stream is the graph's private stream for captures. A plan's first execution on a new
// stream may set up per-stream state (a library handle), which must not happen inside a
// capture, so the stream runs the plan once, outside any capture, when it is made.
class capture_stream {
   public:
    ~capture_stream() {
        if (stream_) (void)cudaStreamDestroy(stream_);
    }

    // capture records run() on the private stream, with the handle pointed at it, into *out.
    error_t
    capture(cudnnHandle_t handle, std::function<error_t()> const& run, cudaGraph_t* out) {
        *out = nullptr;
        cudaStream_t user = nullptr;
        if (cudnnGetStream(handle, &user) != CUDNN_STATUS_SUCCESS)
            return {error_code_t::INVALID_VALUE, "the handle's stream could not be read."};
        bool const fresh = stream_ == nullptr;
        if (fresh) {
            cudaError_t e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
            if (e != cudaSuccess) return cuda_failed("cudaStreamCreateWithFlags", e);
        }
        struct Restore {
            cudnnHandle_t h;
            cudaStream_t s;
            ~Restore() { (void)cudnnSetStream(h, s); }
        } restore{handle, user};
        if (cudnnSetStream(handle, stream_) != CUDNN_STATUS_SUCCESS)
            return {error_code_t::INVALID_VALUE, "the capture stream could not be set on the handle."};
        if (fresh) {
            // Work queued on the user's stream may still read these buffers: wait for it first.
            cudaError_t e = cudaStreamSynchronize(user);
            if (e != cudaSuccess) return cuda_failed("cudaStreamSynchronize", e);
            CHECK_CUDNN_FRONTEND_ERROR(run());
            e = cudaStreamSynchronize(stream_);
            if (e != cudaSuccess) return cuda_failed("cudaStreamSynchronize", e);
        }
        cudaError_t e = cudaStreamBeginCapture(stream_, cudaStreamCaptureModeRelaxed);
        if (e != cudaSuccess) return cuda_failed("cudaStreamBeginCapture", e);
        error_t ran = run();
        cudaGraph_t g = nullptr;
        e             = cudaStreamEndCapture(stream_, &g);
        if (ran.is_bad()) {
            if (g) (void)cudaGraphDestroy(g);
            return ran;
        }
        if (e != cudaSuccess) return cuda_failed("cudaStreamEndCapture", e);
        *out = g;
        return {error_code_t::OK, ""};
    }

   private:
    cudaStream_t stream_ = nullptr;
};
#else
class capture_stream {};
#endif

}  // namespace detail
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
