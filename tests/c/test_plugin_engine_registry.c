/* The engine-name registry (hipdnn_plugin_sdk/EngineNames.h, RFC 0003): the host logs one WARN
 * for a loaded engine whose name the registry lacks and uses the engine all the same; a
 * registered name draws no such WARN. */
#include <hipdnn_plugin_sdk/EngineNames.h>

#include "plugin_testutil.h"

int main(void) {
    tu_log_counter hashed, ours;
    tu_count_logs(&hashed, HIPDNN_SEV_WARN,
                  "test_hashed_name_plugin.so: engine name \"TEST_HASHED_NAME_ENGINE\" is not in the engine-name registry");
    tu_count_logs(&ours, HIPDNN_SEV_WARN, ": engine name \"HIPDNNGO_");
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
    CHECK_EQ_INT(tu_logs_counted(&hashed), 1);
    CHECK_EQ_INT(tu_logs_counted(&ours), 0);
    tu_stop_counting(&hashed);
    tu_stop_counting(&ours);
    CHECK_OK(hipdnnBackendSetGlobalLogLevel_ext(HIPDNN_SEV_OFF));
    return check_finish("test_plugin_engine_registry");
}
