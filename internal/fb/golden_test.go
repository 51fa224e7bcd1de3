package fb_test

// The golden objects, built with the generated Go builders, and the checks
// every golden buffer must pass (Go-built here, C++-built in
// golden_cpp_test.go). Mirrors schemas/golden/make_golden.cpp.

import (
	"fmt"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/fb/fbtest"
	"github.com/hipdnn-go/backend/internal/wire"
)

var goldenUUID = [16]byte{0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}

type valueTensor struct {
	uid  int64
	name string
	dt   fb.DataType
	v    fb.TensorValueScalar
}

var goldenValueTensors = []valueTensor{
	{11, "v_f32", fb.DataTypeFLOAT, fb.Float32Scalar(1.5)},
	{12, "v_f16", fb.DataTypeHALF, fb.Float16Scalar(-2.25)},
	{13, "v_bf16", fb.DataTypeBFLOAT16, fb.BFloat16Scalar(3.0)},
	{14, "v_f8", fb.DataTypeFP8_E4M3, fb.Float8Scalar(0x7e)},
	{15, "v_i32", fb.DataTypeINT32, fb.Int32Scalar(-123456)},
	{16, "v_f64", fb.DataTypeDOUBLE, fb.Float64Scalar(2.718281828459045)},
	{17, "v_i64", fb.DataTypeINT64, fb.Int64Scalar(-9000000000123)},
	{18, "v_bool", fb.DataTypeUINT8, fb.BoolScalar(true)},
}

func i64vec(b *flatbuffers.Builder, v []int64) flatbuffers.UOffsetT {
	b.StartVector(8, len(v), 8)
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependInt64(v[i])
	}
	return b.EndVector(len(v))
}

func i32vec(b *flatbuffers.Builder, v []int32) flatbuffers.UOffsetT {
	b.StartVector(4, len(v), 4)
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependInt32(v[i])
	}
	return b.EndVector(len(v))
}

func offvec(b *flatbuffers.Builder, v []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	b.StartVector(4, len(v), 4)
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependUOffsetT(v[i])
	}
	return b.EndVector(len(v))
}

// buildFullAttributes writes op's attribute table with every field set to
// its golden value, at the slots of the op tables (flatc's Go builders are
// not used: the C++-built golden buffers are the independent check).
func buildFullAttributes(b *flatbuffers.Builder, op *wire.OpSchema) flatbuffers.UOffsetT {
	k := int(op.Tag)
	offs := make([]flatbuffers.UOffsetT, len(op.Fields))
	for i, f := range op.Fields {
		switch f.Kind {
		case wire.KindUIDList, wire.KindLongList:
			offs[i] = i64vec(b, fbtest.Longs(k, f.Slot))
		case wire.KindIntList:
			offs[i] = i32vec(b, fbtest.Ints(k, f.Slot))
		case wire.KindBytes:
			offs[i] = b.CreateByteVector(fbtest.Bytes(k, f.Slot))
		case wire.KindString:
			offs[i] = b.CreateString(fbtest.String(k, f.Slot))
		}
	}
	b.StartObject(len(op.Fields))
	for i, f := range op.Fields {
		switch f.Kind {
		case wire.KindUID, wire.KindOptUID, wire.KindLong, wire.KindOptLong:
			b.PrependInt64(fbtest.Long(k, f.Slot))
		case wire.KindInt, wire.KindOptInt:
			b.PrependInt32(fbtest.Int(k, f.Slot))
		case wire.KindFloat, wire.KindOptFloat:
			b.PrependFloat32(fbtest.Float(k, f.Slot))
		case wire.KindBool:
			b.PrependBool(true)
		case wire.KindOptBool:
			b.PrependBool(false)
		case wire.KindEnum, wire.KindDataType:
			b.PrependInt8(goldenEnum(&op.Fields[i]))
		default:
			b.PrependUOffsetT(offs[i])
		}
		b.Slot(f.Slot)
	}
	return b.EndObject()
}

func buildValueTensor(b *flatbuffers.Builder, vt valueTensor) flatbuffers.UOffsetT {
	name := b.CreateString(vt.name)
	dims := i64vec(b, []int64{1})
	strides := i64vec(b, []int64{1})
	tag, val := fb.CreateTensorValue(b, vt.v) // out of line, before the table
	fb.TensorAttributesStart(b)
	fb.TensorAttributesAddUid(b, vt.uid)
	fb.TensorAttributesAddName(b, name)
	fb.TensorAttributesAddDataType(b, vt.dt)
	fb.TensorAttributesAddStrides(b, strides)
	fb.TensorAttributesAddDims(b, dims)
	fb.TensorAttributesAddValueType(b, tag)
	fb.TensorAttributesAddValue(b, val)
	return fb.TensorAttributesEnd(b)
}

