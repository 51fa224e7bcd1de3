/* Compiles every C header of the plugin SDK as strict C99 (see CMakeLists.txt), in both
 * inclusion orders against the backend's shared types. Not installed, nothing to run. */
#include <hipdnn_plugin_sdk/BehaviorNote.h>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/HeuristicsPluginApi.h>
#include <hipdnn_plugin_sdk/PluginApi.h>
#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>
#include <hipdnn_plugin_sdk/EngineNames.h>
#include <hipdnn_plugin_sdk/PluginExport.h>
#include <hipdnn_plugin_sdk/engine_api_version.h>
#include <hipdnn_plugin_sdk/heuristic_api_version.h>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>
#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>
#include <hipdnn_plugin_sdk/helpers/LastError.h>

#include <HipdnnBackendBehaviorNote.h>
#include <HipdnnBackendCallbackTypes.h>

/* Layout facts of the ABI, checked at compile time (negative array size on mismatch). */
typedef char hipdnn_sdk_check_const_data[(sizeof(hipdnnPluginConstData_t) == 2 * sizeof(void*)) ? 1 : -1];
typedef char hipdnn_sdk_check_device_buffer[(sizeof(hipdnnPluginDeviceBuffer_t) == 16) ? 1 : -1];
typedef char hipdnn_sdk_check_host_callbacks[(sizeof(hipdnnHeuristicHostCallbacks_t) == 5 * 8) ? 1 : -1];
typedef char hipdnn_sdk_check_status_size[(sizeof(hipdnnPluginStatus_t) == 4) ? 1 : -1];

int hipdnn_plugin_sdk_header_check_c(void);
int hipdnn_plugin_sdk_header_check_c(void)
{
    hipStream_t stream = NULL;
    hipdnnCallback_t sink = NULL;
    hipdnnUserLogCallback_t user = NULL;
    (void)stream;
    (void)sink;
    (void)user;
    return (int)hipdnnPluginEngineNameToId(HIPDNN_ENGINE_API_VERSION HIPDNN_HEURISTIC_API_VERSION);
}
