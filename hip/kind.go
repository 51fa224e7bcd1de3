package hip

import (
	"fmt"
	"strings"
)

// Kind names a GPU runtime family.
type Kind int

const (
	// KindNone is no GPU runtime: host memory and CPU engines only.
	KindNone Kind = iota
	// KindAMD is AMD's HIP runtime, libamdhip64.
	KindAMD
	// KindCUDA is HIP on NVIDIA: the calls mapped onto the CUDA runtime, libcudart.
	KindCUDA
)

// EnvRuntime is the environment variable that forces a runtime family for Default: "amd",
// "cuda" or "none" (case and surrounding spaces ignored). Unset or empty, Default tries amd,
// then cuda. An explicit family that fails to load, or any other value, yields KindNone with
// a Reason saying why.
const EnvRuntime = "HIPDNN_HIP_RUNTIME"

// String returns "none", "amd" or "cuda"; other values print as Kind(N).
func (k Kind) String() string {
	switch k {
	case KindNone:
		return "none"
	case KindAMD:
		return "amd"
	case KindCUDA:
		return "cuda"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// envChoice is what a value of HIPDNN_HIP_RUNTIME asks for.
type envChoice struct {
	auto bool // unset or empty: try amd, then cuda
	kind Kind // when !auto and err == nil
	err  error
}

// parseEnv reads a value of HIPDNN_HIP_RUNTIME.
func parseEnv(v string) envChoice {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "":
		return envChoice{auto: true}
	case "amd":
		return envChoice{kind: KindAMD}
	case "cuda":
		return envChoice{kind: KindCUDA}
	case "none":
		return envChoice{kind: KindNone}
	}
	return envChoice{err: fmt.Errorf("%s=%q is not amd, cuda or none", EnvRuntime, v)}
}