func buildGoldenGraph() []byte {
	b := flatbuffers.NewBuilder(0)
	var tensors []flatbuffers.UOffsetT
	{
		name := b.CreateString("x")
		strides := i64vec(b, []int64{24, 8, 1})
		dims := i64vec(b, []int64{2, 3, 8})
		fb.TensorAttributesStart(b)
		fb.TensorAttributesAddUid(b, 1)
		fb.TensorAttributesAddName(b, name)
		fb.TensorAttributesAddDataType(b, fb.DataTypeFLOAT)
		fb.TensorAttributesAddStrides(b, strides)
		fb.TensorAttributesAddDims(b, dims)
		fb.TensorAttributesAddVirtual(b, true)
		fb.TensorAttributesAddIsRuntimePassByValue(b, true)
		fb.TensorAttributesAddRaggedOffsetTensorUid(b, 0) // optional: present although 0
		fb.TensorAttributesAddAlignment(b, 64)
		fb.TensorAttributesAddRaggedOffsetMultiplier(b, 4)
		tensors = append(tensors, fb.TensorAttributesEnd(b))
	}
	for _, vt := range goldenValueTensors {
		tensors = append(tensors, buildValueTensor(b, vt))
	}
	{
		dims := i64vec(b, []int64{4})
		fb.TensorAttributesStart(b)
		fb.TensorAttributesAddUid(b, 100)
		fb.TensorAttributesAddDims(b, dims)
		fb.TensorAttributesAddAlignment(b, 16)             // default: elided
		fb.TensorAttributesAddRaggedOffsetMultiplier(b, 1) // default: elided
		fb.TensorAttributesAddIsRuntimePassByValue(b, false)
		tensors = append(tensors, fb.TensorAttributesEnd(b))
	}
	var nodes []flatbuffers.UOffsetT
	for _, op := range wire.Ops() {
		k := int(op.Tag)
		attrs := buildFullAttributes(b, op)
		name := b.CreateString(fmt.Sprintf("node%d", k))
		fb.NodeStart(b)
		fb.NodeAddName(b, name)
		fb.NodeAddComputeDataType(b, fb.DataType(k%17+1))
		fb.NodeAddAttributesType(b, fb.NodeAttributes(op.Tag))
		fb.NodeAddAttributes(b, attrs)
		nodes = append(nodes, fb.NodeEnd(b))
	}
	name := b.CreateString("golden_graph")
	tv := offvec(b, tensors)
	nv := offvec(b, nodes)
	fb.GraphStart(b)
	fb.GraphAddName(b, name)
	fb.GraphAddComputeDataType(b, fb.DataTypeFLOAT)
	fb.GraphAddIntermediateDataType(b, fb.DataTypeHALF)
	fb.GraphAddIoDataType(b, fb.DataTypeBFLOAT16)
	fb.GraphAddTensors(b, tv)
	fb.GraphAddNodes(b, nv)
	fb.GraphAddPreferredEngineId(b, -5)
	fb.GraphAddIsOverrideShapeEnabled(b, true)
	fb.GraphAddMinRequiredEngineApiVersion(b, fb.CreateEngineApiVersion(b, 1, 2, 3))
	fb.GraphAddId(b, fb.CreateUuidFromBytes(b, goldenUUID))
	b.Finish(fb.GraphEnd(b)) // no file identifier
	return b.FinishedBytes()
}

func buildMinimalGraph() []byte {
	b := flatbuffers.NewBuilder(0)
	fb.TensorAttributesStart(b)
	fb.TensorAttributesAddUid(b, 7)
	t := fb.TensorAttributesEnd(b)

	fb.PointwiseAttributesStart(b)
	fb.PointwiseAttributesAddIn0TensorUid(b, fbtest.Long(2, 5)) // golden rule, like the full tables
	fb.PointwiseAttributesAddOut0TensorUid(b, fbtest.Long(2, 8))
	pw := fb.PointwiseAttributesEnd(b)
	fb.NodeStart(b)
	fb.NodeAddAttributesType(b, fb.NodeAttributesPointwiseAttributes)
	fb.NodeAddAttributes(b, pw)
	n0 := fb.NodeEnd(b)

	fb.SdpaAttributesStart(b)
	fb.SdpaAttributesAddQTensorUid(b, fbtest.Long(12, 0))
	fb.SdpaAttributesAddKTensorUid(b, fbtest.Long(12, 1))
	fb.SdpaAttributesAddVTensorUid(b, fbtest.Long(12, 2))
	fb.SdpaAttributesAddOTensorUid(b, fbtest.Long(12, 3))
	sd := fb.SdpaAttributesEnd(b)
	fb.NodeStart(b)
	fb.NodeAddAttributesType(b, fb.NodeAttributesSdpaAttributes)
	fb.NodeAddAttributes(b, sd)
	n1 := fb.NodeEnd(b)

	tv := offvec(b, []flatbuffers.UOffsetT{t})
	nv := offvec(b, []flatbuffers.UOffsetT{n0, n1})
	fb.GraphStart(b)
	fb.GraphAddTensors(b, tv)
	fb.GraphAddNodes(b, nv)
	b.Finish(fb.GraphEnd(b))
	return b.FinishedBytes()
}

func knobSetting(b *flatbuffers.Builder, id string, tag fb.KnobValue, val any) flatbuffers.UOffsetT {
	n := b.CreateString(id)
	v := knobValue(b, tag, val)
	fb.KnobSettingStart(b)
	fb.KnobSettingAddKnobId(b, n)
	fb.KnobSettingAddValueType(b, tag)
	fb.KnobSettingAddValue(b, v)
	return fb.KnobSettingEnd(b)
}

func knobValue(b *flatbuffers.Builder, tag fb.KnobValue, val any) flatbuffers.UOffsetT {
	switch tag {
	case fb.KnobValueIntValue:
		fb.IntValueStart(b)
		fb.IntValueAddValue(b, val.(int64))
		return fb.IntValueEnd(b)
	case fb.KnobValueFloatValue:
		fb.FloatValueStart(b)
		fb.FloatValueAddValue(b, val.(float64))
		return fb.FloatValueEnd(b)
	default:
		s := b.CreateString(val.(string))
		fb.StringValueStart(b)
		fb.StringValueAddValue(b, s)
		return fb.StringValueEnd(b)
	}
}

func buildEngineConfigObj(b *flatbuffers.Builder, engineID int64, metric string, knobs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	kv := offvec(b, knobs)
	m := b.CreateString(metric)
	fb.EngineConfigStart(b)
	fb.EngineConfigAddEngineId(b, engineID)
	fb.EngineConfigAddKnobs(b, kv)
	fb.EngineConfigAddRankingMetric(b, m)
	return fb.EngineConfigEnd(b)
}

func buildEngineConfig() []byte {
	b := flatbuffers.NewBuilder(0)
	knobs := []flatbuffers.UOffsetT{
		knobSetting(b, "global.benchmarking", fb.KnobValueIntValue, int64(42)),
		knobSetting(b, "plugin.float", fb.KnobValueFloatValue, 0.125),
		knobSetting(b, "plugin.string", fb.KnobValueStringValue, "fast"),
	}
	b.Finish(buildEngineConfigObj(b, 0x123456789abcdef0, "time", knobs))
	return b.FinishedBytes()
}

