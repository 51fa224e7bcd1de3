/* The engine-name registry (hipdnn_plugin_sdk/EngineNames.h, RFC 0003): the host logs one WARN
 * for a loaded engine whose name the registry lacks and uses the engine all the same; a
 * registered name draws no such WARN. */
#include <pthread.h>

#include <hipdnn_plugin_sdk/EngineNames.h>

#include "plugin_testutil.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int unregistered_hashed, unregistered_other;

static void on_log(hipdnnUserLogCallbackHandle_t user, hipdnnSeverity_t sev, const char* msg) {
    (void)user;
    if (sev != HIPDNN_SEV_WARN || msg == NULL || strstr(msg, "is not in the engine-name registry") == NULL) return;
    pthread_mutex_lock(&mu);
    if (strstr(msg, "engine name \"TEST_HASHED_NAME_ENGINE\"") && strstr(msg, "test_hashed_name_plugin"))
        unregistered_hashed++;
    else if (strstr(msg, "HIPDNNGO_"))
        unregistered_other++;
    pthread_mutex_unlock(&mu);
}

int main(void) {
    int sink = 0;
    CHECK_OK(hipdnnSetUserLogCallback_ext(on_log, HIPDNN_SEV_WARN, HIPDNN_LOG_CALLBACK_SYNC, &sink));
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_WARN));
    /* The test plugin next to the default folder (which holds this project's engines). */
    const char* paths[] = {PT_HASHED};
    CHECK_OK(hipdnnSetEnginePluginPaths_ext(1, paths, HIPDNN_PLUGIN_LOADING_ADDITIVE));
    CHECK_OK(hipdnnSetPluginUnloadMode_ext(HIPDNN_PLUGIN_UNLOAD_EAGER));
    for (int round = 0; round < 2; round++) {
        hipdnnHandle_t h = pt_create(NULL, 0);
        CHECK(pt_has_engine(h, PT_ID_HASHED));
        CHECK(pt_has_engine(h, hipdnnPluginEngineNameToId(HIPDNN_ENGINE_NAME(HIPDNNGO_CPU_REFERENCE))));
        CHECK_OK(hipdnnDestroy(h));
    }
    /* One WARN per process although the plugin was loaded twice; none for our engines. */
    pthread_mutex_lock(&mu);
    CHECK_EQ_INT(unregistered_hashed, 1);
    CHECK_EQ_INT(unregistered_other, 0);
    pthread_mutex_unlock(&mu);
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
    return tu_finish("test_plugin_engine_registry");
}
