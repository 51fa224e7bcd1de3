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

#include <functional>
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
        None, // no buffer: an absent optional operand of an engine kernel (address nullptr)
    };
    Kind kind = Kind::External;
    int tensor = -1;
    size_t offset = 0;

    static Buffer none() { return Buffer{Kind::None, -1, 0}; }
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

// A step the engine computes itself (fp32 staging conversions, RMSNorm): run receives the
// addresses of `bufs`, in order. Built at plan time; run may be called from several threads at
// once and allocates nothing.
struct Kernel
{
    static constexpr size_t kMaxBuffers = 16;
    std::vector<Buffer> bufs; // at most kMaxBuffers
    std::function<void(void* const* ptrs)> run;
};

struct Step
{
    dnnl::primitive prim;
    std::vector<Arg> args;
    std::string what; // "conv_fwd(+bias+relu) brgconv:avx512_core"
    std::optional<IndexConversion> convert; // set: this step runs the conversion, not prim
    std::optional<Kernel> kernel; // set: this step runs the engine's kernel, not prim
};

class Plan
{
public:
    // build = false creates primitive descriptors only (applicability, workspace queries).
    // A graph with HALF / BFLOAT16 tensors runs natively where oneDNN has kernels for the type
    // on this CPU (api::nativeKernelsFor), else, or when the native plan is declined, staged:
    // every 16-bit float tensor computed in f32 (Convert.hpp). Throws Unsupported with the
    // reason when neither works.
    Plan(const fbs::Graph& graph, bool build);

    size_t workspaceSize() const { return workspaceSize_; }
    const std::vector<Step>& steps() const { return steps_; }
    std::string describe() const;
    // staging: "" for a native plan, else what is staged and why ("HALF, BFLOAT16 staged through
    // f32: oneDNN 2.6.3 has no HALF kernels for this CPU (ISA avx512_core_amx)").
    const std::string& staging() const { return staging_; }

    void execute(void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count) const;

private:
    friend class PlanBuilder;
    void reset(const fbs::Graph& graph);
    TensorTable tensors_;
    std::vector<fbs::DataType> stored_; // by tensor index: the caller's type (tensors_ has the compute type)
    std::string staging_;
    std::vector<Step> steps_;
    std::vector<float> constants_;
    std::vector<int> externals_; // tensor indices that must be in the variant pack
    size_t scratchOffset_ = 0;
    size_t workspaceSize_ = 0;
};

} // namespace hipdnngo::onednn
