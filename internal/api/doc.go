// Package api holds the Go view of the public C headers: one Go type per C enum of
// include/*.h, with constants that carry the C names exactly (api.HIPDNN_STATUS_BAD_PARAM,
// api.HIPDNN_ATTR_TENSOR_DIMENSIONS), as golang.org/x/sys/unix does for the kernel's names.
//
// Everything in zz_generated.go is produced by tools/genapi from the headers; nothing here is
// typed by hand, so the header stays the single source of every number. Each type has:
//
//   - String, returning the C enumerator name (the first one declared where several names share
//     a value) and, for an undeclared value, the text AMD's string tables use
//     ("HIPDNN_STATUS_UNKNOWN", "HIPDNN_DATA_UNKNOWN", "HIPDNN_ATTRIBUTE_UNKNOWN",
//     "UNKNOWN_TYPE", "HIPDNN_BEHAVIOR_NOTE_UNKNOWN") or "<TypeName>(<n>)" where AMD has none;
//   - IsValid, reporting whether the value is a declared enumerator.
//
// AllConstants lists every enumerator, #define alias and integer macro by C name, and
// ExportedFunctions every function hipdnn_backend.h declares. Package api/headercheck reads the
// same constants through cgo, and its test proves that the C compiler and this package agree.
//
// After editing a header, run `go generate ./internal/api`; a test in tools/genapi fails while
// the generated files are stale.
package api

//go:generate go run ../../tools/genapi
