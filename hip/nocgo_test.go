//go:build !cgo

package hip

const cgoEnabled = false
