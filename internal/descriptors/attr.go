package descriptors

import (
	"math"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/handle"
	"github.com/hipdnn-go/backend/internal/status"
)

// Attr declares one attribute of a descriptor kind. The generic SetAttribute and GetAttribute
// below enforce everything declared here; hooks cover what a table cannot say.
type Attr struct {
	Name api.AttributeName
	Type api.AttributeType   // the element type callers pass
	Alt  []api.AttributeType // further accepted types (legacy generations, knob value kinds)

	// Element count accepted by SetAttribute: Min..Max, Max < 0 meaning unbounded. An
	// attribute with Max == 1 is a scalar: stored in Value.I / Value.F and read back as one
	// element; anything else is a vector.
	Min, Max int64

	Settable, Gettable bool
	Required           bool // Finalize fails with BAD_PARAM when never set
	GetUnfinalized     bool // readable before Finalize even where the kind is not
	ExactOne           bool // a scalar get must ask for exactly one element
	FullGet            bool // a vector get must ask for at least the full count
	NoSizeQuery        bool // a NULL array or count is BAD_PARAM_NULL_POINTER, not a size query
	RawBytes           bool // CHAR data is bytes: no NUL appended on get
	Append             bool // each set appends to the stored vector
	SameTypeGet        bool // the value must be read with the type it was set with (knob values)

	// DescKinds lists the descriptor types a BACKEND_DESCRIPTOR value may have; nil accepts
	// only finalized operation descriptors (NOT_SUPPORTED otherwise, as for graph OPS).
	DescKinds []api.DescriptorType
	// DescMayBeUnfinalized accepts descriptors that are not finalized (ENGINEHEUR_RESULTS
	// configs); by default they must be finalized (BAD_PARAM_NOT_FINALIZED).
	DescMayBeUnfinalized bool

	// Default is what GetAttribute reports when the attribute was never set (Set false:
	// no default, the read gives count 0).
	Default Value

	// Validate checks a decoded value before it is stored.
	Validate func(o Object, v *Value) error
	// OnSet replaces storing: the kind keeps the value its own way.
	OnSet func(o Object, v *Value) error
	// Compute produces the value of a read-only or derived attribute.
	Compute func(o Object) (Value, error)
	// IsSet tells Finalize whether an attribute kept by OnSet was given.
	IsSet func(o Object) bool
	// CustomGet replaces the generic get entirely (ENGINEHEUR_RESULTS, VALID_VALUES_STRING).
	CustomGet func(o Object, t api.AttributeType, requested int64, count *int64, p unsafe.Pointer) error

	slot int
}

func (a *Attr) stored() bool { return a.Settable && a.OnSet == nil }
func (a *Attr) scalar() bool { return a.Max == 1 }

func (a *Attr) accepts(t api.AttributeType) bool {
	if t == a.Type {
		return true
	}
	for _, alt := range a.Alt {
		if t == alt {
			return true
		}
	}
	return false
}

// Value is an attribute value in typed slots; which slots are used depends on the type. It is
// kept small (every descriptor holds one per stored attribute): float vectors live in Ints as
// IEEE bits, and the rare kinds (handle, flatbuffer blobs) sit behind one pointer.
type Value struct {
	Set   bool
	Type  api.AttributeType // type the value was set with
	I     int64             // scalar integers, enums, booleans (0/1), void* and handles
	F     float64           // scalar FLOAT and DOUBLE
	Ints  []int64           // vectors of integers, enums, booleans, pointers; FLOAT / DOUBLE as bits
	Bytes []byte            // CHAR strings and byte arrays
	Objs  []Object          // BACKEND_DESCRIPTOR values
	rare  *rareValue
}

type rareValue struct {
	handle *handle.Handle // HANDLE value
	blobs  [][]byte       // FLATBUFFER_DATA_STRUCT_EXT values (copied)
}

// Float returns element i of a FLOAT / DOUBLE vector.
func (v *Value) Float(i int) float64 { return math.Float64frombits(uint64(v.Ints[i])) }

// Handle returns a HANDLE value (nil when none).
func (v *Value) Handle() *handle.Handle {
	if v.rare == nil {
		return nil
	}
	return v.rare.handle
}

// Blobs returns FLATBUFFER_DATA_STRUCT_EXT values.
func (v *Value) Blobs() [][]byte {
	if v.rare == nil {
		return nil
	}
	return v.rare.blobs
}

