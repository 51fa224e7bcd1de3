// Hand-written (not flatc output): file identifiers.
//
// flatc's Go generator (2.0.8) emits no identifier helpers, so they are here.
// Only two hipDNN root types carry an identifier; Graph, EngineConfig,
// EngineDetails, EnginePrediction and SerializedExecutionPlan are finished
// without one (use builder.Finish).

package fb

import flatbuffers "github.com/google/flatbuffers/go"

const (
	// SerializedGraphAndPlanIdentifier is the file identifier of a
	// SerializedGraphAndPlan buffer (bytes 4..7).
	SerializedGraphAndPlanIdentifier = "HDGP"
	// DevicePropertiesIdentifier is the file identifier of a
	// DeviceProperties buffer (bytes 4..7).
	DevicePropertiesIdentifier = "HDDP"
)

// identifierLength is the fixed length of a flatbuffers file identifier.
const identifierLength = 4

func hasIdentifier(buf []byte, id string) bool {
	return len(buf) >= flatbuffers.SizeUOffsetT+identifierLength &&
		string(buf[flatbuffers.SizeUOffsetT:flatbuffers.SizeUOffsetT+identifierLength]) == id
}

// SerializedGraphAndPlanBufferHasIdentifier reports whether buf starts like a
// graph-and-plan container ("HDGP" at bytes 4..7).
func SerializedGraphAndPlanBufferHasIdentifier(buf []byte) bool {
	return hasIdentifier(buf, SerializedGraphAndPlanIdentifier)
}

// FinishSerializedGraphAndPlanBuffer finishes b with root and the "HDGP" identifier.
func FinishSerializedGraphAndPlanBuffer(b *flatbuffers.Builder, root flatbuffers.UOffsetT) {
	b.FinishWithFileIdentifier(root, []byte(SerializedGraphAndPlanIdentifier))
}

// DevicePropertiesBufferHasIdentifier reports whether buf carries "HDDP" at bytes 4..7.
func DevicePropertiesBufferHasIdentifier(buf []byte) bool {
	return hasIdentifier(buf, DevicePropertiesIdentifier)
}

// FinishDevicePropertiesBuffer finishes b with root and the "HDDP" identifier.
func FinishDevicePropertiesBuffer(b *flatbuffers.Builder, root flatbuffers.UOffsetT) {
	b.FinishWithFileIdentifier(root, []byte(DevicePropertiesIdentifier))
}
