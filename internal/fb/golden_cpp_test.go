package fb_test

// C++ -> Go: testdata/*.bin are written by schemas/golden/make_golden.cpp with
// the flatc-generated C++ code (regenerate with
// `cmake --build <build> --target hipdnn_fb_golden_update`). They must pass
// exactly the checks the Go-built buffers pass.

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCppGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.bin"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[filepath.Base(f)] = true
	}
	for name, check := range goldenCheckers {
		if !seen[name] {
			t.Errorf("testdata/%s missing: run the hipdnn_fb_golden_update CMake target", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			buf, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			check(t, buf)
		})
	}
	for name := range seen {
		if goldenCheckers[name] == nil {
			t.Errorf("testdata/%s has no check", name)
		}
	}
}
