// Plugin tests: identity, applicability, workspace, execution of conv/pointwise/matmul/reduction
// graphs (against independent loops), error statuses and plan serialization through the C ABI
// (harness in PluginHarness.hpp; the newer op families are in PluginOpTests.cpp).
#include "PluginHarness.hpp"

using namespace cpuref_plugin_test;

namespace
{

// The conv -> relu -> *const -> +scalar graph used by several tests:
//   uid 1 x [1,3,5,4] NHWC, uid 2 w [2,3,3,3], uid 3 conv out (virtual), uid 4 relu (virtual),
//   uid 5 constant 0.5, uid 6 mul (virtual), uid 7 runtime scalar, uid 8 out [1,2,5,4] NCHW.
std::vector<uint8_t> convChainGraph()
{
    GraphBuilder g;
    g.tensor(1, fbs::DataType::FLOAT, {1, 3, 5, 4}, {60, 1, 12, 3});
    g.tensor(2, fbs::DataType::FLOAT, {2, 3, 3, 3}, {27, 9, 3, 1});
    g.tensor(3, fbs::DataType::FLOAT, {1, 2, 5, 4}, {40, 20, 4, 1}, true);
    g.tensor(4, fbs::DataType::HALF, {1, 2, 5, 4}, {40, 1, 8, 2}, true);
    g.tensor(5, fbs::DataType::FLOAT, {1}, {1}, false, 0.5f);
    g.tensor(6, fbs::DataType::FLOAT, {1, 2, 5, 4}, {40, 20, 4, 1}, true);
    g.tensor(7, fbs::DataType::FLOAT, {1, 1, 1, 1}, {1, 1, 1, 1}, false, std::nullopt, true);
    g.tensor(8, fbs::DataType::FLOAT, {1, 2, 5, 4}, {40, 20, 4, 1});
    const Dims pad{1, 1}, one{1, 1};
    g.node("conv", fbs::NodeAttributes::ConvolutionFwdAttributes,
           fbs::CreateConvolutionFwdAttributesDirect(g.fbb, 1, 2, 3, &pad, &pad, &one, &one, fbs::ConvMode::CROSS_CORRELATION)
               .Union());
    g.node("relu", fbs::NodeAttributes::PointwiseAttributes,
           fbs::CreatePointwiseAttributes(g.fbb, fbs::PointwiseMode::RELU_FWD, flatbuffers::nullopt, flatbuffers::nullopt,
                                          flatbuffers::nullopt, flatbuffers::nullopt, 3, flatbuffers::nullopt,
                                          flatbuffers::nullopt, 4)
               .Union());
    g.node("scale", fbs::NodeAttributes::PointwiseAttributes,
           fbs::CreatePointwiseAttributes(g.fbb, fbs::PointwiseMode::MUL, flatbuffers::nullopt, flatbuffers::nullopt,
                                          flatbuffers::nullopt, flatbuffers::nullopt, 4, 5, flatbuffers::nullopt, 6)
               .Union());
    g.node("shift", fbs::NodeAttributes::PointwiseAttributes,
           fbs::CreatePointwiseAttributes(g.fbb, fbs::PointwiseMode::ADD, flatbuffers::nullopt, flatbuffers::nullopt,
                                          flatbuffers::nullopt, flatbuffers::nullopt, 6, 7, flatbuffers::nullopt, 8)
               .Union());
    return g.finish();
}

// runConvChain executes the chain graph through `ctx` and checks the result.
void runConvChainAndCheck(Context& c)
{
    Plugin& p = Plugin::get();
    std::mt19937 rng(11);
    Tensor x(DataType::Float, {1, 3, 5, 4}, Dims{60, 1, 12, 3}), w(DataType::Float, {2, 3, 3, 3}),
        out(DataType::Float, {1, 2, 5, 4});
    x.fillUniform(rng, -1, 1);
    w.fillUniform(rng, -1, 1);
    float scalar = 0.25f;
    std::vector<unsigned char> workspace(c.workspace());
    const hipdnnPluginDeviceBuffer_t buffers[] = {{1, x.view.data}, {2, w.view.data}, {7, &scalar}, {8, out.view.data}};
    const auto st = p.hipdnnEnginePluginExecuteOpGraph(c.handle.h, c.ctx, workspace.data(), buffers, 4);
    CPUREF_CHECK(st == HIPDNN_PLUGIN_STATUS_SUCCESS, "execute: " << p.lastError());
    expectClose("conv chain", out,
                [&](const Dims& i) {
                    double s = 0;
                    for(int64_t ch = 0; ch < 3; ++ch)
                        for(int64_t r = 0; r < 3; ++r)
                            for(int64_t q = 0; q < 3; ++q)
                            {
                                const int64_t h = i[2] - 1 + r, wv = i[3] - 1 + q;
                                if(h >= 0 && h < 5 && wv >= 0 && wv < 4)
                                    s += x.at({0, ch, h, wv}) * w.at({i[1], ch, r, q});
                            }
                    const double relu = cr::roundToDataType(s > 0 ? s : 0, DataType::Half); // virtual half tensor
                    return relu * 0.5 + 0.25;
                },
                nullptr, {2e-3, 0, 1e-6}); // the relu result is stored in half: 2^-11 relative
}

} // namespace

