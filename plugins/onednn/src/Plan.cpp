// Plan: construction (PlanBuilder, PlanBuilder.cpp and ops/) and execution.
#include "PlanBuilder.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <unordered_map>

namespace hipdnngo::onednn
{

Plan::Plan(const fbs::Graph& graph, bool build) : tensors_(graph) { PlanBuilder(*this, graph, build).run(); }

std::string Plan::describe() const
{
    std::string s;
    for(const Step& st : steps_)
        s += (s.empty() ? "" : "; ") + st.what;
    return s;
}

void Plan::execute(void* workspace, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count) const
{
    using hipdnn_plugin_sdk::fail;
    if(workspaceSize_ > 0 && workspace == nullptr)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "workspace is NULL but the plan needs " + std::to_string(workspaceSize_) + " bytes");
    if(count > 0 && buffers == nullptr)
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "device_buffers is NULL but num_device_buffers is " + std::to_string(count));
    std::vector<void*> ptrs(tensors_.size(), nullptr);
    for(uint32_t i = 0; i < count; ++i)
        if(const Tensor* t = tensors_.find(buffers[i].uid))
            ptrs[static_cast<size_t>(t->index)] = buffers[i].ptr;
    for(int idx : externals_)
        if(ptrs[static_cast<size_t>(idx)] == nullptr)
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "no device buffer for tensor " + tensors_.at(idx).label());
    auto* ws = static_cast<uint8_t*>(workspace);
    auto* constants = const_cast<float*>(constants_.data());
    const dnnl::engine& eng = api::cpuEngine();
    dnnl::stream stream(eng);
    std::unordered_map<int, dnnl::memory> args;
    auto where = [&](const Buffer& b) -> void* {
        switch(b.kind)
        {
        case Buffer::Kind::External: return ptrs[static_cast<size_t>(b.tensor)];
        case Buffer::Kind::Workspace: return ws + b.offset;
        case Buffer::Kind::Scratch: return ws + scratchOffset_;
        case Buffer::Kind::Constant: return constants + b.offset;
        case Buffer::Kind::Fused: break; // never an argument
        }
        return nullptr;
    };
    for(const Step& s : steps_)
    {
        if(s.convert)
        {
            stream.wait(); // the index may be an earlier step's output
            s.convert->converter.run(where(s.convert->index), where(s.convert->workspace));
            continue;
        }
        args.clear();
        for(const Arg& a : s.args)
            args.emplace(a.id, dnnl::memory(a.md, eng, where(a.buf)));
        s.prim.execute(stream, args);
    }
    stream.wait();
}

} // namespace hipdnngo::onednn
