//go:build cgo

package hip

const cgoEnabled = true
