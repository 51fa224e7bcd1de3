package engines

// Memory kinds: which memory an engine accepts, and where a variant pack's pointers live.
// A pointer of the wrong kind must never reach a kernel: a device kernel that reads pageable
// host memory faults, and the fault kills the process's GPU context for every caller.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#include "shim.h"
*/
import "C"

import (
	"strings"
	"sync"
	"unsafe"

	"github.com/hipdnn-go/backend/hip"
)

// MemoryKinds is a mask of the HIPDNN_PLUGIN_MEMORY_* bits of EnginePluginExtensions.h.
type MemoryKinds uint32

// The kinds, with the plugin SDK's values.
const (
	MemoryDevice       MemoryKinds = C.HIPDNN_PLUGIN_MEMORY_DEVICE
	MemoryManaged      MemoryKinds = C.HIPDNN_PLUGIN_MEMORY_MANAGED
	MemoryHostPinned   MemoryKinds = C.HIPDNN_PLUGIN_MEMORY_HOST_PINNED
	MemoryHostPageable MemoryKinds = C.HIPDNN_PLUGIN_MEMORY_HOST_PAGEABLE

	allMemoryKinds = MemoryDevice | MemoryManaged | MemoryHostPinned | MemoryHostPageable
)

// String lists the kinds: "device or managed".
func (k MemoryKinds) String() string {
	var names []string
	for _, n := range []struct {
		bit  MemoryKinds
		name string
	}{{MemoryDevice, "device"}, {MemoryManaged, "managed"}, {MemoryHostPinned, "host pinned"}, {MemoryHostPageable, "host pageable"}} {
		if k&n.bit != 0 {
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "no"
	}
	return strings.Join(names, " or ")
}

// kindOf is the mask bit of a runtime memory kind (0 for MemoryUnknown).
func kindOf(m hip.MemoryKind) MemoryKinds {
	switch m {
	case hip.MemoryDevice:
		return MemoryDevice
	case hip.MemoryManaged:
		return MemoryManaged
	case hip.MemoryPinned:
		return MemoryHostPinned
	case hip.MemoryHost:
		return MemoryHostPageable
	}
	return 0
}

// memoryRuntime is the part of the HIP runtime the pointer checks use (a seam for tests).
type memoryRuntime interface {
	Kind() hip.Kind
	PointerInfo(p unsafe.Pointer) (hip.PointerInfo, error)
	StreamDevice(stream uintptr) (int, error)
}

// gpuRuntime is the runtime pointers are classified with; nil while no GPU driver is loaded
// in the process (hip.InUse): then no pointer can be device memory, and host work does not
// start a GPU runtime.
var gpuRuntime = func() memoryRuntime {
	if !hip.InUse() {
		return nil
	}
	return hip.Default()
}

// pointerClass is what the runtime said of one pointer.
type pointerClass struct {
	info hip.PointerInfo
	err  error
}

// packMemory classifies a variant pack's pointers once, the first time a check needs them.
// Nothing is classified while no GPU runtime is loaded: every pointer is host memory then,
// and a runtime loaded later classifies the pack afresh.
type packMemory struct {
	mu      sync.Mutex
	classes []pointerClass // by entry; nil until classified
	ws      pointerClass
}

func (m *packMemory) classify(rt memoryRuntime, b *Buffers) ([]pointerClass, pointerClass) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.classes == nil {
		entries := b.entries()
		m.classes = make([]pointerClass, len(entries))
		for i := range entries {
			if entries[i].ptr != 0 {
				m.classes[i].info, m.classes[i].err = rt.PointerInfo(b.pointer(i))
			}
		}
		if b.ws != 0 {
			m.ws.info, m.ws.err = rt.PointerInfo(workspacePointer(b.ws))
		}
	}
	return m.classes, m.ws
}
