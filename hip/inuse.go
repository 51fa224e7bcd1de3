//go:build cgo

package hip

import (
	"sync/atomic"

	"github.com/hipdnn-go/backend/internal/dl"
)

// driverLibraries are the libraries without which a process can hold no device memory: the
// NVIDIA driver and AMD's HIP and HSA runtimes.
var driverLibraries = []string{
	"libcuda.so.1", "libcuda.so",
	"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libhsa-runtime64.so.1",
}

var inUse atomic.Bool

// InUse reports whether a GPU driver is loaded in this process, without loading or starting
// one. A process without one holds no device memory, so work on host-memory engines needs no
// pointer checks and pays no GPU runtime start-up (about 120 ms on an H200 host). Once true it
// stays true; before that, each call probes the loader (a few microseconds).
func InUse() bool {
	if inUse.Load() {
		return true
	}
	for _, lib := range driverLibraries {
		if dl.Loaded(lib) {
			inUse.Store(true)
			return true
		}
	}
	return false
}
