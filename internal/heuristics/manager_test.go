package heuristics

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/env"
	"github.com/hipdnn-go/backend/internal/plugindir"
	"github.com/hipdnn-go/backend/internal/version"
)

// resetState puts the process-wide manager state back to its initial value around a test.
func resetState(t *testing.T) {
	t.Helper()
	reset := func() {
		state.mu.Lock()
		if state.current != nil {
			unloadLocked(state.current)
		}
		state.cfg = pathConfig{}
		state.unload = api.HIPDNN_PLUGIN_UNLOAD_LAZY
		state.mu.Unlock()
		SetBaseDir("")
	}
	reset()
	t.Cleanup(reset)
}

func TestBuiltinPolicies(t *testing.T) {
	clearEnv(t)
	resetState(t)
	if err := SetPaths(nil, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE); err != nil {
		t.Fatal(err)
	}
	m, errs, err := Acquire()
	if err != nil || len(errs) != 0 {
		t.Fatalf("Acquire: %v %v", errs, err)
	}
	defer m.Release()
	got := m.Policies()
	want := []PolicyInfo{
		{PolicyNameToID(PolicyConfig), PolicyConfig, BuiltinConfigPlugin, "1.0.0", "0.1.0"},
		{PolicyNameToID(PolicyStaticOrdering), PolicyStaticOrdering, BuiltinStaticOrderingPlugin, "1.0.0", "0.1.0"},
		{PolicyNameToID(PolicyModeA), PolicyModeA, BuiltinPredictionPlugin, "1.0.0", "0.1.0"},
		{PolicyNameToID(PolicyModeB), PolicyModeB, BuiltinPredictionPlugin, "1.0.0", "0.1.0"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Policies() = %+v", got)
	}
	for _, p := range got {
		v, err := version.Parse(p.APIVersion)
		if err != nil || v.Major != APIVersion.Major {
			t.Errorf("%s: API version %q", p.Name, p.APIVersion)
		}
	}
	if APIVersion != (version.Triple{Major: 0, Minor: 1, Patch: 0}) {
		t.Errorf("APIVersion = %v", APIVersion)
	}
	got[0].Name = "changed"
	if m.Policies()[0].Name != PolicyConfig {
		t.Fatal("Policies shares its slice")
	}
}

func TestSetPathsAndUnloadModes(t *testing.T) {
	clearEnv(t)
	resetState(t)
	if err := SetPaths([]string{"/b", "/a"}, api.HIPDNN_PLUGIN_LOADING_ADDITIVE); err != nil {
		t.Fatal(err)
	}
	if err := SetPaths([]string{"/a"}, api.HIPDNN_PLUGIN_LOADING_ADDITIVE); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(state.cfg.paths, []string{"/a", "/b"}) {
		t.Fatalf("ADDITIVE union: %v", state.cfg.paths)
	}
	wantStatus(t, SetPaths(nil, api.PluginLoadingMode(7)), api.HIPDNN_STATUS_BAD_PARAM, "loading mode 7")

	if err := SetPaths(nil, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE); err != nil {
		t.Fatal(err)
	}
	m, _, _ := Acquire()
	// While a handle holds the manager only an unchanged configuration is accepted.
	if err := SetPaths(nil, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE); err != nil {
		t.Fatalf("unchanged configuration: %v", err)
	}
	wantStatus(t, SetPaths([]string{"/c"}, api.HIPDNN_PLUGIN_LOADING_ADDITIVE), api.HIPDNN_STATUS_NOT_SUPPORTED,
		"Cannot set heuristic plugin paths with an active handle")
	m2, _, _ := Acquire()
	if m2 != m {
		t.Fatal("a second Acquire loaded again")
	}
	m2.Release()
	m.Release()
	if !Loaded() {
		t.Fatal("LAZY: manager dropped after the last Release")
	}
	m3, errs, _ := Acquire()
	if m3 != m || errs != nil {
		t.Fatal("LAZY: manager not reused")
	}
	m3.Release()
	// A path change drops the retained manager.
	missing := filepath.Join(t.TempDir(), "c")
	if err := SetPaths([]string{missing}, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE); err != nil {
		t.Fatal(err)
	}
	if Loaded() {
		t.Fatal("retained manager survived a path change")
	}
	m4, errs, _ := Acquire()
	if len(errs) != 1 {
		t.Fatalf("missing /c: errors %v", errs)
	}
	wantStatus(t, errs[0], api.HIPDNN_STATUS_PLUGIN_ERROR, "Error loading plugin from ["+missing+"]")
	m4.Release()
	SetUnloadMode(api.HIPDNN_PLUGIN_UNLOAD_EAGER)
	if Loaded() {
		t.Fatal("EAGER with no handle: not unloaded at once")
	}
	m5, _, _ := Acquire()
	m5.Release()
	if Loaded() {
		t.Fatal("EAGER: not unloaded at the last Release")
	}
	m5.Release() // extra Release is harmless
}

func touch(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiscover(t *testing.T) {
	clearEnv(t)
	resetState(t)
	base := t.TempDir()
	SetBaseDir(base)
	def := filepath.Join(base, "hipdnn_plugins", "heuristics")
	touch(t, filepath.Join(def, "b.so"))
	touch(t, filepath.Join(def, "a.so"))
	touch(t, filepath.Join(def, "notes.txt"))
	touch(t, filepath.Join(def, "libx.so.1"))
	touch(t, filepath.Join(def, "sub", "deep.so"))
	custom := filepath.Join(base, "custom")
	touch(t, filepath.Join(custom, "libnamed.so"))
	touch(t, filepath.Join(custom, "direct.so"))
	touch(t, filepath.Join(custom, "wrong.dll"))
	envDir := filepath.Join(base, "env")
	touch(t, filepath.Join(envDir, "e.so"))
	if err := os.Symlink(filepath.Join(def, "a.so"), filepath.Join(custom, "alias.so")); err != nil {
		t.Fatal(err)
	}

	files, errs := discover(pathConfig{mode: api.HIPDNN_PLUGIN_LOADING_ADDITIVE, paths: []string{
		"custom/named", filepath.Join(custom, "direct.so"), "custom/alias.so", "custom/wrong.dll", "custom/missing.so", "custom/nothing"}})
	want := []string{filepath.Join(custom, "direct.so"), filepath.Join(custom, "libnamed.so"), filepath.Join(def, "a.so"), filepath.Join(def, "b.so")}
	for i := range want {
		want[i] = plugindir.Canonical(want[i])
	}
	if !slices.Equal(files, want) {
		t.Fatalf("files\n got %v\nwant %v", files, want)
	}
	if len(errs) != 3 {
		t.Fatalf("errors %v", errs)
	}
	wantStatus(t, errs[0], api.HIPDNN_STATUS_BAD_PARAM, "wrong.dll", `extension ".so"`)
	wantStatus(t, errs[1], api.HIPDNN_STATUS_PLUGIN_ERROR, "missing.so", "no such file")
	wantStatus(t, errs[2], api.HIPDNN_STATUS_PLUGIN_ERROR, "nothing", "libnothing.so")

	// The environment variable replaces the default directory; ABSOLUTE ignores both.
	t.Setenv(EnvPluginDir, envDir)
	files, errs = discover(pathConfig{mode: api.HIPDNN_PLUGIN_LOADING_ADDITIVE})
	if !slices.Equal(files, []string{plugindir.Canonical(filepath.Join(envDir, "e.so"))}) || errs != nil {
		t.Fatalf("env: %v %v", files, errs)
	}
	// A secure-execution process ignores the variable and scans the default directory.
	secureExecution = func() bool { return true }
	files, errs = discover(pathConfig{mode: api.HIPDNN_PLUGIN_LOADING_ADDITIVE})
	secureExecution = env.SecureExecution
	if !slices.Equal(files, []string{plugindir.Canonical(filepath.Join(def, "a.so")), plugindir.Canonical(filepath.Join(def, "b.so"))}) || errs != nil {
		t.Fatalf("secure execution: %v %v", files, errs)
	}
	files, errs = discover(pathConfig{mode: api.HIPDNN_PLUGIN_LOADING_ABSOLUTE, paths: []string{"custom/named"}})
	if !slices.Equal(files, []string{plugindir.Canonical(filepath.Join(custom, "libnamed.so"))}) || errs != nil {
		t.Fatalf("absolute: %v %v", files, errs)
	}
	t.Setenv(EnvPluginDir, filepath.Join(base, "nowhere"))
	if _, errs = discover(pathConfig{mode: api.HIPDNN_PLUGIN_LOADING_ADDITIVE}); len(errs) != 1 {
		t.Fatalf("missing env dir: %v", errs)
	}
	// A missing default directory is fine.
	os.Unsetenv(EnvPluginDir)
	SetBaseDir(filepath.Join(base, "empty"))
	if files, errs = discover(pathConfig{mode: api.HIPDNN_PLUGIN_LOADING_ADDITIVE}); len(files) != 0 || errs != nil {
		t.Fatalf("missing default: %v %v", files, errs)
	}
}

func TestBaseDirDefaultsToThisBinary(t *testing.T) {
	resetState(t)
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	if got, want := BaseDir(), filepath.Dir(plugindir.Canonical(exe)); got != want {
		t.Fatalf("BaseDir() = %q, want %q", got, want)
	}
}