func (v *Value) setRare(h *handle.Handle, blobs [][]byte) {
	v.rare = &rareValue{handle: h, blobs: blobs}
}

// Len is the number of elements the value holds.
func (v *Value) Len(a *Attr) int64 {
	switch {
	case !v.Set:
		return 0
	case v.Type == api.HIPDNN_TYPE_CHAR:
		return int64(len(v.Bytes))
	case v.Type == api.HIPDNN_TYPE_BACKEND_DESCRIPTOR:
		return int64(len(v.Objs))
	case v.Type == api.HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT:
		return int64(len(v.Blobs()))
	case a != nil && a.scalar():
		return 1
	}
	return int64(len(v.Ints))
}

// Str returns a CHAR value as a string.
func (v *Value) Str() string { return string(v.Bytes) }

// elemSize is the C size of one element of an attribute type.
func elemSize(t api.AttributeType) uintptr {
	switch t {
	case api.HIPDNN_TYPE_INT64, api.HIPDNN_TYPE_DOUBLE, api.HIPDNN_TYPE_VOID_PTR,
		api.HIPDNN_TYPE_HANDLE, api.HIPDNN_TYPE_BACKEND_DESCRIPTOR:
		return 8
	case api.HIPDNN_TYPE_BOOLEAN, api.HIPDNN_TYPE_CHAR:
		return 1
	case api.HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT:
		return 16
	}
	return 4 // int32, float and every enum type
}

// SetAttribute is hipdnnBackendSetAttribute for any descriptor.
func SetAttribute(o Object, name api.AttributeName, t api.AttributeType, count int64, p unsafe.Pointer) (err error) {
	h := o.header()
	a := h.spec.byName[name]
	if a == nil {
		return unknownAttr(h, name)
	}
	if h.finalized {
		return status.NotInitialized("%s::setAttribute() failed: Already finalized.", h.spec.Class)
	}
	if !a.Settable {
		return status.NotSupported("%s::setAttribute() failed: attribute %v is read-only", h.spec.Class, name)
	}
	if h.spec.BeforeSet != nil {
		if err := h.spec.BeforeSet(o, name); err != nil {
			return prefixStep(err, h, "setAttribute")
		}
	}
	if !a.accepts(t) {
		return status.BadParam("%s::setAttribute() failed: attribute %v takes %v, not %v", h.spec.Class, name, a.Type, t)
	}
	if p == nil && (count > 0 || a.Min > 0 || h.spec.NullArrayRejected) {
		return status.NullPointer("%s::setAttribute() failed: arrayOfElements is NULL for %v", h.spec.Class, name)
	}
	if count < a.Min || (a.Max >= 0 && count > a.Max) {
		return badCount(h, a, count)
	}
	if count > maxElements {
		return status.BadParam("%s::setAttribute() failed: elementCount %d for %v is beyond any real array (at most %d elements)", h.spec.Class, count, name, maxElements)
	}
	if h.spec.OnChange != nil {
		defer func() {
			if err == nil {
				h.spec.OnChange(o, name)
			}
		}()
	}
	if a.OnSet == nil && a.Validate == nil && !a.Append && !fallible(t) {
		// Hot path: decode straight into the stored value, reusing its buffers (numbers and
		// strings cannot fail to decode, so the stored value is never left half-written).
		return decode(h, a, t, count, p, &h.vals[a.slot])
	}
	if a.OnSet != nil {
		// The kind keeps the value its own way: decode into the kind's scratch value, whose
		// arrays are reused from call to call. OnSet and Validate copy what they keep.
		v := &h.vals[h.spec.scratch]
		err := decode(h, a, t, count, p, v)
		if err == nil && a.Validate != nil {
			err = a.Validate(o, v)
		}
		if err == nil {
			err = a.OnSet(o, v)
		}
		clear(v.Objs) // the scratch keeps no descriptor alive
		return prefixStep(err, h, "setAttribute")
	}
	var v Value
	if err := decode(h, a, t, count, p, &v); err != nil {
		return err
	}
	if a.Validate != nil {
		if err := a.Validate(o, &v); err != nil {
			return prefixStep(err, h, "setAttribute")
		}
	}
	dst := &h.vals[a.slot]
	if a.Append && dst.Set {
		dst.Ints = append(dst.Ints, v.Ints...)
		dst.Objs = append(dst.Objs, v.Objs...)
		if len(v.Blobs()) > 0 {
			dst.setRare(dst.Handle(), append(dst.Blobs(), v.Blobs()...))
		}
		return nil
	}
	*dst = v
	return nil
}

