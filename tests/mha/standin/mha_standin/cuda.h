// mha_standin/cuda.h - the CUDA/cuDNN side of the ATen stand-in: the current device and its
// properties, the cuDNN handle (the shim's cudnnHandle_t, i.e. a hipDNN handle), the workspace
// allocator, the graph-cache key helpers and AT_CUDNN_FRONTEND_CHECK.
#pragma once

#include "tensor.h"

#include <cudnn.h>  // the shim's stub cudnn.h (tests/mha/README.md: include order)

namespace at::cuda {

// DeviceProp: what MHA.cpp reads (major, minor). With MHA_STANDIN_CUDA it is CUDA's own.
#ifdef MHA_STANDIN_CUDA
using DeviceProp = cudaDeviceProp;
#else
struct DeviceProp {
    int major = 0;  // no device: no compute capability, so MHA.cpp's sm_100 branch is not taken
    int minor = 0;
};
#endif

inline DeviceIndex
current_device() {
#ifdef MHA_STANDIN_CUDA
    int d = 0;
    cudaGetDevice(&d);
    return static_cast<DeviceIndex>(d);
#else
    return 0;
#endif
}

inline DeviceProp*
getCurrentDeviceProperties() {
    static DeviceProp props = [] {
        DeviceProp p{};
#ifdef MHA_STANDIN_CUDA
        cudaGetDeviceProperties(&p, current_device());
#endif
        return p;
    }();
    return &props;
}

}  // namespace at::cuda

namespace at::native {

// getCudnnHandle: one handle per thread, made on first use (ATen keeps a pool per device and
// thread). MHA.cpp asks for it before it first touches its thread_local graph caches, so the
// caches are constructed later and destroyed first: no graph outlives the handle.
inline cudnnHandle_t
getCudnnHandle() {
    struct Holder {
        cudnnHandle_t h = nullptr;
        Holder() {
            if (cudnnCreate(&h) != CUDNN_STATUS_SUCCESS) throw c10::Error("cudnnCreate failed");
        }
        ~Holder() { cudnnDestroy(h); }
    };
    thread_local Holder holder;
    return holder.h;
}

// ParamsWrapper: a plain-old-data key compared and hashed by its bytes (callers zero it first).
template <typename T>
struct ParamsWrapper {
    T pod;
    ParamsWrapper() { std::memset(&pod, 0, sizeof(pod)); }
    bool operator==(ParamsWrapper const& o) const { return std::memcmp(&pod, &o.pod, sizeof(pod)) == 0; }
};

template <typename W>
struct ParamsWrapperHash {
    size_t operator()(W const& w) const {
        auto const* p = reinterpret_cast<unsigned char const*>(&w.pod);
        uint64_t h = 1469598103934665603ull;  // FNV-1a
        for (size_t i = 0; i < sizeof(w.pod); ++i) h = (h ^ p[i]) * 1099511628211ull;
        return static_cast<size_t>(h);
    }
};

}  // namespace at::native

namespace c10::cuda::CUDACachingAllocator {

// DataPtr owns one workspace allocation; get() is null for zero bytes.
class DataPtr {
  public:
    DataPtr() = default;
    explicit DataPtr(size_t bytes) : buf_(bytes ? std::make_shared<at::Buffer>(bytes) : nullptr) {}
    void* get() const { return buf_ ? buf_->ptr : nullptr; }

  private:
    std::shared_ptr<at::Buffer> buf_;
};

struct Allocator {
    DataPtr allocate(size_t bytes) const { return DataPtr(bytes); }
};

inline Allocator*
get() {
    static Allocator a;
    return &a;
}

}  // namespace c10::cuda::CUDACachingAllocator

// AT_CUDNN_FRONTEND_CHECK: a frontend call that fails throws, with the frontend's message.
#define AT_CUDNN_FRONTEND_CHECK(EXPR)                                                             \
    do {                                                                                          \
        auto mha_standin_err_ = (EXPR);                                                           \
        if (!mha_standin_err_.is_good())                                                          \
            throw ::c10::Error(std::string("cuDNN Frontend error: ") + mha_standin_err_.get_message()); \
    } while (0)
