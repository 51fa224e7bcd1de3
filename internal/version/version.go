// Package version holds the versions this library reports: the product version from
// version.json plus the build's commit (TWEAK), and, separately, the C ABI version, the
// plugin API versions it hosts and the graph schema version. A product release is not an ABI
// change: each number moves by its own rules (docs/compatibility.md).
package version

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	backend "github.com/hipdnn-go/backend"
	"github.com/hipdnn-go/backend/internal/api"
)

// tweak is set by the Makefile (-ldflags -X) to the commit's short hash.
var tweak string

// Triple is a MAJOR.MINOR.PATCH version.
type Triple struct{ Major, Minor, Patch int64 }

func (t Triple) String() string { return fmt.Sprintf("%d.%d.%d", t.Major, t.Minor, t.Patch) }

// Less orders versions lexicographically on (major, minor, patch).
func (t Triple) Less(o Triple) bool {
	if t.Major != o.Major {
		return t.Major < o.Major
	}
	if t.Minor != o.Minor {
		return t.Minor < o.Minor
	}
	return t.Patch < o.Patch
}

// CABI is the version of this library's C interface, from the header template
// (cmake/hipdnn_backend_version.h.in) through the generated enums. Its major changes only with
// an incompatible change to include/hipdnn_backend.h; additions bump the minor.
var CABI = Triple{api.HIPDNN_BACKEND_C_ABI_VERSION_MAJOR, api.HIPDNN_BACKEND_C_ABI_VERSION_MINOR, api.HIPDNN_BACKEND_C_ABI_VERSION_PATCH}

// GraphSchema is the version of the flatbuffer schemas in schemas/ (fields are only appended
// within a major, RFC 0005 §4.6).
var GraphSchema = Triple{1, 0, 0}

var (
	once    sync.Once
	product Triple
	str     string
)

func load() {
	once.Do(func() {
		var v struct {
			Version string `json:"hipdnn_backend_version"`
		}
		if err := json.Unmarshal(backend.VersionJSON, &v); err != nil {
			panic("version.json: " + err.Error())
		}
		t, err := Parse(v.Version)
		if err != nil {
			panic("version.json: " + err.Error())
		}
		product = t
		str = fmt.Sprintf("%d.%d.%d.%s", t.Major, t.Minor, t.Patch, Tweak())
	})
}

// Product returns version.json's version.
func Product() Triple { load(); return product }

// String returns "MAJOR.MINOR.PATCH.TWEAK", the value of hipdnnVersionString_ext.
func String() string { load(); return str }

// Tweak is the build's commit: the -X value, else the VCS stamp of the build, else "unknown".
func Tweak() string {
	if tweak != "" {
		return tweak
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 7 {
				return s.Value[:7]
			}
		}
	}
	return "unknown"
}

// Parse reads "MAJOR.MINOR.PATCH" the way hipDNN's version parser does: leading spaces are
// allowed, three dot-separated integers are required, and text after PATCH is ignored
// ("1.2.0.abc" is 1.2.0).
func Parse(s string) (Triple, error) {
	rest := strings.TrimLeft(s, " \t\r\n")
	var parts [3]int64
	for i := 0; i < 3; i++ {
		j := 0
		if j < len(rest) && (rest[j] == '-' || rest[j] == '+') {
			j++
		}
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		n, err := strconv.ParseInt(rest[:j], 10, 64)
		if err != nil {
			return Triple{}, fmt.Errorf("version %q is not MAJOR.MINOR.PATCH", s)
		}
		parts[i] = n
		rest = rest[j:]
		if i < 2 {
			if !strings.HasPrefix(rest, ".") {
				return Triple{}, fmt.Errorf("version %q is not MAJOR.MINOR.PATCH", s)
			}
			rest = rest[1:]
		}
	}
	return Triple{parts[0], parts[1], parts[2]}, nil
}
