package engines

import (
	"errors"
	procenv "github.com/hipdnn-go/backend/internal/env"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
)

const (
	// DefaultPluginDir is where engine plugins are looked for, relative to the directory of
	// the backend library.
	DefaultPluginDir = "hipdnn_plugins/engines/"
	// EnvPluginDir replaces DefaultPluginDir when set and non-empty (ADDITIVE mode only). It
	// is ignored in secure-execution processes (setuid, setgid, file capabilities).
	EnvPluginDir = "HIPDNN_PLUGIN_DIR"
	// pluginExt is the extension of a plugin file.
	pluginExt = ".so"
)

// hostEnv is what the loader reads from the process: the seams tests replace.
type hostEnv struct {
	baseDir func() string               // directory relative plugin paths resolve against
	getenv  func(string) (string, bool) // environment lookup
	secure  func() bool                 // secure execution: code-selecting env vars ignored
}

var env = hostEnv{baseDir: libraryDir, getenv: procenv.Lookup, secure: procenv.SecureExecution}

// libraryDir is the directory of the file holding this code (dladdr): the backend library's
// directory in production. Inside go test it is the test binary's, where no plugin lives.
func libraryDir() string {
	p := selfPath()
	if p == "" {
		wd, _ := os.Getwd()
		return wd
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return filepath.Dir(p)
}

// searchEntry is one configured search path.
type searchEntry struct {
	path     string
	implicit bool // the built-in default: silently skipped when it does not exist
}

// searchEntries lists what to scan: ADDITIVE scans the default directory (or the
// HIPDNN_PLUGIN_DIR replacement) and the custom paths, ABSOLUTE only the custom paths.
func searchEntries(custom []string, mode api.PluginLoadingMode) []searchEntry {
	var out []searchEntry
	if mode != api.HIPDNN_PLUGIN_LOADING_ABSOLUTE {
		dir, fromEnv := DefaultPluginDir, false
		if v, ok := env.getenv(EnvPluginDir); ok && v != "" {
			if env.secure() {
				logging.Warnf("%s is ignored in a secure-execution process", EnvPluginDir)
			} else {
				dir, fromEnv = v, true
			}
		}
		out = append(out, searchEntry{path: dir, implicit: !fromEnv})
	}
	for _, p := range custom {
		out = append(out, searchEntry{path: p})
	}
	return out
}

// absolute makes p absolute against the backend library's directory and cleans it.
func absolute(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(env.baseDir(), p)
	}
	return filepath.Clean(p)
}

// canonical resolves symlinks where the path exists (weakly canonical otherwise).
func canonical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func isRegular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// pluginFiles expands search entries into the sorted set of canonical plugin files. Each
// entry is a library name decorated as lib<name>.so if such a file exists next to it, else a
// directory (every regular *.so in it, not recursive), else a file that must end in ".so". A
// bad entry is reported and skipped.
func pluginFiles(entries []searchEntry) ([]string, []error) {
	set := map[string]bool{}
	var errs []error
	for _, e := range entries {
		files, err := expand(e)
		if err != nil {
			errs = append(errs, err)
		}
		for _, f := range files {
			set[canonical(f)] = true
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out, errs
}

func expand(e searchEntry) ([]string, error) {
	p := absolute(e.path)
	ext := filepath.Ext(p)
	if ext == "" && !strings.HasSuffix(e.path, "/") {
		decorated := filepath.Join(filepath.Dir(p), "lib"+filepath.Base(p)+pluginExt)
		if isRegular(decorated) {
			return []string{decorated}, nil
		}
	}
	fi, err := os.Stat(p)
	switch {
	case err == nil && fi.IsDir():
		return scanDir(p)
	case err == nil && fi.Mode().IsRegular():
		if ext != pluginExt {
			return nil, status.BadParam("engine plugin path %q is not a %q file, a directory or a library name",
				e.path, pluginExt)
		}
		return []string{p}, nil
	case errors.Is(err, fs.ErrNotExist):
		if e.implicit {
			logging.Infof("default engine plugin directory %s does not exist", p)
			return nil, nil
		}
		return nil, status.Plugin("Failed to load engine plugins from %s: no such file or directory", p)
	case err != nil:
		return nil, status.Plugin("Failed to load engine plugins from %s: %v", p, err)
	}
	return nil, status.BadParam("engine plugin path %q is neither a regular file nor a directory", e.path)
}

func scanDir(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, status.Plugin("Failed to read engine plugin directory %s: %v", dir, err)
	}
	var out []string
	for _, de := range ents {
		if filepath.Ext(de.Name()) != pluginExt {
			continue
		}
		f := filepath.Join(dir, de.Name())
		if isRegular(f) {
			out = append(out, f)
		}
	}
	return out, nil
}
