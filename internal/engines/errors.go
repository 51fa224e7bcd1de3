package engines

import (
	"strconv"

	"github.com/hipdnn-go/backend/internal/status"
)

// pluginStatusNames are the names of hipdnnPluginStatus_t values, by value.
var pluginStatusNames = [...]string{
	"HIPDNN_PLUGIN_STATUS_SUCCESS",
	"HIPDNN_PLUGIN_STATUS_BAD_PARAM",
	"HIPDNN_PLUGIN_STATUS_INVALID_VALUE",
	"HIPDNN_PLUGIN_STATUS_INTERNAL_ERROR",
	"HIPDNN_PLUGIN_STATUS_ALLOC_FAILED",
	"HIPDNN_PLUGIN_STATUS_NOT_APPLICABLE",
	"HIPDNN_PLUGIN_STATUS_NOT_INITIALIZED",
}

// Plugin status values the host interprets.
const (
	pluginSuccess       = 0
	pluginInvalidValue  = 2
	pluginNotApplicable = 5
)

// PluginStatusName returns the C name of a hipdnnPluginStatus_t value, or
// "HIPDNN_PLUGIN_STATUS_UNKNOWN" for anything else.
func PluginStatusName(st int) string {
	if st >= 0 && st < len(pluginStatusNames) {
		return pluginStatusNames[st]
	}
	return "HIPDNN_PLUGIN_STATUS_UNKNOWN"
}

// failure turns a failed plugin call into PLUGIN_ERROR
// "Failed to <action>. Status: <name>(<n>), Error: <plugin's last error>".
func failure(action string, r callResult) error {
	return status.Plugin("Failed to %s. Status: %s(%d), Error: %s",
		action, PluginStatusName(r.status), r.status, r.err)
}

// missingSymbol is the error of a plugin that lacks an entry point the host needs.
func missingSymbol(name, path string) error {
	return status.Plugin("Failed to get symbol %s from %s", name, path)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