func buildEngineDetails() []byte {
	b := flatbuffers.NewBuilder(0)
	knob := func(id, desc string, vtag fb.KnobValue, val any, ctag fb.KnobConstraint, c flatbuffers.UOffsetT, deprecated bool) flatbuffers.UOffsetT {
		n := b.CreateString(id)
		var d flatbuffers.UOffsetT
		if desc != "" {
			d = b.CreateString(desc)
		}
		v := knobValue(b, vtag, val)
		fb.KnobStart(b)
		fb.KnobAddKnobId(b, n)
		if desc != "" {
			fb.KnobAddDescription(b, d)
		}
		fb.KnobAddDefaultValueType(b, vtag)
		fb.KnobAddDefaultValue(b, v)
		if ctag != fb.KnobConstraintNONE {
			fb.KnobAddConstraintType(b, ctag)
			fb.KnobAddConstraint(b, c)
		}
		fb.KnobAddDeprecated(b, deprecated)
		return fb.KnobEnd(b)
	}
	var knobs []flatbuffers.UOffsetT
	{
		valid := i64vec(b, []int64{0, 4, 8})
		fb.IntConstraintStart(b)
		fb.IntConstraintAddMinValue(b, -4)
		fb.IntConstraintAddMaxValue(b, 64)
		fb.IntConstraintAddStep(b, 4)
		fb.IntConstraintAddValidValues(b, valid)
		c := fb.IntConstraintEnd(b)
		knobs = append(knobs, knob("global.deterministic", "deterministic kernels", fb.KnobValueIntValue, int64(1), fb.KnobConstraintIntConstraint, c, false))
	}
	{
		fb.FloatConstraintStart(b)
		fb.FloatConstraintAddMinValue(b, 0.25)
		fb.FloatConstraintAddMaxValue(b, 2.5)
		c := fb.FloatConstraintEnd(b)
		knobs = append(knobs, knob("plugin.ratio", "ratio", fb.KnobValueFloatValue, 0.5, fb.KnobConstraintFloatConstraint, c, true))
	}
	{
		choices := offvec(b, []flatbuffers.UOffsetT{b.CreateString("auto"), b.CreateString("direct"), b.CreateString("winograd")})
		fb.StringConstraintStart(b)
		fb.StringConstraintAddMaxLength(b, 16)
		fb.StringConstraintAddValidValues(b, choices)
		c := fb.StringConstraintEnd(b)
		knobs = append(knobs, knob("plugin.algo", "algorithm", fb.KnobValueStringValue, "auto", fb.KnobConstraintStringConstraint, c, false))
	}
	{
		fb.IntConstraintStart(b)
		fb.IntConstraintAddMinValue(b, 1)
		fb.IntConstraintAddMaxValue(b, 9)
		fb.IntConstraintAddStep(b, 1) // default: elided
		c := fb.IntConstraintEnd(b)
		knobs = append(knobs, knob("plugin.free", "", fb.KnobValueIntValue, int64(7), fb.KnobConstraintIntConstraint, c, false))
	}
	knobs = append(knobs, knob("plugin.unconstrained", "", fb.KnobValueStringValue, "x", fb.KnobConstraintNONE, 0, false))
	kv := offvec(b, knobs)
	notes := i32vec(b, []int32{0, 2, 5})
	name := b.CreateString("golden_engine")

	settings := offvec(b, []flatbuffers.UOffsetT{knobSetting(b, "plugin.algo", fb.KnobValueStringValue, "direct")})
	cid := b.CreateString("c0")
	kf := b.CreateString(`{"tile":64}`)
	fb.EngineCandidateStart(b)
	fb.EngineCandidateAddId(b, cid)
	fb.EngineCandidateAddKnobSettings(b, settings)
	fb.EngineCandidateAddKernelFeatures(b, kf)
	cand := fb.EngineCandidateEnd(b)
	cv := offvec(b, []flatbuffers.UOffsetT{cand})
	gid, did, arch := b.CreateString("g-1"), b.CreateString("d-0"), b.CreateString("gfx942")
	pf, df := b.CreateString(`{"n":1}`), b.CreateString(`{"cu":304}`)
	en, ued := b.CreateString("golden"), b.CreateString("ued-1")
	fb.EngineCandidatePageStart(b)
	fb.EngineCandidatePageAddGraphId(b, gid)
	fb.EngineCandidatePageAddDeviceId(b, did)
	fb.EngineCandidatePageAddDeviceArch(b, arch)
	fb.EngineCandidatePageAddProblemFeatures(b, pf)
	fb.EngineCandidatePageAddDeviceFeatures(b, df)
	fb.EngineCandidatePageAddTotalCount(b, 10)
	fb.EngineCandidatePageAddOffset(b, 2)
	fb.EngineCandidatePageAddCandidates(b, cv)
	fb.EngineCandidatePageAddEngineName(b, en)
	fb.EngineCandidatePageAddEngineDescriptorId(b, ued)
	page := fb.EngineCandidatePageEnd(b)

	fb.EngineDetailsStart(b)
	fb.EngineDetailsAddEngineId(b, -77)
	fb.EngineDetailsAddKnobs(b, kv)
	fb.EngineDetailsAddBehaviorNotes(b, notes)
	fb.EngineDetailsAddName(b, name)
	fb.EngineDetailsAddCandidatePage(b, page)
	b.Finish(fb.EngineDetailsEnd(b))
	return b.FinishedBytes()
}

