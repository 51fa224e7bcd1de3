// TestPlan: the C API steps shared by the oneDNN engine's C++ tests and hipdnn-onednn-bench: a
// JSON graph finalized into a plan on one named engine, and variant packs for it. A failed call
// throws (the bench reports a plan the engine declines and goes on); runWithHandle turns a throw
// into a failed test.
#pragma once

#include <hipdnn_backend.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace testplan
{

// ck throws on a failed call, with the status and the library's last error.
inline void ck(hipdnnStatus_t s, const char* what)
{
    if(s != HIPDNN_STATUS_SUCCESS)
    {
        char msg[2048] = {0};
        hipdnnGetLastErrorString(msg, sizeof msg);
        throw std::runtime_error(std::string(what) + ": " + hipdnnGetErrorString(s) + ": " + msg);
    }
}

struct Plan
{
    hipdnnBackendDescriptor_t graph = nullptr, engine = nullptr, cfg = nullptr, plan = nullptr;
    int64_t workspaceSize = 0;

    Plan(hipdnnHandle_t h, const std::string& json, const char* engineName)
    {
        try
        {
            build(h, json, engineName);
        }
        catch(...)
        {
            destroy(); // a destructor does not run for a constructor that throws
            throw;
        }
    }
    Plan(const Plan&) = delete;
    Plan& operator=(const Plan&) = delete;
    ~Plan() { destroy(); }

private:
    void build(hipdnnHandle_t h, const std::string& json, const char* engineName)
    {
        ck(hipdnnBackendCreateAndDeserializeJsonGraph_ext(&graph, json.data(), json.size()), "deserialize");
        ck(hipdnnBackendSetAttribute(graph, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h), "graph handle");
        ck(hipdnnBackendFinalize(graph), "finalize graph");
        int64_t id = 0;
        ck(hipdnnGetEngineIdByName_ext(h, engineName, &id), "engine id");
        ck(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINE_DESCRIPTOR, &engine), "engine");
        ck(hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph),
           "engine graph");
        ck(hipdnnBackendSetAttribute(engine, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, &id), "engine index");
        ck(hipdnnBackendFinalize(engine), "finalize engine");
        ck(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfg), "config");
        ck(hipdnnBackendSetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &engine),
           "config engine");
        ck(hipdnnBackendFinalize(cfg), "finalize config");
        ck(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan), "plan");
        ck(hipdnnBackendSetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cfg),
           "plan config");
        ck(hipdnnBackendFinalize(plan), "finalize plan");
        ck(hipdnnBackendGetAttribute(plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, nullptr,
                                     &workspaceSize),
           "workspace size");
    }
    void destroy()
    {
        for(auto* d : {&plan, &cfg, &engine, &graph})
            if(*d)
            {
                hipdnnBackendDestroyDescriptor(*d);
                *d = nullptr;
            }
    }
};

// Pack: a variant pack with its own 64-byte aligned workspace of the plan's size.
struct Pack
{
    hipdnnBackendDescriptor_t pack = nullptr;
    std::vector<uint8_t> ws;

    Pack(const Plan& p, std::vector<int64_t> uids, std::vector<void*> ptrs)
    {
        ws.assign(static_cast<size_t>(p.workspaceSize) + 64, 0);
        void* w = ws.data() + (64 - reinterpret_cast<uintptr_t>(ws.data()) % 64) % 64;
        ck(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack), "pack");
        try
        {
            ck(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                         static_cast<int64_t>(uids.size()), uids.data()),
               "uids");
            ck(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
                                         static_cast<int64_t>(ptrs.size()), ptrs.data()),
               "ptrs");
            ck(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &w), "ws");
            ck(hipdnnBackendFinalize(pack), "finalize pack");
        }
        catch(...)
        {
            hipdnnBackendDestroyDescriptor(pack); // as Plan: no destructor for a throwing constructor
            throw;
        }
    }
    Pack(Pack&& o) noexcept : pack(o.pack), ws(std::move(o.ws)) { o.pack = nullptr; }
    Pack(const Pack&) = delete;
    Pack& operator=(const Pack&) = delete;
    ~Pack()
    {
        if(pack)
            hipdnnBackendDestroyDescriptor(pack);
    }
};

// execute runs the plan on one variant pack: the status, and the library's last error in *error
// (a test of bad input asserts both).
inline hipdnnStatus_t execute(hipdnnHandle_t h, const Plan& plan, std::vector<int64_t> uids, std::vector<void*> ptrs,
                              std::string* error)
{
    Pack pack(plan, std::move(uids), std::move(ptrs));
    const hipdnnStatus_t s = hipdnnBackendExecute(h, plan.plan, pack.pack);
    char msg[2048] = {0};
    hipdnnGetLastErrorString(msg, sizeof msg);
    *error = msg;
    return s;
}

// runWithHandle runs check on a fresh handle and turns its failure count into an exit code.
inline int runWithHandle(int (*check)(hipdnnHandle_t))
{
    hipdnnHandle_t h = nullptr;
    int failures = 0;
    try
    {
        ck(hipdnnCreate(&h), "hipdnnCreate");
        failures = check(h);
    }
    catch(const std::exception& e)
    {
        std::fprintf(stderr, "FAIL: %s\n", e.what());
        failures = 1;
    }
    if(h)
        hipdnnDestroy(h);
    return failures ? 1 : 0;
}

} // namespace testplan
