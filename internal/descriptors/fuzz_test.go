package descriptors

import (
	"encoding/binary"
	"sort"
	"testing"
	"unsafe"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/status"
)

// FuzzSetAttribute drives SetAttribute, Finalize and GetAttribute of every creatable kind with
// arbitrary attribute names, types, counts and payload bytes. Whatever the input, each call
// returns nil or a *status.Error with a message; nothing panics. As in C, the payload really
// holds count elements: the caller's memory is trusted, its contents are not.
func FuzzSetAttribute(f *testing.F) {
	types := creatableTypes()
	f.Add([]byte{0, 3, 3, 4, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{5, 40, 13, 1, 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0})
	f.Add([]byte{1, 7, 19, 9, 'f', 'u', 'z', 'z'})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		o, err := Create(types[int(data[0])%len(types)])
		if err != nil {
			t.Fatal(err)
		}
		h := o.header()
		data = data[1:]
		for len(data) >= 3 {
			// Pick an attribute the kind declares, or a random name.
			var name api.AttributeName
			if data[0]&1 == 0 && len(h.spec.Attrs) > 0 {
				name = h.spec.Attrs[int(data[0]>>1)%len(h.spec.Attrs)].Name
			} else {
				name = api.AttributeName(int32(data[0]) * 97)
			}
			typ := api.AttributeType(data[1] % 33)
			if data[1]&0x80 != 0 {
				typ = api.HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT
			}
			n := int64(data[2] % 9)
			data = data[3:]
			checkStatus(t, "SetAttribute", setFromBytes(o, name, typ, n, &data))
			if len(data) > 0 && data[0]%5 == 0 {
				checkStatus(t, "Finalize", Finalize(o))
			}
			out := make([]byte, 4096)
			var cnt int64
			checkStatus(t, "GetAttribute", GetAttribute(o, name, typ, n, &cnt, unsafe.Pointer(&out[0])))
			checkStatus(t, "GetAttribute size query", GetAttribute(o, name, typ, 0, &cnt, nil))
		}
	})
}

// setFromBytes passes n elements taken from the front of *data (fewer if data runs short).
// Descriptor and handle values are raw token values from the input: garbage tokens must be
// rejected. Flatbuffer-data elements point into the input.
func setFromBytes(o Object, name api.AttributeName, typ api.AttributeType, n int64, data *[]byte) error {
	size := int64(elemSize(typ))
	if typ == api.HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT {
		structs := make([]uintptr, 0, 2*n)
		for i := int64(0); i < n && len(*data) > 0; i++ {
			k := int(min(len(*data), 1+int((*data)[0])%32))
			chunk := (*data)[:k]
			*data = (*data)[k:]
			structs = append(structs, uintptr(unsafe.Pointer(&chunk[0])), uintptr(k))
		}
		if len(structs) == 0 {
			return SetAttribute(o, name, typ, 0, nil)
		}
		return SetAttribute(o, name, typ, int64(len(structs)/2), unsafe.Pointer(&structs[0]))
	}
	avail := int64(len(*data)) / size
	if n > avail {
		n = avail
	}
	if n == 0 {
		return SetAttribute(o, name, typ, 0, nil)
	}
	buf := make([]byte, n*size)
	copy(buf, (*data)[:n*size])
	*data = (*data)[n*size:]
	if typ == api.HIPDNN_TYPE_HANDLE || typ == api.HIPDNN_TYPE_BACKEND_DESCRIPTOR {
		// Small token values stay garbage; keep them away from 0 only by chance, as C would.
		for i := int64(0); i < n; i++ {
			v := binary.LittleEndian.Uint64(buf[i*8:])
			binary.LittleEndian.PutUint64(buf[i*8:], v|1)
		}
	}
	return SetAttribute(o, name, typ, n, unsafe.Pointer(&buf[0]))
}

func checkStatus(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	e, ok := err.(*status.Error)
	if !ok {
		t.Fatalf("%s returned a %T (%v), not a *status.Error", what, err, err)
	}
	if e.Msg == "" || e.Code == api.HIPDNN_STATUS_SUCCESS {
		t.Fatalf("%s returned %+v: every failure needs a status and a message", what, e)
	}
}

func creatableTypes() []api.DescriptorType {
	var out []api.DescriptorType
	for k := range kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func TestCreatableTypesMatchTheFactoryTable(t *testing.T) {
	// backend_api.md §3.0: 33 creatable descriptor types; 0, 5, 8, 9, 12, 13 are not.
	got := creatableTypes()
	if len(got) != 33 {
		t.Fatalf("%d creatable types, want 33: %v", len(got), got)
	}
	for _, bad := range []api.DescriptorType{0, 5, 8, 9, 12, 13, 39, -1} {
		if _, err := Create(bad); status.Code(err) != api.HIPDNN_STATUS_NOT_SUPPORTED {
			t.Errorf("Create(%d) = %v, want NOT_SUPPORTED", bad, err)
		}
	}
}
