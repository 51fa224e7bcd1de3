// One parameterised heuristic (engine-selection policy) plugin. Compiled once per test plugin
// with -DTP_PROFILE_<NAME>; each profile offers a single policy whose id is the FNV-1a hash of
// its name, and decides how the policy orders candidates and which entry points exist.
//
// Orders:
//   Reverse        candidates in reverse input order (applied = 1)
//   Identity       candidates in input order (applied = 1)
//   Decline        applied = 0 for every input
//   InjectUnknown  an id that is not among the candidates, then the candidates (applied = 1)
// Every order declines (applied = 0) when the candidate list is empty.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <hipdnn_plugin_sdk/HeuristicsPluginApi.h>
#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

namespace
{
enum class Order
{
    Reverse,
    Identity,
    Decline,
    InjectUnknown
};
} // namespace

// ---- profiles ---------------------------------------------------------------------------------
// TP_POLICY_NAME        what GetPolicyName answers
// TP_POLICY_ID_NAME     the name the policy id is hashed from (defaults to TP_POLICY_NAME)
// TP_ORDER              Order::... above
// TP_EXPORT_OPTIONAL    export FinalizeWithHost, GetEngineConfig and GetTrace
// TP_OMIT_SORTED_IDS    leave the required GetSortedEngineIds out
// TP_DEVICE_PROPS_FAIL  SetDeviceProperties fails with INTERNAL_ERROR
// TP_FINALIZE_ACCESSOR  export hipdnnTestHeuristicGetLastFinalize
#if defined(TP_PROFILE_GOOD_HEURISTIC)
#define TP_PLUGIN_NAME "test_good_heuristic_plugin"
#define TP_API_VERSION HIPDNN_HEURISTIC_API_VERSION
#define TP_POLICY_NAME "TestHeuristic::Reverse"
#define TP_ORDER Order::Reverse
#define TP_EXPORT_OPTIONAL 1
#define TP_FINALIZE_ACCESSOR 1

#elif defined(TP_PROFILE_INCOMPLETE_HEURISTIC_API)
#define TP_PLUGIN_NAME "test_incomplete_heuristic_api_plugin"
#define TP_API_VERSION HIPDNN_HEURISTIC_API_VERSION
#define TP_POLICY_NAME "TestHeuristic::Incomplete"
#define TP_ORDER Order::Reverse
#define TP_OMIT_SORTED_IDS 1

#elif defined(TP_PROFILE_NO_OPTIONAL_HEURISTIC)
#define TP_PLUGIN_NAME "test_no_optional_heuristic_plugin"
#define TP_API_VERSION HIPDNN_HEURISTIC_API_VERSION
#define TP_POLICY_NAME "TestHeuristic::NoOptional"
#define TP_ORDER Order::Identity
#define TP_OMIT_SET_LOG_LEVEL 1

#elif defined(TP_PROFILE_BAD_API_VERSION_HEURISTIC)
#define TP_PLUGIN_NAME "test_bad_api_version_heuristic_plugin"
#define TP_API_VERSION "1.0.0"
#define TP_POLICY_NAME "TestHeuristic::BadApiVersion"
#define TP_ORDER Order::Reverse

#elif defined(TP_PROFILE_EMPTY_NAME_HEURISTIC)
#define TP_PLUGIN_NAME "test_empty_name_heuristic_plugin"
#define TP_API_VERSION HIPDNN_HEURISTIC_API_VERSION
#define TP_POLICY_NAME ""
#define TP_POLICY_ID_NAME "TestHeuristic::EmptyName"
#define TP_ORDER Order::Reverse

#elif defined(TP_PROFILE_DUPLICATE_POLICY_ID_A)
#define TP_PLUGIN_NAME "test_duplicate_policy_id_a_plugin"
#define TP_API_VERSION HIPDNN_HEURISTIC_API_VERSION
#define TP_POLICY_NAME "TestHeuristic::Duplicate"
#define TP_ORDER Order::Reverse

