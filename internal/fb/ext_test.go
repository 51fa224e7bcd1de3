package fb_test

// Unit tests of the hand-written helpers (*_ext.go): round trips, the wire
// placement of out-of-line TensorValue structs, and bounds checks on
// malformed buffers.

import (
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fb"
)

// tensorBuffer finishes a buffer whose root is one TensorAttributes.
func tensorBuffer(v fb.TensorValueScalar) []byte {
	b := flatbuffers.NewBuilder(0)
	tag, off := fb.CreateTensorValue(b, v)
	fb.TensorAttributesStart(b)
	fb.TensorAttributesAddUid(b, 5)
	if tag != fb.TensorValueNONE {
		fb.TensorAttributesAddValueType(b, tag)
		fb.TensorAttributesAddValue(b, off)
	}
	b.Finish(fb.TensorAttributesEnd(b))
	return b.FinishedBytes()
}

func TestTensorValueRoundTrip(t *testing.T) {
	for _, vt := range goldenValueTensors {
		buf := tensorBuffer(vt.v)
		ta := fb.GetRootAsTensorAttributes(buf, 0)
		s, ok := ta.ValueScalar()
		if !ok || s != vt.v {
			t.Errorf("%s: got %+v %v", vt.name, s, ok)
		}
		// slot 6 holds the tag, slot 7 a uoffset to the struct, which is
		// aligned to its own size.
		r := rawRoot(t, buf, vt.name)
		tag, sv := r.union(6, "value")
		if fb.TensorValue(tag) != vt.v.Type || int(sv.tab.Pos)%fb.TensorValueSize(vt.v.Type) != 0 {
			t.Errorf("%s: tag %d at struct pos %d", vt.name, tag, sv.tab.Pos)
		}
	}
	buf := tensorBuffer(fb.TensorValueScalar{})
	ta := fb.GetRootAsTensorAttributes(buf, 0)
	if ta.ValueType() != fb.TensorValueNONE {
		t.Error("NONE value wrote a tag")
	}
	if _, ok := ta.ValueScalar(); ok {
		t.Error("ValueScalar ok for NONE")
	}
	if v := fb.Int32Scalar(-7); v.Int64() != -7 {
		t.Error("Int32Scalar sign")
	}
}

func TestTensorValueBounds(t *testing.T) {
	good := tensorBuffer(fb.Float64Scalar(1.25))
	r := rawRoot(t, good, "t")
	p := r.need(7, "value")

	bad := append([]byte(nil), good...)
	bad[p], bad[p+1], bad[p+2], bad[p+3] = 0xf0, 0xff, 0xff, 0x7f // far out of range
	ta := fb.GetRootAsTensorAttributes(bad, 0)
	if _, ok := ta.ValueScalar(); ok {
		t.Error("ValueScalar ok with a dangling offset")
	}
	if ta.ValueAsFloat64Value(nil) != nil {
		t.Error("ValueAsFloat64Value non-nil with a dangling offset")
	}
	var tab flatbuffers.Table
	if ta.Value(&tab) {
		t.Error("Value true with a dangling offset")
	}

	// Offset that leaves fewer than 8 bytes for a Float64Value.
	short := append([]byte(nil), good...)
	end := uint32(len(short)) - uint32(p) - 4
	flatbuffers.WriteUint32(short[p:], end)
	if _, ok := fb.GetRootAsTensorAttributes(short, 0).ValueScalar(); ok {
		t.Error("ValueScalar ok with a struct running past the end")
	}

	// Wrong member asked for.
	ta = fb.GetRootAsTensorAttributes(good, 0)
	if ta.ValueAsInt64Value(nil) != nil || ta.ValueAsFloat32Value(nil) != nil {
		t.Error("typed accessor of another member returned a value")
	}
	if v := ta.ValueAsFloat64Value(nil); v == nil || v.Value() != 1.25 {
		t.Error("ValueAsFloat64Value")
	}

	// Every truncation of a valid buffer: no panic, never a wrong success.
	for n := 0; n < len(good); n++ {
		var x fb.TensorAttributes
		pos := flatbuffers.UOffsetT(0)
		if n >= 4 {
			pos = flatbuffers.GetUOffsetT(good)
		}
		x.Init(good[:n], pos)
		if s, ok := x.ValueScalar(); ok && s != fb.Float64Scalar(1.25) {
			t.Errorf("truncated to %d: %+v", n, s)
		}
	}
}

