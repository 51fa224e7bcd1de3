/*
 * A heuristic test plugin for the Go tests of internal/heuristics, compiled by the tests
 * themselves (cc -shared). It exercises what the shared test plugins do not: the host callback
 * table. Its policy asks get_prediction for every candidate and orders by the predicted value in
 * the table's ranking metric (higher first for "tflops", lower first for "time"; unpredicted
 * engines last, in input order); it declines when nothing is predicted. Before ranking it checks
 * the table (version 2, struct_size >= 40) and that the host refuses an engine outside the
 * candidate list with BAD_PARAM. GetEngineConfig answers a knob-less EngineConfig whose
 * ranking_metric is "bogus" (the host must overwrite it) for engines at even positions of the
 * result and NOT_APPLICABLE for the others.
 *
 * Macros: POLICY_NAME (string), WRONG_CONFIG_ENGINE (answer configs naming another engine),
 * WITH_SET_LOG_LEVEL (export hipdnnPluginSetLogLevel and the hipdnnTestGetLastLogLevel accessor).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hipdnn_plugin_sdk/HeuristicsPluginApi.h>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>

#ifndef POLICY_NAME
#define POLICY_NAME "GoTest::Predicting"
#endif
#define EXPORT HIPDNN_HEURISTIC_PLUGIN_EXPORT

static __thread char last_error[256];
static hipdnnCallback_t sink;

static hipdnnPluginStatus_t fail(hipdnnPluginStatus_t st, const char* msg) {
    snprintf(last_error, sizeof last_error, "%s", msg);
    return st;
}

EXPORT hipdnnPluginStatus_t hipdnnPluginGetName(const char** name) {
    *name = "go_test_predicting_plugin";
    return 0;
}
EXPORT hipdnnPluginStatus_t hipdnnPluginGetVersion(const char** v) {
    *v = "1.0.0-gotest";
    return 0;
}
EXPORT hipdnnPluginStatus_t hipdnnPluginGetApiVersion(const char** v) {
    *v = HIPDNN_HEURISTIC_API_VERSION;
    return 0;
}
EXPORT hipdnnPluginStatus_t hipdnnPluginGetType(hipdnnPluginType_t* t) {
    *t = HIPDNN_PLUGIN_TYPE_HEURISTIC;
    return 0;
}
EXPORT void hipdnnPluginGetLastErrorString(const char** s) {
    if (s)
        *s = last_error;
}
EXPORT hipdnnPluginStatus_t hipdnnPluginSetLoggingCallback(hipdnnCallback_t cb) {
    sink = cb;
    return 0;
}

#ifdef WITH_SET_LOG_LEVEL
static int last_level = -1;
EXPORT hipdnnPluginStatus_t hipdnnPluginSetLogLevel(hipdnnSeverity_t level) {
    last_level = (int)level;
    return 0;
}
EXPORT int32_t hipdnnTestGetLastLogLevel(void) { return last_level; }
#endif

EXPORT hipdnnPluginStatus_t hipdnnHeuristicPluginGetAllPolicyIds(int64_t* ids, uint32_t max, uint32_t* n) {
    if (ids != NULL && max > 0)
        ids[0] = hipdnnPluginPolicyNameToId(POLICY_NAME);
    *n = 1;
    return 0;
}

EXPORT hipdnnPluginStatus_t hipdnnHeuristicPluginGetPolicyName(int64_t id, const char** name) {
    if (id != hipdnnPluginPolicyNameToId(POLICY_NAME))
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "unknown policy");
    *name = POLICY_NAME;
    return 0;
}

struct hipdnnHeuristicHandle_opaque {
    int props;
};

struct hipdnnHeuristicPolicyDescriptor_opaque {
    int64_t* cand;
    size_t n;
    int64_t* result;
    size_t nresult;
    int applied;
    unsigned char config[48] __attribute__((aligned(8)));
};

EXPORT hipdnnPluginStatus_t hipdnnHeuristicHandleCreate(hipdnnHeuristicHandle_t* h) {
    *h = calloc(1, sizeof **h);
    return 0;
}
EXPORT hipdnnPluginStatus_t hipdnnHeuristicHandleDestroy(hipdnnHeuristicHandle_t h) {
    free(h);
    return 0;
}
EXPORT hipdnnPluginStatus_t hipdnnHeuristicHandleSetDeviceProperties(hipdnnHeuristicHandle_t h,
                                                                     const hipdnnPluginConstData_t* p) {
    if (p == NULL || p->size < 8 || memcmp((const char*)p->ptr + 4, "HDDP", 4) != 0)
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "device properties without the HDDP identifier");
    h->props++;
    return 0;
}
EXPORT hipdnnPluginStatus_t hipdnnHeuristicPolicyDescriptorCreate(hipdnnHeuristicHandle_t h, int64_t id,
                                                                  hipdnnHeuristicPolicyDescriptor_t* d) {
    (void)h;
    if (id != hipdnnPluginPolicyNameToId(POLICY_NAME))
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "unknown policy");
    *d = calloc(1, sizeof **d);
    return 0;
}
EXPORT hipdnnPluginStatus_t hipdnnHeuristicPolicyDescriptorDestroy(hipdnnHeuristicPolicyDescriptor_t d) {
    free(d->cand);
    free(d->result);
    free(d);
    return 0;
}
EXPORT hipdnnPluginStatus_t hipdnnHeuristicPolicySetEngineIds(hipdnnHeuristicPolicyDescriptor_t d, const int64_t* ids, size_t n) {
    free(d->cand);
    d->cand = malloc((n ? n : 1) * sizeof *ids);
    memcpy(d->cand, ids, n * sizeof *ids);
    d->n = n;
    d->applied = 0;
    return 0;
}
EXPORT hipdnnPluginStatus_t hipdnnHeuristicPolicySetSerializedGraph(hipdnnHeuristicPolicyDescriptor_t d,
                                                                    const hipdnnPluginConstData_t* g) {
    (void)d;
    if (g == NULL || g->ptr == NULL || g->size == 0)
        return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "empty graph");
    return 0;
}
EXPORT hipdnnPluginStatus_t hipdnnHeuristicPolicyFinalize(hipdnnHeuristicPolicyDescriptor_t d, int32_t* applied) {
    (void)d;
    *applied = 0; /* predictions only come through FinalizeWithHost */
    return 0;
}