#elif defined(TP_PROFILE_DUPLICATE_POLICY_ID_B)
#define TP_PLUGIN_NAME "test_duplicate_policy_id_b_plugin"
#define TP_API_VERSION HIPDNN_HEURISTIC_API_VERSION
#define TP_POLICY_NAME "TestHeuristic::Duplicate"
#define TP_ORDER Order::Identity

#elif defined(TP_PROFILE_DECLINING_HEURISTIC)
#define TP_PLUGIN_NAME "test_declining_heuristic_plugin"
#define TP_API_VERSION HIPDNN_HEURISTIC_API_VERSION
#define TP_POLICY_NAME "TestHeuristic::Decline"
#define TP_ORDER Order::Decline

#elif defined(TP_PROFILE_INVALID_PERMUTATION_HEURISTIC)
#define TP_PLUGIN_NAME "test_invalid_permutation_heuristic_plugin"
#define TP_API_VERSION HIPDNN_HEURISTIC_API_VERSION
#define TP_POLICY_NAME "TestHeuristic::InvalidPermutation"
#define TP_ORDER Order::InjectUnknown

#elif defined(TP_PROFILE_DEVICE_PROPS_FAIL_HEURISTIC)
#define TP_PLUGIN_NAME "test_device_properties_fail_heuristic_plugin"
#define TP_API_VERSION HIPDNN_HEURISTIC_API_VERSION
#define TP_POLICY_NAME "TestHeuristic::DevicePropertiesFail"
#define TP_ORDER Order::Reverse
#define TP_DEVICE_PROPS_FAIL 1

#else
#error "define one TP_PROFILE_<NAME> (see test_heuristic_plugin.cpp)"
#endif

#ifndef TP_POLICY_ID_NAME
#define TP_POLICY_ID_NAME TP_POLICY_NAME
#endif
#ifndef TP_EXPORT_OPTIONAL
#define TP_EXPORT_OPTIONAL 0
#endif
#ifndef TP_DEVICE_PROPS_FAIL
#define TP_DEVICE_PROPS_FAIL 0
#endif
#ifndef TP_FINALIZE_ACCESSOR
#define TP_FINALIZE_ACCESSOR 0
#endif

#define TP_PLUGIN_KIND HIPDNN_PLUGIN_TYPE_HEURISTIC
#include "../common/test_plugin_common.hpp"

using hipdnn_plugin_sdk::fail;
using hipdnn_plugin_sdk::requireNotNull;
namespace fbs = hipdnn_plugin_sdk::fbs;

namespace
{

constexpr int64_t kPolicyId = hipdnn_plugin_sdk::policyNameToId(TP_POLICY_ID_NAME);
constexpr uint64_t kHandleMagic = 0x5450485548414E44ull; // "TPHUHAND"
constexpr uint64_t kDescriptorMagic = 0x545048554445534Bull; // "TPHUDESK"

// What the latest finalize saw (hipdnnTestHeuristicGetLastFinalize).
struct FinalizeRecord
{
    bool any = false;
    bool usedHostTable = false;
    uint32_t hostVersion = 0;
    size_t hostStructSize = 0;
    std::string rankingMetric;
    std::string deviceArch;
};
std::mutex recordMutex;
[[maybe_unused]] FinalizeRecord lastFinalize;

} // namespace

struct hipdnnHeuristicHandle_opaque
{
    uint64_t magic = kHandleMagic;
    bool haveDeviceProperties = false;
    int32_t deviceId = -1;
    std::string deviceArch;
};

struct hipdnnHeuristicPolicyDescriptor_opaque
{
    uint64_t magic = kDescriptorMagic;
    hipdnnHeuristicHandle_opaque* handle = nullptr;
    int64_t policyId = 0;
    std::vector<int64_t> candidates;
    std::vector<uint8_t> graph;
    bool applied = false;
    std::vector<int64_t> result;
    std::map<int64_t, std::vector<uint8_t>> configs; // GetEngineConfig answers
    std::string trace; // GetTrace answer

    void invalidate()
    {
        applied = false;
        result.clear();
        configs.clear();
        trace.clear();
    }
};

