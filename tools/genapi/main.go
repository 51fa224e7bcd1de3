// Command genapi generates the Go view of the public C headers, so that Go code never holds a
// hand-typed copy of an enum value.
//
// It reads include/*.h (the public headers, not the plugin SDK below include/) and the version
// header template cmake/hipdnn_backend_version.h.in, and writes:
//
//	internal/api/zz_generated.go                       one Go type per C enum, constants with
//	                                                   the C names, String/IsValid, AllConstants,
//	                                                   ExportedFunctions
//	internal/api/headercheck/zz_generated.go           the same constants read through cgo, for
//	                                                   the test that compares both views
//	internal/api/headercheck/versionstub/hipdnn_backend_version.h
//	                                                   the template with placeholder numbers, so
//	                                                   the cgo check compiles without a build
//
// Run it with `go generate ./internal/api` (or `go run ./tools/genapi` from anywhere in the
// module). The headers must give every enumerator an explicit value.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

const (
	functionsHeader = "include/hipdnn_backend.h"
	versionTemplate = "cmake/hipdnn_backend_version.h.in"
)

// Output paths, relative to the module root.
const (
	apiOut         = "internal/api/zz_generated.go"
	headerCheckOut = "internal/api/headercheck/zz_generated.go"
	versionStubOut = "internal/api/headercheck/versionstub/hipdnn_backend_version.h"
)

func main() {
	root := flag.String("root", "", "module root (default: the directory holding go.mod above the working directory)")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "genapi:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	if root == "" {
		var err error
		if root, err = findModuleRoot(); err != nil {
			return err
		}
	}
	outputs, err := generate(root)
	if err != nil {
		return err
	}
	paths := make([]string, 0, len(outputs))
	for p := range outputs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(root, p)
		if old, err := os.ReadFile(full); err == nil && bytes.Equal(old, outputs[p]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, outputs[p], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// generate returns the content of every output file, keyed by path relative to root.
func generate(root string) (map[string][]byte, error) {
	headers, err := filepath.Glob(filepath.Join(root, "include", "*.h"))
	if err != nil {
		return nil, err
	}
	if len(headers) == 0 {
		return nil, fmt.Errorf("no headers in %s", filepath.Join(root, "include"))
	}
	sort.Strings(headers)
	var files []SourceFile
	for _, full := range append(headers, filepath.Join(root, versionTemplate)) {
		text, err := os.ReadFile(full)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, full)
		if err != nil {
			return nil, err
		}
		files = append(files, SourceFile{Name: filepath.ToSlash(rel), Text: string(text)})
	}
	h, err := Parse(files, functionsHeader)
	if err != nil {
		return nil, err
	}
	if len(h.Functions) == 0 {
		return nil, fmt.Errorf("%s declares no HIPDNN_BACKEND_EXPORT function", functionsHeader)
	}
	api, err := emitAPI(h)
	if err != nil {
		return nil, err
	}
	check, err := emitHeaderCheck(h)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		apiOut:         api,
		headerCheckOut: check,
		versionStubOut: emitVersionStub(files[len(files)-1].Text),
	}, nil
}

func findModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory; pass -root")
		}
		dir = parent
	}
}
