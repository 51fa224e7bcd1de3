package engines

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/hipdnn-go/backend/internal/fbread"
)

// rankingmetric.go: the heuristics host's ranking metric written into a policy's EngineConfig
// without losing what the policy wrote, fields of a newer schema included.

// maxAlign is the largest alignment a flatbuffer may need (FLATBUFFERS_MAX_ALIGNMENT, the
// bound on force_align). Copied bytes that start at a multiple of it past their old start
// keep every alignment they had.
const maxAlign = 32

// maxVOffset is the largest distance a 16-bit vtable entry can give.
const maxVOffset = math.MaxUint16

// WithRankingMetric returns the EngineConfig table t of buf (a root one, or one nested in
// another table; t as an fbread.Reader of buf found it) as a root EngineConfig buffer whose
// ranking_metric is metric ("" leaves it absent) and whose every other field is the policy's
// own bytes: fields this build does not know, scalars or offsets, read as the writer wrote
// them. It verifies t like EngineConfigAt and returns that error. When t is buf's root and
// already carries metric, it returns buf itself. An error means the bytes could not be kept;
// the caller then encodes the fields it knows (EncodeEngineConfig). It allocates one buffer
// a little larger than buf.
//
// The result is a new root table N followed by buf, byte for byte:
//
//	[root offset] [pad] [N's vtable] [N: soffset, ranking_metric offset] [buf[from:]] [metric]
//
// Why the fields survive: every offset in a flatbuffer is relative (a uoffset to data after
// it, a table's soffset to its vtable), so copied bytes mean what they meant as long as they
// keep their relative positions, and the copy starts a multiple of maxAlign past from, so
// they keep their alignment too. N's vtable names, for each slot of t's vtable, known or
// unknown, the very bytes t's entry names (N's entry = t's entry + N's distance to t). A
// field is never moved or re-encoded, which would break an offset field, and a field this
// build does not know cannot be told apart from a scalar. Only ranking_metric points to N's
// own offset, to a new string after the copy; t's soffset, vtable and old metric lie unused
// inside the copy. from is 0 (all of buf, so even a table reached through an unknown field
// whose vtable lies before t keeps it) unless t lies too far into buf for a 16-bit entry;
// then from is t, which still holds everything reachable from t in a buffer a FlatBuffers
// builder wrote (builders write back to front: what t references, and those tables' vtables,
// lie after t).
//
// The result is read back with the decoder and must give t's engine id and knob settings and
// the new metric.
func WithRankingMetric(buf []byte, t fbread.Table, metric string) ([]byte, error) {
	r := fbread.New(buf)
	id, settings, old, err := EngineConfigAt(r, t)
	if err != nil {
		return nil, err
	}
	if old == metric && len(buf) >= 4 && int64(r.U32(0)) == t.Pos {
		return buf, nil
	}
	slots := t.Slots()
	far := r.InlineSize(t) // the farthest byte N's vtable must reach, from t
	for i := 0; i < slots; i++ {
		if p := r.Field(t, i); p != 0 {
			if p >= int64(len(buf)) {
				return nil, fmt.Errorf("slot %d names byte %d, outside the %d-byte buffer", i, p, len(buf))
			}
			far = max(far, p-t.Pos+1)
		}
	}
	from := int64(0)
	if 8+t.Pos+far > maxVOffset {
		from = t.Pos
		if 8+far > maxVOffset {
			return nil, errors.New("the table is too large to extend")
		}
	}
	vtSlots := max(slots, slotEngineConfigRankingMetric+1)
	vtSize := int64(4 + 2*vtSlots)
	base := 4 + vtSize + 8 // where buf[from] goes: a multiple of maxAlign past from
	base += ((from-base)%maxAlign + maxAlign) % maxAlign
	n := base - 8 // N
	end := base + int64(len(buf)) - from
	str := (end + 3) &^ 3
	size := str
	if metric != "" {
		size += 4 + int64(len(metric)) + 1
	}
	out := make([]byte, size)
	le := binary.LittleEndian
	le.PutUint32(out, uint32(n))
	vt := n - vtSize
	le.PutUint16(out[vt:], uint16(vtSize))
	le.PutUint16(out[vt+2:], uint16(8+t.Pos-from+r.InlineSize(t)))
	for i := 0; i < slots; i++ {
		if p := r.Field(t, i); p != 0 && i != slotEngineConfigRankingMetric {
			le.PutUint16(out[vt+4+2*int64(i):], uint16(8+p-from))
		}
	}
	le.PutUint32(out[n:], uint32(vtSize)) // soffset: the vtable lies right before N
	copy(out[base:], buf[from:])
	if metric != "" {
		le.PutUint16(out[vt+4+2*slotEngineConfigRankingMetric:], 4)
		le.PutUint32(out[n+4:], uint32(str-(n+4)))
		le.PutUint32(out[str:], uint32(len(metric)))
		copy(out[str+4:], metric) // the NUL is make's zero
	}
	gotID, gotSettings, gotMetric, err := DecodeEngineConfig(out)
	if err != nil {
		return nil, fmt.Errorf("the extended table does not verify: %w", err)
	}
	if gotID != id || gotMetric != metric || !sameSettings(gotSettings, settings) {
		return nil, errors.New("the extended table reads differently")
	}
	return out, nil
}

// sameSettings compares knob settings, floats by their bits.
func sameSettings(a, b []KnobSetting) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.ID != y.ID || x.Value.Kind != y.Value.Kind || x.Value.I != y.Value.I || x.Value.S != y.Value.S ||
			math.Float64bits(x.Value.F) != math.Float64bits(y.Value.F) {
			return false
		}
	}
	return true
}
