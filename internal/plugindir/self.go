package plugindir

/*
#include <stddef.h>
void hd_plugindir_self_path(char* out, size_t outlen);
*/
import "C"

import (
	"os"
	"path/filepath"
	"unsafe"
)

// LibraryDir is the directory of the file holding this code, symlinks resolved: the backend
// library's real directory in production (where the default plugin folders are), the test binary's inside go test. It
// falls back to the working directory when dladdr cannot place the code.
func LibraryDir() string {
	var buf [4096]C.char
	C.hd_plugindir_self_path(&buf[0], C.size_t(len(buf)))
	p := C.GoString((*C.char)(unsafe.Pointer(&buf[0])))
	if p == "" {
		wd, _ := os.Getwd()
		return wd
	}
	return filepath.Dir(Canonical(p))
}