namespace
{

hipdnnHeuristicHandle_opaque* checkHandle(hipdnnHeuristicHandle_t handle)
{
    requireNotNull(handle, "handle");
    if(handle->magic != kHandleMagic)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "handle was not created by " TP_PLUGIN_NAME);
    }
    return handle;
}

hipdnnHeuristicPolicyDescriptor_opaque* checkDescriptor(hipdnnHeuristicPolicyDescriptor_t desc)
{
    requireNotNull(desc, "descriptor");
    if(desc->magic != kDescriptorMagic)
    {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "descriptor was not created by " TP_PLUGIN_NAME);
    }
    return desc;
}

bool contains(const std::vector<int64_t>& ids, int64_t id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }

[[maybe_unused]] void requireApplied(const hipdnnHeuristicPolicyDescriptor_opaque& desc)
{
    if(!desc.applied)
    {
        fail(HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED, "the policy has no result: finalize did not run or declined");
    }
}

void finalize(hipdnnHeuristicPolicyDescriptor_opaque& desc, const hipdnnHeuristicHostCallbacks_t* host, int32_t* outApplied)
{
    requireNotNull(outApplied, "out_applied");
    desc.invalidate();
    if(TP_FINALIZE_ACCESSOR)
    {
        std::lock_guard<std::mutex> lock(recordMutex);
        lastFinalize = FinalizeRecord();
        lastFinalize.any = true;
        lastFinalize.deviceArch = desc.handle->deviceArch;
        if(host != nullptr)
        {
            lastFinalize.usedHostTable = true;
            lastFinalize.hostVersion = host->version;
            lastFinalize.hostStructSize = host->struct_size;
            const size_t needed = offsetof(hipdnnHeuristicHostCallbacks_t, ranking_metric) + sizeof(const char*);
            if(host->version >= 2 && host->struct_size >= needed && host->ranking_metric != nullptr)
            {
                lastFinalize.rankingMetric = host->ranking_metric;
            }
        }
    }
    const std::vector<int64_t>& in = desc.candidates;
    *outApplied = 0;
    if(in.empty())
    {
        return;
    }
    switch(TP_ORDER)
    {
    case Order::Decline: return;
    case Order::Reverse: desc.result.assign(in.rbegin(), in.rend()); break;
    case Order::Identity: desc.result = in; break;
    case Order::InjectUnknown:
    {
        int64_t unknown = -0x7E57;
        while(contains(in, unknown))
        {
            --unknown;
        }
        desc.result.push_back(unknown);
        desc.result.insert(desc.result.end(), in.begin(), in.end());
        break;
    }
    }
    desc.applied = true;
    *outApplied = 1;
    tp::log(HIPDNN_SEV_INFO, "policy ordered %zu candidates", desc.result.size());
}

} // namespace

extern "C" {

hipdnnPluginStatus_t hipdnnHeuristicPluginGetAllPolicyIds(int64_t* policy_ids, uint32_t max_policies, uint32_t* num_policies)
{
    HIPDNN_PLUGIN_GUARD(requireNotNull(num_policies, "num_policies"); if(policy_ids == nullptr || max_policies == 0) {
        *num_policies = 1;
        return;
    } policy_ids[0] = kPolicyId;
                        *num_policies = 1;);
}

hipdnnPluginStatus_t hipdnnHeuristicPluginGetPolicyName(int64_t policy_id, const char** name)
{
    HIPDNN_PLUGIN_GUARD(requireNotNull(name, "name"); if(policy_id != kPolicyId) {
        fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "policy id " + std::to_string(policy_id) + " is unknown to " TP_PLUGIN_NAME);
    }* name = TP_POLICY_NAME;);
}

hipdnnPluginStatus_t hipdnnHeuristicHandleCreate(hipdnnHeuristicHandle_t* out_handle)
{
    HIPDNN_PLUGIN_GUARD(requireNotNull(out_handle, "out_handle"); *out_handle = new hipdnnHeuristicHandle_opaque(););
}

