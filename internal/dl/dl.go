// Package dl is the backend's dynamic loader: dlopen, dlsym, dlclose and dladdr, for the
// engine and heuristic plugin hosts, the GPU runtime loader (package hip) and plugin
// discovery. The C side is dl.h, which internal/heuristics also includes; every failure
// carries the dynamic loader's own text, and callers name the path or symbol around it.
package dl

/*
#cgo LDFLAGS: -ldl
#include "dl.h"
#include <stdlib.h>

// dl_self_path is the file holding this package's code: libhipdnn_backend.so in
// production, the test binary under go test.
static void dl_self_path(char *out, size_t outlen) { hd_dl_object_path((const void *)&dl_self_path, out, outlen); }

// dl_self_sym looks name up in the object that holds this code, without loading anything.
static void *dl_self_sym(const char *name) {
  char path[4096];
  dl_self_path(path, sizeof path);
  if (path[0] == '\0') {
    return NULL;
  }
  void *self = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
  if (self == NULL) {
    return NULL;
  }
  void *p = dlsym(self, name);
  dlclose(self);
  return p;
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// errLen is the size of the buffers for dlerror() text.
const errLen = 1024

// Open loads the library at path with RTLD_NOW | RTLD_LOCAL. The error is dlerror()'s text,
// which names the path.
func Open(path string) (unsafe.Pointer, error) {
	var msg [errLen]C.char
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	lib := C.hd_dl_open(cpath, &msg[0], errLen)
	if lib == nil {
		return nil, errors.New(C.GoString(&msg[0]))
	}
	return lib, nil
}

// Sym returns the address of name in lib. The error is dlerror()'s text; a symbol that
// resolves to NULL is missing too.
func Sym(lib unsafe.Pointer, name string) (unsafe.Pointer, error) {
	var msg [errLen]C.char
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	p := C.hd_dl_sym(lib, cname, &msg[0], errLen)
	if p == nil {
		return nil, errors.New(C.GoString(&msg[0]))
	}
	return p, nil
}

// Loaded reports whether the library named lib is already mapped into the process, without
// loading it.
func Loaded(lib string) bool {
	clib := C.CString(lib)
	defer C.free(unsafe.Pointer(clib))
	return C.hd_dl_loaded(clib) != 0
}

// Close unloads lib; nil is ignored.
func Close(lib unsafe.Pointer) {
	if lib != nil {
		C.dlclose(lib)
	}
}

// ObjectPath returns the file of the loaded object that holds addr, or "".
func ObjectPath(addr unsafe.Pointer) string {
	var buf [4096]C.char
	C.hd_dl_object_path(addr, &buf[0], C.size_t(len(buf)))
	return C.GoString(&buf[0])
}

// SelfPath returns the file that holds this code: the backend library in production, the
// test binary under go test; "" when dladdr cannot place it.
func SelfPath() string {
	var buf [4096]C.char
	C.dl_self_path(&buf[0], C.size_t(len(buf)))
	return C.GoString(&buf[0])
}

// SelfSym returns the address of name in the object that holds this code, or nil when that
// object does not define it (under go test, the backend's exports are not linked in).
func SelfSym(name string) unsafe.Pointer {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.dl_self_sym(cname)
}
