// Package descriptors implements every hipDNN backend descriptor kind.
//
// Each kind is one file holding mostly a table: its attributes, declared once with type, count
// rule, settable/gettable, required, and where the value lives (see Attr). One generic path
// (attr.go) does SetAttribute/GetAttribute for every kind, and Finalize (finalize.go) checks the
// required attributes before calling the kind's own validation. Operation descriptors share one
// more layer (op.go): an operation is a table mapping C attributes onto fields of the wire
// format's node table (internal/wire), so setting, getting, validating, serializing and lifting
// a node from a serialized graph are all driven by the same declaration.
//
// An Object is the implementation behind C descriptor tokens. Several tokens may name one
// Object (every descriptor returned by GetAttribute is a new token for an existing Object); the
// Object counts its tokens and releases plugin resources when the last one goes.
//
// Concurrency: a descriptor must not be mutated (SetAttribute, Finalize) while another thread
// uses it; finalized descriptors may be read from many threads at once (docs/compatibility.md).
package descriptors

import (
	"fmt"
	"sync/atomic"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/registry"
	"github.com/hipdnn-go/backend/internal/status"
)

// Object is a descriptor implementation.
type Object interface {
	header() *Header
}

// Header is the state every descriptor kind shares: its kind table, attribute values and
// finalize flag. Concrete kinds embed it.
type Header struct {
	spec      *KindSpec
	vals      []Value // one per spec.Attrs entry, indexed by Attr.slot
	finalized bool
	refs      atomic.Int32 // live C tokens naming this object
}

func (h *Header) header() *Header { return h }

// Kind returns the descriptor type.
func (h *Header) Kind() api.DescriptorType { return h.spec.Kind }

// Finalized reports whether Finalize succeeded.
func (h *Header) Finalized() bool { return h.finalized }

// Class is the implementation name used in messages ("TensorDescriptor").
func (h *Header) Class() string { return h.spec.Class }

// value returns the stored value of an attribute declared by the kind.
func (h *Header) value(name api.AttributeName) *Value {
	a := h.spec.attr(name)
	if a == nil || a.slot < 0 {
		panic(fmt.Sprintf("descriptors: %s has no stored attribute %v", h.spec.Class, name))
	}
	return &h.vals[a.slot]
}

// KindSpec declares one descriptor kind.
type KindSpec struct {
	Kind  api.DescriptorType
	Class string // implementation name for messages, e.g. "TensorDescriptor"
	Attrs []*Attr

	// UnfinalizedGet is the status of GetAttribute before Finalize: NOT_INITIALIZED for most
	// kinds (the default), BAD_PARAM_NOT_FINALIZED for the heuristic. Attr.GetUnfinalized
	// makes single exceptions; GetsBeforeFinalize lifts the rule for the whole kind (the
	// operation graph).
	UnfinalizedGet     api.Status
	GetsBeforeFinalize bool
	// RejectRefinalize makes a second Finalize fail with BAD_PARAM ("Already finalized")
	// instead of validating again.
	RejectRefinalize bool
	// NullArrayRejected makes SetAttribute refuse a NULL arrayOfElements even with count 0
	// (BAD_PARAM_NULL_POINTER; the variant pack).
	NullArrayRejected bool

	New      func(k *KindSpec) Object               // allocates the concrete type and calls k.init on its Header
	Finalize func(o Object) error                   // kind-specific validation; required attributes are checked before
	Release  func(o Object)                         // called when the last token is destroyed (plugin resources)
	OnChange func(o Object, name api.AttributeName) // called after every successful SetAttribute (cache invalidation)
	// BeforeSet may refuse a SetAttribute of a settable attribute before anything is decoded
	// (an opaque graph refuses every attribute but its handle).
	BeforeSet func(o Object, name api.AttributeName) error

	byName map[api.AttributeName]*Attr
	nslots int
	// scratch is the index in Header.vals of the decode buffer the attributes with OnSet
	// share (-1 when the kind has none): values pass through it without allocating.
	scratch int
}

func (k *KindSpec) attr(name api.AttributeName) *Attr { return k.byName[name] }

var kinds = map[api.DescriptorType]*KindSpec{}

// register installs a kind table; each kind file calls it from init.
func register(k *KindSpec) *KindSpec {
	if _, dup := kinds[k.Kind]; dup {
		panic("descriptors: kind registered twice: " + k.Class)
	}
	k.byName = make(map[api.AttributeName]*Attr, len(k.Attrs))
	slot := 0
	for _, a := range k.Attrs {
		if _, dup := k.byName[a.Name]; dup {
			panic(fmt.Sprintf("descriptors: %s declares %v twice", k.Class, a.Name))
		}
		k.byName[a.Name] = a
		a.slot = -1
		if a.stored() {
			a.slot = slot
			slot++
		}
	}
	k.scratch = -1
	for _, a := range k.Attrs {
		if a.OnSet != nil {
			k.scratch = slot
			slot++
			break
		}
	}
	k.nslots = slot
	if k.UnfinalizedGet == 0 {
		k.UnfinalizedGet = api.HIPDNN_STATUS_NOT_INITIALIZED
	}
	kinds[k.Kind] = k
	return k
}

// init initialises the shared state of a new object of kind k.
func (k *KindSpec) init(h *Header) {
	h.spec = k
	h.vals = make([]Value, k.nslots)
}

// Create makes a new descriptor of the given type, as hipdnnBackendCreateDescriptor does.
func Create(t api.DescriptorType) (Object, error) {
	k, ok := kinds[t]
	if !ok {
		return nil, status.NotSupported("Descriptor type %s (%d) is not supported: it cannot be created", t, int32(t))
	}
	return k.New(k), nil
}

// Creatable reports whether Create accepts the type.
func Creatable(t api.DescriptorType) bool { _, ok := kinds[t]; return ok }

// Token mints a new C token for o; the caller hands it to C, which must destroy it.
func Token(o Object) uintptr {
	o.header().refs.Add(1)
	return registry.Save(registry.KindDescriptor, o)
}

// Resolve returns the object a C token names.
func Resolve(tok uintptr) (Object, error) {
	v, err := registry.Lookup(tok, registry.KindDescriptor)
	if err != nil {
		return nil, err
	}
	return v.(Object), nil
}

// Destroy releases a token; when it was the object's last, plugin resources are released.
// Whatever the token published to Execute's C fast path is withdrawn first (fast_path.go), so
// no fast call can still use resources being released.
func Destroy(tok uintptr) error {
	withdrawFast(tok)
	v, err := registry.Release(tok, registry.KindDescriptor)
	if err != nil {
		return err
	}
	o := v.(Object)
	h := o.header()
	if h.refs.Add(-1) == 0 && h.spec.Release != nil {
		h.spec.Release(o)
	}
	return nil
}

// KindOf returns the descriptor type of an object.
func KindOf(o Object) api.DescriptorType { return o.header().spec.Kind }

// IsFinalized reports whether an object has been finalized.
func IsFinalized(o Object) bool { return o.header().finalized }
