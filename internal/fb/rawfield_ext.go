// Hand-written (not flatc output): bounds-checked raw field access used by
// the TensorValue and Uuid helpers.

package fb

import (
	"encoding/binary"

	flatbuffers "github.com/google/flatbuffers/go"
)

// fieldPos returns the absolute buffer position of the field stored at vtable
// byte offset vt (4 + 2·slot) of the table tab, or ok=false when the field is
// absent or it (size bytes) or any offset on the way lies outside the buffer.
// Unlike flatbuffers.Table.Offset it never panics on a malformed buffer.
func fieldPos(tab *flatbuffers.Table, vt flatbuffers.VOffsetT, size uint64) (pos uint64, ok bool) {
	buf := tab.Bytes
	n := uint64(len(buf))
	tpos := uint64(tab.Pos)
	if tpos+4 > n {
		return 0, false
	}
	vtab := int64(tpos) - int64(int32(binary.LittleEndian.Uint32(buf[tpos:])))
	if vtab < 0 || uint64(vtab)+4 > n {
		return 0, false
	}
	vsize := uint64(binary.LittleEndian.Uint16(buf[vtab:]))
	if uint64(vt)+2 > vsize || uint64(vtab)+uint64(vt)+2 > n {
		return 0, false
	}
	off := uint64(binary.LittleEndian.Uint16(buf[uint64(vtab)+uint64(vt):]))
	if off == 0 || tpos+off+size > n {
		return 0, false
	}
	return tpos + off, true
}

// indirectPos follows the uoffset stored at an offset field (a union value,
// a sub-table, a vector) and returns the target position, checking that size
// bytes are available there.
func indirectPos(tab *flatbuffers.Table, vt flatbuffers.VOffsetT, size uint64) (uint64, bool) {
	p, ok := fieldPos(tab, vt, 4)
	if !ok {
		return 0, false
	}
	buf := tab.Bytes
	target := p + uint64(binary.LittleEndian.Uint32(buf[p:]))
	if target+size > uint64(len(buf)) {
		return 0, false
	}
	return target, true
}
