#include "Runtime.hpp"

#include "Model.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

namespace hipdnngo::cuda_rtc
{

namespace
{

void check(CUresult r, const char* call)
{
    if(r != CUDA_SUCCESS)
        throw Unsupported(cuText(call, r));
}

bool truthy(const char* v)
{
    if(v == nullptr)
        return false;
    std::string s(v);
    s.erase(0, s.find_first_not_of(" \t"));
    s.erase(s.find_last_not_of(" \t") + 1);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s == "1" || s == "true" || s == "on" || s == "yes" || s == "enable" || s == "enabled";
}

bool mkdirs(const std::string& path)
{
    for(size_t i = 1; i <= path.size(); ++i)
        if(i == path.size() || path[i] == '/')
        {
            const std::string part = path.substr(0, i);
            if(mkdir(part.c_str(), 0755) != 0 && errno != EEXIST)
                return false;
        }
    return true;
}

bool readFile(const std::string& path, std::string* out)
{
    std::ifstream in(path, std::ios::binary);
    if(!in)
        return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    *out = ss.str();
    return !out->empty();
}

// writeFile writes through a temporary file and a rename, so readers never see half a file.
void writeFile(const std::string& path, const std::string& data)
{
    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(tmp, std::ios::binary);
        if(!out)
            return;
        out.write(data.data(), static_cast<std::streamsize>(data.size()));
        if(!out)
        {
            std::remove(tmp.c_str());
            return;
        }
    }
    if(std::rename(tmp.c_str(), path.c_str()) != 0)
        std::remove(tmp.c_str());
}

std::mutex gMutex; // the module cache and compiles
std::map<std::string, std::shared_ptr<Module>> gModules;

} // namespace