func badCount(h *Header, a *Attr, count int64) error {
	switch {
	case a.Min == a.Max:
		return status.BadParam("%s::setAttribute() failed: %v takes exactly %d element(s), got %d", h.spec.Class, a.Name, a.Min, count)
	case a.Max < 0:
		return status.BadParam("%s::setAttribute() failed: %v takes at least %d element(s), got %d", h.spec.Class, a.Name, a.Min, count)
	}
	return status.BadParam("%s::setAttribute() failed: %v takes %d to %d elements, got %d", h.spec.Class, a.Name, a.Min, a.Max, count)
}

func unknownAttr(h *Header, name api.AttributeName) error {
	return status.NotSupported("%s does not support attribute %v (%d)", h.spec.Class, name, int32(name))
}

// maxElements bounds the element count of one SetAttribute. No attribute holds 2³¹ elements;
// a larger count is a caller bug that would otherwise read far past the array or exhaust
// memory, so it is refused before anything is read.
const maxElements = math.MaxInt32

// fallible reports whether decoding values of type t can fail (they name other objects or
// carry pointers to check).
func fallible(t api.AttributeType) bool {
	return t == api.HIPDNN_TYPE_HANDLE || t == api.HIPDNN_TYPE_BACKEND_DESCRIPTOR || t == api.HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT
}

// decode reads count elements of type t from C memory into v. On failure v is not marked set.
func decode(h *Header, a *Attr, t api.AttributeType, count int64, p unsafe.Pointer, v *Value) error {
	if err := decodeInto(h, a, t, count, p, v); err != nil {
		v.Set = false
		return err
	}
	v.Set, v.Type = true, t
	return nil
}

func decodeInto(h *Header, a *Attr, t api.AttributeType, count int64, p unsafe.Pointer, v *Value) error {
	n := int(count)
	switch t {
	case api.HIPDNN_TYPE_CHAR:
		// A NULL array stays nil; an empty one from a real pointer is empty but not nil
		// (KNOB_INFO_VALID_VALUES_STRING tells "clear" from "append an empty string").
		if p == nil {
			v.Bytes = nil
		} else {
			v.Bytes = append(make([]byte, 0, n), unsafe.Slice((*byte)(p), n)...)
		}
		return nil
	case api.HIPDNN_TYPE_FLOAT, api.HIPDNN_TYPE_DOUBLE:
		if a.scalar() {
			v.F = loadFloat(t, p, 0)
			return nil
		}
		v.Ints = v.Ints[:0]
		for i := 0; i < n; i++ {
			v.Ints = append(v.Ints, int64(math.Float64bits(loadFloat(t, p, i))))
		}
		return nil
	case api.HIPDNN_TYPE_HANDLE:
		tok := *(*uintptr)(p)
		hd, err := handle.Resolve(tok)
		if err != nil {
			return err
		}
		v.setRare(hd, nil)
		return nil
	case api.HIPDNN_TYPE_BACKEND_DESCRIPTOR:
		objs := make([]Object, 0, n)
		for i := 0; i < n; i++ {
			o, err := descriptorArg(h, a, *(*uintptr)(unsafe.Add(p, uintptr(i)*8)))
			if err != nil {
				return err
			}
			objs = append(objs, o)
		}
		v.Objs = objs
		return nil
	case api.HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT:
		blobs := make([][]byte, 0, n)
		for i := 0; i < n; i++ {
			e := unsafe.Add(p, uintptr(i)*16)
			ptr := *(*unsafe.Pointer)(e)
			size := *(*uintptr)(unsafe.Add(e, 8))
			if ptr == nil {
				return status.NullPointer("%s::setAttribute() failed: %v element %d has a NULL ptr", h.spec.Class, a.Name, i)
			}
			if size == 0 {
				return status.BadParam("%s::setAttribute() failed: %v element %d has size 0", h.spec.Class, a.Name, i)
			}
			blobs = append(blobs, append([]byte(nil), unsafe.Slice((*byte)(ptr), size)...))
		}
		v.setRare(nil, blobs)
		return nil
	}
	if a.scalar() {
		v.I = loadInt(t, p, 0)
		return nil
	}
	v.Ints = v.Ints[:0]
	for i := 0; i < n; i++ {
		v.Ints = append(v.Ints, loadInt(t, p, i))
	}
	return nil
}

