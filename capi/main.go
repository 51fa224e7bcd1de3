// Command capi is the cgo boundary of libhipdnn_backend.so (built with -buildmode=c-shared).
//
// Files group the exports like include/hipdnn_backend.h groups the functions. The public
// symbols themselves are C forwarders (forwarders.c) that hand every handle and descriptor to
// Go as uintptr_t: a caller may pass any value as a handle, and a pointer-typed Go parameter
// holding an invalid value can make the Go runtime abort. Each Go export has one short shape:
// check pointers, resolve handles, call one internal method, map the error once (boundary.go),
// recover any panic into INTERNAL_ERROR. No logic lives here.
package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include -I${SRCDIR}/../build/include -I${SRCDIR}/../internal/api/headercheck/versionstub -O2 -Wall
#cgo CXXFLAGS: -I${SRCDIR}/../include -I${SRCDIR}/../build/include -I${SRCDIR}/../internal/api/headercheck/versionstub -O2 -Wall -std=c++17
#cgo LDFLAGS: -ldl
*/
import "C"

func main() {}
