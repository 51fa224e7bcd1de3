// Plan: construction (PlanBuilder, PlanBuilder.cpp and ops/) and execution.
#include "Convert.hpp"
#include "PlanBuilder.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <algorithm>
#include <unordered_map>

namespace hipdnngo::onednn
{

Plan::Plan(const fbs::Graph& graph, bool build) : tensors_(graph)
{
    // The 16-bit float types of the graph, and those oneDNN has no kernels for on this CPU.
    std::vector<fbs::DataType> present, lacking;
    for(const Tensor& t : tensors_.all())
        if(isStageable(t.dtype) && std::find(present.begin(), present.end(), t.dtype) == present.end())
        {
            present.push_back(t.dtype);
            if(!api::nativeKernelsFor(*mapType(t.dtype)))
                lacking.push_back(t.dtype);
        }
    if(present.empty())
    {
        PlanBuilder(*this, graph, build, false).run();
        return;
    }
    std::string why;
    if(lacking.empty())
    {
        try
        {
            PlanBuilder(*this, graph, build, false).run();
            return;
        }
        catch(const Unsupported& e)
        {
            why = std::string("the native plan was declined: ") + e.what();
        }
        reset(graph);
    }
    else
    {
        const std::string version = api::versionString();
        for(fbs::DataType t : lacking)
            why += std::string(why.empty() ? "" : "; ") + "oneDNN " + version.substr(0, version.find(' ')) + " has no "
                   + fbs::EnumNameDataType(t) + " kernels for this CPU (" + api::isaName() + ")";
    }
    for(fbs::DataType t : present)
        staging_ += std::string(staging_.empty() ? "" : ", ") + fbs::EnumNameDataType(t);
    staging_ += " staged through f32: " + why;
    PlanBuilder(*this, graph, build, true).run();
}

void Plan::reset(const fbs::Graph& graph)
{
    tensors_ = TensorTable(graph);
    stored_.clear();
    staging_.clear();
    steps_.clear();
    constants_.clear();
    externals_.clear();
    scratchOffset_ = 0;
    workspaceSize_ = 0;
}

std::string Plan::describe() const
{
    std::string s = staging_.empty() ? "" : "[" + staging_ + "] ";
    bool first = true;
    for(const Step& st : steps_)
    {
        s += (first ? "" : "; ") + st.what;
        first = false;
    }
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
        case Buffer::Kind::None: break;
        }
        return nullptr;
    };
    for(const Step& s : steps_)
    {
        if(s.kernel)
        {
            stream.wait(); // the kernel may read an earlier step's output
            void* at[Kernel::kMaxBuffers];
            for(size_t i = 0; i < s.kernel->bufs.size(); ++i)
                at[i] = where(s.kernel->bufs[i]);
            s.kernel->run(at);
            continue;
        }
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
