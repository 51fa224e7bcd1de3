package engines

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/dl"
	"github.com/hipdnn-go/backend/internal/engines/probe"
	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/logging"
	"github.com/hipdnn-go/backend/internal/plugindir"
	"github.com/hipdnn-go/backend/internal/status"
	"go.uber.org/goleak"
)

// pluginDir holds the built test plugins (<dir>/default, custom, faulty, ...), or "" with
// pluginDirWhy saying why there are none.
var pluginDir, pluginDirWhy string

// EnvTestPluginDir names the folder of built test plugins (the Makefile sets it to
// build/native/test_plugins). Without it the tests build them with CMake into a cache folder.
const EnvTestPluginDir = "HIPDNN_TEST_PLUGIN_DIR"

func TestMain(m *testing.M) {
	pluginDir, pluginDirWhy = findTestPlugins()
	if pluginDir == "" {
		fmt.Fprintf(os.Stderr, "engines tests: test plugins unavailable (%s); tests that need them are skipped\n", pluginDirWhy)
	}
	goleak.VerifyTestMain(m)
}

func findTestPlugins() (string, string) {
	if d := os.Getenv(EnvTestPluginDir); d != "" {
		if hasPlugins(d) {
			return d, ""
		}
		return "", fmt.Sprintf("%s=%s holds no plugins", EnvTestPluginDir, d)
	}
	if _, err := exec.LookPath("cmake"); err != nil {
		return "", "no " + EnvTestPluginDir + " and no cmake to build them"
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		return "", err.Error()
	}
	if _, err := os.Stat(filepath.Join(root, "tests/plugins/CMakeLists.txt")); err != nil {
		return "", "tests/plugins/CMakeLists.txt is missing, so the test plugins cannot be built"
	}
	build := filepath.Join(os.TempDir(), "hipdnn-engines-test-build")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	for _, args := range [][]string{
		{"-S", root, "-B", build, "-DHIPDNN_BACKEND_LIBRARY="},
		{"--build", build, "--target", "hipdnn_test_plugins", "-j", fmt.Sprint(runtime.NumCPU())},
	} {
		out, err := exec.CommandContext(ctx, "cmake", args...).CombinedOutput()
		if err != nil {
			tail := string(out)
			if len(tail) > 2000 {
				tail = tail[len(tail)-2000:]
			}
			return "", fmt.Sprintf("cmake %s failed: %v\n%s", strings.Join(args, " "), err, tail)
		}
	}
	d := filepath.Join(build, "test_plugins")
	if !hasPlugins(d) {
		return "", "the CMake build produced no plugins in " + d
	}
	return d, ""
}

func hasPlugins(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err == nil && !de.IsDir() && strings.HasSuffix(p, ".so") {
			found = true
		}
		return nil
	})
	return found
}

// pluginFile returns the file of a test plugin by its plugin name (file lib<name>.so or
// <name>.so in any subfolder of the plugin folder), skipping the test when it is not built.
func pluginFile(t testing.TB, name string) string {
	t.Helper()
	if pluginDir == "" {
		t.Skipf("test plugins unavailable: %s", pluginDirWhy)
	}
	var hit string
	filepath.WalkDir(pluginDir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || hit != "" {
			return nil
		}
		if b := de.Name(); b == "lib"+name+".so" || b == name+".so" {
			hit = p
		}
		return nil
	})
	if hit == "" {
		t.Skipf("test plugin %s is not built in %s", name, pluginDir)
	}
	return plugindir.Canonical(hit)
}

// resetHost puts the process-wide plugin host back to its defaults with an empty library
// directory and environment, and does it again when the test ends.
func resetHost(t testing.TB) {
	t.Helper()
	reset := func() {
		host.mu.Lock()
		if m := host.current; m != nil {
			if m.users != 0 {
				host.mu.Unlock()
				t.Fatalf("a test left %d users of the engine plugin set", m.users)
			}
			unloadLocked(m)
		}
		host.paths, host.mode, host.unload, host.retained = nil, api.HIPDNN_PLUGIN_LOADING_ADDITIVE, api.HIPDNN_PLUGIN_UNLOAD_LAZY, false
		host.mu.Unlock()
	}
	reset()
	empty := t.TempDir()
	saved := env
	env = plugindir.Env{
		BaseDir: func() string { return empty },
		Getenv:  func(string) string { return "" },
		Secure:  func() bool { return false },
	}
	t.Cleanup(func() {
		reset()
		env = saved
	})
}

// fakeEnv makes the loader see these environment variables.
func fakeEnv(vars map[string]string) {
	env.Getenv = func(k string) string { return vars[k] }
}

