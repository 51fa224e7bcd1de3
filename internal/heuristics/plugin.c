// plugin.c: the call helpers declared in plugin.h, plus the two C functions plugins call back
// into: the log sink and the host table's get_prediction. Loading goes through dl.h, the
// backend's one loader shim (internal/dl), included here because the entry-point table is
// filled in C.
#include "dl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "_cgo_export.h"

// fail copies the plugin's last error for a non-success status and passes the status on.
static int fail(const hd_heur_plugin* p, int status, char* err, size_t errlen) {
    if (status != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        const char* text = NULL;
        p->get_last_error(&text);
        hd_dl_text(err, errlen, text, "");
    }
    return status;
}

// Plugin log sink handed to hipdnnPluginSetLoggingCallback.
static void log_sink(hipdnnSeverity_t severity, const char* message) {
    if (message != NULL) {
        hipdnngoHeurLog((int)severity, (char*)message);
    }
}

// get_prediction of the host table: the context is a registry number, not a pointer.
static hipdnnPluginStatus_t get_prediction(void* context, int64_t engine_id, hipdnnEnginePredictionKind_t kind,
                                           hipdnnPluginConstData_t* prediction) {
    if (prediction == NULL) {
        return HIPDNN_PLUGIN_STATUS_BAD_PARAM;
    }
    prediction->ptr = NULL;
    prediction->size = 0;
    return (hipdnnPluginStatus_t)hipdnngoHeurGetPrediction((uintptr_t)context, engine_id, (int)kind, prediction);
}

#define RESOLVE(field, name, required)                                       \
    do {                                                                     \
        char why[512];                                                       \
        *(void**)(&p->field) = hd_dl_sym(p->lib, name, why, sizeof why);     \
        if (p->field == NULL && (required)) {                                \
            snprintf(err, errlen, "Failed to get symbol %s: %s", name, why); \
            dlclose(p->lib);                                                 \
            memset(p, 0, sizeof *p);                                         \
            return 2;                                                        \
        }                                                                    \
    } while (0)

int hd_heur_open(const char* path, hd_heur_plugin* p, char* err, size_t errlen) {
    memset(p, 0, sizeof *p);
    p->lib = hd_dl_open(path, err, errlen);
    if (p->lib == NULL) {
        return 1;
    }
    RESOLVE(get_name, "hipdnnPluginGetName", 1);
    RESOLVE(get_version, "hipdnnPluginGetVersion", 1);
    RESOLVE(get_api_version, "hipdnnPluginGetApiVersion", 1);
    RESOLVE(get_type, "hipdnnPluginGetType", 1);
    RESOLVE(get_last_error, "hipdnnPluginGetLastErrorString", 1);
    RESOLVE(set_logging_callback, "hipdnnPluginSetLoggingCallback", 1);
    RESOLVE(set_log_level, "hipdnnPluginSetLogLevel", 0);
    RESOLVE(get_all_policy_ids, "hipdnnHeuristicPluginGetAllPolicyIds", 1);
    RESOLVE(get_policy_name, "hipdnnHeuristicPluginGetPolicyName", 1);
    RESOLVE(handle_create, "hipdnnHeuristicHandleCreate", 1);
    RESOLVE(handle_destroy, "hipdnnHeuristicHandleDestroy", 1);
    RESOLVE(set_device_properties, "hipdnnHeuristicHandleSetDeviceProperties", 1);
    RESOLVE(desc_create, "hipdnnHeuristicPolicyDescriptorCreate", 1);
    RESOLVE(desc_destroy, "hipdnnHeuristicPolicyDescriptorDestroy", 1);
    RESOLVE(set_engine_ids, "hipdnnHeuristicPolicySetEngineIds", 1);
    RESOLVE(set_graph, "hipdnnHeuristicPolicySetSerializedGraph", 1);
    RESOLVE(finalize, "hipdnnHeuristicPolicyFinalize", 1);
    RESOLVE(finalize_with_host, "hipdnnHeuristicPolicyFinalizeWithHost", 0);
    RESOLVE(get_engine_config, "hipdnnHeuristicPolicyGetEngineConfig", 0);
    RESOLVE(get_sorted_engine_ids, "hipdnnHeuristicPolicyGetSortedEngineIds", 1);
    return 0;
}

void hd_heur_close(hd_heur_plugin* p) {
    if (p->lib != NULL) {
        dlclose(p->lib);
    }
    memset(p, 0, sizeof *p);
}

int hd_heur_get_string(const hd_heur_plugin* p, int which, const char** out, char* err, size_t errlen) {
    *out = NULL;
    int st;
    switch (which) {
    case 0: st = p->get_name(out); break;
    case 1: st = p->get_version(out); break;
    default: st = p->get_api_version(out); break;
    }
    return fail(p, st, err, errlen);
}

int hd_heur_get_type(const hd_heur_plugin* p, int* type, char* err, size_t errlen) {
    hipdnnPluginType_t t = HIPDNN_PLUGIN_TYPE_UNSPECIFIED;
    int st = p->get_type(&t);
    *type = (int)t;
    return fail(p, st, err, errlen);
}

int hd_heur_set_logging(const hd_heur_plugin* p, char* err, size_t errlen) {
    return fail(p, p->set_logging_callback(log_sink), err, errlen);
}

