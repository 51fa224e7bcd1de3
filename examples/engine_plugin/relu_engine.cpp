// relu_engine.cpp: a complete engine plugin written on the SDK's plugin skeleton. One engine,
// HIPDNNGO_EXAMPLE_RELU, runs single-node ReLU graphs (clips and slope included) on fp32 tensors
// in host memory, synchronously on the calling thread. docs/plugin-authors.md walks through it.
#include <hipdnn_plugin_sdk/helpers/EnginePlugin.hpp>
#include <hipdnn_plugin_sdk/helpers/TensorTable.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace example_relu
{

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;
using hipdnn_plugin_sdk::fail;

// Unsupported: a well-formed graph this engine declines ("not applicable" in applicability,
// BAD_PARAM with the reason everywhere else).
struct Unsupported : std::runtime_error
{
    explicit Unsupported(const std::string& reason) : std::runtime_error(reason) {}
};

// Relu is everything execute needs, read once from the graph: y = x above the lower clip (at
// most the upper clip), lower + slope * (x - lower) at or below it.
struct Relu
{
    int64_t xUid = 0, yUid = 0;
    std::vector<int64_t> dims, xStrides, yStrides;
    float lower = 0.0f, upper = std::numeric_limits<float>::infinity(), slope = 0.0f;
};

void requireFloat(const hipdnn_plugin_sdk::TensorRecord& t)
{
    if(t.dtype != fbs::DataType::FLOAT)
        throw Unsupported("tensor " + t.label() + " is not FLOAT");
    if(t.isVirtual || t.isConstant || t.isPassByValue)
        throw Unsupported("tensor " + t.label() + " is not a plain tensor");
}

Relu readRelu(const fbs::Graph& graph)
{
    const hipdnn_plugin_sdk::TensorTable<Unsupported> tensors(graph, {1, 8, std::nullopt});
    if(graph.nodes() == nullptr || graph.nodes()->size() != 1)
        throw Unsupported("only graphs of one node are supported");
    const fbs::PointwiseAttributes* pw = graph.nodes()->Get(0)->attributes_as_PointwiseAttributes();
    if(pw == nullptr || pw->operation() != fbs::PointwiseMode::RELU_FWD)
        throw Unsupported("only pointwise RELU_FWD is supported");
    const hipdnn_plugin_sdk::TensorRecord* x = tensors.find(pw->in_0_tensor_uid());
    const hipdnn_plugin_sdk::TensorRecord* y = tensors.find(pw->out_0_tensor_uid());
    if(x == nullptr || y == nullptr)
        throw Unsupported("the node names a tensor the graph does not have");
    requireFloat(*x);
    requireFloat(*y);
    if(x->dims != y->dims)
        throw Unsupported("x and y differ in shape (no broadcasting here)");
    Relu r;
    r.xUid = x->uid;
    r.yUid = y->uid;
    r.dims = x->dims;
    r.xStrides = x->strides;
    r.yStrides = y->strides;
    r.lower = pw->relu_lower_clip().value_or(r.lower);
    r.upper = pw->relu_upper_clip().value_or(r.upper);
    r.slope = pw->relu_lower_clip_slope().value_or(r.slope);
    return r;
}

void* pointerOf(int64_t uid, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count)
{
    for(uint32_t i = 0; i < count; ++i)
        if(buffers[i].uid == uid && buffers[i].ptr != nullptr)
            return buffers[i].ptr;
    fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "no pointer for tensor uid " + std::to_string(uid));
}

// The engine class: what HIPDNN_ENGINE_PLUGIN asks for. EngineDefaults gives a handle that
// records the stream (host engines run synchronously) and no extra exception mapping.
struct ReluEngine : hipdnn_plugin_sdk::EngineDefaults
{
    static constexpr const char* kPluginName = "hipdnngo_example_relu";
    static constexpr const char* kPluginVersion = "1.0.0";
    static constexpr const char* kEngineName = "HIPDNNGO_EXAMPLE_RELU";
    static constexpr bool kHostMemory = true;

    struct Context
    {
        Relu relu;
    };

    // Declines reaching an entry point other than applicability are the caller's graph.
    static void translateException(const char* /*entry*/)
    {
        hipdnn_plugin_sdk::rethrowAs<Unsupported>(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "HIPDNNGO_EXAMPLE_RELU: ");
    }

    static std::string applicability(Handle&, const fbs::Graph& graph)
    {
        try
        {
            readRelu(graph);
        }
        catch(const Unsupported& e)
        {
            return e.what();
        }
        return "";
    }

    // No knobs and no behaviour notes.
    static void engineDetails(Handle&, const fbs::Graph&, hipdnn_plugin_sdk::EngineDetailsBuilder&) {}

    static size_t workspaceSize(Handle& h, const hipdnnPluginConstData_t* config, const hipdnnPluginConstData_t* graph)
    {
        createContext(h, config, graph); // checks both buffers; ReLU needs no workspace
        return 0;
    }

    // No notes: each element is computed alone, so results are bitwise reproducible.
    static std::vector<int32_t> numericalNotes(Handle& h, const hipdnnPluginConstData_t* config,
                                               const hipdnnPluginConstData_t* graph)
    {
        createContext(h, config, graph);
        return {};
    }

    static std::unique_ptr<Context> createContext(Handle&, const hipdnnPluginConstData_t* config,
                                                  const hipdnnPluginConstData_t* graph)
    {
        const fbs::EngineConfig* cfg = hipdnn_plugin_sdk::verifyEngineConfig(config);
        hipdnn_plugin_sdk::EnginePlugin<ReluEngine>::requireEngine(cfg->engine_id());
        if(cfg->knobs() != nullptr)
            for(const fbs::KnobSetting* k : *cfg->knobs())
            {
                const std::string id = k != nullptr && k->knob_id() != nullptr ? k->knob_id()->str() : "";
                if(id.rfind("global.", 0) != 0) // global.* knobs are the host's
                    fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "HIPDNNGO_EXAMPLE_RELU has no knob '" + id + "'");
            }
        return std::make_unique<Context>(Context{readRelu(*hipdnn_plugin_sdk::verifyGraph(graph))});
    }

    static size_t contextWorkspaceSize(const Context&) { return 0; }

    // execute walks the index space in row-major order with each tensor's own strides.
    static void execute(Handle&, Context& context, void*, const hipdnnPluginDeviceBuffer_t* buffers, uint32_t count)
    {
        if(count > 0)
            hipdnn_plugin_sdk::requireNotNull(buffers, "device_buffers");
        const Relu& r = context.relu;
        const float* x = static_cast<const float*>(pointerOf(r.xUid, buffers, count));
        float* y = static_cast<float*>(pointerOf(r.yUid, buffers, count));
        const size_t rank = r.dims.size();
        std::vector<int64_t> index(rank, 0);
        for(bool more = true; more;)
        {
            int64_t xo = 0, yo = 0;
            for(size_t d = 0; d < rank; ++d)
            {
                xo += index[d] * r.xStrides[d];
                yo += index[d] * r.yStrides[d];
            }
            const float v = x[xo];
            y[yo] = v <= r.lower ? r.lower + r.slope * (v - r.lower) : std::min(v, r.upper);
            more = false;
            for(size_t d = rank; d-- > 0;)
            {
                if(++index[d] < r.dims[d])
                {
                    more = true;
                    break;
                }
                index[d] = 0;
            }
        }
    }
};

} // namespace example_relu

HIPDNN_ENGINE_PLUGIN(example_relu::ReluEngine)
