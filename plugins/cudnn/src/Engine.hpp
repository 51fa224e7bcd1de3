// Engine state shared by the entry points: cuDNN handles per device and stream, the bounded
// cache of translated graphs with their cuDNN engine configs (heuristics mode A, then fallback)
// and the execution plans built from them.
#pragma once

#include "Graph.hpp"

#include <map>
#include <mutex>

namespace hipdnngo::cudnn
{

// handleFor returns the cuDNN handle of (device, stream), creating it on first use.
cudnnHandle_t handleFor(int device, cudaStream_t stream);
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
    cudaStream_t buildStream = nullptr;
    std::string error; // non-empty: cuDNN rejected the graph (the reason)
    std::shared_ptr<OpGraph> og;
    std::vector<Config> configs;

    // plan returns the plan of `choice` (built once and cached), or throws Unsupported.
    std::shared_ptr<Plan> plan(const Choice& choice);

private:
    std::mutex m_;
    std::map<std::string, std::shared_ptr<Plan>> plans_;
    std::map<std::string, std::string> failures_;
    std::shared_ptr<Plan> build(const Config& c, const std::string& key);
};

// entryFor returns the cached entry of (model, device), translating on first use. Never throws
// Unsupported: a rejected graph comes back with entry->error set.
std::shared_ptr<GraphEntry> entryFor(Model&& model, int device, cudaStream_t stream);

} // namespace hipdnngo::cudnn
