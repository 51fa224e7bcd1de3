// Package headercheck reads the constants of the public C headers through cgo, that is as the C
// compiler evaluates them, so that a test can compare them with the values tools/genapi parsed
// into package api. It is a separate non-test package because _test.go files cannot use cgo.
//
// The cgo preamble includes hipdnn_backend.h with the generated stand-in
// versionstub/hipdnn_backend_version.h, so it compiles before the build has produced the real
// version header. Nothing outside tests should import this package.
package headercheck
