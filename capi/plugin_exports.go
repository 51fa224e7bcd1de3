package main

// Exports of the plugin section: search paths, unload mode, engine and policy enumeration.

/*
#include <stdint.h>
#include <stddef.h>
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/heuristics"
	"github.com/hipdnn-go/backend/internal/status"
)

// goPaths reads a C array of path strings; NULL entries are BAD_PARAM_NULL_POINTER.
func goPaths(fn string, n C.size_t, paths **C.char) ([]string, error) {
	if n > 0 && paths == nil {
		return nil, nullArg(fn, "pluginPaths")
	}
	if uint64(n) > math.MaxInt32 {
		return nil, badParam("%s: numPaths %d is beyond any real array", fn, uint64(n))
	}
	out := make([]string, 0, int(n))
	for i, p := range unsafe.Slice(paths, int(n)) {
		if p == nil {
			return nil, status.NullPointer("Null pointer provided to %s: pluginPaths[%d] is NULL", fn, i)
		}
		out = append(out, C.GoString(p))
	}
	return out, nil
}

func validLoadingMode(fn string, mode C.int) error {
	if !api.PluginLoadingMode(mode).IsValid() {
		return badParam("%s: loadingMode %d is neither HIPDNN_PLUGIN_LOADING_ADDITIVE (0) nor HIPDNN_PLUGIN_LOADING_ABSOLUTE (1)", fn, int(mode))
	}
	return nil
}

//export hipdnnGo_SetEnginePluginPaths
func hipdnnGo_SetEnginePluginPaths(n C.size_t, paths **C.char, mode C.int) (st C.int) {
	const fn = "hipdnnSetEnginePluginPaths_ext"
	defer guard(fn, &st)
	begin(fn)
	ps, err := goPaths(fn, n, paths)
	if err == nil {
		err = validLoadingMode(fn, mode)
	}
	if err == nil {
		err = engines.SetPaths(ps, api.PluginLoadingMode(mode))
	}
	return done(fn, err)
}

//export hipdnnGo_SetHeuristicPluginPaths
func hipdnnGo_SetHeuristicPluginPaths(n C.size_t, paths **C.char, mode C.int) (st C.int) {
	const fn = "hipdnnSetHeuristicPluginPaths_ext"
	defer guard(fn, &st)
	begin(fn)
	ps, err := goPaths(fn, n, paths)
	if err == nil {
		err = validLoadingMode(fn, mode)
	}
	if err == nil {
		err = heuristics.SetPaths(ps, api.PluginLoadingMode(mode))
	}
	return done(fn, err)
}

//export hipdnnGo_SetPluginUnloadMode
func hipdnnGo_SetPluginUnloadMode(mode C.int) (st C.int) {
	const fn = "hipdnnSetPluginUnloadMode_ext"
	defer guard(fn, &st)
	begin(fn)
	m := api.PluginUnloadingMode(mode)
	if err := engines.SetUnloadMode(m); err != nil {
		return fail(fn, err)
	}
	heuristics.SetUnloadMode(m)
	return ok(fn)
}

//export hipdnnGo_GetLoadedEnginePluginPaths
func hipdnnGo_GetLoadedEnginePluginPaths(h C.uintptr_t, num *C.size_t, paths **C.char, maxLen *C.size_t) (st C.int) {
	const fn = "hipdnnGetLoadedEnginePluginPaths_ext"
	defer guard(fn, &st)
	begin(fn)
	if name := firstNull(arg{"numPluginPaths", num == nil}, arg{"maxStringLen", maxLen == nil}); name != "" {
		return fail(fn, nullArg(fn, name))
	}
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	loaded := hd.EngineSet().LoadedPaths()
	need := C.size_t(1)
	for _, p := range loaded {
		need = max(need, C.size_t(len(p)+1))
	}
	if paths == nil {
		*num, *maxLen = C.size_t(len(loaded)), need
		return ok(fn)
	}
	if *num < C.size_t(len(loaded)) || *maxLen < need {
		return fail(fn, badParam("%s: Insufficient buffer space provided. (%d paths of up to %d bytes needed, got %d of %d)", fn, len(loaded), need, *num, *maxLen))
	}
	dst := unsafe.Slice(paths, len(loaded))
	for i := range loaded {
		if dst[i] == nil {
			return fail(fn, badParam("%s: pluginPaths[%d] is NULL", fn, i))
		}
	}
	for i, p := range loaded {
		copyOut(dst[i], *maxLen, p)
	}
	*num = C.size_t(len(loaded))
	return ok(fn)
}

//export hipdnnGo_GetEngineCount
func hipdnnGo_GetEngineCount(h C.uintptr_t, num *C.size_t) (st C.int) {
	const fn = "hipdnnGetEngineCount_ext"
	defer guard(fn, &st)
	begin(fn)
	if num == nil {
		return fail(fn, nullArg(fn, "numEngines"))
	}
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	*num = C.size_t(len(hd.EngineSet().Engines()))
	return ok(fn)
}

// outString is one (buffer, length) pair of the two-call string protocol.
type outString struct {
	name string
	buf  *C.char
	size *C.size_t
	val  string
}

// fillStrings implements the two-call string convention of the engine and policy queries
// (callers have checked every length pointer): if any buffer is NULL every required size (with
// its NUL) is written; otherwise every buffer must be large enough and all are copied.
func fillStrings(fn string, outs []outString) error {
	anyNull := false
	for _, o := range outs {
		anyNull = anyNull || o.buf == nil
	}
	if anyNull {
		for _, o := range outs {
			*o.size = C.size_t(len(o.val) + 1)
		}
		return nil
	}
	for _, o := range outs {
		if *o.size < C.size_t(len(o.val)+1) {
			return badParam("%s: Insufficient buffer space provided. (%s needs %d bytes, got %d)", fn, o.name, len(o.val)+1, *o.size)
		}
	}
	for _, o := range outs {
		copyOut(o.buf, *o.size, o.val)
	}
	return nil
}

//export hipdnnGo_GetEngineInfo
func hipdnnGo_GetEngineInfo(h C.uintptr_t, index C.size_t, id *C.int64_t,
	name *C.char, nameLen *C.size_t, plugin *C.char, pluginLen *C.size_t,
	ver *C.char, verLen *C.size_t, typ *C.char, typLen *C.size_t) (st C.int) {
	const fn = "hipdnnGetEngineInfo_ext"
	defer guard(fn, &st)
	begin(fn)
	if name := firstNull(arg{"engineNameLen", nameLen == nil}, arg{"pluginNameLen", pluginLen == nil},
		arg{"versionLen", verLen == nil}, arg{"typeLen", typLen == nil}); name != "" {
		return fail(fn, nullArg(fn, name))
	}
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	list := hd.EngineSet().Engines()
	if uint64(index) >= uint64(len(list)) {
		return fail(fn, badParam("%s: engineIndex %d is out of range (%d engines)", fn, index, len(list)))
	}
	e := list[index]
	if err := fillStrings(fn, []outString{
		{"engineName", name, nameLen, e.Name},
		{"pluginName", plugin, pluginLen, e.Plugin.Name},
		{"version", ver, verLen, e.Plugin.Version},
		{"type", typ, typLen, "engine"},
	}); err != nil {
		return fail(fn, err)
	}
	if id != nil {
		*id = C.int64_t(e.ID)
	}
	return ok(fn)
}

//export hipdnnGo_GetEngineIdByName
func hipdnnGo_GetEngineIdByName(h C.uintptr_t, name *C.char, id *C.int64_t) (st C.int) {
	const fn = "hipdnnGetEngineIdByName_ext"
	defer guard(fn, &st)
	begin(fn)
	if n := firstNull(arg{"engineName", name == nil}, arg{"engineId", id == nil}); n != "" {
		return fail(fn, nullArg(fn, n))
	}
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	n := C.GoString(name)
	e := hd.EngineSet().EngineByName(n)
	if e == nil {
		return fail(fn, status.NotSupported("%s: no loaded engine is named %q", fn, n))
	}
	*id = C.int64_t(e.ID)
	return ok(fn)
}

//export hipdnnGo_GetEngineNameById
func hipdnnGo_GetEngineNameById(h C.uintptr_t, id C.int64_t, name *C.char, nameLen *C.size_t) (st C.int) {
	const fn = "hipdnnGetEngineNameById_ext"
	defer guard(fn, &st)
	begin(fn)
	if nameLen == nil {
		return fail(fn, nullArg(fn, "engineNameLen"))
	}
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	e := hd.EngineSet().EngineByID(int64(id))
	if e == nil {
		return fail(fn, status.NotSupported("%s: no loaded engine has id %s", fn, engines.FormatEngineID(int64(id))))
	}
	return done(fn, fillStrings(fn, []outString{{"engineName", name, nameLen, e.Name}}))
}

//export hipdnnGo_GetHeuristicPolicyCount
func hipdnnGo_GetHeuristicPolicyCount(h C.uintptr_t, num *C.size_t) (st C.int) {
	const fn = "hipdnnGetHeuristicPolicyCount_ext"
	defer guard(fn, &st)
	begin(fn)
	if num == nil {
		return fail(fn, nullArg(fn, "numPolicies"))
	}
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	*num = C.size_t(len(hd.PolicySet().Policies()))
	return ok(fn)
}

//export hipdnnGo_GetHeuristicPolicyInfo
func hipdnnGo_GetHeuristicPolicyInfo(h C.uintptr_t, index C.size_t, id *C.int64_t,
	name *C.char, nameLen *C.size_t, plugin *C.char, pluginLen *C.size_t,
	pver *C.char, pverLen *C.size_t, aver *C.char, averLen *C.size_t) (st C.int) {
	const fn = "hipdnnGetHeuristicPolicyInfo_ext"
	defer guard(fn, &st)
	begin(fn)
	if name := firstNull(arg{"policyNameLen", nameLen == nil}, arg{"pluginNameLen", pluginLen == nil},
		arg{"pluginVersionLen", pverLen == nil}, arg{"apiVersionLen", averLen == nil}); name != "" {
		return fail(fn, nullArg(fn, name))
	}
	hd, err := handle.Resolve(uintptr(h))
	if err != nil {
		return fail(fn, err)
	}
	list := hd.PolicySet().Policies()
	if uint64(index) >= uint64(len(list)) {
		return fail(fn, badParam("%s: policyIndex %d is out of range (%d policies)", fn, index, len(list)))
	}
	p := list[index]
	if err := fillStrings(fn, []outString{
		{"policyName", name, nameLen, p.Name},
		{"pluginName", plugin, pluginLen, p.PluginName},
		{"pluginVersion", pver, pverLen, p.PluginVersion},
		{"apiVersion", aver, averLen, p.APIVersion},
	}); err != nil {
		return fail(fn, err)
	}
	if id != nil {
		*id = C.int64_t(p.ID)
	}
	return ok(fn)
}
