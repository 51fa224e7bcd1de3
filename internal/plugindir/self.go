package plugindir

import (
	"os"
	"path/filepath"

	"github.com/hipdnn-go/backend/internal/dl"
)

// LibraryDir is the directory of the file holding this code, symlinks resolved: the backend
// library's real directory in production (where the default plugin folders are), the test
// binary's inside go test. It falls back to the working directory when dladdr cannot place
// the code.
func LibraryDir() string {
	p := dl.SelfPath()
	if p == "" {
		wd, _ := os.Getwd()
		return wd
	}
	return filepath.Dir(Canonical(p))
}
