// Plan: a hipDNN graph turned into a list of oneDNN primitives (with fused post-ops), reorders
// and a workspace layout. Everything is decided in the constructor; execute() only binds
// pointers and runs the primitives, so one Plan may be executed by several threads at once
// (each call builds its own memory objects and stream; scratch memory is in the caller's
// workspace).
#pragma once

#include "DnnlApi.hpp"
#include "Graph.hpp"
#include "PoolIndex.hpp"

#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>

#include <optional>
#include <string>
#include <vector>

namespace hipdnngo::onednn
{

struct Buffer
{
    enum class Kind
    {
        External, // the variant pack's pointer for tensor `tensor`
        Workspace, // workspace + offset
        Scratch, // workspace + the plan's scratchpad offset
        Constant, // the plan's constant storage + offset
        Fused, // an intermediate of a fused chain: never materialised, never bound
    };
    Kind kind = Kind::External;
    int tensor = -1;
    size_t offset = 0;
};

struct Arg
{
    int id = 0; // DNNL_ARG_*
    dnnl::memory::desc md;
    Buffer buf;
};

// A step the engine computes itself: hipDNN's max-pool index into oneDNN's workspace.
struct IndexConversion
{
    PoolIndexConverter converter;
    Buffer index, workspace;
};

struct Step
{
    dnnl::primitive prim;
    std::vector<Arg> args;
    std::string what; // "conv_fwd(+bias+relu) brgconv:avx512_core"
    std::optional<IndexConversion> convert; // set: this step runs the conversion, not prim
};

class Plan
{
public:
    // build = false creates primitive descriptors only (applicability, workspace queries).
    Plan(const fbs::Graph& graph, bool build);

    size_t workspaceSize() const { return workspaceSize_; }
    const std::vector<Step>& steps() const { return steps_; }
    std::string describe() const;

    void execute(void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count) const;

private:
    friend class PlanBuilder;
    TensorTable tensors_;
    std::vector<Step> steps_;
    std::vector<float> constants_;
    std::vector<int> externals_; // tensor indices that must be in the variant pack
    size_t scratchOffset_ = 0;
    size_t workspaceSize_ = 0;
};

} // namespace hipdnngo::onednn
