package engines

// The engine-name registry of the plugin SDK (hipdnn_plugin_sdk/EngineNames.h, RFC 0003), read
// from the header itself so the host and plugin authors share one list.
//
// Go's build cache does not see edits to that header (it is outside this package), so a change
// to the registry should come with a change to this file; the last one added HIPDNNGO_CUDA_RTC.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#include <stddef.h>
#include <hipdnn_plugin_sdk/EngineNames.h>

static const char* const hd_engine_names[] = {HIPDNN_PLUGIN_ENGINE_NAMES(HIPDNN_ENGINE_NAME_ELEMENT)};
static size_t hd_engine_name_count(void) { return 0 HIPDNN_PLUGIN_ENGINE_NAMES(HIPDNN_ENGINE_NAME_COUNT); }
static const char* hd_engine_name(size_t i) { return hd_engine_names[i]; }
static const char* hd_benchmark_prefix(void) { return HIPDNN_BENCHMARK_ENGINE_PREFIX; }
static const char* const hd_host_names[] = {HIPDNN_PLUGIN_HOST_MEMORY_ENGINE_NAMES(HIPDNN_ENGINE_NAME_ELEMENT)};
static size_t hd_host_name_count(void) { return 0 HIPDNN_PLUGIN_HOST_MEMORY_ENGINE_NAMES(HIPDNN_ENGINE_NAME_COUNT); }
static const char* hd_host_name(size_t i) { return hd_host_names[i]; }
*/
import "C"

import (
	"strings"
	"sync"

	"github.com/hipdnn-go/backend/internal/logging"
)

// RegisteredEngineNames lists the registry in header order.
var RegisteredEngineNames = func() []string {
	out := make([]string, int(C.hd_engine_name_count()))
	for i := range out {
		out[i] = C.GoString(C.hd_engine_name(C.size_t(i)))
	}
	return out
}()

// RegisteredHostMemoryEngineNames lists the registry's host-memory engines
// (HIPDNN_PLUGIN_HOST_MEMORY_ENGINE_NAMES), which frontends may leave out for device buffers.
var RegisteredHostMemoryEngineNames = func() []string {
	out := make([]string, int(C.hd_host_name_count()))
	for i := range out {
		out[i] = C.GoString(C.hd_host_name(C.size_t(i)))
	}
	return out
}()

var benchmarkPrefix = C.GoString(C.hd_benchmark_prefix())

// IsRegisteredEngineName reports whether name is in the registry, with or without the
// benchmark-mode prefix.
func IsRegisteredEngineName(name string) bool {
	base := strings.TrimPrefix(name, benchmarkPrefix)
	for _, n := range RegisteredEngineNames {
		if n == base {
			return true
		}
	}
	return false
}

var warnedUnregistered sync.Map

// noteUnregistered logs one WARN per process for an engine name the registry lacks; the
// engine is used all the same (RFC 0003: the warning is safe to ignore).
func noteUnregistered(path, name string) {
	if IsRegisteredEngineName(name) {
		return
	}
	if _, seen := warnedUnregistered.LoadOrStore(name, true); !seen {
		logging.Warnf("Plugin %s: engine name %q is not in the engine-name registry (hipdnn_plugin_sdk/EngineNames.h); the engine is used all the same",
			path, name)
	}
}
