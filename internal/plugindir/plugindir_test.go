package plugindir

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/status"
)

func touch(t *testing.T, p string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return Canonical(p)
}

func TestDiscover(t *testing.T) {
	base := t.TempDir()
	spec := Spec{Kind: "engine", DefaultDir: "plugins/", EnvVar: "PLUGIN_DIR"}
	vars := map[string]string{}
	secure := false
	env := Env{BaseDir: func() string { return base }, Getenv: func(k string) string { return vars[k] }, Secure: func() bool { return secure }}

	def := touch(t, filepath.Join(base, "plugins", "a.so"))
	touch(t, filepath.Join(base, "plugins", "notes.txt"))
	named := touch(t, filepath.Join(base, "custom", "libnamed.so"))
	other := touch(t, filepath.Join(base, "other", "b.so"))

	files, errs := Discover(spec, env, []string{"custom/named", filepath.Join(base, "custom", "libnamed.so")}, api.HIPDNN_PLUGIN_LOADING_ADDITIVE)
	if want := []string{named, def}; !slices.Equal(files, want) || errs != nil {
		t.Errorf("ADDITIVE: %v %v, want %v", files, errs, want)
	}
	vars["PLUGIN_DIR"] = " other "
	if files, _ = Discover(spec, env, nil, api.HIPDNN_PLUGIN_LOADING_ADDITIVE); !slices.Equal(files, []string{other}) {
		t.Errorf("the variable replaces the default: %v", files)
	}
	secure = true
	if files, _ = Discover(spec, env, nil, api.HIPDNN_PLUGIN_LOADING_ADDITIVE); !slices.Equal(files, []string{def}) {
		t.Errorf("secure execution ignores the variable: %v", files)
	}
	if files, _ = Discover(spec, env, nil, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE); len(files) != 0 {
		t.Errorf("ABSOLUTE without paths: %v", files)
	}

	// A missing default is no error; a missing custom path, a foreign extension and a bare
	// name without lib<name>.so each are, with the path and what was wrong.
	empty := Env{BaseDir: func() string { return t.TempDir() }, Getenv: func(string) string { return "" }, Secure: func() bool { return false }}
	missing := filepath.Join(base, "missing.so")
	_, errs = Discover(spec, empty, []string{missing, filepath.Join(base, "plugins", "notes.txt"), filepath.Join(base, "nothing")}, api.HIPDNN_PLUGIN_LOADING_ADDITIVE)
	want := []struct {
		code api.Status
		text string
	}{
		{api.HIPDNN_STATUS_PLUGIN_ERROR, "Error loading plugin from [" + missing + "]: no such file"},
		{api.HIPDNN_STATUS_BAD_PARAM, `notes.txt]: engine plugin files must have the extension ".so"`},
		{api.HIPDNN_STATUS_PLUGIN_ERROR, "nothing]: no such directory, and no file " + filepath.Join(base, "libnothing.so")},
	}
	if len(errs) != len(want) {
		t.Fatalf("errors %v, want %d", errs, len(want))
	}
	for i, w := range want {
		var se *status.Error
		if !errors.As(errs[i], &se) || se.Code != w.code || !strings.Contains(errs[i].Error(), w.text) {
			t.Errorf("error %d = %v, want %v containing %q", i, errs[i], w.code, w.text)
		}
	}
}

func TestLibraryDir(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	if got, want := LibraryDir(), filepath.Dir(Canonical(exe)); got != want {
		t.Errorf("LibraryDir() = %q, want the test binary's directory %q", got, want)
	}
}
