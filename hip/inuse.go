//go:build cgo

package hip

import (
	"sync/atomic"
	"time"

	"github.com/hipdnn-go/backend/internal/dl"
)

// driverLibraries are the libraries without which a process can hold no device memory: the
// NVIDIA driver and AMD's HIP and HSA runtimes.
var driverLibraries = []string{
	"libcuda.so.1", "libcuda.so",
	"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libhsa-runtime64.so.1",
}

var (
	inUse     atomic.Bool
	nextProbe atomic.Int64 // time since start (ns) before which a miss is not probed again
	start     = time.Now()
)

// probeInterval bounds how often InUse asks the loader after a miss: the probe takes the
// loader's lock, and InUse sits on the execute path of host-memory engines.
const probeInterval = 100 * time.Millisecond

// InUse reports whether a GPU driver is loaded in this process, without loading or starting
// one. A process without one holds no device memory, so work on host-memory engines needs no
// pointer checks and pays no GPU runtime start-up (about 240 ms on an H200 host). Once true it
// stays true; after a miss the loader is asked again at most every probeInterval, so a driver
// loaded in the last 100 ms may not be seen yet.
func InUse() bool {
	if inUse.Load() {
		return true
	}
	now := int64(time.Since(start))
	if now < nextProbe.Load() {
		return false
	}
	nextProbe.Store(now + int64(probeInterval))
	for _, lib := range driverLibraries {
		if dl.Loaded(lib) {
			inUse.Store(true)
			return true
		}
	}
	return false
}