std::string sourceHash(const std::string& source)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for(unsigned char c : source)
    {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string cacheDir()
{
    if(truthy(std::getenv("HIPDNN_DISABLE_CACHE")))
        return "";
    std::string root;
    if(const char* r = std::getenv("HIPDNN_CACHE_DIR"); r != nullptr)
    {
        root = r;
        root.erase(0, root.find_first_not_of(" \t"));
        root.erase(root.find_last_not_of(" \t") + 1);
    }
    if(root.empty())
    {
        const char* home = std::getenv("HOME");
        if(home == nullptr || *home == '\0')
            return "";
        root = std::string(home) + "/.cache/hipdnn";
    }
    return root + "/cuda-rtc";
}

Device deviceFor(CUstream stream)
{
    const Api& a = api();
    Device d;
    if(stream != nullptr)
    {
        check(a.cuStreamGetCtx(stream, &d.ctx), "cuStreamGetCtx");
    }
    else
    {
        check(a.cuCtxGetCurrent(&d.ctx), "cuCtxGetCurrent");
        if(d.ctx == nullptr) // nothing current on this thread: the runtime's default, device 0
        {
            CUdevice dev = 0;
            check(a.cuDeviceGet(&dev, 0), "cuDeviceGet");
            check(a.cuDevicePrimaryCtxRetain(&d.ctx, dev), "cuDevicePrimaryCtxRetain");
        }
    }
    CtxScope scope(d.ctx);
    CUdevice dev = 0;
    check(a.cuCtxGetDevice(&dev), "cuCtxGetDevice");
    d.ordinal = dev;
    check(a.cuDeviceGetAttribute(&d.ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev), "cuDeviceGetAttribute");
    check(a.cuDeviceGetAttribute(&d.ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev), "cuDeviceGetAttribute");
    check(a.cuDeviceGetAttribute(&d.sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev), "cuDeviceGetAttribute");
    return d;
}

CtxScope::CtxScope(CUcontext ctx)
{
    const Api& a = api();
    CUcontext cur = nullptr;
    if(a.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == ctx)
        return;
    check(a.cuCtxPushCurrent(ctx), "cuCtxPushCurrent");
    pushed_ = true;
}

CtxScope::~CtxScope()
{
    if(pushed_)
    {
        CUcontext popped = nullptr;
        api().cuCtxPopCurrent(&popped);
    }
}

std::string targetArch(const Api& a, int cc)
{
    if(a.nvrtcGetNumSupportedArchs == nullptr || a.nvrtcGetSupportedArchs == nullptr)
        return "sm_" + std::to_string(cc); // an old NVRTC: ask for the device's own
    int n = 0;
    if(a.nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0)
        return "sm_" + std::to_string(cc);
    std::vector<int> archs(static_cast<size_t>(n));
    a.nvrtcGetSupportedArchs(archs.data());
    if(std::find(archs.begin(), archs.end(), cc) != archs.end())
        return "sm_" + std::to_string(cc);
    int best = 0;
    for(int v : archs)
        if(v <= cc)
            best = std::max(best, v);
    return best > 0 ? "compute_" + std::to_string(best) : "";
}

bool nvrtcCompile(const Api& a, const std::string& source, const std::string& arch, std::string* image, std::string* log)
{
    nvrtcProgram prog = nullptr;
    nvrtcResult r = a.nvrtcCreateProgram(&prog, source.c_str(), "hipdnngo_cuda_rtc.cu", 0, nullptr, nullptr);
    if(r != NVRTC_SUCCESS)
    {
        *log = nvrtcText("nvrtcCreateProgram", r);
        return false;
    }
    const std::string archOpt = "--gpu-architecture=" + arch;
    const char* opts[] = {archOpt.c_str(), "--std=c++17"};
    r = a.nvrtcCompileProgram(prog, 2, opts);
    size_t logSize = 0;
    a.nvrtcGetProgramLogSize(prog, &logSize);
    std::string text(logSize, '\0');
    if(logSize > 0)
        a.nvrtcGetProgramLog(prog, &text[0]);
    while(!text.empty() && (text.back() == '\0' || text.back() == '\n'))
        text.pop_back();
    bool ok = r == NVRTC_SUCCESS;
    if(ok)
    {
        const bool cubin = arch.rfind("sm_", 0) == 0;
        size_t size = 0;
        r = cubin ? a.nvrtcGetCUBINSize(prog, &size) : a.nvrtcGetPTXSize(prog, &size);
        if(r == NVRTC_SUCCESS && size > 0)
        {
            image->assign(size, '\0');
            r = cubin ? a.nvrtcGetCUBIN(prog, &(*image)[0]) : a.nvrtcGetPTX(prog, &(*image)[0]);
        }
        ok = r == NVRTC_SUCCESS && size > 0;
        if(!ok)
            text = nvrtcText(cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX", r);
    }
    else
    {
        text = nvrtcText("nvrtcCompileProgram", r) + (text.empty() ? "" : ":\n" + text);
    }
    *log = text;
    a.nvrtcDestroyProgram(&prog);
    return ok;
}

std::shared_ptr<const Module> moduleFor(const std::string& source, const std::vector<std::string>& kernels, const Device& dev,
                                        const LogFn& log)
{
    const Api& a = api();
    const int cc = dev.ccMajor * 10 + dev.ccMinor;
    const std::string arch = targetArch(a, cc);
    if(arch.empty())
        throw Unsupported("NVRTC " + std::to_string(a.nvrtcMajor) + "." + std::to_string(a.nvrtcMinor)
                          + " supports no architecture at or below sm_" + std::to_string(cc));
    const std::string hash = sourceHash(source);
    char ctxText[32];
    std::snprintf(ctxText, sizeof ctxText, "%p", static_cast<void*>(dev.ctx));
    const std::string key = hash + "/" + std::to_string(source.size()) + "/" + arch + "/" + ctxText;

    std::lock_guard<std::mutex> lock(gMutex);
    if(auto it = gModules.find(key); it != gModules.end())
        return it->second;

    const std::string dir = cacheDir();
    const std::string file = dir.empty() ? ""
                                         : dir + "/" + hash + "-" + std::to_string(source.size()) + "-" + arch + "-nvrtc"
                                               + std::to_string(a.nvrtcMajor) + "." + std::to_string(a.nvrtcMinor)
                                               + (arch.rfind("sm_", 0) == 0 ? ".cubin" : ".ptx");
    CtxScope scope(dev.ctx);
    auto m = std::make_shared<Module>();
    std::string image;
    const auto t0 = std::chrono::steady_clock::now();
    bool loaded = false;
    if(!file.empty() && readFile(file, &image))
    {
        loaded = a.cuModuleLoadData(&m->mod, image.data()) == CUDA_SUCCESS;
        if(loaded)
        {
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            log(0 /* HIPDNN_SEV_INFO */, "kernel " + hash + " (" + arch + ") loaded from the disk cache " + file + " in "
                                  + std::to_string(ms) + " ms");
        }
    }
    if(!loaded)
    {
        std::string compileLog;
        if(!nvrtcCompile(a, source, arch, &image, &compileLog))
            throw Unsupported("NVRTC failed to compile the generated kernel " + hash + " for " + arch + ": " + compileLog);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        check(a.cuModuleLoadData(&m->mod, image.data()), "cuModuleLoadData");
        log(0 /* HIPDNN_SEV_INFO */, "kernel " + hash + " compiled by NVRTC " + std::to_string(a.nvrtcMajor) + "."
                              + std::to_string(a.nvrtcMinor) + " for " + arch + " in " + std::to_string(ms) + " ms ("
                              + std::to_string(source.size()) + " bytes of source"
                              + (file.empty() ? ", disk cache off)" : ", cached as " + file + ")"));
        if(!file.empty() && mkdirs(dir))
            writeFile(file, image);
    }
    for(const std::string& k : kernels)
    {
        CUfunction f = nullptr;
        check(a.cuModuleGetFunction(&f, m->mod, k.c_str()), "cuModuleGetFunction");
        m->fns[k] = f;
    }
    gModules[key] = m;
    return m;
}

} // namespace hipdnngo::cuda_rtc
