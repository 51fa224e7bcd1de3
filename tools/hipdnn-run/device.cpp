#include "device.hpp"

#include <dlfcn.h>

namespace hdrun
{
namespace
{

struct Cudart
{
    bool ok = false;
    std::string why;
    int (*malloc_)(void**, size_t) = nullptr;
    int (*free_)(void*) = nullptr;
    int (*memcpy_)(void*, const void*, size_t, int) = nullptr; // cudaMemcpyKind: 1 H2D, 2 D2H
    int (*sync_)() = nullptr;
    int (*count_)(int*) = nullptr;
    const char* (*err_)(int) = nullptr;
    int (*eventCreate_)(void**) = nullptr;
    int (*eventDestroy_)(void*) = nullptr;
    int (*eventRecord_)(void*, void*) = nullptr;
    int (*eventSynchronize_)(void*) = nullptr;
    int (*eventElapsed_)(float*, void*, void*) = nullptr;
};

const Cudart& cudart()
{
    static const Cudart rt = [] {
        Cudart r;
        void* h = nullptr;
        for(const char* name : {"libcudart.so.13", "libcudart.so.12"})
            if((h = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr)
                break;
        if(h == nullptr)
        {
            r.why = "no CUDA runtime (libcudart.so.13 / .12)";
            return r;
        }
        r.malloc_ = reinterpret_cast<int (*)(void**, size_t)>(dlsym(h, "cudaMalloc"));
        r.free_ = reinterpret_cast<int (*)(void*)>(dlsym(h, "cudaFree"));
        r.memcpy_ = reinterpret_cast<int (*)(void*, const void*, size_t, int)>(dlsym(h, "cudaMemcpy"));
        r.sync_ = reinterpret_cast<int (*)()>(dlsym(h, "cudaDeviceSynchronize"));
        r.count_ = reinterpret_cast<int (*)(int*)>(dlsym(h, "cudaGetDeviceCount"));
        r.err_ = reinterpret_cast<const char* (*)(int)>(dlsym(h, "cudaGetErrorString"));
        r.eventCreate_ = reinterpret_cast<int (*)(void**)>(dlsym(h, "cudaEventCreate"));
        r.eventDestroy_ = reinterpret_cast<int (*)(void*)>(dlsym(h, "cudaEventDestroy"));
        r.eventRecord_ = reinterpret_cast<int (*)(void*, void*)>(dlsym(h, "cudaEventRecord"));
        r.eventSynchronize_ = reinterpret_cast<int (*)(void*)>(dlsym(h, "cudaEventSynchronize"));
        r.eventElapsed_ = reinterpret_cast<int (*)(float*, void*, void*)>(dlsym(h, "cudaEventElapsedTime"));
        if(!r.malloc_ || !r.free_ || !r.memcpy_ || !r.sync_ || !r.count_ || !r.err_ || !r.eventCreate_
           || !r.eventDestroy_ || !r.eventRecord_ || !r.eventSynchronize_ || !r.eventElapsed_)
        {
            r.why = "CUDA runtime lacks cudaMalloc/cudaMemcpy/...";
            return r;
        }
        int n = 0;
        if(r.count_(&n) != 0 || n == 0)
        {
            r.why = "no CUDA device";
            return r;
        }
        r.ok = true;
        return r;
    }();
    return rt;
}

bool failed(int e, const char* what, std::string* error)
{
    if(e == 0)
        return false;
    *error = std::string(what) + ": " + cudart().err_(e);
    return true;
}

} // namespace

bool deviceAvailable(std::string* why)
{
    if(!cudart().ok)
        *why = cudart().why;
    return cudart().ok;
}

DeviceMirror::~DeviceMirror()
{
    if(!cudart().ok)
        return;
    for(size_t i = 0; i < ptrs_.size(); ++i)
        if(owned_[i] && ptrs_[i] != nullptr)
            cudart().free_(ptrs_[i]);
    if(workspace_ != nullptr)
        cudart().free_(workspace_);
}

bool DeviceMirror::upload(const Buffers& host, std::string* error)
{
    if(!deviceAvailable(error))
        return false;
    const Cudart& rt = cudart();
    for(const HostBuffer& b : host.all())
    {
        if(b.tensor->passByValue || b.bytes == 0)
        {
            ptrs_.push_back(b.data); // host scalar, read by the engine during execute
            owned_.push_back(false);
            continue;
        }
        void* d = nullptr;
        if(failed(rt.malloc_(&d, b.bytes), "cudaMalloc", error))
            return false;
        ptrs_.push_back(d);
        owned_.push_back(true);
        if(failed(rt.memcpy_(d, b.data, b.bytes, 1), "cudaMemcpy (host to device)", error))
            return false;
    }
    return true;
}

bool DeviceMirror::allocateWorkspace(int64_t bytes, std::string* error)
{
    if(bytes <= 0)
        return true;
    return !failed(cudart().malloc_(&workspace_, static_cast<size_t>(bytes)), "cudaMalloc (workspace)", error);
}

bool DeviceMirror::download(const Buffers& host, std::string* error)
{
    const Cudart& rt = cudart();
    if(!synchronize(error))
        return false;
    const auto& all = host.all();
    for(size_t i = 0; i < all.size(); ++i)
    {
        if(!owned_[i])
            continue;
        if(failed(rt.memcpy_(all[i].data, ptrs_[i], all[i].bytes, 2), "cudaMemcpy (device to host)", error))
            return false;
    }
    return true;
}

bool DeviceMirror::synchronize(std::string* error) { return !failed(cudart().sync_(), "cudaDeviceSynchronize", error); }

DeviceTimer::~DeviceTimer()
{
    for(void* e : events_)
        if(e != nullptr)
            cudart().eventDestroy_(e);
}

bool DeviceTimer::create(int runs, std::string* error)
{
    if(!deviceAvailable(error))
        return false;
    events_.assign(static_cast<size_t>(2 * runs), nullptr);
    for(void*& e : events_)
        if(failed(cudart().eventCreate_(&e), "cudaEventCreate", error))
            return false;
    return true;
}

bool DeviceTimer::record(int run, bool stop, std::string* error)
{
    return !failed(cudart().eventRecord_(events_[static_cast<size_t>(2 * run + (stop ? 1 : 0))], nullptr),
                   "cudaEventRecord", error);
}

bool DeviceTimer::elapsedMs(std::vector<double>* out, std::string* error)
{
    out->clear();
    if(events_.empty())
        return true;
    if(failed(cudart().eventSynchronize_(events_.back()), "cudaEventSynchronize", error))
        return false;
    for(size_t i = 0; i + 1 < events_.size(); i += 2)
    {
        float ms = 0;
        if(failed(cudart().eventElapsed_(&ms, events_[i], events_[i + 1]), "cudaEventElapsedTime", error))
            return false;
        out->push_back(ms);
    }
    return true;
}

} // namespace hdrun
