package env

import (
	"os"
	"testing"
)

func TestSeesSetenvAfterStart(t *testing.T) {
	const k = "HIPDNN_ENV_TEST_VARIABLE"
	if _, ok := Lookup(k); ok {
		t.Fatalf("%s unexpectedly set", k)
	}
	t.Setenv(k, "value one") // os.Setenv also sets the C environment in a cgo program
	if v, ok := Lookup(k); !ok || v != "value one" {
		t.Fatalf("Lookup = %q, %v", v, ok)
	}
	os.Unsetenv(k)
	if Get(k) != "" {
		t.Fatalf("Get after unset = %q", Get(k))
	}
}
