package dl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenSymClose(t *testing.T) {
	lib, err := Open("libc.so.6")
	if err != nil {
		t.Fatal(err)
	}
	defer Close(lib)
	p, err := Sym(lib, "strlen")
	if err != nil || p == nil {
		t.Fatalf("strlen: %v", err)
	}
	if got := ObjectPath(p); !strings.Contains(filepath.Base(got), "libc") {
		t.Errorf("ObjectPath(strlen) = %q", got)
	}
	if _, err := Sym(lib, "no_such_symbol_hipdnn"); err == nil || !strings.Contains(err.Error(), "no_such_symbol_hipdnn") {
		t.Errorf("missing symbol: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "libnothing.so")
	if _, err := Open(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing library: %v", err)
	}
	Close(nil)
}

func TestSelf(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	self := SelfPath()
	a, _ := filepath.EvalSymlinks(self)
	b, _ := filepath.EvalSymlinks(exe)
	if a != b {
		t.Errorf("SelfPath = %q, the test binary is %q", self, exe)
	}
	if SelfSym("no_such_symbol_hipdnn") != nil {
		t.Error("SelfSym found a symbol that does not exist")
	}
}
