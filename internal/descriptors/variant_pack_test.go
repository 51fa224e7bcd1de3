package descriptors

import (
	"testing"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
)

// A second finalize of a variant pack changes nothing: its attributes are frozen, and the
// buffer array an Execute on another thread may be reading must stay where it is.
func TestVariantPackRefinalizeKeepsBuffers(t *testing.T) {
	v := mustCreate(t, api.HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR)
	ptrs := []uintptr{0x1000, 0x2000}
	must(t, "uids", setI64(v, api.HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, 1, 2))
	must(t, "pointers", SetAttribute(v, api.HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, api.HIPDNN_TYPE_VOID_PTR, 2, unsafe.Pointer(&ptrs[0])))
	ws := uintptr(0)
	must(t, "workspace", SetAttribute(v, api.HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, api.HIPDNN_TYPE_VOID_PTR, 1, unsafe.Pointer(&ws)))
	must(t, "finalize", Finalize(v))
	first := v.(*VariantPack).buffers
	must(t, "finalize again", Finalize(v))
	if got := v.(*VariantPack).buffers; got != first || got.Len() != 2 {
		t.Fatalf("the second finalize replaced the buffers (%p -> %p)", first, got)
	}
	v.(*VariantPack).free()
}
