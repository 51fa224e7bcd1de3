// Compiling and loading generated kernels: NVRTC at plan time, the module loaded into the
// context of the handle's stream, cached in memory (per source, architecture and context) and
// on disk under $HIPDNN_CACHE_DIR/cuda-rtc/ (default ~/.cache/hipdnn/cuda-rtc/), keyed by the
// source hash, the GPU architecture and the NVRTC version. HIPDNN_DISABLE_CACHE (truthy) turns
// the disk cache off.
#pragma once

#include "CudaApi.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hipdnngo::cuda_rtc
{

using LogFn = std::function<void(int severity, const std::string&)>; // hipdnnSeverity_t values

// Device is where a plan runs: the context of the stream (or the current / device 0 primary
// context for the NULL stream) and its architecture.
struct Device
{
    CUcontext ctx = nullptr;
    int ordinal = 0;
    int ccMajor = 0, ccMinor = 0;
    int sms = 0;
};

// deviceFor resolves a stream's context and device; throws Unsupported when the driver fails.
Device deviceFor(CUstream stream);

// CtxScope makes ctx current for its lifetime when it is not already (push / pop).
class CtxScope
{
public:
    explicit CtxScope(CUcontext ctx);
    ~CtxScope();
    CtxScope(const CtxScope&) = delete;
    CtxScope& operator=(const CtxScope&) = delete;

private:
    bool pushed_ = false;
};

struct Module
{
    CUmodule mod = nullptr;
    std::map<std::string, CUfunction> fns;
};

// moduleFor compiles (or finds) the source for the device and resolves the kernels.
std::shared_ptr<const Module> moduleFor(const std::string& source, const std::vector<std::string>& kernels, const Device& dev,
                                        const LogFn& log);

// targetArch: the NVRTC --gpu-architecture for compute capability cc (major*10+minor): sm_<cc>
// when NVRTC supports it (a CUBIN, no JIT at load), else compute_<the highest supported below>
// (PTX, which the driver compiles at load); "" when NVRTC supports nothing at or below cc.
std::string targetArch(const Api& a, int cc);

// nvrtcCompile compiles source for arch into *image (CUBIN for sm_, PTX for compute_); false
// with the compile log in *log.
bool nvrtcCompile(const Api& a, const std::string& source, const std::string& arch, std::string* image, std::string* log);

// sourceHash: 64-bit FNV-1a of the source, as 16 hex digits.
std::string sourceHash(const std::string& source);

// cacheDir: $HIPDNN_CACHE_DIR/cuda-rtc (default ~/.cache/hipdnn/cuda-rtc); "" when disabled
// (HIPDNN_DISABLE_CACHE truthy) or no home directory.
std::string cacheDir();

} // namespace hipdnngo::cuda_rtc
