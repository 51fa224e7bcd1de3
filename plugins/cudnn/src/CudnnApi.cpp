#include "CudnnApi.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

namespace hipdnngo::cudnn
{
namespace
{

// openFirst tries each name in order; returns the handle and the name that opened, or records
// every dlerror in *why.
void* openFirst(const std::vector<std::string>& names, std::string* opened, std::string* why)
{
    for(const std::string& name : names)
    {
        void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if(h != nullptr)
        {
            *opened = name;
            return h;
        }
        const char* e = dlerror();
        if(!why->empty())
        {
            *why += "; ";
        }
        *why += e != nullptr ? e : (name + ": cannot be opened");
    }
    return nullptr;
}

template <typename Fn>
bool resolve(void* lib, const char* name, Fn* out, std::string* why)
{
    *out = reinterpret_cast<Fn>(dlsym(lib, name));
    if(*out == nullptr)
    {
        *why = std::string("symbol ") + name + " not found";
        return false;
    }
    return true;
}

// names reads a ':'-separated override list from the environment, else the defaults.
std::vector<std::string> names(const char* env, std::vector<std::string> defaults)
{
    const char* v = std::getenv(env);
    if(v == nullptr || *v == '\0')
    {
        return defaults;
    }
    std::vector<std::string> out;
    std::string cur;
    for(const char* p = v;; ++p)
    {
        if(*p == ':' || *p == '\0')
        {
            if(!cur.empty())
            {
                out.push_back(cur);
            }
            cur.clear();
            if(*p == '\0')
            {
                break;
            }
        }
        else
        {
            cur += *p;
        }
    }
    return out;
}

Api load()
{
    Api a;
    std::string why;
    void* rt = openFirst(names("HIPDNNGO_CUDNN_CUDART", {"libcudart.so.13", "libcudart.so.12"}), &a.cudartPath, &why);
    if(rt == nullptr)
    {
        a.why = "CUDA runtime not found (" + why + ")";
        return a;
    }
    if(!resolve(rt, "cudaGetDeviceCount", &a.cudaGetDeviceCount, &a.why)
       || !resolve(rt, "cudaGetDevice", &a.cudaGetDevice, &a.why) || !resolve(rt, "cudaSetDevice", &a.cudaSetDevice, &a.why)
       || !resolve(rt, "cudaGetErrorString", &a.cudaGetErrorString, &a.why))
    {
        a.why = a.cudartPath + ": " + a.why;
        return a;
    }
    a.cudaStreamGetDevice = reinterpret_cast<cudaStreamGetDevice_fn>(dlsym(rt, "cudaStreamGetDevice"));
    a.cudaMalloc = reinterpret_cast<cudaMalloc_fn>(dlsym(rt, "cudaMalloc"));
    a.cudaFree = reinterpret_cast<cudaFree_fn>(dlsym(rt, "cudaFree"));
    a.cudaMemcpy = reinterpret_cast<cudaMemcpy_fn>(dlsym(rt, "cudaMemcpy"));
    if(auto v = reinterpret_cast<cudaRuntimeGetVersion_fn>(dlsym(rt, "cudaRuntimeGetVersion")))
    {
        v(&a.cudartVersion);
    }
    if(auto v = reinterpret_cast<cudaDriverGetVersion_fn>(dlsym(rt, "cudaDriverGetVersion")))
    {
        v(&a.driverVersion);
    }

    why.clear();
    void* dnn = openFirst(names("HIPDNNGO_CUDNN_LIBRARY", {"libcudnn.so.9"}), &a.cudnnPath, &why);
    if(dnn == nullptr)
    {
        a.why = "cuDNN not found (" + why + ")";
        return a;
    }
    if(!resolve(dnn, "cudnnGetVersion", &a.GetVersion, &a.why) || !resolve(dnn, "cudnnGetErrorString", &a.GetErrorString, &a.why)
       || !resolve(dnn, "cudnnCreate", &a.Create, &a.why) || !resolve(dnn, "cudnnDestroy", &a.Destroy, &a.why)
       || !resolve(dnn, "cudnnSetStream", &a.SetStream, &a.why)
       || !resolve(dnn, "cudnnBackendCreateDescriptor", &a.CreateDescriptor, &a.why)
       || !resolve(dnn, "cudnnBackendDestroyDescriptor", &a.DestroyDescriptor, &a.why)
       || !resolve(dnn, "cudnnBackendFinalize", &a.Finalize, &a.why)
       || !resolve(dnn, "cudnnBackendSetAttribute", &a.SetAttribute, &a.why)
       || !resolve(dnn, "cudnnBackendGetAttribute", &a.GetAttribute, &a.why)
       || !resolve(dnn, "cudnnBackendExecute", &a.Execute, &a.why))
    {
        a.why = a.cudnnPath + ": " + a.why;
        return a;
    }
    a.GetLastErrorString = reinterpret_cast<cudnnGetLastErrorString_fn>(dlsym(dnn, "cudnnGetLastErrorString"));
    a.cudnnVersion = a.GetVersion();
    if(a.cudnnVersion < 90000)
    {
        a.why = a.cudnnPath + " is cuDNN " + std::to_string(a.cudnnVersion) + "; 9.0 or newer is needed";
        return a;
    }
    const cudaError_t e = a.cudaGetDeviceCount(&a.deviceCount);
    if(e != 0 || a.deviceCount <= 0)
    {
        a.why = std::string("no CUDA device (cudaGetDeviceCount: ") + (e != 0 ? a.cudaGetErrorString(e) : "0 devices") + ")";
        a.deviceCount = 0;
        return a;
    }
    a.ok = true;
    return a;
}

} // namespace

const Api& api()
{
    static const Api table = load();
    return table;
}

std::string statusText(const char* call, cudnnStatus_t status)
{
    const Api& a = api();
    std::string s = std::string(call) + ": ";
    s += a.GetErrorString != nullptr ? a.GetErrorString(status) : "cuDNN status";
    s += " (" + std::to_string(status) + ")";
    if(a.GetLastErrorString != nullptr)
    {
        char buf[1024] = {0};
        a.GetLastErrorString(buf, sizeof buf);
        if(buf[0] != '\0')
        {
            s += ": ";
            s += buf;
        }
    }
    return s;
}

} // namespace hipdnngo::cudnn
