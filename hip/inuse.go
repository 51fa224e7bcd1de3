//go:build cgo

package hip

/*
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

// hipdnn_hip_is_loaded reports whether lib is already mapped into the process, without loading
// it (RTLD_NOLOAD); the reference the probe takes is given back at once.
static int hipdnn_hip_is_loaded(const char *lib) {
  void *h = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
  if (h == NULL) {
    return 0;
  }
  dlclose(h);
  return 1;
}
*/
import "C"

import (
	"sync/atomic"
	"unsafe"
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
		c := C.CString(lib)
		loaded := C.hipdnn_hip_is_loaded(c) != 0
		C.free(unsafe.Pointer(c))
		if loaded {
			inUse.Store(true)
			return true
		}
	}
	return false
}
