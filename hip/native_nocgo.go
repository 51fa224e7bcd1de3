//go:build !cgo

package hip

import "errors"

// openNative in a build without cgo: no GPU runtime can be loaded, so every Runtime is none.
// The API stays the same; Reason says why.
func openNative(kind Kind, libs, driverLibs []string) (driver, string, error) {
	return nil, "", errors.New("built without cgo: GPU runtimes cannot be loaded")
}
