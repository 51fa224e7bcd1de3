// cuda_graph.h - CUDA graphs for Graph::populate_cuda_graph / update_cuda_graph. cuDNN builds
// its graph natively; hipDNN has no such call, so the shim records one execution of the plan by
// stream capture (the plan must carry SUPPORTS_CUDA_GRAPH_NATIVE_API, hipDNN's
// SUPPORTS_GRAPH_CAPTURE) and adds the captured graph as the one child node of the user's graph.
// An update captures again with the new pointers and copies each new node's parameters into the
// node in the same place of that child graph: the nodes stay the same objects and the shape is
// unchanged, so cudaGraphExecChildGraphNodeSetParams takes the update as it takes upstream's.
//
// Needs CUDA's runtime header, which cudnn.h finds (HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../../cudnn_frontend_utils.h"

// Kernel nodes that libraries launch through CUDA's driver API (cuDNN's) have parameters the
// runtime cannot read back (cudaGraphKernelNodeGetParams: "invalid device function"); the
// driver's calls can. They are looked up through the runtime, so nothing links libcuda.
#if defined(HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME) && defined(__has_include)
#  if __has_include(<cuda.h>) && defined(CUDART_VERSION) && CUDART_VERSION >= 12050
#    include <cuda.h>
#    define HIPDNN_CUDNN_SHIM_HAVE_CUDA_DRIVER_H 1
#  endif
#endif

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

// copy_kernel_params_by_driver copies a kernel node's parameters with the driver's calls.
inline error_t
copy_kernel_params_by_driver(cudaGraphNode_t into, cudaGraphNode_t from) {
#ifdef HIPDNN_CUDNN_SHIM_HAVE_CUDA_DRIVER_H
    using get_fn = CUresult (*)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS*);
    using set_fn = CUresult (*)(CUgraphNode, const CUDA_KERNEL_NODE_PARAMS*);
    auto entry = [](char const* symbol) -> void* {
        void* f = nullptr;
        cudaDriverEntryPointQueryResult q{};
        return cudaGetDriverEntryPointByVersion(symbol, &f, CUDART_VERSION, cudaEnableDefault, &q) == cudaSuccess &&
                       q == cudaDriverEntryPointSuccess
                   ? f
                   : nullptr;
    };
    static void* const get_p = entry("cuGraphKernelNodeGetParams");
    static void* const set_p = entry("cuGraphKernelNodeSetParams");
    if (!get_p || !set_p)
        return {error_code_t::CUDA_API_FAILED,
                "update_cuda_graph: the driver's cuGraphKernelNodeGet/SetParams could not be found."};
    CUDA_KERNEL_NODE_PARAMS p{};
    CUresult r = reinterpret_cast<get_fn>(get_p)(from, &p);
    if (r == CUDA_SUCCESS) r = reinterpret_cast<set_fn>(set_p)(into, &p);
    if (r != CUDA_SUCCESS)
        return {error_code_t::CUDA_API_FAILED,
                "update_cuda_graph: updating a captured kernel node failed (CUresult " + std::to_string(static_cast<int>(r)) +
                    ")."};
    return {error_code_t::OK, ""};
#else
    (void)into, (void)from;
    return {error_code_t::GRAPH_NOT_SUPPORTED,
            "update_cuda_graph: a captured kernel node's parameters can be read only through CUDA's driver API "
            "(cuda.h, CUDA 12.5 or newer, was not found)."};
#endif
}

// copy_node_params gives each node of `into` the parameters of the node in the same place of
// `from`, a capture of the same plan: kernels (their arguments hold the pointers), copies and
// fills. A graph of another shape is refused.
inline error_t
copy_node_params(cudaGraph_t into, cudaGraph_t from) {
    size_t n_into = 0, n_from = 0;
    cudaError_t e = cudaGraphGetNodes(into, nullptr, &n_into);
    if (e == cudaSuccess) e = cudaGraphGetNodes(from, nullptr, &n_from);
    if (e != cudaSuccess) return cuda_failed("cudaGraphGetNodes", e);
    if (n_into != n_from)
        return {error_code_t::INVALID_VALUE, "update_cuda_graph: the new capture has " + std::to_string(n_from) +
                                                 " nodes, the graph populate_cuda_graph made has " +
                                                 std::to_string(n_into) + "."};
    std::vector<cudaGraphNode_t> a(n_into), b(n_from);
    e = cudaGraphGetNodes(into, a.data(), &n_into);
    if (e == cudaSuccess) e = cudaGraphGetNodes(from, b.data(), &n_from);
    if (e != cudaSuccess) return cuda_failed("cudaGraphGetNodes", e);
    for (size_t i = 0; i < a.size(); ++i) {
        cudaGraphNodeType ta, tb;
        e = cudaGraphNodeGetType(a[i], &ta);
        if (e == cudaSuccess) e = cudaGraphNodeGetType(b[i], &tb);
        if (e != cudaSuccess) return cuda_failed("cudaGraphNodeGetType", e);
        if (ta != tb)
            return {error_code_t::INVALID_VALUE,
                    "update_cuda_graph: node " + std::to_string(i) + " of the new capture is of another type."};
        switch (ta) {
            case cudaGraphNodeTypeKernel: {
                cudaKernelNodeParams p{};
                e = cudaGraphKernelNodeGetParams(b[i], &p);
                if (e == cudaSuccess) {
                    e = cudaGraphKernelNodeSetParams(a[i], &p);
                } else {
                    (void)cudaGetLastError();  // the runtime's refusal is handled below
                    CHECK_CUDNN_FRONTEND_ERROR(copy_kernel_params_by_driver(a[i], b[i]));
                    e = cudaSuccess;
                }
                break;
            }
            case cudaGraphNodeTypeMemcpy: {
                cudaMemcpy3DParms p{};
                e = cudaGraphMemcpyNodeGetParams(b[i], &p);
                if (e == cudaSuccess) e = cudaGraphMemcpyNodeSetParams(a[i], &p);
                break;
            }
            case cudaGraphNodeTypeMemset: {
                cudaMemsetParams p{};
                e = cudaGraphMemsetNodeGetParams(b[i], &p);
                if (e == cudaSuccess) e = cudaGraphMemsetNodeSetParams(a[i], &p);
                break;
            }
            case cudaGraphNodeTypeEmpty: break;
            default:
                return {error_code_t::GRAPH_NOT_SUPPORTED,
                        "update_cuda_graph: node " + std::to_string(i) + " of the capture is of CUDA graph node type " +
                            std::to_string(static_cast<int>(ta)) + ", whose parameters the shim does not update."};
        }
        if (e != cudaSuccess) return cuda_failed("updating a captured node", e);
    }
    return {error_code_t::OK, ""};
}
#else
class capture_stream {};
#endif

}  // namespace detail
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