/* Reads EnginePrediction.status (slot 2, ubyte) and .value (slot 3, double). */
static int read_prediction(const unsigned char* b, size_t n, int* status, double* value) {
    uint32_t root;
    int32_t soff;
    uint16_t vtlen, off;
    if (n < 8)
        return 0;
    memcpy(&root, b, 4);
    if (root + 4 > n)
        return 0;
    memcpy(&soff, b + root, 4);
    size_t vt = root - soff;
    memcpy(&vtlen, b + vt, 2);
    *status = 0;
    *value = 0;
    if (4 + 2 * 2 + 2 <= vtlen) {
        memcpy(&off, b + vt + 4 + 2 * 2, 2);
        if (off)
            *status = b[root + off];
    }
    if (4 + 2 * 3 + 2 <= vtlen) {
        memcpy(&off, b + vt + 4 + 2 * 3, 2);
        if (off)
            memcpy(value, b + root + off, 8);
    }
    return 1;
}

EXPORT hipdnnPluginStatus_t hipdnnHeuristicPolicyFinalizeWithHost(hipdnnHeuristicPolicyDescriptor_t d,
                                                                  const hipdnnHeuristicHostCallbacks_t* host, int32_t* applied) {
    *applied = 0;
    if (host == NULL)
        return 0;
    if (host->version < 2 || host->struct_size < 40 || host->ranking_metric == NULL)
        return fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "host table is not version 2");
    int lower = strcmp(host->ranking_metric, "time") == 0;
    hipdnnPluginConstData_t p = {NULL, 0};
    int64_t outsider = 0x7E57;
    for (size_t i = 0; i < d->n; i++)
        if (d->cand[i] == outsider)
            outsider++;
    if (host->get_prediction(host->context, outsider, HIPDNN_ENGINE_PREDICTION_ENGINE, &p) != HIPDNN_PLUGIN_STATUS_BAD_PARAM)
        return fail(HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR, "host answered for an engine that is not a candidate");
    double* val = calloc(d->n ? d->n : 1, sizeof *val);
    int* has = calloc(d->n ? d->n : 1, sizeof *has);
    size_t predicted = 0;
    for (size_t i = 0; i < d->n; i++) {
        p.ptr = NULL;
        p.size = 0;
        int st = 0;
        if (host->get_prediction(host->context, d->cand[i], HIPDNN_ENGINE_PREDICTION_ENGINE, &p) == 0
            && read_prediction(p.ptr, p.size, &st, &val[i]) && st == 1) {
            has[i] = 1;
            predicted++;
        }
    }
    if (predicted == 0) {
        free(val);
        free(has);
        return 0;
    }
    free(d->result);
    d->result = malloc(d->n * sizeof *d->result);
    d->nresult = 0;
    /* selection by value, stable: predicted engines first */
    int* used = calloc(d->n, sizeof *used);
    for (size_t k = 0; k < predicted; k++) {
        size_t best = d->n;
        for (size_t i = 0; i < d->n; i++) {
            if (!has[i] || used[i])
                continue;
            if (best == d->n || (lower ? val[i] < val[best] : val[i] > val[best]))
                best = i;
        }
        used[best] = 1;
        d->result[d->nresult++] = d->cand[best];
    }
    for (size_t i = 0; i < d->n; i++)
        if (!has[i])
            d->result[d->nresult++] = d->cand[i];
    free(used);
    free(val);
    free(has);
    d->applied = 1;
    *applied = 1;
    if (sink)
        sink(HIPDNN_SEV_INFO, "[go_test_predicting_plugin] ranked by predictions");
    return 0;
}

