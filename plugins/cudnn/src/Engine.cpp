#include "Engine.hpp"

#include <algorithm>
#include <cstdlib>
#include <list>

namespace hipdnngo::cudnn
{

namespace
{

// DeviceGuard makes `device` current for its lifetime.
class DeviceGuard
{
public:
    explicit DeviceGuard(int device)
    {
        if(api().cudaGetDevice(&prev_) == 0 && prev_ != device)
        {
            api().cudaSetDevice(device);
            restore_ = true;
        }
    }
    ~DeviceGuard()
    {
        if(restore_)
            api().cudaSetDevice(prev_);
    }
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
    int prev_ = 0;
    bool restore_ = false;
};

std::mutex gBuildMutex;
std::map<int, cudnnHandle_t> gBuildHandles;

// The stream handles: leased ones by their users, idle ones in `idle` (most recent first).
struct StreamSlot
{
    std::shared_ptr<StreamHandle> handle;
    int users = 0;
};
using StreamKey = std::pair<int, cudaStream_t>;
std::mutex gStreamMutex;
std::map<StreamKey, StreamSlot> gStreams;
std::list<StreamKey> gIdle;

std::mutex gCacheMutex;
std::list<std::pair<std::string, std::shared_ptr<GraphEntry>>> gCache; // most recent first
constexpr size_t kCacheCapacity = 256;

int64_t getInt(const Desc& d, cudnnBackendAttributeName_t name)
{
    int64_t v = 0, n = 0;
    api().GetAttribute(d.get(), name, CUDNN_TYPE_INT64, 1, &n, &v);
    return v;
}

// addOwnNotes adds the numerical notes that cuDNN does not report for a config but that hold:
// - the SDPA translation rounds the probabilities to Q's type before P.V (DOWN_CONVERT_INPUTS);
// - engine 0 runs an fp32 matmul on TF32 tensor cores without saying so (H200, cuDNN 9.14: the
//   corpus' fp32 matmuls miss fp32 tolerances on it and pass with NVIDIA_TF32_OVERRIDE=0);
// - any tensor-core config of an all-fp32 convolution or matmul is a TF32 config: it rounds the
//   inputs to TF32 (DOWN_CONVERT_INPUTS), which cuDNN does not say;
// - convolutions and matmuls on fp8 are summed with reduced precision (H200: fp8 matmul errors
//   of about 2^-14 of the sum of |a·b|, far over an fp32 sum's: REDUCED_PRECISION_REDUCTION).
void addOwnNotes(Config& c, const Model& m)
{
    auto add = [&](int note) {
        if(std::find(c.numericalNotes.begin(), c.numericalNotes.end(), note) == c.numericalNotes.end())
            c.numericalNotes.push_back(note);
    };
    if(m.sdpaNarrowP)
        add(CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS);
    if(m.fp8Gemm)
        add(CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION);
    if(m.fp32Matmul && c.engineIndex == 0)
        add(CUDNN_NUMERICAL_NOTE_TENSOR_CORE);
    const bool tensorCore = std::find(c.numericalNotes.begin(), c.numericalNotes.end(), CUDNN_NUMERICAL_NOTE_TENSOR_CORE)
                            != c.numericalNotes.end();
    if(m.fp32Gemm && tensorCore)
        add(CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS);
}

// describe fills engine index, notes and knobs of a finalized engine config.
void describe(Config& c)
{
    auto engine = std::make_shared<Desc>(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
    int64_t n = 0;
    cudnnBackendDescriptor_t raw = engine->get();
    if(api().GetAttribute(c.cfg->get(), CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &raw) != 0)
        return;
    c.engineIndex = getInt(*engine, CUDNN_ATTR_ENGINE_GLOBAL_INDEX);
    int notes[32] = {0};
    if(api().GetAttribute(engine->get(), CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE, 32, &n, notes) == 0)
        c.numericalNotes.assign(notes, notes + std::min<int64_t>(n, 32));
    if(api().GetAttribute(engine->get(), CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE, CUDNN_TYPE_BEHAVIOR_NOTE, 32, &n, notes) == 0)
        c.behaviorNotes.assign(notes, notes + std::min<int64_t>(n, 32));
    constexpr int kMaxKnobs = 48;
    std::vector<DescPtr> choices;
    std::vector<cudnnBackendDescriptor_t> raws;
    for(int i = 0; i < kMaxKnobs; ++i)
    {
        choices.push_back(std::make_shared<Desc>(CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR));
        raws.push_back(choices.back()->get());
    }
    if(api().GetAttribute(c.cfg->get(), CUDNN_ATTR_ENGINECFG_KNOB_CHOICES, CUDNN_TYPE_BACKEND_DESCRIPTOR, kMaxKnobs, &n,
                          raws.data())
       != 0)
        return;
    for(int64_t i = 0; i < std::min<int64_t>(n, kMaxKnobs); ++i)
    {
        int type = 0;
        int64_t cnt = 0, value = 0;
        api().GetAttribute(raws[i], CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, CUDNN_TYPE_KNOB_TYPE, 1, &cnt, &type);
        api().GetAttribute(raws[i], CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, CUDNN_TYPE_INT64, 1, &cnt, &value);
        c.knobs.emplace_back(type, value);
    }
}

// heuristics returns the configs of one heuristic mode (empty, with *why, when it offers none).
std::vector<Config> heuristics(const OpGraph& og, const Model& model, cudnnBackendHeurMode_t mode, const char* source,
                               std::string* why)
{
    std::vector<Config> out;
    try
    {
        Desc heur(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
        heur.setDesc(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, *og.graph, "engine heuristic");
        heur.set(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode, "engine heuristic");
        heur.finalize("engine heuristic");
        int64_t count = 0;
        cudnnStatus_t s =
            api().GetAttribute(heur.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr);
        if(s != 0)
            throw Unsupported(statusText("engine heuristic results (count)", s));
        std::vector<DescPtr> cfgs;
        std::vector<cudnnBackendDescriptor_t> raws;
        for(int64_t i = 0; i < count; ++i)
        {
            cfgs.push_back(std::make_shared<Desc>(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR));
            raws.push_back(cfgs.back()->get());
        }
        int64_t got = 0;
        s = api().GetAttribute(heur.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &got,
                               raws.data());
        if(s != 0)
            throw Unsupported(statusText("engine heuristic results", s));
        for(int64_t i = 0; i < std::min(got, count); ++i)
        {
            Config c;
            c.cfg = cfgs[static_cast<size_t>(i)];
            c.source = source;
            describe(c);
            addOwnNotes(c, model);
            out.push_back(std::move(c));
        }
        if(out.empty())
            *why = std::string(source) + ": no engine config";
    }
    catch(const Unsupported& e)
    {
        *why = std::string(source) + ": " + e.what();
    }
    return out;
}

Config explicitConfig(const OpGraph& og, const Model& model, const Choice& choice)
{
    Config c;
    c.source = "explicit";
    c.engineIndex = choice.engine;
    c.knobs = choice.knobs;
    auto engine = std::make_shared<Desc>(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
    engine->setDesc(CUDNN_ATTR_ENGINE_OPERATION_GRAPH, *og.graph, "engine");
    engine->setInt(CUDNN_ATTR_ENGINE_GLOBAL_INDEX, choice.engine, "engine");
    engine->finalize(("cuDNN engine " + std::to_string(choice.engine)).c_str());
    std::vector<DescPtr> knobs;
    std::vector<cudnnBackendDescriptor_t> raws;
    for(const auto& [type, value] : choice.knobs)
    {
        auto k = std::make_shared<Desc>(CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR);
        const int t = static_cast<int>(type);
        k->set(CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, CUDNN_TYPE_KNOB_TYPE, 1, &t, "knob choice");
        k->setInt(CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, value, "knob choice");
        k->finalize("knob choice");
        knobs.push_back(k);
        raws.push_back(k->get());
    }
    c.cfg = std::make_shared<Desc>(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    c.cfg->setDesc(CUDNN_ATTR_ENGINECFG_ENGINE, *engine, "engine config");
    if(!raws.empty())
        c.cfg->set(CUDNN_ATTR_ENGINECFG_KNOB_CHOICES, CUDNN_TYPE_BACKEND_DESCRIPTOR, static_cast<int64_t>(raws.size()),
                   raws.data(), "engine config");
    c.cfg->finalize("engine config");
    int64_t n = 0;
    int notes[32] = {0};
    if(api().GetAttribute(engine->get(), CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE, 32, &n, notes) == 0)
        c.numericalNotes.assign(notes, notes + std::min<int64_t>(n, 32));
    if(api().GetAttribute(engine->get(), CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE, CUDNN_TYPE_BEHAVIOR_NOTE, 32, &n, notes) == 0)
        c.behaviorNotes.assign(notes, notes + std::min<int64_t>(n, 32));
    addOwnNotes(c, model);
    return c;
}

} // namespace

std::string Config::label() const
{
    std::string s = "engine " + std::to_string(engineIndex) + " {";
    for(size_t i = 0; i < knobs.size(); ++i)
        s += (i ? "," : "") + std::to_string(knobs[i].first) + "=" + std::to_string(knobs[i].second);
    return s + "} (" + source + ")";
}

int deviceOf(cudaStream_t stream)
{
    int d = 0;
    if(stream != nullptr && api().cudaStreamGetDevice != nullptr && api().cudaStreamGetDevice(stream, &d) == 0)
        return d;
    api().cudaGetDevice(&d);
    return d;
}

cudnnHandle_t newHandle(int device, cudaStream_t stream)
{
    DeviceGuard guard(device);
    cudnnHandle_t h = nullptr;
    cudnnStatus_t s = api().Create(&h);
    if(s != 0)
        throw Unsupported(statusText(("cudnnCreate on device " + std::to_string(device)).c_str(), s));
    s = api().SetStream(h, stream);
    if(s != 0)
    {
        api().Destroy(h);
        throw Unsupported(statusText("cudnnSetStream", s));
    }
    return h;
}

StreamHandle::StreamHandle(int device, cudaStream_t stream)
    : h_(newHandle(device, stream))
    , device_(device)
    , stream_(stream)
{
}

StreamHandle::~StreamHandle()
{
    DeviceGuard guard(device_);
    api().Destroy(h_);
}

void StreamHandle::rebind(cudaStream_t stream)
{
    stream_ = stream;
    api().SetStream(h_, stream);
}

size_t idleHandleBound()
{
    static const size_t bound = [] {
        const char* v = std::getenv("HIPDNNGO_CUDNN_IDLE_HANDLES");
        if(v == nullptr || *v == '\0')
            return size_t{4};
        char* end = nullptr;
        const long n = std::strtol(v, &end, 10);
        if(*end != '\0' || n < 0 || n > 1024)
            return size_t{4};
        return static_cast<size_t>(n);
    }();
    return bound;
}

std::shared_ptr<StreamHandle> leaseStreamHandle(int device, cudaStream_t stream)
{
    std::lock_guard<std::mutex> lock(gStreamMutex);
    const StreamKey key{device, stream};
    auto it = gStreams.find(key);
    if(it == gStreams.end())
    {
        StreamSlot slot;
        // The oldest idle handle of the device that no execute still holds, else a new one.
        for(auto idle = gIdle.rbegin(); idle != gIdle.rend(); ++idle)
        {
            auto old = gStreams.find(*idle);
            if(idle->first == device && old->second.handle.use_count() == 1)
            {
                slot.handle = std::move(old->second.handle);
                gStreams.erase(old);
                gIdle.erase(std::next(idle).base());
                slot.handle->rebind(stream);
                break;
            }
        }
        if(!slot.handle)
            slot.handle = std::make_shared<StreamHandle>(device, stream);
        it = gStreams.emplace(key, std::move(slot)).first;
    }
    else if(it->second.users == 0)
    {
        gIdle.remove(key);
        it->second.handle->rebind(stream);
    }
    ++it->second.users;
    return it->second.handle;
}

void returnStreamHandle(const std::shared_ptr<StreamHandle>& h)
{
    if(!h)
        return;
    std::vector<std::shared_ptr<StreamHandle>> doomed; // destroyed after the lock is dropped
    {
        std::lock_guard<std::mutex> lock(gStreamMutex);
        const StreamKey key{h->device(), h->stream()};
        auto it = gStreams.find(key);
        if(it == gStreams.end() || it->second.handle != h || it->second.users == 0)
            return;
        if(--it->second.users > 0)
            return;
        gIdle.push_front(key);
        while(gIdle.size() > idleHandleBound())
        {
            auto last = gStreams.find(gIdle.back());
            doomed.push_back(std::move(last->second.handle));
            gStreams.erase(last);
            gIdle.pop_back();
        }
    }
}

size_t liveStreamHandles()
{
    std::lock_guard<std::mutex> lock(gStreamMutex);
    return gStreams.size();
}

cudnnHandle_t buildHandle(int device)
{
    std::lock_guard<std::mutex> lock(gBuildMutex);
    auto it = gBuildHandles.find(device);
    if(it != gBuildHandles.end())
        return it->second;
    cudnnHandle_t h = newHandle(device, nullptr);
    gBuildHandles[device] = h;
    return h;
}

// placeDeviceConstants copies the model's device constants to the current device, once per
// translated graph and device; they stay there for the entry's life.
void placeDeviceConstants(GraphEntry& e)
{
    for(const TensorSpec& t : e.model.tensors)
    {
        if(t.deviceValues.empty())
            continue;
        if(api().cudaMalloc == nullptr || api().cudaFree == nullptr || api().cudaMemcpy == nullptr)
            throw Unsupported("tensor uid " + std::to_string(t.uid)
                              + ": constants in device memory need cudaMalloc, cudaMemcpy and cudaFree, which " + api().cudartPath
                              + " lacks");
        const size_t bytes = t.deviceValues.size() * sizeof(float);
        void* p = nullptr;
        cudaError_t err = api().cudaMalloc(&p, bytes);
        if(err == 0)
        {
            e.deviceConsts.emplace_back(t.uid, p);
            err = api().cudaMemcpy(p, t.deviceValues.data(), bytes, cudaMemcpyHostToDevice);
        }
        if(err != 0)
            throw Unsupported("tensor uid " + std::to_string(t.uid) + ": placing " + std::to_string(bytes)
                              + " bytes of constants in device memory failed: " + api().cudaGetErrorString(err));
    }
}

GraphEntry::~GraphEntry()
{
    for(const auto& c : deviceConsts)
        api().cudaFree(c.second); // at process exit the runtime may be gone: nothing to do then
}

std::shared_ptr<GraphEntry> entryFor(Model&& model, int device)
{
    std::string key = model.key;
    key.append(reinterpret_cast<const char*>(&device), sizeof device);
    {
        std::lock_guard<std::mutex> lock(gCacheMutex);
        for(auto it = gCache.begin(); it != gCache.end(); ++it)
        {
            if(it->first == key)
            {
                gCache.splice(gCache.begin(), gCache, it);
                return gCache.front().second;
            }
        }
    }
    auto e = std::make_shared<GraphEntry>();
    e->model = std::move(model);
    e->device = device;
    try
    {
        DeviceGuard guard(device);
        placeDeviceConstants(*e);
        e->og = buildOpGraph(e->model, buildHandle(device));
        std::string whyA, whyF;
        std::vector<Config> a = heuristics(*e->og, e->model, CUDNN_HEUR_MODE_A, "heuristics A", &whyA);
        std::vector<Config> f = heuristics(*e->og, e->model, CUDNN_HEUR_MODE_FALLBACK, "fallback", &whyF);
        e->configs = std::move(a);
        for(Config& c : f)
        {
            bool dup = false;
            for(const Config& x : e->configs)
                dup = dup || (x.engineIndex == c.engineIndex && x.knobs == c.knobs);
            if(!dup)
                e->configs.push_back(std::move(c));
        }
        // A matmul feeding exact GELU: engine 0 (cuBLASLt, 32 MiB workspace) fuses it as its GELU
        // epilogue, which is the tanh form (H200, cuDNN 9.14: 4.75e-4 from erf GELU, exact with
        // a bias add between or with GELU alone). Its configs are not offered for such graphs;
        // cudnn.engine=0 still names it.
        if(e->model.matmulGelu)
        {
            const size_t before = e->configs.size();
            e->configs.erase(std::remove_if(e->configs.begin(), e->configs.end(),
                                            [](const Config& c) { return c.engineIndex == 0; }),
                             e->configs.end());
            if(e->configs.size() != before)
                whyA += "; engine 0 left out: its GELU epilogue is the tanh approximation, not the exact GELU asked for";
        }
        if(e->configs.empty())
            e->error = "cuDNN offers no engine config (" + whyA + "; " + whyF + ")";
    }
    catch(const Unsupported& ex)
    {
        e->error = ex.what();
    }
    std::lock_guard<std::mutex> lock(gCacheMutex);
    for(auto it = gCache.begin(); it != gCache.end(); ++it)
        if(it->first == key)
            return it->second; // another thread won
    gCache.emplace_front(std::move(key), e);
    if(gCache.size() > kCacheCapacity)
        gCache.pop_back();
    return e;
}

std::shared_ptr<Plan> GraphEntry::build(const Config& c, const std::string& key, int64_t rank)
{
    auto it = plans_.find(key);
    if(it != plans_.end())
        return it->second;
    auto f = failures_.find(key);
    if(f != failures_.end())
        throw Unsupported(f->second);
    try
    {
        DeviceGuard guard(device);
        auto p = std::make_shared<Plan>();
        p->config = c;
        p->rank = rank;
        p->plan = std::make_shared<Desc>(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
        cudnnHandle_t h = buildHandle(device);
        p->plan->set(CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &h, "execution plan");
        p->plan->setDesc(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, *c.cfg, "execution plan");
        p->plan->finalize(("execution plan for " + c.label()).c_str());
        int64_t n = 0;
        api().GetAttribute(p->plan->get(), CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &n, &p->workspace);
        p->workspace += model.wsBytes;
        plans_[key] = p;
        return p;
    }
    catch(const Unsupported& e)
    {
        failures_[key] = e.what();
        throw;
    }
}

std::shared_ptr<Plan> GraphEntry::plan(const Choice& choice)
{
    if(!error.empty())
        throw Unsupported(error);
    std::lock_guard<std::mutex> lock(m_);
    if(choice.engine >= 0)
    {
        std::string key = "e" + std::to_string(choice.engine);
        for(const auto& [t, v] : choice.knobs)
            key += "," + std::to_string(t) + "=" + std::to_string(v);
        auto it = plans_.find(key);
        if(it != plans_.end())
            return it->second;
        Config c;
        try
        {
            DeviceGuard guard(device);
            c = explicitConfig(*og, model, choice);
        }
        catch(const Unsupported& e)
        {
            failures_[key] = e.what();
            throw;
        }
        return build(c, key);
    }
    if(choice.rank >= static_cast<int64_t>(configs.size()))
        throw Unsupported("cudnn.config " + std::to_string(choice.rank) + " is out of range: cuDNN offers "
                          + std::to_string(configs.size()) + " configs for this graph");
    if(choice.rank >= 0)
        return build(configs[static_cast<size_t>(choice.rank)], "r" + std::to_string(choice.rank), choice.rank);
    // Default choice: cuDNN's order, except that an all-fp32 graph with a convolution or matmul
    // (the ops with TF32 kernels) takes only configs that keep fp32 inputs: no DOWN_CONVERT_INPUTS
    // or TENSOR_CORE note, as a tensor-core engine on fp32 data is a TF32 engine. Such a graph
    // with no such config is not applicable.
    std::vector<size_t> order;
    for(size_t i = 0; i < configs.size(); ++i)
    {
        const auto& notes = configs[i].numericalNotes;
        const bool down = std::find(notes.begin(), notes.end(), CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS) != notes.end()
                          || std::find(notes.begin(), notes.end(), CUDNN_NUMERICAL_NOTE_TENSOR_CORE) != notes.end();
        if(!model.fp32Gemm || !down)
            order.push_back(i);
    }
    if(order.empty())
        throw Unsupported("cuDNN offers only engine configs that down-convert fp32 inputs (TF32) for this all-fp32 graph ("
                          + std::to_string(configs.size()) + " configs); fp32 results are not computed in TF32 by default");
    std::string reasons;
    for(size_t i : order)
    {
        try
        {
            return build(configs[i], "r" + std::to_string(i), static_cast<int64_t>(i));
        }
        catch(const Unsupported& e)
        {
            if(reasons.size() < 1500)
                reasons += std::string(reasons.empty() ? "" : "; ") + e.what();
        }
    }
    throw Unsupported("no cuDNN engine config builds a plan (" + std::to_string(configs.size()) + " tried: " + reasons + ")");
}

} // namespace hipdnngo::cudnn