func buildEnginePrediction() []byte {
	b := flatbuffers.NewBuilder(0)
	cfg := buildEngineConfigObj(b, 99, "tflops",
		[]flatbuffers.UOffsetT{knobSetting(b, "global.benchmarking", fb.KnobValueIntValue, int64(1))})
	uhd, reason, bj, fj, metric := b.CreateString("uhd-1"), b.CreateString("ok"), b.CreateString("{}"),
		b.CreateString(`{"m":128}`), b.CreateString("tflops")
	fb.EnginePredictionStart(b)
	fb.EnginePredictionAddEngineId(b, 99)
	fb.EnginePredictionAddKind(b, fb.PredictionKindCONFIGURATION)
	fb.EnginePredictionAddStatus(b, fb.PredictionStatusAVAILABLE)
	fb.EnginePredictionAddValue(b, 12.5)
	fb.EnginePredictionAddUhdId(b, uhd)
	fb.EnginePredictionAddReason(b, reason)
	fb.EnginePredictionAddEngineConfig(b, cfg)
	fb.EnginePredictionAddBindingJson(b, bj)
	fb.EnginePredictionAddFeaturesJson(b, fj)
	fb.EnginePredictionAddMetric(b, metric)
	b.Finish(fb.EnginePredictionEnd(b))
	return b.FinishedBytes()
}

func buildExecutionPlan() []byte {
	b := flatbuffers.NewBuilder(0)
	uids := i64vec(b, []int64{1, 2, 3})
	payload := b.CreateByteVector([]byte{0xde, 0xad, 0xbe, 0xef})
	aligns := i64vec(b, []int64{16, 64, 256})
	fb.SerializedExecutionPlanStart(b)
	fb.SerializedExecutionPlanAddVersion(b, 1)
	fb.SerializedExecutionPlanAddEngineId(b, 99)
	fb.SerializedExecutionPlanAddWorkspaceSize(b, 4096)
	fb.SerializedExecutionPlanAddTensorUids(b, uids)
	fb.SerializedExecutionPlanAddPluginPayload(b, payload)
	fb.SerializedExecutionPlanAddIsOverrideShapeEnabled(b, true)
	fb.SerializedExecutionPlanAddTensorAlignments(b, aligns)
	b.Finish(fb.SerializedExecutionPlanEnd(b))
	return b.FinishedBytes()
}

func buildGraphAndPlan(graph, plan []byte) []byte {
	b := flatbuffers.NewBuilder(0)
	gb := b.CreateByteVector(graph)
	pb := b.CreateByteVector(plan)
	fb.SerializedGraphAndPlanStart(b)
	fb.SerializedGraphAndPlanAddGraphBlob(b, gb)
	fb.SerializedGraphAndPlanAddPlanBlob(b, pb)
	fb.FinishSerializedGraphAndPlanBuffer(b, fb.SerializedGraphAndPlanEnd(b))
	return b.FinishedBytes()
}

func buildDeviceProperties() []byte {
	b := flatbuffers.NewBuilder(0)
	arch := b.CreateString("gfx942:sramecc+:xnack-")
	fb.DevicePropertiesStart(b)
	fb.DevicePropertiesAddDeviceId(b, 0) // differs from the default -1: written
	fb.DevicePropertiesAddMultiProcessorCount(b, 304)
	fb.DevicePropertiesAddTotalGlobalMem(b, 206158430208)
	fb.DevicePropertiesAddArchitectureName(b, arch)
	fb.FinishDevicePropertiesBuffer(b, fb.DevicePropertiesEnd(b))
	return b.FinishedBytes()
}

// goldenBuffers is every golden object by file name, built in Go.
func goldenBuffers() map[string][]byte {
	minimal := buildMinimalGraph()
	plan := buildExecutionPlan()
	return map[string][]byte{
		"graph.bin":             buildGoldenGraph(),
		"graph_minimal.bin":     minimal,
		"engine_config.bin":     buildEngineConfig(),
		"engine_details.bin":    buildEngineDetails(),
		"engine_prediction.bin": buildEnginePrediction(),
		"execution_plan.bin":    plan,
		"graph_and_plan.bin":    buildGraphAndPlan(minimal, plan),
		"device_properties.bin": buildDeviceProperties(),
	}
}

// goldenCheckers is the check for each golden file.
var goldenCheckers = map[string]func(*testing.T, []byte){
	"graph.bin":             checkGoldenGraph,
	"graph_minimal.bin":     checkMinimalGraph,
	"engine_config.bin":     checkEngineConfig,
	"engine_details.bin":    checkEngineDetails,
	"engine_prediction.bin": checkEnginePrediction,
	"execution_plan.bin":    checkExecutionPlan,
	"graph_and_plan.bin":    checkGraphAndPlan,
	"device_properties.bin": checkDeviceProperties,
}

func TestGoGolden(t *testing.T) {
	for name, buf := range goldenBuffers() {
		t.Run(name, func(t *testing.T) { goldenCheckers[name](t, buf) })
	}
}

func noIdentifier(t *testing.T, buf []byte) {
	t.Helper()
	if fb.SerializedGraphAndPlanBufferHasIdentifier(buf) || fb.DevicePropertiesBufferHasIdentifier(buf) {
		t.Errorf("buffer carries a file identifier %q; this root type has none", buf[4:8])
	}
}

