package descriptors

import (
	"math"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/engines"
	"github.com/hipdnn-go/backend/internal/status"
)

// VariantPack is HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR: the tensor pointers (and optional
// shape overrides) of one execution. Finalize validates them and prepares the C arrays the
// plugin receives, so Execute passes them without building anything.
type VariantPack struct {
	Header
	buffers   *engines.Buffers
	overrides *engines.Overrides
	workspace uintptr
}

var _ = register(&KindSpec{
	Kind:    api.HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR,
	Class:   "VariantDescriptor",
	New:     func(k *KindSpec) Object { v := &VariantPack{}; k.init(&v.Header); return v },
	Release: func(o Object) { o.(*VariantPack).free() },

	NullArrayRejected: true,
	Attrs: []*Attr{
		{Name: api.HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: -1, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, Type: api.HIPDNN_TYPE_VOID_PTR, Min: 0, Max: -1, Settable: true, Gettable: true, NoSizeQuery: true},
		{Name: api.HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, Type: api.HIPDNN_TYPE_VOID_PTR, Min: 1, Max: 1, Settable: true, Gettable: true, ExactOne: true},
		{Name: api.HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_UNIQUE_IDS_EXT, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: -1, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_SHAPES_EXT, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: -1, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_STRIDES_EXT, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: -1, Settable: true, Gettable: true},
		{Name: api.HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_LENGTHS_EXT, Type: api.HIPDNN_TYPE_INT64, Min: 1, Max: -1, Settable: true, Gettable: true},
	},
	Finalize: finalizeVariantPack,
})

func finalizeVariantPack(o Object) error {
	v := o.(*VariantPack)
	if v.finalized {
		// Attributes are frozen after a finalize, so there is nothing to redo, and rebuilding
		// would free buffers an Execute on another thread may be using.
		return nil
	}
	fail := func(format string, args ...any) error {
		return stepf(status.BadParam, format, args...)
	}
	uids := v.value(api.HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS).Ints
	ptrs := v.value(api.HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS).Ints
	if len(uids) == 0 {
		return fail("no HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS")
	}
	if len(ptrs) != len(uids) {
		return fail("%d data pointers for %d unique ids", len(ptrs), len(uids))
	}
	oIDs := v.value(api.HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_UNIQUE_IDS_EXT)
	oShapes := v.value(api.HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_SHAPES_EXT)
	oStrides := v.value(api.HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_STRIDES_EXT)
	oLens := v.value(api.HIPDNN_ATTR_VARIANT_PACK_OVERRIDE_LENGTHS_EXT)
	var overrides *engines.Overrides
	if oIDs.Set || oShapes.Set || oStrides.Set || oLens.Set {
		if len(oIDs.Ints) != len(oLens.Ints) {
			return fail("%d override ids but %d override lengths", len(oIDs.Ints), len(oLens.Ints))
		}
		known := map[int64]bool{}
		for _, u := range uids {
			known[u] = true
		}
		seen := map[int64]bool{}
		for _, id := range oIDs.Ints {
			if seen[id] {
				return fail("override id %d appears twice", id)
			}
			if !known[id] {
				return fail("override id %d is not among HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS", id)
			}
			seen[id] = true
		}
		total := int64(0)
		for i, l := range oLens.Ints {
			if l <= 0 || l > math.MaxUint32 {
				return fail("override length %d (for id %d) must be in [1, 2^32-1]", l, oIDs.Ints[i])
			}
			total += l
		}
		if int64(len(oShapes.Ints)) != total || int64(len(oStrides.Ints)) != total {
			return fail("the override lengths add up to %d, but there are %d shape and %d stride values", total, len(oShapes.Ints), len(oStrides.Ints))
		}
		var err error
		overrides, err = engines.NewOverrides(oIDs.Ints, oLens.Ints, oShapes.Ints, oStrides.Ints)
		if err != nil {
			return err
		}
	}
	v.free()
	ps := make([]uintptr, len(ptrs))
	for i, p := range ptrs {
		ps[i] = uintptr(p)
	}
	v.workspace = uintptr(v.value(api.HIPDNN_ATTR_VARIANT_PACK_WORKSPACE).I)
	v.buffers = engines.NewBuffers(uids, ps, v.workspace)
	v.overrides = overrides
	return nil
}

func (v *VariantPack) free() {
	if v.buffers != nil {
		v.buffers.Free()
		v.buffers = nil
	}
	if v.overrides != nil {
		v.overrides.Free()
		v.overrides = nil
	}
}
