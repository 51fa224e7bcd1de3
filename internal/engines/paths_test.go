package engines

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/plugindir"
	"github.com/hipdnn-go/backend/internal/status"
)

// loadedNames acquires with the current configuration and returns the loaded plugin names.
func loadedNames(t *testing.T) ([]string, []error) {
	t.Helper()
	m, errs, err := Acquire()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Release()
	var names []string
	for _, p := range m.Plugins() {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names, errs
}

func equal(a, b []string) bool { return equalStrings(a, b) }

// link makes dir/name a symlink to target.
func link(t *testing.T, target, dir, name string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSearchPaths(t *testing.T) {
	good := pluginFile(t, "test_good_plugin")
	def := pluginFile(t, "test_good_default_plugin")
	knobs := pluginFile(t, "test_knobs_plugin")

	tests := []struct {
		desc  string
		setup func(t *testing.T, base string) (paths []string, mode api.PluginLoadingMode)
		want  []string
		errs  int
	}{
		{"ADDITIVE loads the default dir under the library dir plus custom paths", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			link(t, def, filepath.Join(base, "hipdnn_plugins/engines"), "libdef.so")
			return []string{good}, api.HIPDNN_PLUGIN_LOADING_ADDITIVE
		}, []string{"test_good_default_plugin", "test_good_plugin"}, 0},
		{"a missing default dir is not an error", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			return []string{good}, api.HIPDNN_PLUGIN_LOADING_ADDITIVE
		}, []string{"test_good_plugin"}, 0},
		{"HIPDNN_PLUGIN_DIR replaces the default", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			link(t, def, filepath.Join(base, "hipdnn_plugins/engines"), "libdef.so")
			other := t.TempDir()
			link(t, knobs, other, "libknobs.so")
			fakeEnv(map[string]string{EnvPluginDir: other})
			return []string{good}, api.HIPDNN_PLUGIN_LOADING_ADDITIVE
		}, []string{"test_good_plugin", "test_knobs_plugin"}, 0},
		{"an empty HIPDNN_PLUGIN_DIR keeps the default", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			link(t, def, filepath.Join(base, "hipdnn_plugins/engines"), "libdef.so")
			fakeEnv(map[string]string{EnvPluginDir: ""})
			return nil, api.HIPDNN_PLUGIN_LOADING_ADDITIVE
		}, []string{"test_good_default_plugin"}, 0},
		{"HIPDNN_PLUGIN_DIR is ignored in secure execution", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			link(t, def, filepath.Join(base, "hipdnn_plugins/engines"), "libdef.so")
			other := t.TempDir()
			link(t, knobs, other, "libknobs.so")
			fakeEnv(map[string]string{EnvPluginDir: other})
			env.Secure = func() bool { return true }
			return nil, api.HIPDNN_PLUGIN_LOADING_ADDITIVE
		}, []string{"test_good_default_plugin"}, 0},
		{"a relative HIPDNN_PLUGIN_DIR is relative to the library dir", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			link(t, knobs, filepath.Join(base, "elsewhere"), "libknobs.so")
			fakeEnv(map[string]string{EnvPluginDir: "elsewhere"})
			return nil, api.HIPDNN_PLUGIN_LOADING_ADDITIVE
		}, []string{"test_knobs_plugin"}, 0},
		{"ABSOLUTE ignores the default and the env var", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			link(t, def, filepath.Join(base, "hipdnn_plugins/engines"), "libdef.so")
			other := t.TempDir()
			link(t, knobs, other, "libknobs.so")
			fakeEnv(map[string]string{EnvPluginDir: other})
			return []string{good}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE
		}, []string{"test_good_plugin"}, 0},
		{"ABSOLUTE with no paths loads nothing", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			link(t, def, filepath.Join(base, "hipdnn_plugins/engines"), "libdef.so")
			return nil, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE
		}, nil, 0},
		{"a directory loads every .so in it, not recursively, nothing else", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			dir := t.TempDir()
			link(t, good, dir, "a.so")
			link(t, knobs, dir, "b.so")
			link(t, def, filepath.Join(dir, "sub"), "c.so")
			link(t, def, dir, "d.so.1")
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
			return []string{dir}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE
		}, []string{"test_good_plugin", "test_knobs_plugin"}, 0},
		{"a bare name is lib<name>.so", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			dir := t.TempDir()
			link(t, good, dir, "libmygood.so")
			return []string{filepath.Join(dir, "mygood")}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE
		}, []string{"test_good_plugin"}, 0},
		{"relative custom paths resolve against the library dir", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			link(t, good, filepath.Join(base, "mine"), "libgood.so")
			link(t, knobs, filepath.Join(base, "mine"), "libknobs.so")
			return []string{"mine/libgood.so", "mine/knobs"}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE
		}, []string{"test_good_plugin", "test_knobs_plugin"}, 0},
		{"the same file through two paths loads once", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			dir := t.TempDir()
			alias := link(t, good, dir, "alias.so")
			return []string{good, alias, filepath.Dir(good) + "/./" + filepath.Base(good)}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE
		}, []string{"test_good_plugin"}, 0},
		{"missing paths and foreign extensions are reported and skipped", func(t *testing.T, base string) ([]string, api.PluginLoadingMode) {
			dir := t.TempDir()
			txt := filepath.Join(dir, "plugin.txt")
			os.WriteFile(txt, []byte("x"), 0o644)
			return []string{good, filepath.Join(dir, "missing.so"), txt, filepath.Join(dir, "nothing")}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE
		}, []string{"test_good_plugin"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			resetHost(t)
			base := env.BaseDir()
			paths, mode := tt.setup(t, base)
			if err := SetPaths(paths, mode); err != nil {
				t.Fatal(err)
			}
			got, errs := loadedNames(t)
			if !equal(got, tt.want) {
				t.Errorf("loaded %v, want %v", got, tt.want)
			}
			if len(errs) != tt.errs {
				t.Errorf("load errors %v, want %d", errs, tt.errs)
			}
		})
	}
}