func checkGoldenGraph(t *testing.T, buf []byte) {
	noIdentifier(t, buf)
	// Raw slots (graph.fbs: 0 name, 1-3 data types, 4 tensors, 5 nodes,
	// 6 preferred_engine_id, 7 is_override_shape_enabled, 8 min version, 9 id).
	r := rawRoot(t, buf, "Graph")
	if got := r.str(0, "name"); got != "golden_graph" {
		t.Errorf("Graph name %q", got)
	}
	if r.i8(1, "compute_data_type") != 1 || r.i8(2, "intermediate_data_type") != 2 || r.i8(3, "io_data_type") != 3 {
		t.Error("Graph data types")
	}
	if r.i64(6, "preferred_engine_id") != -5 || !r.b(7, "is_override_shape_enabled") {
		t.Error("Graph preferred_engine_id / is_override_shape_enabled")
	}
	vp := r.need(8, "min_required_engine_api_version")
	if r.tab.GetUint32(vp) != 1 || r.tab.GetUint32(vp+4) != 2 || r.tab.GetUint32(vp+8) != 3 {
		t.Error("Graph min version struct (inline, 3 x uint32)")
	}
	ip := r.need(9, "id")
	if got := [16]byte(buf[ip : ip+16]); got != goldenUUID {
		t.Errorf("Graph id bytes % x", got)
	}
	if r.vtableSlots() != 10 {
		t.Errorf("Graph vtable has %d slots, want 10", r.vtableSlots())
	}

	// Tensors, raw (tensor_attributes.fbs: 0 uid, 1 name, 2 data_type, 3 strides,
	// 4 dims, 5 virtual, 6-7 value, 8 is_runtime_pass_by_value,
	// 9 ragged_offset_tensor_uid, 10 alignment, 11 ragged_offset_multiplier).
	ts := r.subs(4, "tensors")
	if len(ts) != 10 {
		t.Fatalf("%d tensors, want 10", len(ts))
	}
	x := ts[0]
	if x.i64(0, "uid") != 1 || x.str(1, "name") != "x" || x.i8(2, "data_type") != 1 ||
		!eqInt64s(x.i64s(3, "strides"), []int64{24, 8, 1}) || !eqInt64s(x.i64s(4, "dims"), []int64{2, 3, 8}) ||
		!x.b(5, "virtual") || !x.b(8, "is_runtime_pass_by_value") || x.i64(9, "ragged_offset_tensor_uid") != 0 ||
		x.i64(10, "alignment") != 64 || x.i64(11, "ragged_offset_multiplier") != 4 {
		t.Error("tensor x: raw slot values")
	}
	x.absent(6, "value_type")
	x.absent(7, "value")
	for i, vt := range goldenValueTensors {
		tr := ts[1+i]
		if tr.i64(0, "uid") != vt.uid || tr.str(1, "name") != vt.name || fb.DataType(tr.i8(2, "data_type")) != vt.dt {
			t.Errorf("tensor %s: uid/name/data_type", vt.name)
		}
		tag, sv := tr.union(6, "value")
		if fb.TensorValue(tag) != vt.v.Type {
			t.Errorf("tensor %s: value_type %d, want %d", vt.name, tag, vt.v.Type)
		}
		// sv.tab.Pos is the out-of-line struct itself.
		size := fb.TensorValueSize(vt.v.Type)
		if int(sv.tab.Pos)%size != 0 {
			t.Errorf("tensor %s: value struct at %d not %d-aligned", vt.name, sv.tab.Pos, size)
		}
		var bits uint64
		switch size {
		case 1:
			bits = uint64(buf[sv.tab.Pos])
		case 4:
			bits = uint64(sv.tab.GetUint32(sv.tab.Pos))
			if vt.v.Type == fb.TensorValueInt32Value {
				bits = uint64(int64(int32(bits)))
			}
		case 8:
			bits = sv.tab.GetUint64(sv.tab.Pos)
		}
		if bits != vt.v.Bits {
			t.Errorf("tensor %s: raw value bits %#x, want %#x", vt.name, bits, vt.v.Bits)
		}
		for _, s := range []int{5, 8, 9, 10, 11} {
			tr.absent(s, "unset/default field")
		}
	}
	d := ts[9]
	if d.i64(0, "uid") != 100 || !eqInt64s(d.i64s(4, "dims"), []int64{4}) {
		t.Error("tensor 100 uid/dims")
	}
	for _, s := range []int{1, 2, 3, 5, 6, 7, 8, 9, 10, 11} {
		d.absent(s, "unset optional / default")
	}

	// Nodes, raw (graph.fbs Node: 0 name, 1 compute_data_type, 2-3 attributes).
	ns := r.subs(5, "nodes")
	if len(ns) != len(wire.Ops()) {
		t.Fatalf("%d nodes, want one per op (%d)", len(ns), len(wire.Ops()))
	}
	for i, n := range ns {
		k := i + 1
		if n.str(0, "name") != fmt.Sprintf("node%d", k) || n.i8(1, "compute_data_type") != int8(k%17+1) {
			t.Errorf("node %d name / compute_data_type", k)
		}
		tag, ar := n.union(2, "attributes")
		op := wire.OpByTag(tag)
		if int(tag) != k || op == nil {
			t.Errorf("node %d: attributes_type %d", k, tag)
			continue
		}
		ar.what = op.Name
		checkOpRaw(t, ar, op, nil)
	}

	// The same through the generated accessors and the hand-written helpers.
	g := fb.GetRootAsGraph(buf, 0)
	if string(g.Name()) != "golden_graph" || g.ComputeDataType() != fb.DataTypeFLOAT ||
		g.IntermediateDataType() != fb.DataTypeHALF || g.IoDataType() != fb.DataTypeBFLOAT16 {
		t.Error("Graph accessors: name / data types")
	}
	if p := g.PreferredEngineId(); p == nil || *p != -5 {
		t.Errorf("PreferredEngineId = %v", p)
	}
	if !g.IsOverrideShapeEnabled() {
		t.Error("IsOverrideShapeEnabled")
	}
	if v := g.MinRequiredEngineApiVersion(nil); v == nil || v.Major() != 1 || v.Minor() != 2 || v.Patch() != 3 {
		t.Error("MinRequiredEngineApiVersion")
	}
	if id, ok := g.IdBytes(); !ok || id != goldenUUID {
		t.Errorf("IdBytes = % x, %v", id, ok)
	}
	if u := g.Id(nil); u == nil || u.Bytes() != goldenUUID || u.Bytes0() != 0x10 || u.Bytes15() != 0xef {
		t.Error("Id().Bytes()")
	}
	var ta fb.TensorAttributes
	if !g.Tensors(&ta, 0) || ta.Uid() != 1 || !ta.Virtual() || !ta.IsRuntimePassByValue() ||
		ta.Alignment() != 64 || ta.RaggedOffsetMultiplier() != 4 || ta.StridesLength() != 3 || ta.Dims(2) != 8 {
		t.Error("tensor x accessors")
	}
	if p := ta.RaggedOffsetTensorUid(); p == nil || *p != 0 {
		t.Errorf("RaggedOffsetTensorUid = %v, want present 0", p)
	}
	if ta.ValueType() != fb.TensorValueNONE {
		t.Error("tensor x has a value")
	}
	if _, ok := ta.ValueScalar(); ok {
		t.Error("tensor x: ValueScalar ok without a value")
	}
	for i, vt := range goldenValueTensors {
		g.Tensors(&ta, 1+i)
		if ta.ValueType() != vt.v.Type {
			t.Errorf("%s: ValueType %v", vt.name, ta.ValueType())
		}
		s, ok := ta.ValueScalar()
		if !ok || s != vt.v {
			t.Errorf("%s: ValueScalar = %+v, %v; want %+v", vt.name, s, ok, vt.v)
		}
		checkTypedValue(t, &ta, vt)
	}
	g.Tensors(&ta, 9)
	if ta.Alignment() != 16 || ta.RaggedOffsetMultiplier() != 1 || ta.RaggedOffsetTensorUid() != nil ||
		ta.IsRuntimePassByValue() || ta.Virtual() || ta.Name() != nil || ta.DataType() != fb.DataTypeUNSET {
		t.Error("tensor 100: defaults through accessors")
	}

	var node fb.Node
	var ut flatbuffers.Table
	for i := 0; i < g.NodesLength(); i++ {
		g.Nodes(&node, i)
		op := wire.OpByTag(uint8(node.AttributesType()))
		if op == nil || int(op.Tag) != i+1 || !node.Attributes(&ut) {
			t.Errorf("node %d: union", i)
			continue
		}
		checkOpAccessors(t, attributeObject(t, op, ut), op, nil)
	}
}

