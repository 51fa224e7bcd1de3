//go:build cgo

package hip

import "testing"

// probeWith makes InUse consult libs, starting from a fresh miss; the test's end restores
// the real list and state.
func probeWith(t *testing.T, libs ...string) {
	saved := driverLibraries
	t.Cleanup(func() { driverLibraries = saved; inUse.Store(false); nextProbe.Store(0) })
	driverLibraries = libs
	inUse.Store(false)
	nextProbe.Store(0)
}

func TestInUseProbesWithoutLoading(t *testing.T) {
	probeWith(t, "libhipdnn_no_such_driver.so.1")
	if InUse() {
		t.Fatal("InUse() = true with no driver library loaded")
	}
	// libc is mapped into every cgo process: found without loading anything new, once the
	// miss above has aged past probeInterval (no new probe before that).
	driverLibraries = []string{"libhipdnn_no_such_driver.so.1", "libc.so.6"}
	if InUse() {
		t.Fatal("InUse() probed again within probeInterval of a miss")
	}
	nextProbe.Store(0)
	if !InUse() {
		t.Fatal("InUse() = false although libc.so.6 is loaded")
	}
	driverLibraries = []string{"libhipdnn_no_such_driver.so.1"}
	if !InUse() {
		t.Fatal("InUse() fell back to false after a driver was seen")
	}
}

func TestInUseDoesNotLoad(t *testing.T) {
	// libz is on every build machine (the toolchain needs it) but not linked into the test.
	probeWith(t, "libz.so.1")
	first := InUse()
	nextProbe.Store(0)
	if InUse() != first {
		t.Fatal("probing changed the answer: the probe loaded the library")
	}
}
