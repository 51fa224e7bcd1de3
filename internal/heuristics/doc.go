// Package heuristics is the engine-selection policy framework (hipDNN RFC 0007): it decides
// in which order the applicable engines of a graph are offered, by running an ordered list
// of policies until one applies.
//
// Policies live in modules of one function-table shape (module.go, mirroring
// HeuristicsPluginApi.h): the built-ins compiled into the backend (builtin.go) — Config
// (config.go), StaticOrdering (static.go), ModeA and ModeB (prediction.go) — and heuristic
// plugins dlopened from hipdnn_plugins/heuristics/, HIPDNN_HEURISTIC_PLUGIN_DIR or the paths
// of hipdnnSetHeuristicPluginPaths_ext (paths.go, plugin.go with plugin.c, callback.go).
//
// A Manager (manager.go) is the process-wide registry of loaded modules, shared by every
// hipdnnHandle alive at the same time and kept or dropped per the plugin unloading mode. A
// Session (session.go) is one hipdnnHandle's set of heuristic handles; Session.Rank runs the
// resolved policy order (order.go) in the resolved ranking metric (metric.go) with the
// device properties of DevicePropertiesBlob (deviceprops.go). Buffers a policy returns are
// verified with the bounds-checked flatbuffer reader of internal/fbread (engineconfig.go).
//
// The package needs cgo. README.md describes the flow, the built-ins and the Config rule
// file.
package heuristics

//go:generate go run ../../tools/fbgen -schemas ../../schemas -tables zz_generated.go -package heuristics -slots EnginePrediction
