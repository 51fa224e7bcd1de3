package hip

/*
#cgo noescape hd_hip_get_device_count
#cgo nocallback hd_hip_get_device_count
#cgo noescape hd_hip_get_device
#cgo nocallback hd_hip_get_device
#cgo noescape hd_hip_stream_get_device
#cgo nocallback hd_hip_stream_get_device
#cgo noescape hd_hip_stream_synchronize
#cgo nocallback hd_hip_stream_synchronize
#cgo noescape hd_hip_pointer_attributes
#cgo nocallback hd_hip_pointer_attributes
#cgo noescape hd_hip_malloc
#cgo nocallback hd_hip_malloc
#cgo noescape hd_hip_memcpy
#cgo nocallback hd_hip_memcpy
#cgo noescape hd_hip_event_create
#cgo nocallback hd_hip_event_create
#cgo noescape hd_hip_event_elapsed_time
#cgo nocallback hd_hip_event_elapsed_time
#cgo noescape hd_hip_device_props
#cgo nocallback hd_hip_device_props
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/dl"
)

// symbol is one entry point: the slot it fills and its name in each family. Where several
// names are listed the first one found wins.
type symbol struct {
	slot     C.int
	amd      []string // in libamdhip64; nil: AMD does not use the slot
	cuda     []string // in libcudart, or in libcuda.so.1 when driver is set; nil: unused
	optional bool     // loading succeeds without it
	driver   bool     // CUDA: resolved from the driver library
}

var symbols = []symbol{
	{slot: C.HIPDNN_HIP_GET_DEVICE_COUNT, amd: []string{"hipGetDeviceCount"}, cuda: []string{"cudaGetDeviceCount"}},
	{slot: C.HIPDNN_HIP_GET_DEVICE, amd: []string{"hipGetDevice"}, cuda: []string{"cudaGetDevice"}},
	{slot: C.HIPDNN_HIP_DEVICE_GET_ATTRIBUTE, amd: []string{"hipDeviceGetAttribute"}, cuda: []string{"cudaDeviceGetAttribute"}},
	{slot: C.HIPDNN_HIP_STREAM_GET_DEVICE, amd: []string{"hipStreamGetDevice"}, cuda: []string{"cudaStreamGetDevice"}, optional: true},
	{slot: C.HIPDNN_HIP_STREAM_SYNCHRONIZE, amd: []string{"hipStreamSynchronize"}, cuda: []string{"cudaStreamSynchronize"}},
	{slot: C.HIPDNN_HIP_POINTER_GET_ATTRIBUTES, amd: []string{"hipPointerGetAttributes"}, cuda: []string{"cudaPointerGetAttributes"}},
	{slot: C.HIPDNN_HIP_MALLOC, amd: []string{"hipMalloc"}, cuda: []string{"cudaMalloc"}},
	{slot: C.HIPDNN_HIP_FREE, amd: []string{"hipFree"}, cuda: []string{"cudaFree"}},
	{slot: C.HIPDNN_HIP_MEMCPY, amd: []string{"hipMemcpy"}, cuda: []string{"cudaMemcpy"}},
	{slot: C.HIPDNN_HIP_DEVICE_SYNCHRONIZE, amd: []string{"hipDeviceSynchronize"}, cuda: []string{"cudaDeviceSynchronize"}},
	{slot: C.HIPDNN_HIP_EVENT_CREATE, amd: []string{"hipEventCreate"}, cuda: []string{"cudaEventCreate"}},
	{slot: C.HIPDNN_HIP_EVENT_RECORD, amd: []string{"hipEventRecord"}, cuda: []string{"cudaEventRecord"}},
	{slot: C.HIPDNN_HIP_EVENT_SYNCHRONIZE, amd: []string{"hipEventSynchronize"}, cuda: []string{"cudaEventSynchronize"}},
	{slot: C.HIPDNN_HIP_EVENT_ELAPSED_TIME, amd: []string{"hipEventElapsedTime"}, cuda: []string{"cudaEventElapsedTime", "cudaEventElapsedTime_v2"}},
	{slot: C.HIPDNN_HIP_EVENT_DESTROY, amd: []string{"hipEventDestroy"}, cuda: []string{"cudaEventDestroy"}},
	{slot: C.HIPDNN_HIP_GET_ERROR_NAME, amd: []string{"hipGetErrorName"}, cuda: []string{"cudaGetErrorName"}},
	{slot: C.HIPDNN_HIP_GET_ERROR_STRING, amd: []string{"hipGetErrorString"}, cuda: []string{"cudaGetErrorString"}},
	{slot: C.HIPDNN_HIP_GET_LAST_ERROR, amd: []string{"hipGetLastError"}, cuda: []string{"cudaGetLastError"}},
	{slot: C.HIPDNN_HIP_RUNTIME_GET_VERSION, amd: []string{"hipRuntimeGetVersion"}, cuda: []string{"cudaRuntimeGetVersion"}},

	{slot: C.HIPDNN_HIP_AMD_DEVICE_GET_NAME, amd: []string{"hipDeviceGetName"}},
	{slot: C.HIPDNN_HIP_AMD_DEVICE_TOTAL_MEM, amd: []string{"hipDeviceTotalMem"}},
	{slot: C.HIPDNN_HIP_AMD_PROPS_R0600, amd: []string{"hipGetDevicePropertiesR0600"}, optional: true},
	{slot: C.HIPDNN_HIP_AMD_PROPS_R0000, amd: []string{"hipGetDevicePropertiesR0000", "hipGetDeviceProperties"}, optional: true},

	{slot: C.HIPDNN_HIP_CU_INIT, cuda: []string{"cuInit"}, driver: true},
	{slot: C.HIPDNN_HIP_CU_DEVICE_GET, cuda: []string{"cuDeviceGet"}, driver: true},
	{slot: C.HIPDNN_HIP_CU_DEVICE_GET_NAME, cuda: []string{"cuDeviceGetName"}, driver: true},
	{slot: C.HIPDNN_HIP_CU_DEVICE_TOTAL_MEM, cuda: []string{"cuDeviceTotalMem_v2"}, driver: true},
	{slot: C.HIPDNN_HIP_CU_GET_ERROR_NAME, cuda: []string{"cuGetErrorName"}, driver: true},
	{slot: C.HIPDNN_HIP_CU_GET_ERROR_STRING, cuda: []string{"cuGetErrorString"}, driver: true},
}

// Oldest runtimes whose ABI this layer knows: ROCm 5 (attribute numbering, pointer
// attributes) and CUDA 11 (cudaPointerAttributes without the old memoryType/isManaged pair).
const (
	minAMDMajor  = 5
	minCUDAMajor = 11
)

// native is a loaded HIP or CUDA runtime.
type native struct {
	kind  Kind
	api   *C.hd_hip_api // C memory, read-only after load, never freed
	names [C.HIPDNN_HIP_SLOT_COUNT]string
	// major is the runtime's major version (ROCm or CUDA), which decides how hipMemoryType
	// values read: ROCm 6 renumbered them to match CUDA.
	major           int
	streamGetDevice bool
}

// openNative implements opener with dlopen. For CUDA the driver library is opened once the
// first runtime library has loaded; a runtime without its driver is useless, so that ends the
// search.
func openNative(kind Kind, libs, driverLibs []string) (driver, string, error) {
	var tried []string
	var driverHandle unsafe.Pointer
	for _, lib := range libs {
		h, err := dlopen(lib)
		if err != nil {
			tried = append(tried, err.Error())
			continue
		}
		if kind == KindCUDA && driverHandle == nil {
			driverHandle, err = openFirst(driverLibs)
			if err != nil {
				tried = append(tried, lib+": loaded, but not the NVIDIA driver: "+err.Error())
				break
			}
		}
		n, err := resolve(kind, h, driverHandle)
		if err != nil {
			tried = append(tried, lib+": "+err.Error())
			continue
		}
		path := objectPath(n.api.fn[C.HIPDNN_HIP_GET_DEVICE_COUNT], lib)
		if err := n.checkVersion(path); err != nil {
			C.hd_hip_api_free(n.api)
			tried = append(tried, path+": "+err.Error())
			continue
		}
		return n, path, nil
	}
	return nil, "", fmt.Errorf("%s", strings.Join(tried, "; "))
}

// openFirst opens the first library of libs that loads.
func openFirst(libs []string) (unsafe.Pointer, error) {
	var tried []string
	for _, lib := range libs {
		h, err := dlopen(lib)
		if err == nil {
			return h, nil
		}
		tried = append(tried, err.Error())
	}
	return nil, fmt.Errorf("%s", strings.Join(tried, "; "))
}

// dlopen opens lib; a library that does not exist is reported as "lib: not found".
func dlopen(lib string) (unsafe.Pointer, error) {
	h, err := dl.Open(lib)
	if err == nil {
		return h, nil
	}
	text := err.Error()
	if strings.Contains(text, "No such file or directory") {
		return nil, fmt.Errorf("%s: not found", lib)
	}
	if !strings.HasPrefix(text, lib) {
		text = lib + ": " + text
	}
	return nil, fmt.Errorf("%s", text)
}

// resolve fills a table for kind from the runtime library h (and the CUDA driver library).
func resolve(kind Kind, h, driverHandle unsafe.Pointer) (*native, error) {
	api := C.hd_hip_api_new(C.int(kind))
	if api == nil {
		return nil, fmt.Errorf("out of memory")
	}
	n := &native{kind: kind, api: api}
	for _, s := range symbols {
		names, from := s.amd, h
		if kind == KindCUDA {
			names = s.cuda
			if s.driver {
				from = driverHandle
			}
		}
		if len(names) == 0 {
			continue
		}
		fn, name, err := dlsymFirst(from, names)
		if err != nil {
			if s.optional {
				continue
			}
			C.hd_hip_api_free(api)
			return nil, err
		}
		C.hd_hip_api_set(api, s.slot, fn)
		n.names[s.slot] = name
	}
	n.streamGetDevice = api.fn[C.HIPDNN_HIP_STREAM_GET_DEVICE] != nil
	return n, nil
}

// dlsymFirst returns the first of names that h defines.
func dlsymFirst(h unsafe.Pointer, names []string) (unsafe.Pointer, string, error) {
	var first string
	for _, name := range names {
		fn, err := dl.Sym(h, name)
		if err == nil {
			return fn, name, nil
		}
		if first == "" {
			first = err.Error()
		}
	}
	return nil, "", fmt.Errorf("missing %s: %s", strings.Join(names, " or "), first)
}

// objectPath returns the file that holds sym, or fallback.
func objectPath(sym unsafe.Pointer, fallback string) string {
	if p := dl.ObjectPath(sym); p != "" {
		return p
	}
	return fallback
}

var sonameMajor = regexp.MustCompile(`\.so\.(\d+)`)

// checkVersion records the runtime's major version and refuses runtimes older than the ABI
// this layer knows. HIP encodes its version as major*10000000 + minor*100000 + patch, CUDA as
// major*1000 + minor*10. hipRuntimeGetVersion can fail on a machine without an AMD GPU; then
// the soname's number (libamdhip64.so.5) decides, and failing that the newest numbering.
func (n *native) checkVersion(path string) error {
	var v C.int
	code := C.hd_hip_runtime_version(n.api, &v)
	if n.kind == KindCUDA {
		if code != 0 {
			return n.fail(C.HIPDNN_HIP_RUNTIME_GET_VERSION, code)
		}
		n.major = int(v) / 1000
		if n.major < minCUDAMajor {
			return fmt.Errorf("CUDA runtime %d.%d is older than %d.0", n.major, int(v)%1000/10, minCUDAMajor)
		}
		return nil
	}
	switch {
	case code == 0 && v > 0:
		n.major = int(v) / 10000000
	default:
		n.major = 6
		if m := sonameMajor.FindStringSubmatch(path); m != nil {
			n.major, _ = strconv.Atoi(m[1])
		}
	}
	if n.major < minAMDMajor {
		return fmt.Errorf("HIP runtime %d is older than ROCm %d", n.major, minAMDMajor)
	}
	return nil
}

// fail turns a non-zero code from the call in slot into an *Error.
func (n *native) fail(slot C.int, code C.int) error {
	if code == 0 {
		return nil
	}
	var name, msg *C.char
	C.hd_hip_error_text(n.api, slot, code, &name, &msg)
	e := &Error{Kind: n.kind, Call: n.names[slot], Code: int(code), Name: "unknown error", Message: ""}
	if name != nil {
		e.Name = C.GoString(name)
	}
	if msg != nil {
		e.Message = C.GoString(msg)
	}
	return e
}

// errNoDevice is hipErrorNoDevice and cudaErrorNoDevice alike.
const errNoDevice = 100

func (n *native) deviceCount() (int, error) {
	var c C.int
	code := C.hd_hip_get_device_count(n.api, &c)
	if code == errNoDevice {
		return 0, nil
	}
	if code != 0 {
		return 0, n.fail(C.HIPDNN_HIP_GET_DEVICE_COUNT, code)
	}
	return int(c), nil
}

func (n *native) currentDevice() (int, error) {
	var d C.int
	if code := C.hd_hip_get_device(n.api, &d); code != 0 {
		return 0, n.fail(C.HIPDNN_HIP_GET_DEVICE, code)
	}
	return int(d), nil
}

func (n *native) deviceProperties(device int) (DeviceProperties, error) {
	var p C.hd_hip_props
	if code := C.hd_hip_device_props(n.api, C.int(device), &p); code != 0 {
		err := n.fail(C.int(p.failed_slot), code)
		if p.failed_slot == C.HIPDNN_HIP_DEVICE_GET_ATTRIBUTE {
			if e, ok := err.(*Error); ok {
				e.Call = fmt.Sprintf("%s(attribute %d, device %d)", e.Call, int(p.failed_attr), device)
			}
		}
		return DeviceProperties{}, err
	}
	props := DeviceProperties{
		ID:                  device,
		Name:                C.GoString(&p.name[0]),
		Arch:                C.GoString(&p.arch[0]),
		MultiProcessorCount: int(p.multiprocessor_count),
		TotalGlobalMem:      uint64(p.total_mem),
		ClockRateKHz:        int(p.clock_khz),
		ComputeMajor:        int(p.major),
		ComputeMinor:        int(p.minor),
	}
	if n.kind == KindCUDA {
		props.Arch = fmt.Sprintf("sm_%d%d", props.ComputeMajor, props.ComputeMinor)
	}
	return props, nil
}

func (n *native) streamDevice(stream uintptr) (int, error) {
	if !n.streamGetDevice {
		return n.currentDevice()
	}
	var d C.int
	if code := C.hd_hip_stream_get_device(n.api, C.uintptr_t(stream), &d); code != 0 {
		return 0, n.fail(C.HIPDNN_HIP_STREAM_GET_DEVICE, code)
	}
	return int(d), nil
}

func (n *native) streamSynchronize(stream uintptr) error {
	return n.fail(C.HIPDNN_HIP_STREAM_SYNCHRONIZE, C.hd_hip_stream_synchronize(n.api, C.uintptr_t(stream)))
}

// errInvalidValue is hipErrorInvalidValue, which ROCm 5 returns for unregistered host memory.
// The error each of these leaves in the runtime's last-error slot is cleared by the trampoline.
const errInvalidValue = 1

func (n *native) pointerInfo(p unsafe.Pointer) (PointerInfo, error) {
	var typ, managed, device C.int
	code := C.hd_hip_pointer_attributes(n.api, p, &typ, &managed, &device)
	if code != 0 {
		switch {
		case n.kind == KindAMD && code == errInvalidValue:
			return PointerInfo{Kind: MemoryHost}, nil // ROCm 5: not known to HIP, so pageable host memory
		case code == errNoDevice:
			return PointerInfo{Kind: MemoryHost}, nil // no device, so no device memory (seen: ROCm 5.7 on an NVIDIA machine)
		}
		return PointerInfo{Kind: MemoryUnknown}, n.fail(C.HIPDNN_HIP_POINTER_GET_ATTRIBUTES, code)
	}
	if managed != 0 {
		return PointerInfo{Kind: MemoryManaged}, nil
	}
	k := memoryKind(n.kind, n.major, int(typ))
	if k != MemoryDevice {
		device = 0
	}
	return PointerInfo{Kind: k, Device: int(device)}, nil
}

// memoryKind maps a pointer-attribute memory type.
//
//	CUDA >= 11, ROCm >= 6: 0 unregistered, 1 host, 2 device, 3 managed (ROCm: 10 array, 11 unified)
//	ROCm 5:                0 host, 1 device, 2 array, 3 unified, 4 managed
//
// "host" is registered (pinned) host memory; ROCm 5 answers unregistered memory with an error.
func memoryKind(kind Kind, major, typ int) MemoryKind {
	if kind == KindAMD && major < 6 {
		switch typ {
		case 0:
			return MemoryPinned
		case 1, 2:
			return MemoryDevice
		case 3, 4:
			return MemoryManaged
		}
		return MemoryUnknown
	}
	switch typ {
	case 0:
		return MemoryHost
	case 1:
		return MemoryPinned
	case 2:
		return MemoryDevice
	case 3:
		return MemoryManaged
	}
	if kind == KindAMD {
		switch typ {
		case 10:
			return MemoryDevice
		case 11:
			return MemoryManaged
		}
	}
	return MemoryUnknown
}

func (n *native) malloc(size uintptr) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	if code := C.hd_hip_malloc(n.api, &p, C.size_t(size)); code != 0 {
		return nil, n.fail(C.HIPDNN_HIP_MALLOC, code)
	}
	return p, nil
}

func (n *native) free(p unsafe.Pointer) error {
	return n.fail(C.HIPDNN_HIP_FREE, C.hd_hip_free(n.api, p))
}

func (n *native) memcpy(dst, src unsafe.Pointer, size uintptr, kind copyKind) error {
	return n.fail(C.HIPDNN_HIP_MEMCPY, C.hd_hip_memcpy(n.api, dst, src, C.size_t(size), C.int(kind)))
}

func (n *native) deviceSynchronize() error {
	return n.fail(C.HIPDNN_HIP_DEVICE_SYNCHRONIZE, C.hd_hip_device_synchronize(n.api))
}

func (n *native) eventCreate() (Event, error) {
	var e unsafe.Pointer
	if code := C.hd_hip_event_create(n.api, &e); code != 0 {
		return Event{}, n.fail(C.HIPDNN_HIP_EVENT_CREATE, code)
	}
	return Event{handle: e}, nil
}

func (n *native) eventRecord(e Event, stream uintptr) error {
	return n.fail(C.HIPDNN_HIP_EVENT_RECORD, C.hd_hip_event_record(n.api, e.handle, C.uintptr_t(stream)))
}

func (n *native) eventSynchronize(e Event) error {
	return n.fail(C.HIPDNN_HIP_EVENT_SYNCHRONIZE, C.hd_hip_event_synchronize(n.api, e.handle))
}

func (n *native) eventElapsedMs(start, stop Event) (float32, error) {
	var ms C.float
	if code := C.hd_hip_event_elapsed_time(n.api, &ms, start.handle, stop.handle); code != 0 {
		return 0, n.fail(C.HIPDNN_HIP_EVENT_ELAPSED_TIME, code)
	}
	return float32(ms), nil
}

func (n *native) eventDestroy(e Event) error {
	return n.fail(C.HIPDNN_HIP_EVENT_DESTROY, C.hd_hip_event_destroy(n.api, e.handle))
}

// amdArchFromProps finds gcnArchName in a hipDeviceProp_t image the way DeviceProperties
// does (at offset, else by a scan past the name field). For tests.
func amdArchFromProps(props []byte, offset int) string {
	if len(props) == 0 {
		return ""
	}
	var out [256]C.char
	C.hd_hip_amd_arch_from_props((*C.uchar)(unsafe.Pointer(&props[0])), C.size_t(len(props)),
		C.size_t(offset), &out[0], C.size_t(len(out)))
	return C.GoString(&out[0])
}
