// Command hipprobe prints what package hip finds on this machine: the runtime chosen and
// why, each device's properties, and pointer-kind answers for device and host memory. It
// honours HIPDNN_HIP_RUNTIME like the backend does. -kind loads one family explicitly.
// It exits 1 when a query that should work fails.
package main

import (
	"flag"
	"fmt"
	"os"
	"unsafe"

	"github.com/hipdnn-go/backend/hip"
)

func main() {
	kind := flag.String("kind", "", "load this runtime family (amd, cuda or none) instead of the default choice")
	flag.Parse()

	r := hip.Default()
	switch *kind {
	case "":
	case "amd":
		r = hip.Load(hip.KindAMD)
	case "cuda":
		r = hip.Load(hip.KindCUDA)
	case "none":
		r = hip.Load(hip.KindNone)
	default:
		fmt.Fprintf(os.Stderr, "hipprobe: -kind %q is not amd, cuda or none\n", *kind)
		os.Exit(2)
	}
	if !probe(r) {
		os.Exit(1)
	}
}

// probe prints everything and reports whether every query that should work did.
func probe(r *hip.Runtime) bool {
	ok := true
	check := func(what string, err error) bool {
		if err != nil {
			fmt.Printf("  %s: ERROR %v\n", what, err)
			ok = false
			return false
		}
		return true
	}

	fmt.Printf("kind:          %s\n", r.Kind())
	fmt.Printf("library:       %s\n", orDash(r.LibraryPath()))
	fmt.Printf("reason:        %s\n", r.Reason())

	n, err := r.DeviceCount()
	if !check("DeviceCount", err) {
		return ok
	}
	fmt.Printf("devices:       %d\n", n)

	var host [64]byte
	hi, err := r.PointerInfo(unsafe.Pointer(&host[0]))
	hk := hi.Kind
	if check("PointerInfo(host)", err) {
		fmt.Printf("host pointer:  %s\n", hk)
		if hk != hip.MemoryHost {
			fmt.Printf("  unexpected: host memory reported as %s\n", hk)
			ok = false
		}
	}

	if n == 0 {
		_, err := r.DeviceProperties(0)
		fmt.Printf("no device; DeviceProperties(0) says: %v\n", err)
		return ok
	}

	if cur, err := r.CurrentDevice(); check("CurrentDevice", err) {
		fmt.Printf("current:       %d\n", cur)
	}
	if sd, err := r.StreamDevice(0); check("StreamDevice(default stream)", err) {
		fmt.Printf("stream device: %d (default stream)\n", sd)
	}
	for d := 0; d < n; d++ {
		p, err := r.DeviceProperties(d)
		if !check(fmt.Sprintf("DeviceProperties(%d)", d), err) {
			continue
		}
		fmt.Printf("device %d:\n", p.ID)
		fmt.Printf("  name:            %s\n", p.Name)
		fmt.Printf("  arch:            %s\n", orDash(p.Arch))
		fmt.Printf("  multiprocessors: %d\n", p.MultiProcessorCount)
		fmt.Printf("  global memory:   %d bytes (%.1f GiB)\n", p.TotalGlobalMem, float64(p.TotalGlobalMem)/(1<<30))
		fmt.Printf("  clock:           %d kHz\n", p.ClockRateKHz)
		fmt.Printf("  compute:         %d.%d\n", p.ComputeMajor, p.ComputeMinor)
	}

	ok = probeMemory(r, check) && ok
	return ok
}

// probeMemory allocates 1 KiB, asks its kind, copies through it, times the copy with events,
// and frees it.
func probeMemory(r *hip.Runtime, check func(string, error) bool) bool {
	ok := true
	const size = 1024
	dev, err := r.Malloc(size)
	if !check("Malloc(1 KiB)", err) {
		return false
	}
	defer func() {
		if check("Free", r.Free(dev)) {
			fmt.Println("device pointer freed")
		} else {
			ok = false
		}
	}()
	ki, err := r.PointerInfo(dev)
	k := ki.Kind
	if check("PointerInfo(device)", err) {
		fmt.Printf("device pointer: %s\n", k)
		if k != hip.MemoryDevice {
			fmt.Printf("  unexpected: device memory reported as %s\n", k)
			ok = false
		}
	} else {
		ok = false
	}

	src := make([]byte, size)
	for i := range src {
		src[i] = byte(i * 7)
	}
	dst := make([]byte, size)
	start, err1 := r.EventCreate()
	stop, err2 := r.EventCreate()
	timed := check("EventCreate", err1) && check("EventCreate", err2)
	if timed {
		timed = check("EventRecord(start)", r.EventRecord(start, 0))
	}
	if !check("MemcpyHtoD", r.MemcpyHtoD(dev, unsafe.Pointer(&src[0]), size)) ||
		!check("MemcpyDtoH", r.MemcpyDtoH(unsafe.Pointer(&dst[0]), dev, size)) {
		return false
	}
	if timed && check("EventRecord(stop)", r.EventRecord(stop, 0)) && check("EventSynchronize", r.EventSynchronize(stop)) {
		if ms, err := r.EventElapsedMs(start, stop); check("EventElapsedMs", err) {
			fmt.Printf("copy round trip: %.3f ms (events)\n", ms)
		}
	}
	if timed {
		check("EventDestroy", r.EventDestroy(start))
		check("EventDestroy", r.EventDestroy(stop))
	}
	for i := range src {
		if src[i] != dst[i] {
			fmt.Printf("  copy round trip: byte %d is %d, want %d\n", i, dst[i], src[i])
			return false
		}
	}
	fmt.Println("copy round trip: 1 KiB intact")
	if !check("StreamSynchronize(default stream)", r.StreamSynchronize(0)) ||
		!check("DeviceSynchronize", r.DeviceSynchronize()) {
		ok = false
	}
	return ok
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
