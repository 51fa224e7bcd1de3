// Compiles every plugin SDK header, the C++ helper included, as strict C++17 (see
// CMakeLists.txt), with the backend's shared-type headers first. Not installed, nothing to run.
#include <HipdnnBackendBehaviorNote.h>
#include <HipdnnBackendCallbackTypes.h>

#include <hipdnn_plugin_sdk/BehaviorNote.h>
#include <hipdnn_plugin_sdk/EnginePluginApi.h>
#include <hipdnn_plugin_sdk/HeuristicsPluginApi.h>
#include <hipdnn_plugin_sdk/PluginApi.h>
#include <hipdnn_plugin_sdk/PluginApiDataTypes.h>
#include <hipdnn_plugin_sdk/EngineNames.h>
#include <hipdnn_plugin_sdk/PluginExport.h>
#include <hipdnn_plugin_sdk/engine_api_version.h>
#include <hipdnn_plugin_sdk/heuristic_api_version.h>
#include <hipdnn_plugin_sdk/helpers/Attention.hpp>
#include <hipdnn_plugin_sdk/helpers/ContextPayload.hpp>
#include <hipdnn_plugin_sdk/helpers/EngineId.h>
#include <hipdnn_plugin_sdk/helpers/LastError.h>
#include <hipdnn_plugin_sdk/helpers/EnginePlugin.hpp>
#include <hipdnn_plugin_sdk/helpers/EnginePluginExports.hpp>
#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>
#include <hipdnn_plugin_sdk/helpers/PointwiseModes.hpp>
#include <hipdnn_plugin_sdk/helpers/TensorTable.hpp>

#include <cstddef>

static_assert(offsetof(hipdnnHeuristicHostCallbacks_t, ranking_metric) == 32, "host table layout");
static_assert(static_cast<uint64_t>(hipdnn_plugin_sdk::engineNameToId("TEST_GOOD_DEFAULT_ENGINE")) == 0x5FB06B52DB2039ACull,
              "FNV-1a-64");
static_assert(hipdnn_plugin_sdk::engineNameToId("") == 0, "empty name is id 0");

int hipdnnPluginSdkHeaderCheckCxx();
int hipdnnPluginSdkHeaderCheckCxx()
{
    return hipdnn_plugin_sdk::guard([] { hipdnn_plugin_sdk::requireNotNull(nullptr, "x"); });
}
