#include "CudaApi.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace hipdnngo::cuda_rtc
{
namespace
{

// Set while loading, so that messages can be rendered before api() has returned.
CUresult (*gCuErr)(CUresult, const char**) = nullptr;
const char* (*gRtcErr)(nvrtcResult) = nullptr;

std::vector<std::string> split(const char* v)
{
    std::vector<std::string> out;
    std::string cur;
    for(const char* p = v;; ++p)
    {
        if(*p == ':' || *p == '\0')
        {
            if(!cur.empty())
                out.push_back(cur);
            cur.clear();
            if(*p == '\0')
                break;
        }
        else
        {
            cur += *p;
        }
    }
    return out;
}

// candidates: the environment's list, else the sonames and the same names under the usual
// CUDA install folders (the toolkit's lib64 is often not on the loader path).
std::vector<std::string> candidates(const char* env, const std::vector<std::string>& sonames, bool toolkit)
{
    const char* v = std::getenv(env);
    if(v != nullptr && *v != '\0')
        return split(v);
    std::vector<std::string> out = sonames;
    if(toolkit)
    {
        std::vector<std::string> roots;
        for(const char* e : {"CUDA_HOME", "CUDA_PATH"})
            if(const char* r = std::getenv(e); r != nullptr && *r != '\0')
                roots.emplace_back(r);
        roots.emplace_back("/usr/local/cuda");
        for(const std::string& r : roots)
            for(const std::string& n : sonames)
                out.push_back(r + "/lib64/" + n);
    }
    return out;
}

void* openFirst(const std::vector<std::string>& names, std::string* opened, std::string* why)
{
    std::string errors;
    for(const std::string& name : names)
    {
        void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if(h != nullptr)
        {
            *opened = name;
            return h;
        }
        if(errors.empty()) // the first failure says enough; the rest repeat it for other paths
        {
            const char* e = dlerror();
            errors = e != nullptr ? e : name + ": cannot be opened";
        }
    }
    *why = errors;
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

Api load()
{
    Api a;
    std::string why;
    void* cu = openFirst(candidates("HIPDNNGO_CUDA_RTC_LIBCUDA", {"libcuda.so.1"}, false), &a.cudaPath, &why);
    if(cu == nullptr)
    {
        a.why = "CUDA driver not found (" + why + ")";
        return a;
    }
    // The _v2 names are the current ABI of calls cuda.h maps by macro.
    if(!resolve(cu, "cuInit", &a.cuInit, &a.why) || !resolve(cu, "cuDriverGetVersion", &a.cuDriverGetVersion, &a.why)
       || !resolve(cu, "cuDeviceGetCount", &a.cuDeviceGetCount, &a.why) || !resolve(cu, "cuDeviceGet", &a.cuDeviceGet, &a.why)
       || !resolve(cu, "cuDeviceGetAttribute", &a.cuDeviceGetAttribute, &a.why)
       || !resolve(cu, "cuDevicePrimaryCtxRetain", &a.cuDevicePrimaryCtxRetain, &a.why)
       || !resolve(cu, "cuCtxGetCurrent", &a.cuCtxGetCurrent, &a.why)
       || !resolve(cu, "cuCtxSetCurrent", &a.cuCtxSetCurrent, &a.why)
       || !resolve(cu, "cuCtxGetDevice", &a.cuCtxGetDevice, &a.why)
       || !resolve(cu, "cuCtxPushCurrent_v2", &a.cuCtxPushCurrent, &a.why)
       || !resolve(cu, "cuCtxPopCurrent_v2", &a.cuCtxPopCurrent, &a.why)
       || !resolve(cu, "cuStreamGetCtx", &a.cuStreamGetCtx, &a.why)
       || !resolve(cu, "cuModuleLoadData", &a.cuModuleLoadData, &a.why)
       || !resolve(cu, "cuModuleGetFunction", &a.cuModuleGetFunction, &a.why)
       || !resolve(cu, "cuLaunchKernel", &a.cuLaunchKernel, &a.why)
       || !resolve(cu, "cuGetErrorString", &a.cuGetErrorString, &a.why))
    {
        a.why = a.cudaPath + ": " + a.why;
        return a;
    }
    gCuErr = a.cuGetErrorString;
    a.cuDriverGetVersion(&a.driverVersion);
    const CUresult init = a.cuInit(0);
    if(init != CUDA_SUCCESS)
    {
        a.why = "no CUDA device (" + cuText("cuInit", init) + ")";
        return a;
    }
    if(a.cuDeviceGetCount(&a.deviceCount) != CUDA_SUCCESS || a.deviceCount <= 0)
    {
        a.deviceCount = 0;
        a.why = "no CUDA device (cuDeviceGetCount: 0 devices)";
        return a;
    }
    if(!loadNvrtc(&a, &why))
    {
        a.why = why;
        return a;
    }
    a.ok = true;
    return a;
}

} // namespace

bool loadNvrtc(Api* a, std::string* why)
{
    std::string err;
    void* rtc = openFirst(candidates("HIPDNNGO_CUDA_RTC_NVRTC", {"libnvrtc.so.13", "libnvrtc.so.12"}, true), &a->nvrtcPath, &err);
    if(rtc == nullptr)
    {
        *why = "NVRTC not found (" + err + ")";
        return false;
    }
    if(!resolve(rtc, "nvrtcVersion", &a->nvrtcVersion, &err) || !resolve(rtc, "nvrtcCreateProgram", &a->nvrtcCreateProgram, &err)
       || !resolve(rtc, "nvrtcCompileProgram", &a->nvrtcCompileProgram, &err)
       || !resolve(rtc, "nvrtcGetProgramLogSize", &a->nvrtcGetProgramLogSize, &err)
       || !resolve(rtc, "nvrtcGetProgramLog", &a->nvrtcGetProgramLog, &err)
       || !resolve(rtc, "nvrtcGetCUBINSize", &a->nvrtcGetCUBINSize, &err)
       || !resolve(rtc, "nvrtcGetCUBIN", &a->nvrtcGetCUBIN, &err) || !resolve(rtc, "nvrtcGetPTXSize", &a->nvrtcGetPTXSize, &err)
       || !resolve(rtc, "nvrtcGetPTX", &a->nvrtcGetPTX, &err)
       || !resolve(rtc, "nvrtcDestroyProgram", &a->nvrtcDestroyProgram, &err)
       || !resolve(rtc, "nvrtcGetErrorString", &a->nvrtcGetErrorString, &err))
    {
        *why = a->nvrtcPath + ": " + err;
        return false;
    }
    gRtcErr = a->nvrtcGetErrorString;
    a->nvrtcGetNumSupportedArchs = reinterpret_cast<nvrtcResult (*)(int*)>(dlsym(rtc, "nvrtcGetNumSupportedArchs"));
    a->nvrtcGetSupportedArchs = reinterpret_cast<nvrtcResult (*)(int*)>(dlsym(rtc, "nvrtcGetSupportedArchs"));
    a->nvrtcVersion(&a->nvrtcMajor, &a->nvrtcMinor);
    // NVRTC opens libnvrtc-builtins.so.<major>.<minor> by name when it compiles. When NVRTC itself
    // was found by path (a toolkit folder not on the loader path), open the builtins from the
    // same folder first, so that NVRTC's lookup by name finds the library already loaded.
    const size_t slash = a->nvrtcPath.rfind('/');
    if(slash != std::string::npos)
    {
        const std::string builtins = a->nvrtcPath.substr(0, slash + 1) + "libnvrtc-builtins.so." + std::to_string(a->nvrtcMajor)
                                     + "." + std::to_string(a->nvrtcMinor);
        dlopen(builtins.c_str(), RTLD_NOW | RTLD_GLOBAL); // absent: NVRTC reports it at compile time
    }
    return true;
}

const Api& api()
{
    static const Api table = load();
    return table;
}

std::string cuText(const char* call, CUresult r)
{
    const char* s = nullptr;
    if(gCuErr != nullptr)
        gCuErr(r, &s);
    return std::string(call) + ": " + (s != nullptr ? s : "CUDA error") + " (" + std::to_string(r) + ")";
}

std::string nvrtcText(const char* call, nvrtcResult r)
{
    const char* s = gRtcErr != nullptr ? gRtcErr(r) : nullptr;
    return std::string(call) + ": " + (s != nullptr ? s : "NVRTC error") + " (" + std::to_string(r) + ")";
}

} // namespace hipdnngo::cuda_rtc