// checkTypedValue reads a value through the ValueAs<Member> accessor and checks
// that every other member's accessor refuses it.
func checkTypedValue(t *testing.T, ta *fb.TensorAttributes, vt valueTensor) {
	t.Helper()
	var got any
	hits := 0
	if v := ta.ValueAsFloat32Value(nil); v != nil {
		hits, got = hits+1, fb.Float32Scalar(v.Value())
	}
	if v := ta.ValueAsFloat16Value(nil); v != nil {
		hits, got = hits+1, fb.Float16Scalar(v.Value())
	}
	if v := ta.ValueAsBFloat16Value(nil); v != nil {
		hits, got = hits+1, fb.BFloat16Scalar(v.Value())
	}
	if v := ta.ValueAsFloat8Value(nil); v != nil {
		hits, got = hits+1, fb.Float8Scalar(v.Value())
	}
	if v := ta.ValueAsInt32Value(nil); v != nil {
		hits, got = hits+1, fb.Int32Scalar(v.Value())
	}
	if v := ta.ValueAsFloat64Value(nil); v != nil {
		hits, got = hits+1, fb.Float64Scalar(v.Value())
	}
	if v := ta.ValueAsInt64Value(nil); v != nil {
		hits, got = hits+1, fb.Int64Scalar(v.Value())
	}
	if v := ta.ValueAsBoolValue(nil); v != nil {
		hits, got = hits+1, fb.BoolScalar(v.Value())
	}
	if hits != 1 || got != vt.v {
		t.Errorf("%s: typed accessors: %d matched, value %+v, want %+v", vt.name, hits, got, vt.v)
	}
	var tab flatbuffers.Table
	if !ta.Value(&tab) {
		t.Errorf("%s: Value(&tab) false", vt.name)
	}
}

func checkMinimalGraph(t *testing.T, buf []byte) {
	noIdentifier(t, buf)
	r := rawRoot(t, buf, "Graph(minimal)")
	for _, s := range []int{0, 1, 2, 3, 6, 7, 8, 9} {
		r.absent(s, "unset graph field")
	}
	g := fb.GetRootAsGraph(buf, 0)
	if g.PreferredEngineId() != nil || g.MinRequiredEngineApiVersion(nil) != nil || g.Id(nil) != nil ||
		g.IsOverrideShapeEnabled() || g.ComputeDataType() != fb.DataTypeUNSET {
		t.Error("minimal graph: absent fields read as present")
	}
	if _, ok := g.IdBytes(); ok {
		t.Error("IdBytes ok on a graph without id")
	}
	ts := r.subs(4, "tensors")
	if len(ts) != 1 || ts[0].i64(0, "uid") != 7 {
		t.Fatal("minimal tensor")
	}
	for s := 1; s <= 11; s++ {
		ts[0].absent(s, "unset tensor field")
	}
	var ta fb.TensorAttributes
	g.Tensors(&ta, 0)
	if ta.Alignment() != 16 || ta.RaggedOffsetMultiplier() != 1 || ta.RaggedOffsetTensorUid() != nil || ta.ValueType() != fb.TensorValueNONE {
		t.Error("minimal tensor defaults")
	}
	ns := r.subs(5, "nodes")
	if len(ns) != 2 {
		t.Fatalf("%d nodes", len(ns))
	}
	sets := []map[string]bool{
		{"in_0_tensor_uid": true, "out_0_tensor_uid": true},
		{"q_tensor_uid": true, "k_tensor_uid": true, "v_tensor_uid": true, "o_tensor_uid": true},
	}
	specs := []*wire.OpSchema{opByName(t, "PointwiseAttributes"), opByName(t, "SdpaAttributes")}
	var node fb.Node
	var ut flatbuffers.Table
	for i, n := range ns {
		n.absent(0, "name")
		n.absent(1, "compute_data_type")
		tag, ar := n.union(2, "attributes")
		if tag != specs[i].Tag {
			t.Fatalf("minimal node %d tag %d", i, tag)
		}
		ar.what = specs[i].Name + "(minimal)"
		checkOpRaw(t, ar, specs[i], sets[i])
		g.Nodes(&node, i)
		node.Attributes(&ut)
		checkOpAccessors(t, attributeObject(t, specs[i], ut), specs[i], sets[i])
	}
}

