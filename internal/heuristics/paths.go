package heuristics

import (
	"sync"

	"github.com/hipdnn-go/backend/internal/plugindir"
)

// DefaultPluginDir is where heuristic plugins are looked for, relative to the directory of
// the backend library, unless HIPDNN_HEURISTIC_PLUGIN_DIR names another place.
const DefaultPluginDir = "hipdnn_plugins/heuristics/"

var baseDir struct {
	mu       sync.Mutex
	override string
}

// SetBaseDir replaces the directory relative plugin paths are resolved against (by default
// the directory of the loaded backend library, found with dladdr). "" restores the default.
// It is a seam for tests and tools; it affects the next load only.
func SetBaseDir(dir string) {
	baseDir.mu.Lock()
	baseDir.override = dir
	baseDir.mu.Unlock()
}

// BaseDir returns the directory relative plugin paths are resolved against.
func BaseDir() string {
	baseDir.mu.Lock()
	o := baseDir.override
	baseDir.mu.Unlock()
	if o != "" {
		return o
	}
	return plugindir.LibraryDir()
}

// pluginSpec is where heuristic plugins live; plugindir does the discovery for both kinds.
var pluginSpec = plugindir.Spec{Kind: "heuristic", DefaultDir: DefaultPluginDir, EnvVar: EnvPluginDir}

// discover turns a path configuration into the sorted set of canonical plugin files to load,
// plus one error per path that could not be used (plugindir.Discover logs each).
func discover(cfg pathConfig) ([]string, []error) {
	return plugindir.Discover(pluginSpec, plugindir.Env{BaseDir: BaseDir, Getenv: getenv, Secure: secureExecution},
		cfg.paths, cfg.mode)
}
