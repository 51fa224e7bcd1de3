package engines

import (
	procenv "github.com/hipdnn-go/backend/internal/env"
	"github.com/hipdnn-go/backend/internal/plugindir"
)

const (
	// DefaultPluginDir is where engine plugins are looked for, relative to the directory of
	// the backend library.
	DefaultPluginDir = "hipdnn_plugins/engines/"
	// EnvPluginDir replaces DefaultPluginDir when set and non-empty (ADDITIVE mode only). It
	// is ignored in secure-execution processes (setuid, setgid, file capabilities).
	EnvPluginDir = "HIPDNN_PLUGIN_DIR"
)

// pluginSpec is where engine plugins live; plugindir does the discovery for both kinds.
var pluginSpec = plugindir.Spec{Kind: "engine", DefaultDir: DefaultPluginDir, EnvVar: EnvPluginDir}

// env is what discovery reads from the process: the seam tests replace.
var env = plugindir.Env{BaseDir: plugindir.LibraryDir, Getenv: procenv.Get, Secure: procenv.SecureExecution}
