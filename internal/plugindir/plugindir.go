// Package plugindir turns a plugin path configuration into the files to load, for both plugin
// kinds (engines and heuristic policies), as hipdnnSet*PluginPaths_ext and the environment
// describe it:
//
//   - ADDITIVE scans the kind's default directory (relative to the backend library's
//     directory) or the directory its environment variable names instead, then the custom
//     paths; ABSOLUTE scans only the custom paths. The variable is ignored in secure-execution
//     processes (setuid, setgid, file capabilities), with a warning.
//   - A path is a library name decorated as lib<name>.so when such a file exists next to it,
//     else a directory (every regular *.so in it, not recursive), else a *.so file.
//   - Relative paths resolve against the library's directory; the result is the sorted set of
//     canonical (symlink-resolved) files.
//
// A path that cannot be used is reported as one error ("Error loading plugin from [path]: …")
// and skipped; a missing default directory is only logged at INFO.
package plugindir

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/status"
)

// Ext is the extension of a plugin file on Linux.
const Ext = ".so"

// Spec says where one kind of plugin lives.
type Spec struct {
	Kind       string // "engine" or "heuristic", for messages
	DefaultDir string // relative to the backend library's directory
	EnvVar     string // replaces DefaultDir in ADDITIVE mode when set and not blank
}

// Env is what discovery reads from the process; tests replace its functions.
type Env struct {
	BaseDir func() string            // directory relative paths resolve against
	Getenv  func(name string) string // environment lookup
	Secure  func() bool              // secure execution: code-selecting variables ignored
}

type entry struct {
	path     string
	implicit bool // the built-in default: silently skipped when it does not exist
}

// Discover lists the plugin files of a configuration, and one error per unusable path.
func Discover(s Spec, e Env, custom []string, mode api.PluginLoadingMode) ([]string, []error) {
	var entries []entry
	if mode != api.HIPDNN_PLUGIN_LOADING_ABSOLUTE {
		dir, fromEnv := s.DefaultDir, false
		if v := strings.TrimSpace(e.Getenv(s.EnvVar)); v != "" {
			if e.Secure() {
				logging.Warnf("%s is ignored in a secure-execution process", s.EnvVar)
			} else {
				dir, fromEnv = v, true
			}
		}
		entries = append(entries, entry{path: dir, implicit: !fromEnv})
	}
	for _, p := range custom {
		entries = append(entries, entry{path: p})
	}
	base := e.BaseDir()
	set := map[string]bool{}
	var errs []error
	for _, en := range entries {
		p := en.path
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		p = filepath.Clean(p)
		files, err := expand(s, p, strings.HasSuffix(en.path, "/"))
		if err != nil {
			if en.implicit {
				logging.Infof("default %s plugin directory %s not used: %v", s.Kind, p, err)
				continue
			}
			// Logged here, as a file that fails to load is: the caller's count alone does not
			// say which path, and hipdnnCreate's last error may be overwritten before it is read.
			logging.Error(err.Error())
			errs = append(errs, err)
			continue
		}
		for _, f := range files {
			set[Canonical(f)] = true
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out, errs
}

// expand lists the plugin files one path stands for. dirOnly is set when the configured path
// ended in "/", which rules out the lib<name>.so reading.
func expand(s Spec, p string, dirOnly bool) ([]string, error) {
	dir, name := filepath.Split(p)
	ext := filepath.Ext(name)
	if ext == "" && !dirOnly {
		decorated := filepath.Join(dir, "lib"+name+Ext)
		if isRegular(decorated) {
			return []string{decorated}, nil
		}
	}
	st, err := os.Stat(p)
	switch {
	case err == nil && st.IsDir():
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, status.Plugin("Error loading plugin from [%s]: cannot read the %s plugin directory: %v", p, s.Kind, err)
		}
		var out []string
		for _, de := range ents {
			if f := filepath.Join(p, de.Name()); filepath.Ext(de.Name()) == Ext && isRegular(f) {
				out = append(out, f)
			}
		}
		return out, nil
	case ext != Ext && ext != "":
		return nil, status.BadParam("Error loading plugin from [%s]: %s plugin files must have the extension %q", p, s.Kind, Ext)
	case err == nil && st.Mode().IsRegular():
		return []string{p}, nil
	case err == nil:
		return nil, status.Plugin("Error loading plugin from [%s]: not a regular file or directory", p)
	case ext == "":
		return nil, status.Plugin("Error loading plugin from [%s]: no such directory, and no file %s", p, filepath.Join(dir, "lib"+name+Ext))
	}
	return nil, status.Plugin("Error loading plugin from [%s]: no such file", p)
}

func isRegular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Canonical resolves symbolic links where the path exists (weakly canonical otherwise).
func Canonical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		if a, err := filepath.Abs(r); err == nil {
			return a
		}
		return r
	}
	return p
}
