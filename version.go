// Package backend is the module root of the Go implementation of AMD hipDNN's backend. It only
// carries version.json, the one source of the product version (RFC 0005); the library itself
// is built from ./capi and documented in docs/architecture.md.
package backend

import _ "embed"

// VersionJSON is the content of version.json.
//
//go:embed version.json
var VersionJSON []byte
