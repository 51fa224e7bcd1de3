package engines

// The plugin API versions this host implements and the per-feature floors, read from the SDK
// header (include/hipdnn_plugin_sdk/engine_api_version.h is their single source).

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#include <hipdnn_plugin_sdk/engine_api_version.h>
*/
import "C"

import "github.com/hipdnn-go/backend/internal/version"

var (
	apiCurrent = version.Triple{Major: C.HIPDNN_ENGINE_API_VERSION_MAJOR,
		Minor: C.HIPDNN_ENGINE_API_VERSION_MINOR, Patch: C.HIPDNN_ENGINE_API_VERSION_PATCH}
	apiMinimum = version.Triple{Major: C.HIPDNN_ENGINE_API_VERSION_MIN_SUPPORTED_MAJOR,
		Minor: C.HIPDNN_ENGINE_API_VERSION_MIN_SUPPORTED_MINOR, Patch: C.HIPDNN_ENGINE_API_VERSION_MIN_SUPPORTED_PATCH}
	apiOverride = version.Triple{Major: C.HIPDNN_ENGINE_API_VERSION_OVERRIDE_MAJOR,
		Minor: C.HIPDNN_ENGINE_API_VERSION_OVERRIDE_MINOR, Patch: C.HIPDNN_ENGINE_API_VERSION_OVERRIDE_PATCH}
	apiPassByValue = version.Triple{Major: C.HIPDNN_ENGINE_API_VERSION_RUNTIME_PASS_BY_VALUE_MAJOR,
		Minor: C.HIPDNN_ENGINE_API_VERSION_RUNTIME_PASS_BY_VALUE_MINOR, Patch: C.HIPDNN_ENGINE_API_VERSION_RUNTIME_PASS_BY_VALUE_PATCH}
	apiRagged = version.Triple{Major: C.HIPDNN_ENGINE_API_VERSION_RAGGED_MAJOR,
		Minor: C.HIPDNN_ENGINE_API_VERSION_RAGGED_MINOR, Patch: C.HIPDNN_ENGINE_API_VERSION_RAGGED_PATCH}
	apiAlignment = version.Triple{Major: C.HIPDNN_ENGINE_API_VERSION_ALIGNMENT_MAJOR,
		Minor: C.HIPDNN_ENGINE_API_VERSION_ALIGNMENT_MINOR, Patch: C.HIPDNN_ENGINE_API_VERSION_ALIGNMENT_PATCH}
)

// assumedAPIVersion is the version of a plugin that does not export hipdnnPluginGetApiVersion.
var assumedAPIVersion = apiMinimum

// HostedAPIRange returns the oldest plugin API version any graph accepts (the baseline) and
// the version this host implements, both from the SDK header macros. Plugins with the same
// major load (major 0 too, transitionally, though it is below every graph's floor).
func HostedAPIRange() (min, max version.Triple) { return apiMinimum, apiCurrent }

// GraphFeatures are the graph properties that raise the plugin API version a graph needs.
type GraphFeatures struct {
	OverrideShapes     bool // Graph.is_override_shape_enabled
	RuntimePassByValue bool // any tensor with is_runtime_pass_by_value
	Ragged             bool // any tensor with ragged_offset_tensor_uid
	CustomAlignment    bool // any tensor whose alignment is not 16

	// Declared is the min_required_engine_api_version a deserialized graph arrived with (zero:
	// none). The writer may have raised it for something this build cannot see, so it counts
	// as a floor of its own.
	Declared version.Triple
}

// MinAPIVersion is the lowest plugin API version that may be offered a graph with these
// features: the highest floor among them, the baseline when none is used.
func (f GraphFeatures) MinAPIVersion() version.Triple {
	v := apiMinimum
	raise := func(use bool, floor version.Triple) {
		if use && v.Less(floor) {
			v = floor
		}
	}
	raise(f.OverrideShapes, apiOverride)
	raise(f.RuntimePassByValue, apiPassByValue)
	raise(f.Ragged, apiRagged)
	raise(f.CustomAlignment, apiAlignment)
	raise(true, f.Declared)
	return v
}