func loadFloat(t api.AttributeType, p unsafe.Pointer, i int) float64 {
	if t == api.HIPDNN_TYPE_DOUBLE {
		return *(*float64)(unsafe.Add(p, i*8))
	}
	return float64(*(*float32)(unsafe.Add(p, i*4)))
}

func loadInt(t api.AttributeType, p unsafe.Pointer, i int) int64 {
	switch elemSize(t) {
	case 8:
		return *(*int64)(unsafe.Add(p, i*8))
	case 1:
		if *(*byte)(unsafe.Add(p, i)) != 0 && t == api.HIPDNN_TYPE_BOOLEAN {
			return 1
		}
		return int64(*(*byte)(unsafe.Add(p, i)))
	}
	return int64(*(*int32)(unsafe.Add(p, i*4)))
}

// descriptorArg resolves one descriptor passed as an attribute value and checks its kind and
// finalize state.
func descriptorArg(h *Header, a *Attr, tok uintptr) (Object, error) {
	if tok == 0 {
		return nil, status.NullPointer("%s::setAttribute() failed: %v was given a NULL descriptor", h.spec.Class, a.Name)
	}
	o, err := Resolve(tok)
	if err != nil {
		return nil, status.BadParam("%s::setAttribute() failed: the descriptor given for %v %v", h.spec.Class, a.Name, err)
	}
	k := KindOf(o)
	if a.DescKinds == nil {
		if !IsOperation(k) {
			return nil, status.NotSupported("%s::setAttribute() failed: %v takes operation descriptors, not %v", h.spec.Class, a.Name, k)
		}
	} else if !kindIn(k, a.DescKinds) {
		return nil, status.BadParam("%s::setAttribute() failed: Descriptor type mismatch: %v takes %v, not %v", h.spec.Class, a.Name, a.DescKinds[0], k)
	}
	if !a.DescMayBeUnfinalized && !IsFinalized(o) {
		return nil, status.NotFinalized("%s::setAttribute() failed: the %v given for %v is not finalized", h.spec.Class, k, a.Name)
	}
	return o, nil
}

func kindIn(k api.DescriptorType, list []api.DescriptorType) bool {
	for _, x := range list {
		if x == k {
			return true
		}
	}
	return false
}

// GetAttribute is hipdnnBackendGetAttribute for any descriptor.
func GetAttribute(o Object, name api.AttributeName, t api.AttributeType, requested int64, count *int64, p unsafe.Pointer) error {
	h := o.header()
	a := h.spec.byName[name]
	if a == nil {
		return unknownAttr(h, name)
	}
	if !h.finalized && !a.GetUnfinalized && !h.spec.GetsBeforeFinalize {
		return status.New(h.spec.UnfinalizedGet, h.spec.Class+"::getAttribute() failed: Not finalized.")
	}
	if !a.Gettable {
		return status.NotSupported("%s::getAttribute() failed: attribute %v cannot be read", h.spec.Class, name)
	}
	if !a.accepts(t) {
		return status.BadParam("%s::getAttribute() failed: attribute %v has type %v, not %v", h.spec.Class, name, a.Type, t)
	}
	if a.CustomGet != nil {
		return prefixStep(a.CustomGet(o, t, requested, count, p), h, "getAttribute")
	}
	var v *Value
	if a.Compute != nil {
		cv, err := a.Compute(o)
		if err != nil {
			return prefixStep(err, h, "getAttribute")
		}
		v = &cv
	} else {
		v = &h.vals[a.slot]
		if !v.Set {
			v = &a.Default
		}
	}
	return encode(h, a, t, v, requested, count, p)
}

