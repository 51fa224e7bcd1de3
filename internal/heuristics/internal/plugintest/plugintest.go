// Package plugintest lets the Go tests of internal/heuristics read what a test plugin
// observed, through the hipdnnTest* accessors of tests/plugins/test_plugin_accessors.h. It
// exists because test files cannot use cgo.
package plugintest

/*
#cgo CFLAGS: -I${SRCDIR}/../../../../tests/plugins
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "plugintest.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Finalize is what test_good_heuristic_plugin recorded about its latest finalize.
type Finalize struct {
	UsedHostTable  bool
	HostVersion    uint32
	HostStructSize uint64
	RankingMetric  string
	DeviceArch     string
}

// LastFinalize asks the already loaded plugin file path (it is not loaded again) for its
// hipdnnTestHeuristicGetLastFinalize record. ok is false when the plugin has not finalized.
func LastFinalize(path string) (f Finalize, ok bool, err error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var used C.int32_t
	var ver C.uint32_t
	var size C.size_t
	var metric, arch [256]C.char
	r := C.hd_plugintest_last_finalize(cpath, &used, &ver, &size, &metric[0], C.size_t(len(metric)), &arch[0], C.size_t(len(arch)))
	switch r {
	case -1:
		return f, false, errors.New("plugin is not loaded: " + path)
	case -2:
		return f, false, errors.New("plugin has no hipdnnTestHeuristicGetLastFinalize: " + path)
	}
	f = Finalize{UsedHostTable: used == 1, HostVersion: uint32(ver), HostStructSize: uint64(size),
		RankingMetric: C.GoString(&metric[0]), DeviceArch: C.GoString(&arch[0])}
	return f, r == 1, nil
}

// LastLogLevel returns the level the already loaded plugin file path last received through
// hipdnnPluginSetLogLevel (-1: never), or -2 when it is not loaded or has no
// hipdnnTestGetLastLogLevel accessor.
func LastLogLevel(path string) int {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	return int(C.hd_plugintest_last_log_level(cpath))
}
