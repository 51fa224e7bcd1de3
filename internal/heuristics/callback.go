package heuristics

// callback.go holds only the Go functions exported to C, because a file with //export may
// declare but not define C functions in its preamble. plugin.c calls them from the log sink
// and from the host table's get_prediction; plugins may call the sink from any thread.

/*
#include "plugin.h"
*/
import "C"

import (
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
)

//export hipdnngoHeurLog
func hipdnngoHeurLog(sev C.int, msg *C.char) {
	defer func() { _ = recover() }() // a panic must not unwind through the plugin's frames
	if s := api.Severity(sev); logging.Enabled(s) {
		logging.External(s, C.GoString(msg))
	}
}

//export hipdnngoHeurGetPrediction
func hipdnngoHeurGetPrediction(ctx C.uintptr_t, engineID C.int64_t, kind C.int, out *C.hipdnnPluginConstData_t) (st C.int) {
	defer func() {
		if r := recover(); r != nil {
			logging.Errorf("Heuristic host: get_prediction failed: %v", r)
			st = pluginInternalError
		}
	}()
	return getPrediction(uintptr(ctx), int64(engineID), int(kind), out)
}