// encode writes a value to the caller's buffer following hipDNN's get conventions.
func encode(h *Header, a *Attr, t api.AttributeType, v *Value, requested int64, count *int64, p unsafe.Pointer) error {
	if !v.Set {
		if count != nil {
			*count = 0
		}
		return nil
	}
	if a.SameTypeGet && v.Type != t {
		return status.BadParam("%s::getAttribute() failed: %v holds a %v value; read it as %v", h.spec.Class, a.Name, v.Type, v.Type)
	}
	n := v.Len(a)
	if a.ExactOne && p == nil && requested != 0 {
		return status.NullPointer("%s::getAttribute() failed: arrayOfElements is NULL for %v", h.spec.Class, a.Name)
	}
	if a.NoSizeQuery && (p == nil || count == nil) {
		return status.NullPointer("%s::getAttribute() failed: %v needs both arrayOfElements and elementCount", h.spec.Class, a.Name)
	}
	sizeQuery := p == nil || requested == 0
	if sizeQuery {
		if count == nil {
			return status.NullPointer("%s::getAttribute() failed: elementCount is NULL in a size query of %v", h.spec.Class, a.Name)
		}
		if t == api.HIPDNN_TYPE_CHAR && !a.RawBytes {
			n++ // size includes the NUL
		}
		*count = n
		return nil
	}
	if requested < 0 {
		return status.BadParam("%s::getAttribute() failed: requestedElementCount %d is negative", h.spec.Class, requested)
	}
	if a.scalar() && t != api.HIPDNN_TYPE_CHAR {
		if a.ExactOne && requested != 1 {
			return status.BadParam("%s::getAttribute() failed: %v is one element; requestedElementCount must be 1, got %d", h.spec.Class, a.Name, requested)
		}
		storeScalar(t, v, p)
		if count != nil {
			*count = 1
		}
		return nil
	}
	if a.FullGet && requested < n {
		return status.BadParam("%s::getAttribute() failed: %v has %d elements; requestedElementCount %d is too small", h.spec.Class, a.Name, n, requested)
	}
	switch t {
	case api.HIPDNN_TYPE_CHAR:
		if a.RawBytes {
			m := min(requested, n)
			copy(unsafe.Slice((*byte)(p), m), v.Bytes[:m])
			if count != nil {
				*count = m
			}
			return nil
		}
		m := min(requested-1, n)
		dst := unsafe.Slice((*byte)(p), m+1)
		copy(dst, v.Bytes[:m])
		dst[m] = 0
		if count != nil {
			*count = min(n+1, requested)
		}
		return nil
	case api.HIPDNN_TYPE_BACKEND_DESCRIPTOR:
		m := min(requested, n)
		for i := int64(0); i < m; i++ {
			*(*uintptr)(unsafe.Add(p, uintptr(i)*8)) = Token(v.Objs[i])
		}
		if count != nil {
			*count = m
			if a.FullGet {
				*count = n
			}
		}
		return nil
	case api.HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT:
		m := min(requested, n)
		for i := int64(0); i < m; i++ {
			e := unsafe.Add(p, uintptr(i)*16)
			b := v.Blobs()[i]
			*(*unsafe.Pointer)(e) = unsafe.Pointer(unsafe.SliceData(b))
			*(*uintptr)(unsafe.Add(e, 8)) = uintptr(len(b))
		}
		if count != nil {
			*count = m
		}
		return nil
	}
	m := min(requested, n)
	for i := int64(0); i < m; i++ {
		if t == api.HIPDNN_TYPE_FLOAT || t == api.HIPDNN_TYPE_DOUBLE {
			storeFloat(t, p, int(i), v.Float(int(i)))
		} else {
			storeInt(t, p, int(i), v.Ints[i])
		}
	}
	if count != nil {
		*count = m
		if a.FullGet {
			*count = n
		}
	}
	return nil
}

func storeScalar(t api.AttributeType, v *Value, p unsafe.Pointer) {
	switch t {
	case api.HIPDNN_TYPE_FLOAT, api.HIPDNN_TYPE_DOUBLE:
		storeFloat(t, p, 0, v.F)
	case api.HIPDNN_TYPE_HANDLE:
		var tok uintptr
		if hd := v.Handle(); hd != nil {
			tok = hd.Token()
		}
		*(*uintptr)(p) = tok
	case api.HIPDNN_TYPE_BACKEND_DESCRIPTOR:
		*(*uintptr)(p) = Token(v.Objs[0])
	default:
		storeInt(t, p, 0, v.I)
	}
}

func storeFloat(t api.AttributeType, p unsafe.Pointer, i int, f float64) {
	if t == api.HIPDNN_TYPE_DOUBLE {
		*(*float64)(unsafe.Add(p, i*8)) = f
		return
	}
	*(*float32)(unsafe.Add(p, i*4)) = float32(f)
}

func storeInt(t api.AttributeType, p unsafe.Pointer, i int, x int64) {
	switch elemSize(t) {
	case 8:
		*(*int64)(unsafe.Add(p, i*8)) = x
	case 1:
		*(*byte)(unsafe.Add(p, i)) = byte(x)
	default:
		*(*int32)(unsafe.Add(p, i*4)) = int32(x)
	}
}
