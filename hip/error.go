package hip

import (
	"errors"
	"fmt"
)

// ErrNoRuntime is wrapped by every error of a KindNone runtime: errors.Is(err, ErrNoRuntime)
// tells "there is no GPU" apart from a failed GPU call.
var ErrNoRuntime = errors.New("no GPU runtime")

// Error is a failed HIP, CUDA runtime or CUDA driver call, with the runtime's own words.
type Error struct {
	Kind    Kind   // the runtime family that failed
	Call    string // the function called, e.g. "hipMalloc", "cudaMalloc", "cuDeviceGetName"
	Code    int    // hipError_t, cudaError_t or CUresult
	Name    string // the runtime's name for Code, e.g. "hipErrorOutOfMemory"
	Message string // the runtime's description of Code, e.g. "out of memory"
}

// Error formats as "call: name (code): message".
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s (%d): %s", e.Call, e.Name, e.Code, e.Message)
}

// noRuntimeError is what a KindNone runtime returns for a device query.
type noRuntimeError struct {
	op     string // the Runtime method, e.g. "DeviceProperties"
	reason string // the Runtime's Reason
}

func (e *noRuntimeError) Error() string {
	return "hip." + e.op + ": " + ErrNoRuntime.Error() + ": " + e.reason
}

func (e *noRuntimeError) Unwrap() error { return ErrNoRuntime }