func checkEngineConfig(t *testing.T, buf []byte) {
	noIdentifier(t, buf)
	r := rawRoot(t, buf, "EngineConfig")
	if r.i64(0, "engine_id") != 0x123456789abcdef0 || r.str(2, "ranking_metric") != "time" {
		t.Error("EngineConfig engine_id / ranking_metric")
	}
	ks := r.subs(1, "knobs")
	if len(ks) != 3 {
		t.Fatalf("%d knobs", len(ks))
	}
	wantIDs := []string{"global.benchmarking", "plugin.float", "plugin.string"}
	for i, k := range ks {
		if k.str(0, "knob_id") != wantIDs[i] {
			t.Errorf("knob %d id", i)
		}
		tag, v := k.union(1, "value")
		if int(tag) != i+1 {
			t.Errorf("knob %d value_type %d", i, tag)
		}
		switch i {
		case 0:
			if v.i64(0, "IntValue.value") != 42 {
				t.Error("IntValue")
			}
		case 1:
			if v.f64(0, "FloatValue.value") != 0.125 {
				t.Error("FloatValue")
			}
		case 2:
			if v.str(0, "StringValue.value") != "fast" {
				t.Error("StringValue")
			}
		}
	}
	c := fb.GetRootAsEngineConfig(buf, 0)
	var ks0 fb.KnobSetting
	var ut flatbuffers.Table
	if c.EngineId() != 0x123456789abcdef0 || string(c.RankingMetric()) != "time" || c.KnobsLength() != 3 {
		t.Error("EngineConfig accessors")
	}
	c.Knobs(&ks0, 1)
	if string(ks0.KnobId()) != "plugin.float" || ks0.ValueType() != fb.KnobValueFloatValue || !ks0.Value(&ut) {
		t.Fatal("KnobSetting accessors")
	}
	var fv fb.FloatValue
	fv.Init(ut.Bytes, ut.Pos)
	if fv.Value() != 0.125 {
		t.Error("FloatValue accessor")
	}
}

func checkEngineDetails(t *testing.T, buf []byte) {
	noIdentifier(t, buf)
	r := rawRoot(t, buf, "EngineDetails")
	if r.i64(0, "engine_id") != -77 || r.str(3, "name") != "golden_engine" {
		t.Error("EngineDetails engine_id / name")
	}
	if got := r.i32s(2, "behavior_notes"); fmt.Sprint(got) != "[0 2 5]" {
		t.Errorf("behavior_notes %v", got)
	}
	ks := r.subs(1, "knobs")
	if len(ks) != 5 {
		t.Fatalf("%d knobs", len(ks))
	}
	// Knob: 0 knob_id, 1 description, 2-3 default_value, 4-5 constraint, 6 deprecated.
	k0 := ks[0]
	if k0.str(0, "knob_id") != "global.deterministic" || k0.str(1, "description") != "deterministic kernels" {
		t.Error("knob 0 strings")
	}
	if tag, v := k0.union(2, "default_value"); tag != 1 || v.i64(0, "value") != 1 {
		t.Error("knob 0 default")
	}
	tag, c := k0.union(4, "constraint")
	if tag != 1 || c.i64(0, "min_value") != -4 || c.i64(1, "max_value") != 64 || c.i64(2, "step") != 4 ||
		!eqInt64s(c.i64s(3, "valid_values"), []int64{0, 4, 8}) {
		t.Error("knob 0 IntConstraint")
	}
	k0.absent(6, "deprecated (false)")
	k1 := ks[1]
	if tag, v := k1.union(2, "default_value"); tag != 2 || v.f64(0, "value") != 0.5 {
		t.Error("knob 1 default")
	}
	if tag, c := k1.union(4, "constraint"); tag != 2 || c.f64(0, "min_value") != 0.25 || c.f64(1, "max_value") != 2.5 {
		t.Error("knob 1 FloatConstraint")
	}
	if !k1.b(6, "deprecated") {
		t.Error("knob 1 deprecated")
	}
	k2 := ks[2]
	if tag, v := k2.union(2, "default_value"); tag != 3 || v.str(0, "value") != "auto" {
		t.Error("knob 2 default")
	}
	if tag, c := k2.union(4, "constraint"); tag != 3 || c.i32(0, "max_length") != 16 ||
		fmt.Sprint(c.strs(1, "valid_values")) != "[auto direct winograd]" {
		t.Error("knob 2 StringConstraint")
	}
	k3 := ks[3]
	k3.absent(1, "description")
	_, c3 := k3.union(4, "constraint")
	c3.absent(2, "step (default 1)")
	c3.absent(3, "valid_values")
	k4 := ks[4]
	k4.absent(4, "constraint_type (NONE)")
	k4.absent(5, "constraint")

	// Candidate page: 0-4 required strings, 5 total_count, 6 offset,
	// 7 candidates, 8 engine_name, 9 engine_descriptor_id.
	p := r.sub(4, "candidate_page")
	if p.str(0, "graph_id") != "g-1" || p.str(1, "device_id") != "d-0" || p.str(2, "device_arch") != "gfx942" ||
		p.str(3, "problem_features") != `{"n":1}` || p.str(4, "device_features") != `{"cu":304}` ||
		p.u64(5, "total_count") != 10 || p.u64(6, "offset") != 2 || p.str(8, "engine_name") != "golden" ||
		p.str(9, "engine_descriptor_id") != "ued-1" {
		t.Error("EngineCandidatePage")
	}
	cs := p.subs(7, "candidates")
	if len(cs) != 1 || cs[0].str(0, "id") != "c0" || cs[0].str(2, "kernel_features") != `{"tile":64}` {
		t.Fatal("EngineCandidate")
	}
	st := cs[0].subs(1, "knob_settings")
	if len(st) != 1 || st[0].str(0, "knob_id") != "plugin.algo" {
		t.Fatal("candidate knob_settings")
	}
	if tag, v := st[0].union(1, "value"); tag != 3 || v.str(0, "value") != "direct" {
		t.Error("candidate knob setting value")
	}

	d := fb.GetRootAsEngineDetails(buf, 0)
	var kn fb.Knob
	var ut flatbuffers.Table
	if d.EngineId() != -77 || d.BehaviorNotesLength() != 3 || d.BehaviorNotes(2) != 5 || d.KnobsLength() != 5 {
		t.Error("EngineDetails accessors")
	}
	d.Knobs(&kn, 3)
	if kn.ConstraintType() != fb.KnobConstraintIntConstraint || !kn.Constraint(&ut) {
		t.Fatal("knob 3 constraint accessor")
	}
	var ic fb.IntConstraint
	ic.Init(ut.Bytes, ut.Pos)
	if ic.Step() != 1 || ic.MinValue() != 1 || ic.MaxValue() != 9 || ic.ValidValuesLength() != 0 {
		t.Error("IntConstraint defaults through accessors")
	}
	d.Knobs(&kn, 4)
	if kn.ConstraintType() != fb.KnobConstraintNONE || kn.Constraint(&ut) || kn.Deprecated() {
		t.Error("unconstrained knob")
	}
	pg := d.CandidatePage(nil)
	if pg == nil || pg.TotalCount() != 10 || pg.Offset() != 2 || string(pg.EngineDescriptorId()) != "ued-1" {
		t.Error("CandidatePage accessors")
	}
}