hipdnnPluginStatus_t hipdnnHeuristicHandleDestroy(hipdnnHeuristicHandle_t handle)
{
    HIPDNN_PLUGIN_GUARD(hipdnnHeuristicHandle_opaque* h = checkHandle(handle); h->magic = 0; delete h;);
}

hipdnnPluginStatus_t hipdnnHeuristicHandleSetDeviceProperties(hipdnnHeuristicHandle_t handle,
                                                              const hipdnnPluginConstData_t* device_props_serialized)
{
    HIPDNN_PLUGIN_GUARD(
        hipdnnHeuristicHandle_opaque* h = checkHandle(handle);
        const fbs::DeviceProperties* props = hipdnn_plugin_sdk::verifyDeviceProperties(device_props_serialized);
        if(TP_DEVICE_PROPS_FAIL) {
            fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "SetDeviceProperties fails on purpose (" TP_PLUGIN_NAME ")");
        } h->haveDeviceProperties = true;
        h->deviceId = props->device_id();
        h->deviceArch = props->architecture_name() != nullptr ? props->architecture_name()->str() : std::string(););
}

hipdnnPluginStatus_t hipdnnHeuristicPolicyDescriptorCreate(hipdnnHeuristicHandle_t plugin_handle, int64_t policy_id,
                                                           hipdnnHeuristicPolicyDescriptor_t* out_desc)
{
    HIPDNN_PLUGIN_GUARD(hipdnnHeuristicHandle_opaque* h = checkHandle(plugin_handle); requireNotNull(out_desc, "out_desc");
                        if(policy_id != kPolicyId) {
                            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                 "policy id " + std::to_string(policy_id) + " is unknown to " TP_PLUGIN_NAME);
                        } auto* desc = new hipdnnHeuristicPolicyDescriptor_opaque();
                        desc->handle = h; desc->policyId = policy_id; *out_desc = desc;);
}

hipdnnPluginStatus_t hipdnnHeuristicPolicyDescriptorDestroy(hipdnnHeuristicPolicyDescriptor_t desc)
{
    HIPDNN_PLUGIN_GUARD(hipdnnHeuristicPolicyDescriptor_opaque* d = checkDescriptor(desc); d->magic = 0; delete d;);
}

hipdnnPluginStatus_t hipdnnHeuristicPolicySetEngineIds(hipdnnHeuristicPolicyDescriptor_t desc, const int64_t* engine_ids,
                                                       size_t engine_id_count)
{
    HIPDNN_PLUGIN_GUARD(hipdnnHeuristicPolicyDescriptor_opaque* d = checkDescriptor(desc);
                        if(engine_id_count > 0) { requireNotNull(engine_ids, "engine_ids"); } d->invalidate();
                        d->candidates.assign(engine_ids, engine_ids + engine_id_count););
}

hipdnnPluginStatus_t hipdnnHeuristicPolicySetSerializedGraph(hipdnnHeuristicPolicyDescriptor_t desc,
                                                             const hipdnnPluginConstData_t* serialized_graph)
{
    HIPDNN_PLUGIN_GUARD(hipdnnHeuristicPolicyDescriptor_opaque* d = checkDescriptor(desc);
                        hipdnn_plugin_sdk::verifyGraph(serialized_graph); d->invalidate();
                        const auto* bytes = static_cast<const uint8_t*>(serialized_graph->ptr);
                        d->graph.assign(bytes, bytes + serialized_graph->size););
}

hipdnnPluginStatus_t hipdnnHeuristicPolicyFinalize(hipdnnHeuristicPolicyDescriptor_t desc, int32_t* out_applied)
{
    HIPDNN_PLUGIN_GUARD(finalize(*checkDescriptor(desc), nullptr, out_applied););
}

#if TP_EXPORT_OPTIONAL
hipdnnPluginStatus_t hipdnnHeuristicPolicyFinalizeWithHost(hipdnnHeuristicPolicyDescriptor_t desc,
                                                           const hipdnnHeuristicHostCallbacks_t* host, int32_t* out_applied)
{
    HIPDNN_PLUGIN_GUARD(finalize(*checkDescriptor(desc), host, out_applied););
}

