package headercheck

import (
	"sort"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
)

// TestCValuesMatchGo proves that the values the C compiler gives the header constants are the
// values package api was generated with, and that both sides name the same constants.
func TestCValuesMatchGo(t *testing.T) {
	c := CValues()
	for _, name := range sortedKeys(api.AllConstants) {
		cv, ok := c[name]
		if !ok {
			t.Errorf("%s: in api.AllConstants but not read through cgo", name)
			continue
		}
		if gv := api.AllConstants[name]; cv != gv {
			t.Errorf("%s: C says %d, Go says %d", name, cv, gv)
		}
	}
	for _, name := range sortedKeys(c) {
		if _, ok := api.AllConstants[name]; !ok {
			t.Errorf("%s: read through cgo but not in api.AllConstants", name)
		}
	}
	if len(c) == 0 {
		t.Fatal("no constants read through cgo")
	}
}

func sortedKeys(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
