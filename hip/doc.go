// Package hip is the backend's window onto a GPU runtime: the few HIP runtime calls the
// backend needs (device queries, stream device and synchronize, pointer attributes, copies,
// allocation for tests, events for profiling), found at first use through dlopen and never
// required at link time, so the library loads and works on machines with no GPU stack.
//
// Three runtimes stand behind one API:
//
//   - KindAMD: libamdhip64 (ROCm 5 and later), whose hip* symbols are called directly.
//   - KindCUDA: HIP on NVIDIA, which is a one-to-one mapping of these calls onto the CUDA
//     runtime (libcudart 12 or 13), plus libcuda.so.1 for the device name and memory size.
//   - KindNone: no runtime. Device queries fail with an error wrapping ErrNoRuntime,
//     DeviceCount reports 0, and every pointer is host memory: the backend can run only
//     host-memory CPU engines.
//
// Default loads once, honouring HIPDNN_HIP_RUNTIME (amd, cuda or none; unset tries amd, then
// cuda, keeping the first that reports a device); asking for devices starts the runtime (about
// 240 ms on an H200 host), so host work asks InUse first: whether a GPU driver is already
// mapped into the process, found without loading anything. Load picks a family explicitly,
// for tests.
//
// A Runtime is immutable after loading and safe for concurrent use. The current device is a
// property of the calling OS thread in both HIP and CUDA; a goroutine that relies on it
// across calls (CurrentDevice, Malloc) must hold its thread with runtime.LockOSThread.
//
// Files: kind.go (Kind and the environment variable), runtime.go (Runtime and its methods),
// select.go (how a runtime is chosen), inuse.go (InUse), none.go (the no-runtime variant),
// native.go with shim.h, table.c, calls.c and props.c (the runtime through internal/dl),
// error.go (errors). The
// package needs cgo, as the library it is part of does (a c-shared build).
package hip