int hd_heur_set_log_level(const hd_heur_plugin* p, int level, char* err, size_t errlen) {
    if (p->set_log_level == NULL) {
        return HIPDNN_HEUR_ABSENT;
    }
    return fail(p, p->set_log_level((hipdnnSeverity_t)level), err, errlen);
}

int hd_heur_policy_ids(const hd_heur_plugin* p, int64_t* ids, uint32_t max, uint32_t* n, char* err, size_t errlen) {
    *n = 0;
    return fail(p, p->get_all_policy_ids(ids, max, n), err, errlen);
}

int hd_heur_policy_name(const hd_heur_plugin* p, int64_t id, const char** out, char* err, size_t errlen) {
    *out = NULL;
    return fail(p, p->get_policy_name(id, out), err, errlen);
}

int hd_heur_handle_create(const hd_heur_plugin* p, void** h, char* err, size_t errlen) {
    hipdnnHeuristicHandle_t handle = NULL;
    int st = p->handle_create(&handle);
    *h = handle;
    return fail(p, st, err, errlen);
}

int hd_heur_handle_destroy(const hd_heur_plugin* p, void* h, char* err, size_t errlen) {
    return fail(p, p->handle_destroy((hipdnnHeuristicHandle_t)h), err, errlen);
}

int hd_heur_set_device_properties(const hd_heur_plugin* p, void* h, const void* data, size_t size, char* err, size_t errlen) {
    hipdnnPluginConstData_t blob = {data, size};
    return fail(p, p->set_device_properties((hipdnnHeuristicHandle_t)h, &blob), err, errlen);
}

int hd_heur_desc_create(const hd_heur_plugin* p, void* h, int64_t id, void** d, char* err, size_t errlen) {
    hipdnnHeuristicPolicyDescriptor_t desc = NULL;
    int st = p->desc_create((hipdnnHeuristicHandle_t)h, id, &desc);
    *d = desc;
    return fail(p, st, err, errlen);
}

int hd_heur_desc_destroy(const hd_heur_plugin* p, void* d, char* err, size_t errlen) {
    return fail(p, p->desc_destroy((hipdnnHeuristicPolicyDescriptor_t)d), err, errlen);
}

int hd_heur_finalize(const hd_heur_plugin* p, void* d, const int64_t* ids, size_t n, const void* graph, size_t graph_size,
                     uintptr_t ctx, const char* metric, int32_t* applied, int* step, char* err, size_t errlen) {
    hipdnnHeuristicPolicyDescriptor_t desc = (hipdnnHeuristicPolicyDescriptor_t)d;
    *applied = 0;
    *step = HIPDNN_HEUR_STEP_SET_ENGINE_IDS;
    int st = p->set_engine_ids(desc, ids, n);
    if (st != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        return fail(p, st, err, errlen);
    }
    *step = HIPDNN_HEUR_STEP_SET_GRAPH;
    hipdnnPluginConstData_t g = {graph, graph_size};
    st = p->set_graph(desc, &g);
    if (st != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        return fail(p, st, err, errlen);
    }
    *step = HIPDNN_HEUR_STEP_FINALIZE;
    if (p->finalize_with_host != NULL) {
        hipdnnHeuristicHostCallbacks_t host;
        memset(&host, 0, sizeof host);
        host.version = HIPDNN_HEURISTIC_HOST_CALLBACKS_VERSION;
        host.struct_size = sizeof host;
        host.context = (void*)ctx;
        host.get_prediction = get_prediction;
        host.ranking_metric = metric;
        st = p->finalize_with_host(desc, &host, applied);
    } else {
        st = p->finalize(desc, applied);
    }
    return fail(p, st, err, errlen);
}

int hd_heur_sorted_ids(const hd_heur_plugin* p, void* d, int64_t* buf, size_t cap, size_t* n, char* err, size_t errlen) {
    hipdnnHeuristicPolicyDescriptor_t desc = (hipdnnHeuristicPolicyDescriptor_t)d;
    size_t total = 0;
    int st = p->get_sorted_engine_ids(desc, NULL, &total);
    *n = total;
    if (st != HIPDNN_PLUGIN_STATUS_SUCCESS) {
        return fail(p, st, err, errlen);
    }
    if (total > cap) {
        return HIPDNN_HEUR_TOO_MANY;
    }
    if (total == 0) {
        return HIPDNN_PLUGIN_STATUS_SUCCESS;
    }
    size_t written = total;
    st = p->get_sorted_engine_ids(desc, buf, &written);
    *n = written;
    return fail(p, st, err, errlen);
}

int hd_heur_engine_config(const hd_heur_plugin* p, void* d, int64_t id, const void** ptr, size_t* size, char* err,
                          size_t errlen) {
    *ptr = NULL;
    *size = 0;
    if (p->get_engine_config == NULL) {
        return HIPDNN_HEUR_ABSENT;
    }
    hipdnnPluginConstData_t cfg = {NULL, 0};
    int st = p->get_engine_config((hipdnnHeuristicPolicyDescriptor_t)d, id, &cfg);
    if (st == HIPDNN_PLUGIN_STATUS_SUCCESS) {
        *ptr = cfg.ptr;
        *size = cfg.size;
    }
    return fail(p, st, err, errlen);
}