func TestUuid(t *testing.T) {
	b := flatbuffers.NewBuilder(0)
	fb.GraphStart(b)
	fb.GraphAddId(b, fb.CreateUuidFromBytes(b, goldenUUID))
	b.Finish(fb.GraphEnd(b))
	buf := b.FinishedBytes()
	g := fb.GetRootAsGraph(buf, 0)
	id, ok := g.IdBytes()
	if !ok || id != goldenUUID {
		t.Fatalf("IdBytes % x %v", id, ok)
	}
	u := g.Id(nil)
	if u.Bytes() != goldenUUID || u.Bytes7() != goldenUUID[7] {
		t.Error("Uuid accessors")
	}
	// Same bytes as the sixteen-argument generated constructor.
	b2 := flatbuffers.NewBuilder(0)
	fb.GraphStart(b2)
	x := goldenUUID
	fb.GraphAddId(b2, fb.CreateUuid(b2, x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12], x[13], x[14], x[15]))
	b2.Finish(fb.GraphEnd(b2))
	if string(b2.FinishedBytes()) != string(buf) {
		t.Error("CreateUuidFromBytes and CreateUuid differ")
	}
	for n := 0; n < len(buf); n++ {
		var gg fb.Graph
		pos := flatbuffers.UOffsetT(0)
		if n >= 4 {
			pos = flatbuffers.GetUOffsetT(buf)
		}
		gg.Init(buf[:n], pos)
		if id, ok := gg.IdBytes(); ok && id != goldenUUID {
			t.Errorf("truncated to %d: % x", n, id)
		}
	}
}

func TestIdentifiers(t *testing.T) {
	for _, short := range [][]byte{nil, {1, 2, 3}, []byte("\x08\x00\x00\x00HDG")} {
		if fb.SerializedGraphAndPlanBufferHasIdentifier(short) || fb.DevicePropertiesBufferHasIdentifier(short) {
			t.Errorf("identifier found in %q", short)
		}
	}
	if !fb.SerializedGraphAndPlanBufferHasIdentifier(buildGraphAndPlan(nil, nil)) {
		t.Error("HDGP")
	}
	if !fb.DevicePropertiesBufferHasIdentifier(buildDeviceProperties()) {
		t.Error("HDDP")
	}
}

// FuzzHandwrittenReaders: the bounds-checked readers never panic, whatever
// the bytes and table position.
func FuzzHandwrittenReaders(f *testing.F) {
	f.Add(tensorBuffer(fb.Float64Scalar(2)), uint32(0))
	f.Add(tensorBuffer(fb.BoolScalar(true)), uint32(0))
	f.Add(buildGoldenGraph(), uint32(0))
	f.Fuzz(func(t *testing.T, buf []byte, pos uint32) {
		if pos == 0 && len(buf) >= 4 {
			pos = uint32(flatbuffers.GetUOffsetT(buf))
		}
		var ta fb.TensorAttributes
		ta.Init(buf, flatbuffers.UOffsetT(pos))
		ta.ValueScalar()
		ta.ValueAsFloat64Value(nil)
		var tab flatbuffers.Table
		ta.Value(&tab)
		var g fb.Graph
		g.Init(buf, flatbuffers.UOffsetT(pos))
		g.IdBytes()
		fb.SerializedGraphAndPlanBufferHasIdentifier(buf)
	})
}
