package descriptors

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
)

// TestPointwiseArityMatchesEngines holds the backend's arity of each pointwise mode to the
// engines' table (include/hipdnn_plugin_sdk/helpers/PointwiseModes.hpp): the backend validates
// the inputs that the engines then read, so the two must agree mode by mode. The C API and the
// wire number the modes alike.
func TestPointwiseArityMatchesEngines(t *testing.T) {
	src, err := os.ReadFile("../../include/hipdnn_plugin_sdk/helpers/PointwiseModes.hpp")
	if err != nil {
		t.Fatal(err)
	}
	entries := regexp.MustCompile(`\{"([a-z_]+)", (\d)\},`).FindAllStringSubmatch(string(src), -1)
	var modes []api.PointwiseMode
	for m := 0; m < 256; m++ {
		if api.PointwiseMode(m).IsValid() {
			modes = append(modes, api.PointwiseMode(m))
		}
	}
	if len(entries) != len(modes)+1 || int(modes[len(modes)-1]) != len(modes) { // the table's entry 0 is UNSET
		t.Fatalf("the engines' table has %d entries, the C API %d modes numbered 1 to %d (+ UNSET)", len(entries), len(modes),
			int(modes[len(modes)-1]))
	}
	for _, m := range modes {
		e := entries[int(m)]
		name := strings.ToLower(strings.TrimPrefix(m.String(), "HIPDNN_POINTWISE_"))
		if e[1] != name && e[1] != name+"_op" {
			t.Errorf("mode %d: the engines call it %q, the C API %s", int(m), e[1], m)
		}
		if want, _ := strconv.Atoi(e[2]); pointwiseArity(m) != want {
			t.Errorf("%s: the backend takes %d input(s), the engines read %d", m, pointwiseArity(m), want)
		}
	}
}
