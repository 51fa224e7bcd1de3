// The plugin skeleton (helpers/EnginePlugin.hpp) and the tensor reader (helpers/TensorTable.hpp)
// on a test engine whose hooks misbehave on demand. The exports are emitted by the macros into
// this executable and called by their C names, as a host calls them: every failure must come
// back as a status and a last error, never as an exception (ctest hipdnn_plugin_sdk_skeleton).
#include <hipdnn_plugin_sdk/helpers/EnginePlugin.hpp>
#include <hipdnn_plugin_sdk/helpers/TensorTable.hpp>

#include <optional>

#include <cstdio>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

int gFailures = 0;

#define CHECK(cond, what)                                                       \
    do                                                                          \
    {                                                                           \
        if(!(cond))                                                             \
        {                                                                       \
            std::printf("%s:%d: FAIL: %s (%s)\n", __FILE__, __LINE__, what, #cond); \
            ++gFailures;                                                        \
        }                                                                       \
    } while(0)

std::string lastError()
{
    const char* text = nullptr;
    hipdnnPluginGetLastErrorString(&text);
    return text == nullptr ? "<NULL>" : text;
}

bool failsWith(hipdnnPluginStatus_t got, hipdnnPluginStatus_t want, const std::string& text)
{
    const std::string e = lastError();
    if(got != want || e.find(text) == std::string::npos)
    {
        std::printf("  got status %d, last error \"%s\"; want %d with \"%s\"\n", got, e.c_str(), want, text.c_str());
        return false;
    }
    return true;
}

struct Decline : std::runtime_error
{
    explicit Decline(const std::string& reason) : std::runtime_error(reason) {}
};

// What the next hook call does instead of its work.
enum class Misbehave
{
    None,
    Decline,
    BadAlloc,
    Runtime,
    NonStd,
    NullContext
};
Misbehave gMisbehave = Misbehave::None;

void misbehave()
{
    switch(gMisbehave)
    {
    case Misbehave::Decline: throw Decline("the test says no");
    case Misbehave::BadAlloc: throw std::bad_alloc();
    case Misbehave::Runtime: throw std::runtime_error("hook broke");
    case Misbehave::NonStd: throw 42;
    default: break;
    }
}

struct TestEngine : hipdnn_plugin_sdk::EngineDefaults
{
    static constexpr const char* kPluginName = "sdk_skeleton_test";
    static constexpr const char* kPluginVersion = "2.3.4";
    static constexpr const char* kEngineName = "SDK_SKELETON_TEST_ENGINE";
    static constexpr bool kHostMemory = true;
    static constexpr uint32_t kMemoryKinds = HIPDNN_PLUGIN_MEMORY_HOST_PAGEABLE;

    struct Context
    {
        int runs = 0;
    };

    static void translateException(const char*)
    {
        hipdnn_plugin_sdk::rethrowAs<Decline>(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "declined: ");
    }

    static std::string applicability(Handle&, const fbs::Graph& graph)
    {
        misbehave();
        return graph.tensors() != nullptr && graph.tensors()->size() > 0 ? "" : "the graph has no tensors";
    }

    static void engineDetails(Handle&, const fbs::Graph&, hipdnn_plugin_sdk::EngineDetailsBuilder& b)
    {
        misbehave();
        b.name(kEngineName);
    }

    static size_t workspaceSize(Handle&, const hipdnnPluginConstData_t*, const hipdnnPluginConstData_t*) { return 64; }

    static std::vector<int32_t> numericalNotes(Handle&, const hipdnnPluginConstData_t*, const hipdnnPluginConstData_t*)
    {
        return {-1, 0, 9999, 1}; // two the SDK cannot name
    }

    static std::unique_ptr<Context> createContext(Handle&, const hipdnnPluginConstData_t*, const hipdnnPluginConstData_t*)
    {
        misbehave();
        return gMisbehave == Misbehave::NullContext ? nullptr : std::make_unique<Context>();
    }

    static size_t contextWorkspaceSize(const Context&) { return 64; }

    static void execute(Handle&, Context& c, void*, const hipdnnPluginDeviceBuffer_t*, uint32_t)
    {
        misbehave();
        ++c.runs;
    }

    static std::vector<uint8_t> serializeContext(Handle&, const Context& c) { return {static_cast<uint8_t>(c.runs)}; }

    static std::unique_ptr<Context> deserializeContext(Handle&, const hipdnnPluginConstData_t* bytes)
    {
        const std::vector<uint8_t> in = hipdnn_plugin_sdk::copyBuffer(bytes, "serialized context");
        auto c = std::make_unique<Context>();
        c->runs = in[0];
        return c;
    }
};

// A graph of the given tensors: {uid, dims, strides, virtual, pass-by-value}.
struct TensorSpec
{
    int64_t uid;
    std::vector<int64_t> dims, strides;
    bool isVirtual = false;
    bool passByValue = false;
    std::optional<int64_t> raggedUid = std::nullopt;
    int64_t raggedMultiplier = 1;
};

std::vector<uint8_t> graphOf(const std::vector<TensorSpec>& specs)
{
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fbs::TensorAttributes>> tensors;
    for(const TensorSpec& t : specs)
        tensors.push_back(fbs::CreateTensorAttributesDirect(fbb, t.uid, "t", fbs::DataType::FLOAT, &t.strides, &t.dims,
                                                            t.isVirtual, fbs::TensorValue::NONE, 0, t.passByValue,
                                                            t.raggedUid ? flatbuffers::Optional<int64_t>(*t.raggedUid)
                                                                        : flatbuffers::nullopt,
                                                            16, t.raggedMultiplier));
    fbb.Finish(fbs::CreateGraphDirect(fbb, "g", fbs::DataType::FLOAT, fbs::DataType::FLOAT, fbs::DataType::FLOAT, &tensors));
    return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

std::vector<uint8_t> configOf(int64_t engineId)
{
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(fbs::CreateEngineConfig(fbb, engineId));
    return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

// tableError is the decline message of a TensorTable over specs ("" when it accepts them).
std::string tableError(const std::vector<TensorSpec>& specs, const hipdnn_plugin_sdk::TensorRules& rules)
{
    const std::vector<uint8_t> bytes = graphOf(specs);
    try
    {
        hipdnn_plugin_sdk::TensorTable<Decline> table(*fbs::GetGraph(bytes.data()), rules);
    }
    catch(const Decline& e)
    {
        return e.what();
    }
    return "";
}

void testBaseEntryPoints()
{
    const int64_t id = hipdnn_plugin_sdk::engineNameToId("SDK_SKELETON_TEST_ENGINE");
    const char* s = nullptr;
    CHECK(hipdnnPluginGetName(&s) == HIPDNN_PLUGIN_STATUS_SUCCESS && std::string(s) == "sdk_skeleton_test", "name");
    CHECK(hipdnnPluginGetVersion(&s) == HIPDNN_PLUGIN_STATUS_SUCCESS && std::string(s) == "2.3.4", "version");
    CHECK(hipdnnPluginGetApiVersion(&s) == HIPDNN_PLUGIN_STATUS_SUCCESS && std::string(s) == HIPDNN_ENGINE_API_VERSION,
          "api version");
    CHECK(failsWith(hipdnnPluginGetName(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM, "name is NULL"), "NULL name");
    CHECK(failsWith(hipdnnPluginGetType(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM, "type is NULL"), "NULL type");
    CHECK(failsWith(hipdnnPluginSetLogLevel(static_cast<hipdnnSeverity_t>(9)), HIPDNN_PLUGIN_STATUS_INVALID_VALUE,
                    "log level 9 is unknown"),
          "bad log level");
    hipdnnPluginGetLastErrorString(nullptr); // NULL is ignored, not a crash

    uint32_t n = 0;
    CHECK(hipdnnEnginePluginGetAllEngineIds(nullptr, 0, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS && n == 1, "count query");
    int64_t got = 0;
    CHECK(hipdnnEnginePluginGetAllEngineIds(&got, 1, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS && got == id, "id fetch");
    CHECK(failsWith(hipdnnEnginePluginGetAllEngineIds(nullptr, 1, &n), HIPDNN_PLUGIN_STATUS_BAD_PARAM, "engine_ids is NULL"),
          "NULL ids with capacity");
    CHECK(hipdnnEnginePluginGetEngineName(id, &s) == HIPDNN_PLUGIN_STATUS_SUCCESS && std::string(s) == "SDK_SKELETON_TEST_ENGINE",
          "engine name");
    CHECK(failsWith(hipdnnEnginePluginGetEngineName(id + 1, &s), HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE, "in sdk_skeleton_test"),
          "unknown engine name");
    int32_t isHost = 0;
    CHECK(hipdnnEnginePluginIsHostMemoryEngine_ext(id, &isHost) == HIPDNN_PLUGIN_STATUS_SUCCESS && isHost == 1, "host memory");
    CHECK(failsWith(hipdnnEnginePluginIsHostMemoryEngine_ext(id + 1, &isHost), HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                    "does not belong to sdk_skeleton_test (its only engine is SDK_SKELETON_TEST_ENGINE"),
          "host memory of an unknown engine");
    uint32_t kinds = 0;
    CHECK(hipdnnEnginePluginGetMemoryKinds_ext(id, &kinds) == HIPDNN_PLUGIN_STATUS_SUCCESS
              && kinds == HIPDNN_PLUGIN_MEMORY_HOST_PAGEABLE,
          "memory kinds");
}

void testHandleEntryPoints()
{
    const int64_t id = hipdnn_plugin_sdk::engineNameToId("SDK_SKELETON_TEST_ENGINE");
    hipdnnEnginePluginHandle_t h = nullptr;
    CHECK(hipdnnEnginePluginCreate(&h) == HIPDNN_PLUGIN_STATUS_SUCCESS && h != nullptr, "create");
    CHECK(failsWith(hipdnnEnginePluginDestroy(nullptr), HIPDNN_PLUGIN_STATUS_BAD_PARAM, "handle is NULL"), "destroy NULL");
    CHECK(hipdnnEnginePluginSetStream(h, nullptr) == HIPDNN_PLUGIN_STATUS_SUCCESS, "set stream");

    const std::vector<uint8_t> g = graphOf({{1, {2, 3}, {3, 1}}});
    const std::vector<uint8_t> empty = graphOf({});
    const std::vector<uint8_t> c = configOf(id);
    const hipdnnPluginConstData_t graph{g.data(), g.size()}, noTensors{empty.data(), empty.size()}, config{c.data(), c.size()};
    const uint8_t garbage[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const hipdnnPluginConstData_t bad{garbage, sizeof garbage};

    int64_t ids[1] = {0};
    uint32_t n = 7;
    CHECK(hipdnnEnginePluginGetApplicableEngineIds(h, &graph, ids, 1, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS && n == 1 && ids[0] == id,
          "applicable");
    n = 7;
    CHECK(hipdnnEnginePluginGetApplicableEngineIds(h, &noTensors, ids, 1, &n) == HIPDNN_PLUGIN_STATUS_SUCCESS && n == 0,
          "declined graph: zero engines, success");
    CHECK(failsWith(hipdnnEnginePluginGetApplicableEngineIds(h, &bad, ids, 1, &n), HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                    "does not verify"),
          "garbage graph");
    gMisbehave = Misbehave::Decline;
    CHECK(failsWith(hipdnnEnginePluginGetApplicableEngineIds(h, &graph, ids, 1, &n), HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                    "declined: the test says no"),
          "translateException maps the engine's exception");
    gMisbehave = Misbehave::None;

    hipdnnPluginConstData_t details{nullptr, 0};
    CHECK(hipdnnEnginePluginGetEngineDetails(h, id, &graph, &details) == HIPDNN_PLUGIN_STATUS_SUCCESS && details.size > 0,
          "details");
    CHECK(hipdnn_plugin_sdk::verifyEngineDetails(&details)->engine_id() == id, "details name the engine");
    CHECK(hipdnnEnginePluginDestroyEngineDetails(h, &details) == HIPDNN_PLUGIN_STATUS_SUCCESS && details.ptr == nullptr,
          "details freed");
    CHECK(failsWith(hipdnnEnginePluginGetEngineDetails(h, id + 1, &graph, &details), HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                    "does not belong"),
          "details of an unknown engine");

    int32_t notes[1] = {-7};
    uint32_t count = 0;
    CHECK(hipdnnEnginePluginGetNumericalNotesV1_ext(h, &config, &graph, nullptr, 0, &count) == HIPDNN_PLUGIN_STATUS_SUCCESS
              && count == 2,
          "note count leaves out what the SDK cannot name");
    CHECK(hipdnnEnginePluginGetNumericalNotesV1_ext(h, &config, &graph, notes, 1, &count) == HIPDNN_PLUGIN_STATUS_SUCCESS
              && count == 2 && notes[0] == 0,
          "notes copied up to the capacity");

    hipdnnEnginePluginExecutionContext_t ctx = nullptr;
    CHECK(hipdnnEnginePluginCreateExecutionContext(h, &config, &graph, &ctx) == HIPDNN_PLUGIN_STATUS_SUCCESS && ctx != nullptr,
          "context");
    size_t ws = 0;
    CHECK(hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(h, ctx, &ws) == HIPDNN_PLUGIN_STATUS_SUCCESS && ws == 64,
          "context workspace");
    CHECK(failsWith(hipdnnEnginePluginGetWorkspaceSizeFromExecutionContext(h, nullptr, &ws), HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                    "execution_context is NULL"),
          "NULL context");
    CHECK(hipdnnEnginePluginExecuteOpGraph(h, ctx, nullptr, nullptr, 0) == HIPDNN_PLUGIN_STATUS_SUCCESS, "execute");

    // Whatever the hook throws comes back as a status with a message.
    const struct
    {
        Misbehave how;
        hipdnnPluginStatus_t status;
        const char* text;
    } throws[] = {
        {Misbehave::BadAlloc, HIPDNN_PLUGIN_STATUS_ALLOC_FAILED, "out of memory"},
        {Misbehave::Runtime, HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "internal error: hook broke"},
        {Misbehave::NonStd, HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "internal error: unknown exception"},
        {Misbehave::Decline, HIPDNN_PLUGIN_STATUS_BAD_PARAM, "declined: the test says no"},
    };
    for(const auto& t : throws)
    {
        gMisbehave = t.how;
        CHECK(failsWith(hipdnnEnginePluginExecuteOpGraph(h, ctx, nullptr, nullptr, 0), t.status, t.text), t.text);
    }
    gMisbehave = Misbehave::NullContext;
    hipdnnEnginePluginExecutionContext_t none = nullptr;
    CHECK(failsWith(hipdnnEnginePluginCreateExecutionContext(h, &config, &graph, &none), HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR,
                    "made no execution context")
              && none == nullptr,
          "a hook returning no context");
    gMisbehave = Misbehave::None;

    hipdnnPluginConstData_t blob{nullptr, 0};
    CHECK(hipdnnEnginePluginSerializeExecutionContext(h, ctx, &blob) == HIPDNN_PLUGIN_STATUS_SUCCESS && blob.size == 1, "serialize");
    hipdnnEnginePluginExecutionContext_t copy = nullptr;
    CHECK(hipdnnEnginePluginCreateExecutionContextFromSerialized(h, &blob, &copy) == HIPDNN_PLUGIN_STATUS_SUCCESS && copy != nullptr,
          "deserialize");
    CHECK(hipdnnEnginePluginDestroySerializedExecutionContext(h, &blob) == HIPDNN_PLUGIN_STATUS_SUCCESS, "serialized freed");
    CHECK(failsWith(hipdnnEnginePluginCreateExecutionContextFromSerialized(h, &blob, &copy), HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                    "serialized context buffer is NULL or empty"),
          "empty serialized context");
    CHECK(hipdnnEnginePluginDestroyExecutionContext(h, copy) == HIPDNN_PLUGIN_STATUS_SUCCESS, "destroy copy");
    CHECK(hipdnnEnginePluginDestroyExecutionContext(h, ctx) == HIPDNN_PLUGIN_STATUS_SUCCESS, "destroy context");
    CHECK(hipdnnEnginePluginDestroy(h) == HIPDNN_PLUGIN_STATUS_SUCCESS, "destroy");
}

void testTensorTable()
{
    const hipdnn_plugin_sdk::TensorRules rules{1, 4, int64_t{0}};
    CHECK(tableError({{1, {2, 3}, {3, 1}}, {2, {1}, {1}, false, true}}, rules).empty(), "good tensors");
    CHECK(tableError({{1, {2}, {1}}, {1, {2}, {1}}}, rules) == "tensor uid 1 ('t') appears twice", "duplicate uid");
    CHECK(tableError({{1, {2, 3}, {1}}}, rules) == "tensor uid 1 ('t'): 2 dims but 1 strides", "dims/strides mismatch");
    CHECK(tableError({{1, {2, 2, 2, 2, 2}, {16, 8, 4, 2, 1}}}, rules) == "tensor uid 1 ('t'): rank 5 (supported: 1 to 4)",
          "rank above the engine's");
    CHECK(tableError({{1, {}, {}}}, rules) == "tensor uid 1 ('t'): rank 0 (supported: 1 to 4)", "rank below the engine's");
    CHECK(tableError({{1, {0}, {1}}}, rules) == "tensor uid 1 ('t'): dims must be >= 1 and strides >= 0", "zero dim");
    CHECK(tableError({{1, {2}, {-1}}}, rules) == "tensor uid 1 ('t'): dims must be >= 1 and strides >= 0", "negative stride");
    CHECK(tableError({{1, {2}, {1}, false, true}}, rules)
              == "tensor uid 1 ('t'): a scalar (constant or pass-by-value) tensor must hold one element",
          "scalar of two elements");
    CHECK(tableError({{1, {1}, {1}, true, true}}, rules) == "tensor uid 1 ('t'): a scalar tensor cannot be virtual",
          "virtual scalar");

    const std::vector<uint8_t> bytes = graphOf({{5, {1, 1}, {7, 7}, false, true}, {6, {2, 3}, {1, 2}}});
    const hipdnn_plugin_sdk::TensorTable<Decline> table(*fbs::GetGraph(bytes.data()), rules);
    CHECK(table.size() == 2 && table.find(7) == nullptr, "size and a missing uid");
    const hipdnn_plugin_sdk::TensorRecord* scalar = table.find(5);
    CHECK(scalar != nullptr && scalar->isPassByValue && scalar->strides == std::vector<int64_t>({0, 0}),
          "scalar strides replaced by the rule's");
    const hipdnn_plugin_sdk::TensorRecord* t = table.find(6);
    CHECK(t != nullptr && t->index == 1 && t->strides == std::vector<int64_t>({1, 2}) && t->elements() == 6,
          "declared strides kept");

    // Ragged tensors: refused unless the rules allow them; a multiplier other than 1 always.
    const std::vector<TensorSpec> ragged{{1, {2, 4}, {4, 1}, false, false, int64_t{9}}, {9, {3}, {1}}};
    CHECK(tableError(ragged, rules) == "tensor uid 1 ('t'): ragged tensors are not supported", "ragged refused by default");
    hipdnn_plugin_sdk::TensorRules allow = rules;
    allow.allowRagged = true;
    CHECK(tableError(ragged, allow).empty(), "ragged allowed");
    CHECK(tableError({{1, {2, 4}, {4, 1}, false, false, int64_t{9}, 4}, {9, {3}, {1}}}, allow)
              == "tensor uid 1 ('t'): ragged_offset_multiplier 4 is not supported (only 1)",
          "ragged multiplier 4");
    const std::vector<uint8_t> rb = graphOf(ragged);
    const hipdnn_plugin_sdk::TensorTable<Decline> rt(*fbs::GetGraph(rb.data()), allow);
    CHECK(rt.find(1)->raggedOffsetUid == std::optional<int64_t>(9) && !rt.find(9)->raggedOffsetUid, "ragged uid recorded");
}

} // namespace

HIPDNN_ENGINE_PLUGIN(TestEngine)
HIPDNN_ENGINE_PLUGIN_SERIALIZATION(TestEngine)
HIPDNN_ENGINE_PLUGIN_MEMORY_KINDS(TestEngine)

int main()
{
    testBaseEntryPoints();
    testHandleEntryPoints();
    testTensorTable();
    if(gFailures == 0)
        std::printf("PASS hipdnn_plugin_sdk_skeleton\n");
    return gFailures == 0 ? 0 : 1;
}
