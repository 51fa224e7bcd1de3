package heuristics

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
)

// DefaultPluginDir is where heuristic plugins are looked for, relative to the directory of
// the backend library, unless HIPDNN_HEURISTIC_PLUGIN_DIR names another place.
const DefaultPluginDir = "hipdnn_plugins/heuristics/"

// pluginExt is the only extension a plugin file may have on Linux.
const pluginExt = ".so"

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
	return libraryDir()
}

// discover turns a path configuration into the sorted set of canonical plugin files to load,
// plus one error per path that could not be used. ADDITIVE mode scans the default directory,
// or the HIPDNN_HEURISTIC_PLUGIN_DIR value replacing it, and the configured paths; ABSOLUTE
// mode only the configured paths. A missing default directory is not an error.
func discover(cfg pathConfig) ([]string, []error) {
	type entry struct {
		path     string
		optional bool
	}
	var entries []entry
	if cfg.mode == api.HIPDNN_PLUGIN_LOADING_ADDITIVE {
		v := strings.TrimSpace(getenv(EnvPluginDir))
		if v != "" && secureExecution() {
			logging.Warnf("%s is ignored in a secure-execution process", EnvPluginDir)
			v = ""
		}
		if v != "" {
			entries = append(entries, entry{v, false})
		} else {
			entries = append(entries, entry{DefaultPluginDir, true})
		}
	}
	for _, p := range cfg.paths {
		entries = append(entries, entry{p, false})
	}
	base := BaseDir()
	set := map[string]bool{}
	var errs []error
	for _, e := range entries {
		p := e.path
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		files, err := expandPath(filepath.Clean(p))
		if err != nil {
			if e.optional {
				logging.Infof("Heuristic plugin directory %s not used: %v", p, err)
				continue
			}
			errs = append(errs, err)
			logging.Error(err.Error())
			continue
		}
		for _, f := range files {
			set[canonical(f)] = true
		}
	}
	files := make([]string, 0, len(set))
	for f := range set {
		files = append(files, f)
	}
	sort.Strings(files)
	return files, errs
}

// expandPath lists the plugin files one configured path stands for: lib<name>.so next to a
// bare name when it exists; every regular *.so file of a directory (not recursive); a
// *.so file itself. Another extension is BAD_PARAM; a missing file PLUGIN_ERROR.
func expandPath(p string) ([]string, error) {
	dir, name := filepath.Split(p)
	if name != "" && filepath.Ext(name) == "" {
		decorated := filepath.Join(dir, "lib"+name+pluginExt)
		if st, err := os.Stat(decorated); err == nil && st.Mode().IsRegular() {
			return []string{decorated}, nil
		}
	}
	st, err := os.Stat(p)
	switch {
	case err == nil && st.IsDir():
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, status.Plugin("Error loading plugin from [%s]: cannot read the directory: %v", p, err)
		}
		var out []string
		for _, de := range ents {
			if filepath.Ext(de.Name()) != pluginExt {
				continue
			}
			f := filepath.Join(p, de.Name())
			if fst, err := os.Stat(f); err == nil && fst.Mode().IsRegular() {
				out = append(out, f)
			}
		}
		return out, nil
	case filepath.Ext(name) != pluginExt && filepath.Ext(name) != "":
		return nil, status.BadParam("Error loading plugin from [%s]: a plugin file must have the extension %q", p, pluginExt)
	case err == nil && st.Mode().IsRegular():
		return []string{p}, nil
	case err == nil:
		return nil, status.Plugin("Error loading plugin from [%s]: not a regular file or directory", p)
	case filepath.Ext(name) == "":
		return nil, status.Plugin("Error loading plugin from [%s]: no such directory, and no file %s", p, filepath.Join(dir, "lib"+name+pluginExt))
	}
	return nil, status.Plugin("Error loading plugin from [%s]: no such file", p)
}

// canonical resolves symbolic links where possible (a weak canonicalization: a path that
// cannot be resolved is kept as it is).
func canonical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		if a, err := filepath.Abs(r); err == nil {
			return a
		}
		return r
	}
	return p
}
