// device_buffers.h - whether this program's buffers are device memory. A program built with
// CUDA's runtime on a machine with a CUDA device passes cudaMalloc'd buffers, which hipDNN's
// host-memory engines (the plugin SDK's HIPDNN_PLUGIN_HOST_MEMORY_ENGINE_NAMES: the CPU engines)
// refuse at execute. The shim then leaves those engines out of the plans, so every plan a
// cudnn-frontend program gets runs on its buffers, as with cuDNN.
//
// HIPDNN_CUDNN_SHIM_KEEP_HOST_ENGINES keeps them (buffers in managed or host memory).
#pragma once

#include <string>

#include <hipdnn_plugin_sdk/EngineNames.h>

#include "../../cudnn.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace detail {

inline bool
device_buffers() {
#if defined(HIPDNN_CUDNN_SHIM_HAVE_CUDA_RUNTIME) && !defined(HIPDNN_CUDNN_SHIM_KEEP_HOST_ENGINES) && \
    !defined(HIPDNN_FAKE_CUDA_HOST_MEMORY)
    static bool const yes = [] {
        int n = 0;
        bool const found = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
        (void)cudaGetLastError();  // no device is not an error for the program
        return found;
    }();
    return yes;
#else
    return false;
#endif
}

inline bool
is_host_memory_engine(std::string const& name) {
    static char const* const host[] = {HIPDNN_PLUGIN_HOST_MEMORY_ENGINE_NAMES(HIPDNN_ENGINE_NAME_ELEMENT)};
    for (char const* h : host)
        if (name == h || name == std::string(HIPDNN_BENCHMARK_ENGINE_PREFIX) + h) return true;
    return false;
}

}  // namespace detail
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
