package heuristics

import (
	"sync"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/hip"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/fb"
)

// DevicePropertiesIdentifier is the file identifier of a serialized DeviceProperties.
const DevicePropertiesIdentifier = "HDDP"

// DevicePropertiesBlob serializes p as the DeviceProperties flatbuffer heuristic plugins
// receive through hipdnnHeuristicHandleSetDeviceProperties: device_id, multi_processor_count,
// total_global_mem and architecture_name (HIP's gcnArchName, target features included),
// finished with the file identifier "HDDP". nil describes a host-only process: device_id -1
// and no architecture. Values beyond int32 saturate. The result is a fresh slice.
func DevicePropertiesBlob(p *hip.DeviceProperties) []byte {
	b := flatbuffers.NewBuilder(128)
	var arch flatbuffers.UOffsetT
	if p != nil && p.Arch != "" {
		arch = b.CreateString(p.Arch)
	}
	fb.DevicePropertiesStart(b)
	if p != nil {
		fb.DevicePropertiesAddTotalGlobalMem(b, p.TotalGlobalMem)
		fb.DevicePropertiesAddDeviceId(b, clampInt32(p.ID))
		fb.DevicePropertiesAddMultiProcessorCount(b, clampInt32(p.MultiProcessorCount))
		if arch != 0 {
			fb.DevicePropertiesAddArchitectureName(b, arch)
		}
	} else {
		fb.DevicePropertiesAddDeviceId(b, -1)
	}
	b.FinishWithFileIdentifier(fb.DevicePropertiesEnd(b), []byte(DevicePropertiesIdentifier))
	return append([]byte(nil), b.FinishedBytes()...)
}

func clampInt32(v int) int32 {
	switch {
	case v > 1<<31-1:
		return 1<<31 - 1
	case v < -1<<31:
		return -1 << 31
	}
	return int32(v)
}

// StreamDeviceProperties describes the device of stream for heuristic plugins; with no GPU
// runtime it describes a host-only process.
func StreamDeviceProperties(stream uintptr) []byte {
	rt := hip.Default()
	if rt.Kind() == hip.KindNone {
		return DevicePropertiesBlob(nil)
	}
	dev, err := rt.StreamDevice(stream)
	if err != nil {
		return DevicePropertiesBlob(nil)
	}
	if b, ok := devicePropertiesBlobs.Load(dev); ok {
		return b.([]byte)
	}
	p, err := rt.DeviceProperties(dev)
	if err != nil {
		return DevicePropertiesBlob(nil)
	}
	b := DevicePropertiesBlob(&p)
	devicePropertiesBlobs.Store(dev, b)
	return b
}

// CandidateDeviceProperties is StreamDeviceProperties when a candidate engine runs on a
// device, and the host-only blob when every candidate is a host-memory engine: ranking CPU
// engines does not start the GPU runtime (a first CUDA call costs about 0.25 s).
func CandidateDeviceProperties(mgr *engines.Manager, candidates []int64, stream uintptr) []byte {
	for _, id := range candidates {
		if en := mgr.EngineByID(id); en == nil || !en.HostMemory {
			return StreamDeviceProperties(stream)
		}
	}
	return DevicePropertiesBlob(nil)
}

// devicePropertiesBlobs keeps each device's blob (device -> []byte, never modified): the
// properties do not change, and every heuristic finalize needs one.
var devicePropertiesBlobs sync.Map
