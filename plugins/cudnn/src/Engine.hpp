// Engine state shared by the entry points: cuDNN handles (one per device for building, one per
// stream in use for executing), the bounded cache of translated graphs with their cuDNN engine
// configs (heuristics mode A, then fallback) and the execution plans built from them.
#pragma once

#include "Graph.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace hipdnngo::cudnn
{

// StreamHandle is a cuDNN handle bound to one (device, stream); destroying it destroys the
// handle (about 8 MiB of device memory on an H200).
class StreamHandle
{
public:
    StreamHandle(int device, cudaStream_t stream); // throws Unsupported
    ~StreamHandle();
    StreamHandle(const StreamHandle&) = delete;
    StreamHandle& operator=(const StreamHandle&) = delete;
    cudnnHandle_t get() const { return h_; }
    int device() const { return device_; }
    cudaStream_t stream() const { return stream_; }
    // rebind points the handle at `stream` (cudnnSetStream), also when the address is the same:
    // it may now name a new stream.
    void rebind(cudaStream_t stream);

private:
    cudnnHandle_t h_ = nullptr;
    int device_;
    cudaStream_t stream_;
};

// leaseStreamHandle returns the handle of (device, stream) for one more user (a plugin handle
// on that stream), creating it on first use. A caller keeps its own copy of the pointer while
// it executes, so a handle released meanwhile lives until that execute returns.
std::shared_ptr<StreamHandle> leaseStreamHandle(int device, cudaStream_t stream);
// returnStreamHandle gives one lease back. A handle no user holds joins the idle handles, which
// are kept for streams that come back (most recent first) up to idleHandleBound(); beyond it
// the oldest is destroyed, so device memory does not grow with the number of streams seen. A
// stream with no handle of its own takes over the oldest idle handle of its device rather than
// a new one: cuDNN 9.14 keeps about 2.7 KiB of device memory per cudnnCreate / cudnnDestroy
// pair (H200), so a service making a stream per request must not create handles per request.
void returnStreamHandle(const std::shared_ptr<StreamHandle>& h);
// idleHandleBound is HIPDNNGO_CUDNN_IDLE_HANDLES (0..1024), default 4.
size_t idleHandleBound();
// liveStreamHandles is the number of stream handles alive in the registry, leased or idle.
size_t liveStreamHandles();

// buildHandle returns the device's handle for building graphs and plans (stream-free, one per
// device for the process's life: cuDNN plans keep the handle they were finalized with).
cudnnHandle_t buildHandle(int device);
// deviceOf returns the device of `stream` (the current device for the null stream).
int deviceOf(cudaStream_t stream);

// Config is one engine configuration cuDNN offered for a graph.
struct Config
{
    DescPtr cfg;
    int64_t engineIndex = -1;
    std::vector<std::pair<int64_t, int64_t>> knobs; // (cudnnBackendKnobType_t, value)
    std::vector<int> numericalNotes, behaviorNotes;
    std::string source; // "heuristics A" / "fallback" / "explicit"
    std::string label() const; // "engine 12 {2=3,14=1}"
};

struct Plan
{
    DescPtr plan;
    int64_t workspace = 0; // the engine's intermediates (Model::wsBytes), then cuDNN's workspace
    Config config;
    int64_t rank = -1; // its index in GraphEntry::configs; -1 for an explicit cudnn.engine
};

// Choice is what an EngineConfig's knobs ask for.
struct Choice
{
    int64_t rank = -1; // cudnn.config: index in the offered order; -1 = first that builds
    int64_t engine = -1; // cudnn.engine: a cuDNN engine global index (then `knobs` apply)
    std::vector<std::pair<int64_t, int64_t>> knobs;
};

struct GraphEntry
{
    Model model;
    int device = 0;
    std::string error; // non-empty: cuDNN rejected the graph (the reason)
    std::shared_ptr<OpGraph> og;
    std::vector<Config> configs;
    // The model's device constants (TensorSpec::deviceValues) on `device`: uid and pointer.
    std::vector<std::pair<int64_t, void*>> deviceConsts;

    GraphEntry() = default;
    GraphEntry(const GraphEntry&) = delete;
    GraphEntry& operator=(const GraphEntry&) = delete;
    ~GraphEntry();

    // plan returns the plan of `choice` (built once and cached), or throws Unsupported.
    std::shared_ptr<Plan> plan(const Choice& choice);

private:
    std::mutex m_;
    std::map<std::string, std::shared_ptr<Plan>> plans_;
    std::map<std::string, std::string> failures_;
    std::shared_ptr<Plan> build(const Config& c, const std::string& key, int64_t rank = -1);
};

// entryFor returns the cached entry of (model, device), translating on first use. Never throws
// Unsupported: a rejected graph comes back with entry->error set.
std::shared_ptr<GraphEntry> entryFor(Model&& model, int device);

} // namespace hipdnngo::cudnn
