// The subset of the CUDA driver API (cuda.h) and of NVRTC (nvrtc.h) that the HIPDNNGO_CUDA_RTC
// plugin uses, declared by hand so that the plugin builds without a CUDA toolkit. Both libraries
// are opened with dlopen at first use (never linked): libcuda.so.1 and libnvrtc.so.13 / .12
// (also looked for under $CUDA_HOME/lib64, $CUDA_PATH/lib64 and /usr/local/cuda/lib64).
//
// Environment: HIPDNNGO_CUDA_RTC_LIBCUDA and HIPDNNGO_CUDA_RTC_NVRTC replace the lists of names
// tried (':'-separated); naming a library that does not exist makes the plugin offer nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hipdnngo::cuda_rtc
{

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram*;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr nvrtcResult NVRTC_SUCCESS = 0;

struct Api
{
    bool ok = false; // driver, a device and NVRTC all present
    std::string why; // when !ok: what is missing
    std::string cudaPath, nvrtcPath;
    int driverVersion = 0, deviceCount = 0, nvrtcMajor = 0, nvrtcMinor = 0;

    // Driver API.
    CUresult (*cuInit)(unsigned) = nullptr;
    CUresult (*cuDriverGetVersion)(int*) = nullptr;
    CUresult (*cuDeviceGetCount)(int*) = nullptr;
    CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
    CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
    CUresult (*cuCtxGetCurrent)(CUcontext*) = nullptr;
    CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
    CUresult (*cuCtxGetDevice)(CUdevice*) = nullptr;
    CUresult (*cuCtxPushCurrent)(CUcontext) = nullptr; // cuCtxPushCurrent_v2
    CUresult (*cuCtxPopCurrent)(CUcontext*) = nullptr; // cuCtxPopCurrent_v2
    CUresult (*cuStreamGetCtx)(CUstream, CUcontext*) = nullptr;
    CUresult (*cuModuleLoadData)(CUmodule*, const void*) = nullptr;
    CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                               void**, void**) = nullptr;
    CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;

    // NVRTC.
    nvrtcResult (*nvrtcVersion)(int*, int*) = nullptr;
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                                      const char* const*) = nullptr;
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char* const*) = nullptr;
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t*) = nullptr;
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t*) = nullptr;
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram, size_t*) = nullptr;
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram, char*) = nullptr;
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram*) = nullptr;
    const char* (*nvrtcGetErrorString)(nvrtcResult) = nullptr;
    nvrtcResult (*nvrtcGetNumSupportedArchs)(int*) = nullptr; // optional (NVRTC >= 11.2)
    nvrtcResult (*nvrtcGetSupportedArchs)(int*) = nullptr; // optional
};

// api loads the driver and NVRTC once (thread-safe); check ok before use.
const Api& api();

// loadNvrtc opens NVRTC alone (no driver, no device): for the generator's compile test.
// Returns false with *why when it cannot be opened.
bool loadNvrtc(Api* a, std::string* why);

// cuText renders a driver error ("cuModuleLoadData: CUDA_ERROR_... (n)").
std::string cuText(const char* call, CUresult r);
std::string nvrtcText(const char* call, nvrtcResult r);

} // namespace hipdnngo::cuda_rtc