CPUREF_TEST(plugin_identity_and_engine_id)
{
    Plugin& p = Plugin::get();
    const char* s = nullptr;
    CPUREF_CHECK(p.hipdnnPluginGetName(&s) == HIPDNN_PLUGIN_STATUS_SUCCESS && std::string(s) == "hipdnngo_cpu_reference", "name");
    CPUREF_CHECK(p.hipdnnPluginGetApiVersion(&s) == HIPDNN_PLUGIN_STATUS_SUCCESS && std::string(s) == "1.4.0",
                 "api version " << s);
    CPUREF_CHECK(p.hipdnnPluginGetVersion(&s) == HIPDNN_PLUGIN_STATUS_SUCCESS && s && *s, "version");
    hipdnnPluginType_t type;
    CPUREF_CHECK(p.hipdnnPluginGetType(&type) == HIPDNN_PLUGIN_STATUS_SUCCESS && type == HIPDNN_PLUGIN_TYPE_ENGINE, "type");
    uint32_t n = 0;
    CPUREF_CHECK(p.hipdnnEnginePluginGetAllEngineIds(nullptr, 0, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS && n == 1, "count pass");
    int64_t id = 0;
    CPUREF_CHECK(p.hipdnnEnginePluginGetAllEngineIds(&id, 1, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS && n == 1 && id == kEngineId,
                 "engine id " << id << " != FNV-1a(HIPDNNGO_CPU_REFERENCE) " << kEngineId);
    CPUREF_CHECK(p.hipdnnEnginePluginGetEngineName(id, &s) == HIPDNN_PLUGIN_STATUS_SUCCESS
                     && std::string(s) == "HIPDNNGO_CPU_REFERENCE",
                 "engine name");
    CPUREF_CHECK(p.hipdnnEnginePluginGetEngineName(id + 1, &s) == HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, "unknown engine name");
    int32_t isHost = 0;
    CPUREF_CHECK(p.isHostMemoryEngine(id, &isHost) == HIPDNN_PLUGIN_STATUS_SUCCESS && isHost == 1, "host memory engine");
    CPUREF_CHECK(p.isHostMemoryEngine(id + 1, &isHost) == HIPDNN_PLUGIN_STATUS_BAD_PARAM, "unknown engine must be BAD_PARAM");
    CPUREF_CHECK(p.hipdnnPluginGetName(nullptr) == HIPDNN_PLUGIN_STATUS_BAD_PARAM
                     && p.lastError().find("NULL") != std::string::npos,
                 "NULL name pointer: " << p.lastError());
}

CPUREF_TEST(plugin_executes_conv_relu_scale_shift_chain)
{
    const auto graph = convChainGraph();
    CPUREF_CHECK(applicableCount(graph) == 1, "chain graph must be applicable: " << Plugin::get().lastError());
    Context c(graph, engineConfig(kEngineId));
    // Three virtual tensors (float 160 B, half 80 B, float 160 B), each 64-byte aligned.
    CPUREF_CHECK(c.workspace() == 192 + 128 + 160, "workspace " << c.workspace());
    runConvChainAndCheck(c);
    // GetWorkspaceSize (config + graph) agrees with the context.
    Plugin& p = Plugin::get();
    const auto g = constData(graph);
    const auto cfgBytes = engineConfig(kEngineId);
    const auto cfg = constData(cfgBytes);
    size_t ws = 0;
    CPUREF_CHECK(p.hipdnnEnginePluginGetWorkspaceSize(c.handle.h, &cfg, &g, &ws) == HIPDNN_PLUGIN_STATUS_SUCCESS
                     && ws == c.workspace(),
                 "GetWorkspaceSize " << ws);
}

CPUREF_TEST(plugin_execute_errors_name_the_problem)
{
    Plugin& p = Plugin::get();
    Context c(convChainGraph(), engineConfig(kEngineId));
    std::vector<float> x(60), w(54), out(40);
    float scalar = 1;
    std::vector<unsigned char> workspace(c.workspace());
    const hipdnnPluginDeviceBuffer_t noW[] = {{1, x.data()}, {7, &scalar}, {8, out.data()}};
    CPUREF_CHECK(p.hipdnnEnginePluginExecuteOpGraph(c.handle.h, c.ctx, workspace.data(), noW, 3)
                     == HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "missing w must be BAD_PARAM");
    CPUREF_CHECK(p.lastError().find("uid 2") != std::string::npos, "message must name uid 2: " << p.lastError());
    const hipdnnPluginDeviceBuffer_t noScalar[] = {{1, x.data()}, {2, w.data()}, {8, out.data()}};
    CPUREF_CHECK(p.hipdnnEnginePluginExecuteOpGraph(c.handle.h, c.ctx, workspace.data(), noScalar, 3)
                         == HIPDNN_PLUGIN_STATUS_BAD_PARAM
                     && p.lastError().find("uid 7") != std::string::npos,
                 "missing pass-by-value scalar: " << p.lastError());
    const hipdnnPluginDeviceBuffer_t all[] = {{1, x.data()}, {2, w.data()}, {7, &scalar}, {8, out.data()}};
    CPUREF_CHECK(p.hipdnnEnginePluginExecuteOpGraph(c.handle.h, c.ctx, nullptr, all, 4) == HIPDNN_PLUGIN_STATUS_BAD_PARAM
                     && p.lastError().find("workspace") != std::string::npos,
                 "NULL workspace: " << p.lastError());
    CPUREF_CHECK(p.hipdnnEnginePluginExecuteOpGraph(c.handle.h, nullptr, workspace.data(), all, 4)
                     == HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "NULL context");
}

CPUREF_TEST(plugin_applicability_is_honest)
{
    // Unsupported node type (a custom op).
    {
        GraphBuilder g;
        g.tensor(1, fbs::DataType::FLOAT, {4}, {1});
        g.tensor(2, fbs::DataType::FLOAT, {4}, {1});
        const std::vector<int64_t> in{1}, out{2};
        g.node("custom", fbs::NodeAttributes::CustomOpAttributes,
               fbs::CreateCustomOpAttributesDirect(g.fbb, "example.rope", &in, &out).Union());
        CPUREF_CHECK(applicableCount(g.finish()) == 0, "custom ops must not be applicable");
    }
    auto relu = [](GraphBuilder& g, int64_t in, int64_t out) {
        g.node("relu", fbs::NodeAttributes::PointwiseAttributes,
               fbs::CreatePointwiseAttributes(g.fbb, fbs::PointwiseMode::RELU_FWD, flatbuffers::nullopt, flatbuffers::nullopt,
                                              flatbuffers::nullopt, flatbuffers::nullopt, in, flatbuffers::nullopt,
                                              flatbuffers::nullopt, out)
                   .Union());
    };
    {
        GraphBuilder g; // FP8 tensor
        g.tensor(1, fbs::DataType::FP8_E4M3, {4}, {1});
        g.tensor(2, fbs::DataType::FLOAT, {4}, {1});
        relu(g, 1, 2);
        CPUREF_CHECK(applicableCount(g.finish()) == 0, "fp8 must not be applicable");
    }
    {
        GraphBuilder g; // node references a uid that is not in the graph
        g.tensor(1, fbs::DataType::FLOAT, {4}, {1});
        relu(g, 1, 9);
        CPUREF_CHECK(applicableCount(g.finish()) == 0, "dangling uid must not be applicable");
    }
    {
        GraphBuilder g; // shape overrides requested
        g.tensor(1, fbs::DataType::FLOAT, {4}, {1});
        g.tensor(2, fbs::DataType::FLOAT, {4}, {1});
        relu(g, 1, 2);
        g.overrideShapes = true;
        CPUREF_CHECK(applicableCount(g.finish()) == 0, "override graphs must not be applicable");
    }
    {
        GraphBuilder g; // ragged tensor
        const Dims d{4}, s{1};
        g.tensors.push_back(fbs::CreateTensorAttributesDirect(g.fbb, 1, "r", fbs::DataType::FLOAT, &s, &d, false,
                                                              fbs::TensorValue::NONE, 0, false, int64_t(5)));
        g.tensor(2, fbs::DataType::FLOAT, {4}, {1});
        relu(g, 1, 2);
        CPUREF_CHECK(applicableCount(g.finish()) == 0, "ragged tensors must not be applicable");
    }
    {
        GraphBuilder g; // output with overlapping strides
        g.tensor(1, fbs::DataType::FLOAT, {2, 3}, {3, 1});
        g.tensor(2, fbs::DataType::FLOAT, {2, 3}, {1, 1});
        relu(g, 1, 2);
        CPUREF_CHECK(applicableCount(g.finish()) == 0, "self-overlapping output must not be applicable");
    }
    {
        GraphBuilder g; // MAXPOOL backward without the index tensor
        g.tensor(1, fbs::DataType::FLOAT, {1, 1, 2, 2}, {4, 4, 2, 1});
        g.tensor(2, fbs::DataType::FLOAT, {1, 1, 4, 4}, {16, 16, 4, 1});
        const Dims zero{0, 0}, two{2, 2};
        g.node("pool_bwd", fbs::NodeAttributes::ResampleBwdAttributes,
               fbs::CreateResampleBwdAttributesDirect(g.fbb, 1, 2, flatbuffers::nullopt, &zero, &zero, &two, &two,
                                                      fbs::ResampleMode::MAXPOOL, fbs::PaddingMode::NEG_INF_PAD)
                   .Union());
        CPUREF_CHECK(applicableCount(g.finish()) == 0, "maxpool bwd without index must not be applicable");
    }
    {
        GraphBuilder g; // conv with a wrong output size
        g.tensor(1, fbs::DataType::FLOAT, {1, 1, 4, 4}, {16, 16, 4, 1});
        g.tensor(2, fbs::DataType::FLOAT, {1, 1, 3, 3}, {9, 9, 3, 1});
        g.tensor(3, fbs::DataType::FLOAT, {1, 1, 4, 4}, {16, 16, 4, 1});
        const Dims zero{0, 0}, one{1, 1};
        g.node(
            "conv", fbs::NodeAttributes::ConvolutionFwdAttributes,
            fbs::CreateConvolutionFwdAttributesDirect(g.fbb, 1, 2, 3, &zero, &zero, &one, &one, fbs::ConvMode::CROSS_CORRELATION)
                .Union());
        CPUREF_CHECK(applicableCount(g.finish()) == 0, "conv with a wrong output size must not be applicable");
    }
    // A buffer that is not a flatbuffer is a bad parameter, not "not applicable".
    Plugin& p = Plugin::get();
    Handle h;
    const std::vector<uint8_t> junk{1, 2, 3, 4, 5, 6, 7};
    const auto g = constData(junk);
    uint32_t n = 0;
    int64_t ids[1];
    CPUREF_CHECK(p.hipdnnEnginePluginGetApplicableEngineIds(h.h, &g, ids, 1, &n) == HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "junk graph buffer");
}

CPUREF_TEST(plugin_engine_details_and_config_checks)
{
    Plugin& p = Plugin::get();
    Handle h;
    const auto graph = convChainGraph();
    const auto g = constData(graph);
    hipdnnPluginConstData_t details{nullptr, 0};
    CPUREF_CHECK(p.hipdnnEnginePluginGetEngineDetails(h.h, kEngineId, &g, &details) == HIPDNN_PLUGIN_STATUS_SUCCESS, "details");
    flatbuffers::Verifier v(static_cast<const uint8_t*>(details.ptr), details.size);
    CPUREF_CHECK(fbs::VerifyEngineDetailsBuffer(v), "details must verify");
    CPUREF_CHECK(fbs::GetEngineDetails(details.ptr)->engine_id() == kEngineId, "details engine id");
    CPUREF_CHECK(p.hipdnnEnginePluginDestroyEngineDetails(h.h, &details) == HIPDNN_PLUGIN_STATUS_SUCCESS
                     && details.ptr == nullptr,
                 "destroy details");
    CPUREF_CHECK(p.hipdnnEnginePluginGetEngineDetails(h.h, kEngineId + 1, &g, &details) == HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "details of an unknown engine");
    hipdnnEnginePluginExecutionContext_t ctx = nullptr;
    const auto wrongEngine = engineConfig(kEngineId + 1), unknownKnob = engineConfig(kEngineId, "vendor.tile");
    const auto w = constData(wrongEngine), k = constData(unknownKnob);
    CPUREF_CHECK(p.hipdnnEnginePluginCreateExecutionContext(h.h, &w, &g, &ctx) == HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "config for another engine");
    CPUREF_CHECK(p.hipdnnEnginePluginCreateExecutionContext(h.h, &k, &g, &ctx) == HIPDNN_PLUGIN_STATUS_BAD_PARAM
                     && p.lastError().find("vendor.tile") != std::string::npos,
                 "unknown knob: " << p.lastError());
    CPUREF_CHECK(p.hipdnnEnginePluginSetStream(h.h, nullptr) == HIPDNN_PLUGIN_STATUS_SUCCESS, "set stream");
}

CPUREF_TEST(plugin_plan_serialization_round_trip)
{
    Plugin& p = Plugin::get();
    Context original(convChainGraph(), engineConfig(kEngineId));
    hipdnnPluginConstData_t blob{nullptr, 0};
    CPUREF_CHECK(p.hipdnnEnginePluginSerializeExecutionContext(original.handle.h, original.ctx, &blob)
                         == HIPDNN_PLUGIN_STATUS_SUCCESS
                     && blob.size > 8,
                 "serialize");
    const std::vector<uint8_t> copy(static_cast<const uint8_t*>(blob.ptr), static_cast<const uint8_t*>(blob.ptr) + blob.size);
    CPUREF_CHECK(p.hipdnnEnginePluginDestroySerializedExecutionContext(original.handle.h, &blob) == HIPDNN_PLUGIN_STATUS_SUCCESS,
                 "destroy serialized");
    Handle h;
    hipdnnEnginePluginExecutionContext_t restored = nullptr;
    const auto c = constData(copy);
    CPUREF_CHECK(p.hipdnnEnginePluginCreateExecutionContextFromSerialized(h.h, &c, &restored) == HIPDNN_PLUGIN_STATUS_SUCCESS,
                 "deserialize: " << p.lastError());
    size_t ws = 0;
    CPUREF_CHECK(p.hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(h.h, restored, &ws) == HIPDNN_PLUGIN_STATUS_SUCCESS
                     && ws == original.workspace(),
                 "restored workspace");
    (void)p.hipdnnEnginePluginDestroyExecutionContext(h.h, restored);
    runConvChainAndCheck(original);
    std::vector<uint8_t> corrupt = copy;
    corrupt[0] = 'X';
    const auto bad = constData(corrupt);
    CPUREF_CHECK(p.hipdnnEnginePluginCreateExecutionContextFromSerialized(h.h, &bad, &restored) == HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "corrupt payload");
    corrupt = copy;
    corrupt.resize(copy.size() / 2);
    const auto cut = constData(corrupt);
    CPUREF_CHECK(p.hipdnnEnginePluginCreateExecutionContextFromSerialized(h.h, &cut, &restored) == HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                 "truncated payload");
}

CPUREF_TEST(plugin_executes_batched_matmul_then_reduction)
{
    // C[2,3,4] = A[2,3,5] · B[1,5,4] (virtual, batch-broadcast B), out[2,3,1] = Σ_n C.
    GraphBuilder g;
    g.tensor(1, fbs::DataType::FLOAT, {2, 3, 5}, {15, 5, 1});
    g.tensor(2, fbs::DataType::FLOAT, {1, 5, 4}, {20, 1, 5}); // column-major B
    g.tensor(3, fbs::DataType::FLOAT, {2, 3, 4}, {12, 4, 1}, true);
    g.tensor(4, fbs::DataType::DOUBLE, {2, 3, 1}, {3, 1, 1});
    g.node("mm", fbs::NodeAttributes::MatmulAttributes, fbs::CreateMatmulAttributes(g.fbb, 1, 2, 3).Union());
    g.node("sum", fbs::NodeAttributes::ReductionAttributes,
           fbs::CreateReductionAttributes(g.fbb, fbs::ReductionMode::ADD, 3, 4).Union());
    const auto graph = g.finish();
    CPUREF_CHECK(applicableCount(graph) == 1, "matmul+reduction must be applicable");
    Context c(graph, engineConfig(kEngineId));
    std::mt19937 rng(5);
    Tensor a(DataType::Float, {2, 3, 5}), b(DataType::Float, {1, 5, 4}, Dims{20, 1, 5}), out(DataType::Double, {2, 3, 1});
    a.fillUniform(rng, -1, 1);
    b.fillUniform(rng, -1, 1);
    std::vector<unsigned char> ws(c.workspace());
    const hipdnnPluginDeviceBuffer_t buffers[] = {{1, a.view.data}, {2, b.view.data}, {4, out.view.data}};
    CPUREF_CHECK(Plugin::get().hipdnnEnginePluginExecuteOpGraph(c.handle.h, c.ctx, ws.data(), buffers, 3)
                     == HIPDNN_PLUGIN_STATUS_SUCCESS,
                 "execute: " << Plugin::get().lastError());
    expectClose(
        "matmul+sum", out,
        [&](const Dims& i) {
            double s = 0;
            for(int64_t n = 0; n < 4; ++n)
            {
                float cn = 0; // C is a float virtual tensor: round each element to fp32
                double exact = 0;
                for(int64_t k = 0; k < 5; ++k)
                    exact += a.at({i[0], i[1], k}) * b.at({0, k, n});
                cn = static_cast<float>(exact);
                s += cn;
            }
            return s;
        },
        [](const Dims&) { return 20.0; }, toleranceFor(DataType::Float, 5));
}
