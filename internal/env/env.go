// Package env reads environment variables the way a C library must: from the process
// environment as it is now (C getenv), not from the copy Go took when the library was loaded.
// A program that calls setenv before using hipDNN (AMD's own tests do) expects the backend to
// see the value; os.Getenv in a c-shared library would not.
package env

/*
#include <stdlib.h>
#include <sys/auxv.h>

static int env_secure_execution(void) { return getauxval(AT_SECURE) != 0; }
*/
import "C"

import "unsafe"

// Lookup returns the variable's current value and whether it is set.
func Lookup(key string) (string, bool) {
	ck := C.CString(key)
	defer C.free(unsafe.Pointer(ck))
	v := C.getenv(ck)
	if v == nil {
		return "", false
	}
	return C.GoString(v), true
}

// Get returns the variable's current value, "" when unset.
func Get(key string) string {
	v, _ := Lookup(key)
	return v
}

// SecureExecution reports whether the process runs in secure-execution mode (setuid, file
// capabilities: AT_SECURE). Variables naming files to load are then ignored, as
// secure_getenv would.
func SecureExecution() bool { return C.env_secure_execution() != 0 }
