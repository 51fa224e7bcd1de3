// Hand-written (not flatc output): the Uuid struct as a [16]byte.
//
// The schema declares struct Uuid { bytes: [ubyte:16]; }. flatc cannot emit Go
// for fixed-size arrays, so the generated Uuid has sixteen byte fields
// (Bytes0 … Bytes15, CreateUuid with sixteen arguments) with the identical
// 16-byte, 1-aligned layout. These helpers give it an array face.

package fb

import flatbuffers "github.com/google/flatbuffers/go"

// UuidSize is the wire size of struct Uuid.
const UuidSize = 16

// graphVTId is the vtable byte offset of Graph.id (slot 9).
const graphVTId flatbuffers.VOffsetT = 4 + 2*9

// Bytes returns the sixteen bytes in wire (RFC 4122) order. The receiver must
// lie inside its buffer (Graph.IdBytes checks that).
func (rcv *Uuid) Bytes() (id [UuidSize]byte) {
	copy(id[:], rcv._tab.Bytes[rcv._tab.Pos:rcv._tab.Pos+UuidSize])
	return id
}

// CreateUuidFromBytes writes a Uuid struct inline. Like every struct field it
// must be created right before it is added: call it between GraphStart and
// GraphEnd and pass the result straight to GraphAddId.
func CreateUuidFromBytes(b *flatbuffers.Builder, id [UuidSize]byte) flatbuffers.UOffsetT {
	b.Prep(1, UuidSize)
	for i := UuidSize - 1; i >= 0; i-- {
		b.PrependByte(id[i])
	}
	return b.Offset()
}

// IdBytes returns the graph's Uuid, with ok=false when the field is absent or
// does not fit in the buffer.
func (rcv *Graph) IdBytes() (id [UuidSize]byte, ok bool) {
	p, ok := fieldPos(&rcv._tab, graphVTId, UuidSize)
	if !ok {
		return id, false
	}
	copy(id[:], rcv._tab.Bytes[p:p+UuidSize])
	return id, true
}
