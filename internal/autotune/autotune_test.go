package autotune

import (
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
	"github.com/hipdnn-go/backend/internal/wire"
)

func TestWriteLookupAndKeyIgnoresID(t *testing.T) {
	t.Setenv("HIPDNN_CACHE_DIR", t.TempDir())
	id1, id2 := [16]byte{1}, [16]byte{2}
	g1 := &wire.Graph{Name: "g", ID: &id1}
	g2 := &wire.Graph{Name: "g", ID: &id2}
	k1, err := Key(g1, []byte("dev"))
	if err != nil {
		t.Fatal(err)
	}
	k2, _ := Key(g2, []byte("dev"))
	k3, _ := Key(g2, []byte("other device"))
	if k1 != k2 || k1 == k3 {
		t.Fatalf("keys: %x %x %x (ids must not matter, devices must)", k1, k2, k3)
	}
	if _, ok := Lookup(k1); ok {
		t.Fatal("empty cache found an entry")
	}
	out, err := Write(k1, []int64{3, 1, 2})
	if err != nil || out != api.HIPDNN_AUTOTUNE_CACHE_WRITE_WRITTEN {
		t.Fatalf("Write = %v, %v", out, err)
	}
	if out, _ := Write(k1, []int64{3, 1, 2}); out != api.HIPDNN_AUTOTUNE_CACHE_WRITE_UNCHANGED {
		t.Fatalf("rewrite = %v", out)
	}
	if _, err := Write(k1, []int64{2, 3}); err != nil {
		t.Fatal(err)
	}
	got, ok := Lookup(k2)
	if !ok || len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Fatalf("Lookup = %v, %v; want the last line [2 3]", got, ok)
	}
}

func TestTruthy(t *testing.T) {
	for _, s := range []string{"1", "TRUE", " on ", "Yes", "enable", "enabled"} {
		if !Truthy(s) {
			t.Errorf("Truthy(%q) = false", s)
		}
	}
	for _, s := range []string{"", "0", "false", "off", "no", "maybe"} {
		if Truthy(s) {
			t.Errorf("Truthy(%q) = true", s)
		}
	}
}
