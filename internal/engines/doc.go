// Package engines is the engine plugin host: it finds engine plugins (search paths, loading
// modes), loads and validates them (symbols, type, API version, engine ids and names), keeps
// the loaded set alive while handles use it (LAZY / EAGER unloading), gives every hipdnnHandle
// its own plugin handles (Session), routes applicability, details, workspace and execution
// context calls to the plugin that owns an engine, and runs execution contexts (Context) on
// prepared variant packs (Buffers, Overrides) without allocating.
//
// Every call into a plugin goes through a C trampoline (hd_calls.c) that makes the whole call
// and copies the plugin's last error on the same thread. README.md describes the load sequence,
// the lifetime rules and the files.
package engines

//go:generate go run ../../tools/fbgen -schemas ../../schemas -tables zz_generated.go -package engines -slots IntValue,FloatValue,StringValue,IntConstraint,FloatConstraint,StringConstraint,Knob,KnobSetting,EngineConfig,EngineCandidate,EngineCandidatePage,EngineDetails