func checkEnginePrediction(t *testing.T, buf []byte) {
	noIdentifier(t, buf)
	r := rawRoot(t, buf, "EnginePrediction")
	if r.i64(0, "engine_id") != 99 || r.u8(1, "kind") != 1 || r.u8(2, "status") != 1 || r.f64(3, "value") != 12.5 ||
		r.str(4, "uhd_id") != "uhd-1" || r.str(5, "reason") != "ok" || r.str(7, "binding_json") != "{}" ||
		r.str(8, "features_json") != `{"m":128}` || r.str(9, "metric") != "tflops" {
		t.Error("EnginePrediction raw slots")
	}
	c := r.sub(6, "engine_config")
	if c.i64(0, "engine_id") != 99 || c.str(2, "ranking_metric") != "tflops" || len(c.subs(1, "knobs")) != 1 {
		t.Error("EnginePrediction.engine_config")
	}
	p := fb.GetRootAsEnginePrediction(buf, 0)
	if p.Kind() != fb.PredictionKindCONFIGURATION || p.Status() != fb.PredictionStatusAVAILABLE || p.Value() != 12.5 {
		t.Error("EnginePrediction accessors")
	}
	if ec := p.EngineConfig(nil); ec == nil || ec.EngineId() != 99 {
		t.Error("EnginePrediction.EngineConfig accessor")
	}
}

func checkExecutionPlan(t *testing.T, buf []byte) {
	noIdentifier(t, buf)
	r := rawRoot(t, buf, "SerializedExecutionPlan")
	if r.u32(0, "version") != 1 || r.i64(1, "engine_id") != 99 || r.i64(2, "workspace_size") != 4096 ||
		!eqInt64s(r.i64s(3, "tensor_uids"), []int64{1, 2, 3}) ||
		fmt.Sprintf("%x", r.bytes(4, "plugin_payload")) != "deadbeef" || !r.b(5, "is_override_shape_enabled") ||
		!eqInt64s(r.i64s(6, "tensor_alignments"), []int64{16, 64, 256}) {
		t.Error("SerializedExecutionPlan raw slots")
	}
	p := fb.GetRootAsSerializedExecutionPlan(buf, 0)
	if p.Version() != 1 || p.WorkspaceSize() != 4096 || fmt.Sprintf("%x", p.PluginPayloadBytes()) != "deadbeef" ||
		p.TensorAlignments(2) != 256 || !p.IsOverrideShapeEnabled() {
		t.Error("SerializedExecutionPlan accessors")
	}
}

func checkGraphAndPlan(t *testing.T, buf []byte) {
	if string(buf[4:8]) != "HDGP" || !fb.SerializedGraphAndPlanBufferHasIdentifier(buf) {
		t.Fatalf("identifier %q, want HDGP", buf[4:8])
	}
	r := rawRoot(t, buf, "SerializedGraphAndPlan")
	graph := r.bytes(0, "graph_blob")
	plan := r.bytes(1, "plan_blob")
	checkMinimalGraph(t, graph)
	checkExecutionPlan(t, plan)
	c := fb.GetRootAsSerializedGraphAndPlan(buf, 0)
	if c.GraphBlobLength() != len(graph) || c.PlanBlobLength() != len(plan) {
		t.Error("SerializedGraphAndPlan accessors")
	}
}

func checkDeviceProperties(t *testing.T, buf []byte) {
	if string(buf[4:8]) != "HDDP" || !fb.DevicePropertiesBufferHasIdentifier(buf) {
		t.Fatalf("identifier %q, want HDDP", buf[4:8])
	}
	r := rawRoot(t, buf, "DeviceProperties")
	if r.i32(0, "device_id") != 0 || r.i32(1, "multi_processor_count") != 304 ||
		r.u64(2, "total_global_mem") != 206158430208 || r.str(3, "architecture_name") != "gfx942:sramecc+:xnack-" {
		t.Error("DeviceProperties raw slots")
	}
	p := fb.GetRootAsDeviceProperties(buf, 0)
	if p.DeviceId() != 0 || p.MultiProcessorCount() != 304 || p.TotalGlobalMem() != 206158430208 {
		t.Error("DeviceProperties accessors")
	}
	// Defaults: an empty table reads device_id -1.
	b := flatbuffers.NewBuilder(0)
	fb.DevicePropertiesStart(b)
	fb.DevicePropertiesAddDeviceId(b, -1) // default: elided
	fb.FinishDevicePropertiesBuffer(b, fb.DevicePropertiesEnd(b))
	e := b.FinishedBytes()
	rawRoot(t, e, "DeviceProperties(default)").absent(0, "device_id")
	if fb.GetRootAsDeviceProperties(e, 0).DeviceId() != -1 {
		t.Error("DeviceProperties default device_id")
	}
}
