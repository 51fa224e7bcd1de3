package main

// Exports of the version section.

/*
#include <stdint.h>
*/
import "C"

import (
	"sync/atomic"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/heuristics"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/version"
)

// deprecationWarned is set once the process has logged hipdnnGetVersion_ext's deprecation
// (RFC 0005 §4.2: once per process, at the first call made while WARN is enabled).
var deprecationWarned atomic.Bool

// versionString is hipdnnVersionString_ext's static string, made once.
var versionString = C.CString(version.String())

//export hipdnnGo_VersionString
func hipdnnGo_VersionString() *C.char { return versionString }

//export hipdnnGo_GetVersion
func hipdnnGo_GetVersion(out **C.char) (st C.int) {
	const fn = "hipdnnGetVersion_ext"
	defer guard(fn, &st)
	begin(fn)
	if logging.Enabled(api.HIPDNN_SEV_WARN) && deprecationWarned.CompareAndSwap(false, true) {
		logging.Warn("hipdnnGetVersion_ext is deprecated; use hipdnnVersionString_ext")
	}
	if out == nil {
		return fail(fn, nullArg(fn, "version"))
	}
	*out = versionString
	return ok(fn)
}

//export hipdnnGo_GetComponentVersion
func hipdnnGo_GetComponentVersion(kind C.int, major, minor, patch *C.int64_t) (st C.int) {
	const fn = "hipdnnGetComponentVersion_ext"
	defer guard(fn, &st)
	begin(fn)
	if major == nil || minor == nil || patch == nil {
		return fail(fn, nullArg(fn, "major, minor and patch"))
	}
	var v version.Triple
	switch api.VersionKind(kind) {
	case api.HIPDNN_VERSION_KIND_PRODUCT_EXT:
		v = version.Product()
	case api.HIPDNN_VERSION_KIND_C_ABI_EXT:
		v = version.CABI
	case api.HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MIN_EXT:
		v, _ = engines.HostedAPIRange()
	case api.HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MAX_EXT:
		_, v = engines.HostedAPIRange()
	case api.HIPDNN_VERSION_KIND_HEURISTIC_PLUGIN_API_EXT:
		v = heuristics.APIVersion
	case api.HIPDNN_VERSION_KIND_GRAPH_SCHEMA_EXT:
		v = version.GraphSchema
	default:
		return fail(fn, badParam("%s: %d is not a hipdnnVersionKind_ext_t", fn, int(kind)))
	}
	*major, *minor, *patch = C.int64_t(v.Major), C.int64_t(v.Minor), C.int64_t(v.Patch)
	return ok(fn)
}