EXPORT hipdnnPluginStatus_t hipdnnHeuristicPolicyGetSortedEngineIds(hipdnnHeuristicPolicyDescriptor_t d, int64_t* ids,
                                                                    size_t* n) {
    if (!d->applied)
        return fail(HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED, "not finalized");
    if (ids == NULL) {
        *n = d->nresult;
        return 0;
    }
    size_t k = *n < d->nresult ? *n : d->nresult;
    memcpy(ids, d->result, k * sizeof *ids);
    *n = k;
    return 0;
}

/* EngineConfig { engine_id, ranking_metric: "bogus" }, laid out by hand:
 *   0: root offset 16 | 4: vtable (len 10, table size 16, engine_id @8, knobs absent,
 *   ranking_metric @4) | 16: table (soffset 12, metric offset, engine_id) | 32: "bogus". */
static void build_config(unsigned char* b, int64_t engine_id) {
    memset(b, 0, 48);
    uint32_t u32;
    uint16_t u16;
    int32_t i32;
    u32 = 16;
    memcpy(b + 0, &u32, 4);
    u16 = 10;
    memcpy(b + 4, &u16, 2);
    u16 = 16;
    memcpy(b + 6, &u16, 2);
    u16 = 8;
    memcpy(b + 8, &u16, 2);
    u16 = 0;
    memcpy(b + 10, &u16, 2);
    u16 = 4;
    memcpy(b + 12, &u16, 2);
    i32 = 12;
    memcpy(b + 16, &i32, 4);
    u32 = 12;
    memcpy(b + 20, &u32, 4);
    memcpy(b + 24, &engine_id, 8);
    u32 = 5;
    memcpy(b + 32, &u32, 4);
    memcpy(b + 36, "bogus", 6);
}

EXPORT hipdnnPluginStatus_t hipdnnHeuristicPolicyGetEngineConfig(hipdnnHeuristicPolicyDescriptor_t d, int64_t id,
                                                                 hipdnnPluginConstData_t* cfg) {
    if (!d->applied)
        return fail(HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED, "not finalized");
    for (size_t i = 0; i < d->nresult; i++) {
        if (d->result[i] != id)
            continue;
        if (i % 2 == 1)
            return HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE;
#ifdef WRONG_CONFIG_ENGINE
        build_config(d->config, id + 1);
#else
        build_config(d->config, id);
#endif
        cfg->ptr = d->config;
        cfg->size = 44;
        return 0;
    }
    return fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "engine not in the result");
}