// acquire loads exactly these plugin files (ABSOLUTE) and releases the set when the test ends.
func acquire(t testing.TB, files ...string) (*Manager, []error) {
	t.Helper()
	resetHost(t)
	if err := SetPaths(files, api.HIPDNN_PLUGIN_LOADING_ABSOLUTE); err != nil {
		t.Fatalf("SetPaths: %v", err)
	}
	m, errs, err := Acquire()
	if err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	t.Cleanup(m.Release)
	return m, errs
}

// session loads plugins by name and opens a session closed at the end of the test.
func session(t testing.TB, names ...string) *Session {
	t.Helper()
	var files []string
	for _, n := range names {
		files = append(files, pluginFile(t, n))
	}
	m, errs := acquire(t, files...)
	if len(errs) > 0 {
		t.Fatalf("unexpected load errors: %v", errs)
	}
	s := NewSession(m)
	t.Cleanup(s.Close)
	return s
}

// testGraph is a minimal Graph flatbuffer: the test plugins only verify it.
func testGraph() []byte {
	b := flatbuffers.NewBuilder(64)
	name := b.CreateString("engines_test_graph")
	fb.GraphStart(b)
	fb.GraphAddName(b, name)
	b.Finish(fb.GraphEnd(b))
	return b.FinishedBytes()
}

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// captureLogs turns logging on at INFO into a buffer until the test ends.
func captureLogs(t testing.TB) *syncBuffer {
	t.Helper()
	buf := &syncBuffer{}
	prevOut := logging.SetOutput(buf)
	prevLevel := logging.Level()
	logging.SetLevel(api.HIPDNN_SEV_INFO)
	t.Cleanup(func() {
		logging.SetLevel(prevLevel)
		logging.SetOutput(prevOut)
	})
	return buf
}

var _ io.Writer = (*syncBuffer)(nil)

// wantStatus fails unless err has the status code and its message contains every fragment.
func wantStatus(t testing.TB, err error, code api.Status, fragments ...string) {
	t.Helper()
	if got := status.Code(err); got != code {
		t.Fatalf("status = %v (%v), want %v", got, err, code)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Fatalf("error %q does not contain %q", err.Error(), f)
		}
	}
}

// mapped reports whether a file is mapped into this process.
func mapped(t testing.TB, path string) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("/proc/self/maps: %v", err)
	}
	return bytes.Contains(b, []byte(path))
}

// liveObjects reads the good test plugin's count of live objects of a kind.
func liveObjects(t testing.TB, p *Plugin, kind int32) int64 {
	t.Helper()
	fn := probeFn(p, "hipdnnTestGetLiveObjects")
	if fn == nil {
		t.Fatalf("plugin %s does not export hipdnnTestGetLiveObjects", p.Name)
	}
	return probe.I64I32(fn, kind)
}

// Kinds of hipdnnTestGetLiveObjects.
const (
	liveHandles    = 0
	liveContexts   = 1
	liveDetails    = 2
	liveSerialized = 3
)

// unloadable reports whether the dynamic loader can unmap this plugin at all: a library that
// defines GNU unique symbols (C++ template statics, unless built with -fno-gnu-unique) is
// marked NODELETE by glibc when it is the first to define them, and then stays mapped for the
// life of the process whatever the host does.
func unloadable(t testing.TB, file string) bool {
	t.Helper()
	if mapped(t, file) {
		t.Logf("%s is mapped before the test: the loader cannot unload it (GNU unique symbols? build test plugins with -fno-gnu-unique)", file)
		return false
	}
	lib, err := dl.Open(file)
	if err != nil {
		t.Fatalf("dlopen %s: %v", file, err)
	}
	dl.Close(lib)
	if mapped(t, file) {
		t.Logf("%s stays mapped after dlopen+dlclose: the loader cannot unload it (GNU unique symbols? build test plugins with -fno-gnu-unique)", file)
		return false
	}
	return true
}

// requireUnloadable skips a test that watches a plugin being unmapped when that cannot happen.
func requireUnloadable(t testing.TB, file string) {
	t.Helper()
	if !unloadable(t, file) {
		t.Skipf("%s cannot be unloaded by the dynamic loader; unload checks need a plugin built with -fno-gnu-unique", file)
	}
}

// probeFn looks up an accessor a test plugin exports next to the plugin API (nil when absent).
func probeFn(p *Plugin, name string) unsafe.Pointer {
	if p.lib == nil {
		return nil
	}
	fn, _ := dl.Sym(p.lib, name)
	return fn
}
