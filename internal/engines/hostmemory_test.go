package engines

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hipdnn-go/backend/hip"
	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/plugindir"
)

// cpuReferencePlugin finds the CPU reference engine plugin of the same build as the test
// plugins (<build>/lib/hipdnn_plugins/engines/), or skips.
func cpuReferencePlugin(t *testing.T) string {
	t.Helper()
	if pluginDir == "" {
		t.Skipf("test plugins unavailable: %s", pluginDirWhy)
	}
	f := filepath.Join(filepath.Dir(pluginDir), "lib", DefaultPluginDir, "libhipdnngo_cpu_reference.so")
	if _, err := os.Stat(f); err != nil {
		t.Skipf("CPU reference plugin not built (%s)", f)
	}
	return plugindir.Canonical(f)
}

// The CPU reference plugin answers hipdnnEnginePluginIsHostMemoryEngine_ext for its engines.
func TestCPUReferenceIsHostMemory(t *testing.T) {
	file := cpuReferencePlugin(t)
	m, errs := acquire(t, file)
	if len(errs) != 0 || len(m.Plugins()) != 1 {
		t.Fatalf("errs %v plugins %d", errs, len(m.Plugins()))
	}
	if len(m.Engines()) == 0 {
		t.Fatal("the CPU reference plugin admitted no engine")
	}
	for _, e := range m.Engines() {
		if !e.HostMemory || e.Memory != MemoryHostPinned|MemoryHostPageable {
			t.Errorf("engine %s (%d): host memory %v, accepts %s memory; want host pinned or host pageable",
				e.Name, e.ID, e.HostMemory, e.Memory)
		}
		if e.Name == FormatEngineID(e.ID) {
			t.Errorf("engine %d is unnamed", e.ID)
		}
	}
	t.Logf("CPU reference: plugin %s %s API %v, engines %d (first %s)", m.Plugins()[0].Name,
		m.Plugins()[0].Version, m.Plugins()[0].APIVersion, len(m.Engines()), m.Engines()[0].Name)
}

// The registry's host-memory list (HIPDNN_PLUGIN_HOST_MEMORY_ENGINE_NAMES, which the cuDNN
// shim reads) agrees with what the built engine plugins answer at load: every staged engine is
// host memory exactly when the list names it.
func TestHostMemoryRegistryMatchesPlugins(t *testing.T) {
	if pluginDir == "" {
		t.Skipf("test plugins unavailable: %s", pluginDirWhy)
	}
	dir := filepath.Join(filepath.Dir(pluginDir), "lib", DefaultPluginDir)
	files, _ := filepath.Glob(filepath.Join(dir, "libhipdnngo_*.so"))
	listed := map[string]bool{}
	for _, n := range RegisteredHostMemoryEngineNames {
		if !IsRegisteredEngineName(n) {
			t.Errorf("host-memory engine %s is not a registered engine name", n)
		}
		listed[n] = true
	}
	for i := range files {
		files[i] = plugindir.Canonical(files[i])
	}
	m, errs := acquire(t, files...)
	for _, err := range errs {
		t.Logf("not compared (does not load here): %v", err)
	}
	seen := 0
	for _, e := range m.Engines() {
		seen++
		if e.HostMemory != listed[e.Name] {
			t.Errorf("engine %s: plugin says host memory %v, the registry's host-memory list says %v",
				e.Name, e.HostMemory, listed[e.Name])
		}
	}
	t.Logf("%d engines compared", seen)
	if seen == 0 {
		t.Skipf("no engine plugin loaded from %s", dir)
	}
}

// With a real GPU runtime, device memory handed to a host-memory engine is refused.
func TestHostMemoryEngineRealRuntime(t *testing.T) {
	rt := hip.Default()
	if rt.Kind() == hip.KindNone {
		t.Skipf("no GPU runtime: %s", rt.Reason())
	}
	s := session(t, "test_good_plugin")
	e := s.Manager().EngineByID(-2)
	saved := e.Memory
	e.Memory = MemoryHostPinned | MemoryHostPageable
	defer func() { e.Memory = saved }()
	c := newContext(t, s, -2, nil, false)
	dev, err := rt.Malloc(256)
	if err != nil {
		t.Skipf("hipMalloc: %v", err)
	}
	defer rt.Free(dev)
	host := make([]byte, 64)
	hostPtr := uintptr(unsafeAddr(host))
	err = c.Execute(testWorkspace, newBuffers(t, []int64{1, 2}, []uintptr{hostPtr, uintptr(dev)}), nil)
	wantStatus(t, err, api.HIPDNN_STATUS_BAD_PARAM, fmt.Sprintf("the pointer %#x for tensor uid 2 is device memory; engine 0xFFFFFFFFFFFFFFFE accepts host pinned or host pageable memory", uintptr(dev)))
	if err := c.Execute(testWorkspace, newBuffers(t, []int64{1}, []uintptr{hostPtr}), nil); err != nil {
		t.Errorf("host pointer refused: %v", err)
	}
	runtime.KeepAlive(host)
	t.Logf("runtime %s (%s)", rt.Kind(), rt.LibraryPath())
}