hipdnnPluginStatus_t hipdnnHeuristicPolicyGetEngineConfig(hipdnnHeuristicPolicyDescriptor_t desc, int64_t engine_id,
                                                          hipdnnPluginConstData_t* engine_config)
{
    HIPDNN_PLUGIN_GUARD(hipdnnHeuristicPolicyDescriptor_opaque* d = checkDescriptor(desc);
                        requireNotNull(engine_config, "engine_config"); requireApplied(*d); if(!contains(d->result, engine_id)) {
                            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                 "engine " + std::to_string(engine_id) + " is not part of the policy's result");
                        }
                        // A config without knob settings; the descriptor owns the bytes.
                        flatbuffers::FlatBufferBuilder fbb;
                        fbb.Finish(fbs::CreateEngineConfig(fbb, engine_id)); std::vector<uint8_t>& bytes = d->configs[engine_id];
                        bytes.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
                        engine_config->ptr = bytes.data(); engine_config->size = bytes.size(););
}

hipdnnPluginStatus_t hipdnnHeuristicPolicyGetTrace(hipdnnHeuristicPolicyDescriptor_t desc, int64_t engine_id,
                                                   const char** trace_json)
{
    HIPDNN_PLUGIN_GUARD(hipdnnHeuristicPolicyDescriptor_opaque* d = checkDescriptor(desc);
                        requireNotNull(trace_json, "trace_json"); requireApplied(*d); if(!contains(d->result, engine_id)) {
                            return HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE;
                        } d->trace = "{\"used_model\":\"reverse\",\"device_arch\":\"" + d->handle->deviceArch
                                                                                      + "\",\"fallback_reason\":\"\"}";
                        *trace_json = d->trace.c_str(); return HIPDNN_PLUGIN_STATUS_SUCCESS;);
}
#endif

#ifndef TP_OMIT_SORTED_IDS
hipdnnPluginStatus_t hipdnnHeuristicPolicyGetSortedEngineIds(hipdnnHeuristicPolicyDescriptor_t desc, int64_t* engine_ids,
                                                             size_t* num_engines)
{
    HIPDNN_PLUGIN_GUARD(hipdnnHeuristicPolicyDescriptor_opaque* d = checkDescriptor(desc);
                        requireNotNull(num_engines, "num_engines"); requireApplied(*d); if(engine_ids == nullptr) {
                            *num_engines = d->result.size();
                            return;
                        } const size_t count = std::min(*num_engines, d->result.size());
                        std::copy(d->result.begin(), d->result.begin() + static_cast<std::ptrdiff_t>(count), engine_ids);
                        *num_engines = count;);
}
#endif

} // extern "C"

#if TP_FINALIZE_ACCESSOR
namespace
{
void copyString(const std::string& text, char* out, size_t length)
{
    if(out == nullptr || length == 0)
    {
        return;
    }
    const size_t n = std::min(text.size(), length - 1);
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
}
} // namespace

extern "C" HIPDNN_HEURISTIC_PLUGIN_EXPORT int32_t hipdnnTestHeuristicGetLastFinalize(
    int32_t* used_host_table, uint32_t* host_version, size_t* host_struct_size, char* ranking_metric,
    size_t ranking_metric_length, char* device_arch, size_t device_arch_length)
{
    std::lock_guard<std::mutex> lock(recordMutex);
    if(used_host_table != nullptr)
    {
        *used_host_table = lastFinalize.usedHostTable ? 1 : 0;
    }
    if(host_version != nullptr)
    {
        *host_version = lastFinalize.hostVersion;
    }
    if(host_struct_size != nullptr)
    {
        *host_struct_size = lastFinalize.hostStructSize;
    }
    copyString(lastFinalize.rankingMetric, ranking_metric, ranking_metric_length);
    copyString(lastFinalize.deviceArch, device_arch, device_arch_length);
    return lastFinalize.any ? 1 : 0;
}
#endif
