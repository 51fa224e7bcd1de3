package hip

import (
	"fmt"
	"github.com/hipdnn-go/backend/internal/env"
	"strings"
)

// Library search order. Bare sonames, so the dynamic loader's own search (LD_LIBRARY_PATH,
// ldconfig) decides where each comes from.
var (
	amdLibraries = []string{
		"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so",
	}
	cudaLibraries       = []string{"libcudart.so.13", "libcudart.so.12", "libcudart.so"}
	cudaDriverLibraries = []string{"libcuda.so.1"}
)

// opener loads one runtime family: it tries libs in order and returns the first that
// resolves every required entry point, its file, or an error listing each library tried and
// why it was refused. driverLibs is the CUDA driver library list (unused for AMD).
type opener func(kind Kind, libs, driverLibs []string) (driver, string, error)

// config is what loading depends on: the seam tests replace.
type config struct {
	getenv     func(string) string
	amdLibs    []string
	cudaLibs   []string
	driverLibs []string
	open       opener
}

func defaultConfig() config {
	return config{
		getenv:     env.Get,
		amdLibs:    amdLibraries,
		cudaLibs:   cudaLibraries,
		driverLibs: cudaDriverLibraries,
		open:       openNative,
	}
}

func (c config) libs(kind Kind) []string {
	if kind == KindAMD {
		return c.amdLibs
	}
	return c.cudaLibs
}

// fromEnv chooses the runtime the way Default does.
func fromEnv(c config) *Runtime {
	v := c.getenv(EnvRuntime)
	choice := parseEnv(v)
	switch {
	case choice.err != nil:
		return newNone(choice.err.Error())
	case choice.auto:
		return autoSelect(c)
	case choice.kind == KindNone:
		return newNone(EnvRuntime + "=none")
	}
	return load(choice.kind, c, EnvRuntime+"="+strings.TrimSpace(v))
}

// familyName names a family in messages.
func familyName(k Kind) string {
	if k == KindAMD {
		return "AMD HIP"
	}
	return "CUDA"
}

// load loads one family without probing for devices: the caller asked for it by name. why
// starts the Reason.
func load(kind Kind, c config, why string) *Runtime {
	switch kind {
	case KindNone:
		return newNone(why)
	case KindAMD, KindCUDA:
	default:
		return newNone(fmt.Sprintf("%s: unknown runtime kind %d", why, int(kind)))
	}
	drv, path, err := c.open(kind, c.libs(kind), c.driverLibs)
	if err != nil {
		return newNone(fmt.Sprintf("%s, but no %s runtime loaded (tried %v)", why, familyName(kind), err))
	}
	return &Runtime{kind: kind, path: path, reason: why + ": loaded " + path, drv: drv}
}

// autoSelect tries amd, then cuda, and keeps the first runtime that loads and reports at least
// one device. A library that loads but sees no device is passed over: a machine may carry
// ROCm's libraries and an NVIDIA GPU (the H200 machines we test on do).
func autoSelect(c config) *Runtime {
	var tried []string
	loaded := false
	for _, kind := range []Kind{KindAMD, KindCUDA} {
		drv, path, err := c.open(kind, c.libs(kind), c.driverLibs)
		if err != nil {
			tried = append(tried, err.Error())
			continue
		}
		loaded = true
		n, err := drv.deviceCount()
		switch {
		case err != nil:
			tried = append(tried, fmt.Sprintf("%s: %v", path, err))
			continue
		case n == 0:
			tried = append(tried, path+": no device")
			continue
		}
		reason := fmt.Sprintf("%s unset: chose %s, %s reports %d device(s)", EnvRuntime, kind, path, n)
		if len(tried) > 0 {
			reason += " (passed over: " + strings.Join(tried, "; ") + ")"
		}
		return &Runtime{kind: kind, path: path, reason: reason, drv: drv}
	}
	what := "no HIP or CUDA runtime found"
	if loaded {
		what = "no HIP or CUDA runtime with a device found"
	}
	return newNone(what + " (tried " + strings.Join(tried, "; ") + ")")
}
