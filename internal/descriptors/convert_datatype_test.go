package descriptors

import (
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/wire"
)

// TestDataTypeMappingByName: every schema data type but UNSET has the C type of the same name
// and back; BOOLEAN, which the schema lacks, has none; and the mapping is not the identity
// (the enums number differently), so a table keyed the wrong way round would fail.
func TestDataTypeMappingByName(t *testing.T) {
	for w := wire.DataType(1); w.Known(); w++ {
		c, ok := CDataType(w)
		if !ok {
			t.Errorf("wire %s has no C data type", w)
			continue
		}
		if short := strings.TrimSuffix(strings.TrimPrefix(c.String(), "HIPDNN_DATA_"), "_EXT"); short != w.String() {
			t.Errorf("wire %s maps to %s", w, c)
		}
		if back, ok := WireDataType(c); !ok || back != w {
			t.Errorf("%s maps back to %v (%v), want %s", c, back, ok, w)
		}
	}
	if w, ok := WireDataType(api.HIPDNN_DATA_BOOLEAN); ok {
		t.Errorf("HIPDNN_DATA_BOOLEAN maps to %s; the schema has no boolean type", w)
	}
	if w, _ := WireDataType(api.HIPDNN_DATA_FLOAT); w != wire.DataTypeFloat || api.HIPDNN_DATA_FLOAT == api.DataType(wire.DataTypeFloat) {
		t.Errorf("HIPDNN_DATA_FLOAT (%d) maps to %s (%d)", api.HIPDNN_DATA_FLOAT, w, w)
	}
}