func TestSearchPathErrors(t *testing.T) {
	resetHost(t)
	logs := captureLogs(t)
	dir := t.TempDir()
	txt := filepath.Join(dir, "plugin.txt")
	os.WriteFile(txt, []byte("x"), 0o644)
	_, errs := plugindir.Discover(pluginSpec, env, []string{txt, filepath.Join(dir, "missing.so")}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE)
	if len(errs) != 2 {
		t.Fatalf("errs = %v", errs)
	}
	wantStatus(t, errs[0], api.HIPDNN_STATUS_BAD_PARAM, txt, `".so"`)
	wantStatus(t, errs[1], api.HIPDNN_STATUS_PLUGIN_ERROR, "missing.so", "no such file")
	// Each unusable path is logged with its reason, not only counted.
	for _, err := range errs {
		if !strings.Contains(logs.String(), err.Error()) {
			t.Errorf("log does not name %q:\n%s", err.Error(), logs.String())
		}
	}
}

func TestSetPaths(t *testing.T) {
	good := pluginFile(t, "test_good_plugin")
	knobs := pluginFile(t, "test_knobs_plugin")
	resetHost(t)
	canUnload := unloadable(t, knobs)

	if err := SetPaths([]string{good}, api.PluginLoadingMode(7)); status.Code(err) != api.HIPDNN_STATUS_BAD_PARAM {
		t.Errorf("invalid mode: %v", err)
	}
	// ADDITIVE unions, ABSOLUTE replaces.
	must(t, SetPaths([]string{good}, api.HIPDNN_PLUGIN_LOADING_ADDITIVE))
	must(t, SetPaths([]string{knobs}, api.HIPDNN_PLUGIN_LOADING_ADDITIVE))
	if got, _ := loadedNames(t); !equal(got, []string{"test_good_plugin", "test_knobs_plugin"}) {
		t.Errorf("ADDITIVE union loaded %v", got)
	}
	must(t, SetPaths([]string{knobs}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE))
	if got, _ := loadedNames(t); !equal(got, []string{"test_knobs_plugin"}) {
		t.Errorf("ABSOLUTE loaded %v", got)
	}

	// A live handle: NOT_SUPPORTED and nothing changes; the same set and mode is a no-op.
	m, _, _ := Acquire()
	err := SetPaths([]string{good}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE)
	wantStatus(t, err, api.HIPDNN_STATUS_NOT_SUPPORTED, "Cannot set engine plugin paths with an active handle")
	must(t, SetPaths([]string{knobs}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE))
	if m2, _, _ := Acquire(); m2 != m {
		t.Error("a second handle must share the live plugin set")
	} else {
		m2.Release()
	}
	m.Release()
	// The rejected call dropped the LAZY keep-alive: the last release unloaded the set.
	if canUnload && mapped(t, knobs) {
		t.Errorf("%s is still mapped after the last handle went away", knobs)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestUnloadModes(t *testing.T) {
	good := pluginFile(t, "test_no_applicable_engines_a_plugin")
	resetHost(t)
	requireUnloadable(t, good)
	must(t, SetPaths([]string{good}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE))
	if err := SetUnloadMode(api.PluginUnloadingMode(2)); status.Code(err) != api.HIPDNN_STATUS_BAD_PARAM {
		t.Errorf("invalid unload mode: %v", err)
	}

	// LAZY (default): still mapped after the last release; the same manager comes back.
	m, _, _ := Acquire()
	s := NewSession(m)
	s.Close()
	m.Release()
	if !mapped(t, good) {
		t.Fatal("LAZY: plugin unmapped after the last handle")
	}
	m2, _, _ := Acquire()
	if m2 != m {
		t.Error("LAZY: a new handle must reuse the retained plugin set")
	}
	m2.Release()

	// Changing the paths drops the retained set at once.
	must(t, SetPaths([]string{good, filepath.Dir(good)}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE))
	if mapped(t, good) {
		t.Fatal("SetPaths in LAZY mode must unmap the cached plugins")
	}

	// Switching to EAGER with no handle alive unloads at once.
	m, _, _ = Acquire()
	m.Release()
	if !mapped(t, good) {
		t.Fatal("LAZY: plugin unmapped")
	}
	must(t, SetUnloadMode(api.HIPDNN_PLUGIN_UNLOAD_EAGER))
	if mapped(t, good) {
		t.Fatal("switching to EAGER with no handle must unmap the plugins")
	}

	// EAGER: mapped while a handle (or a session) lives, unmapped after the last, reloaded next time.
	m, _, _ = Acquire()
	s = NewSession(m)
	m.Release()
	if !mapped(t, good) {
		t.Fatal("EAGER: a live session must keep the plugin mapped")
	}
	s.Close()
	if mapped(t, good) {
		t.Fatal("EAGER: plugin still mapped after the last user")
	}
	m3, _, _ := Acquire()
	if m3 == m || !mapped(t, good) {
		t.Error("EAGER: the next handle must load the plugins again")
	}
	// Back to LAZY while loaded: retained again.
	must(t, SetUnloadMode(api.HIPDNN_PLUGIN_UNLOAD_LAZY))
	m3.Release()
	if !mapped(t, good) {
		t.Error("LAZY set while loaded must retain the plugin set")
	}
}
