package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFilesUpToDate fails when a header changed without `go generate ./internal/api`.
func TestGeneratedFilesUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	outputs, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range outputs {
		got, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./internal/api)", path, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./internal/api", path)
		}
	}
}

func TestParse(t *testing.T) {
	files := []SourceFile{
		{Name: "a.h", Text: `
/* a comment with typedef enum { X = 1 } fake_t; inside */
#define GUARD_ONLY
#define LIMIT 2048 // trailing comment
#define STRING "text, with = signs"
#define MULTI \
    A_TWO
typedef enum
{
    A_ZERO = 0, /* first */
    A_TWO = 2,
    A_SAME = A_TWO, // shares a value
    A_NEG = -1
} a_t;
`},
		{Name: "b.h", Text: `
typedef enum { B_ONE = 0x1, B_HUGE = 60409 } b_t;
#define OLD_B B_ONE
#define OLDER_B OLD_B
#ifdef X
#define SPLIT B_ONE
#else
#define SPLIT B_ONE
#endif
#define EXPORT __attribute__((visibility("default")))
EXPORT int f_one(void);
EXPORT const char* f_two(int x);
`},
	}
	h, err := Parse(files, "b.h")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Enums) != 2 || h.Enums[0].CName != "a_t" || h.Enums[1].CName != "b_t" {
		t.Fatalf("enums = %+v", h.Enums)
	}
	wantA := []Enumerator{{"A_ZERO", 0}, {"A_TWO", 2}, {"A_SAME", 2}, {"A_NEG", -1}}
	if got := h.Enums[0].Enumerators; !equalEnumerators(got, wantA) {
		t.Errorf("a_t = %v, want %v", got, wantA)
	}
	if got := h.Enums[1].Enumerators; !equalEnumerators(got, []Enumerator{{"B_ONE", 1}, {"B_HUGE", 60409}}) {
		t.Errorf("b_t = %v", got)
	}
	var aliases []string
	for _, a := range h.Aliases {
		aliases = append(aliases, a.Name+"->"+a.Target)
	}
	if got, want := strings.Join(aliases, " "), "MULTI->A_TWO OLDER_B->B_ONE OLD_B->B_ONE SPLIT->B_ONE"; got != want {
		t.Errorf("aliases = %q, want %q", got, want)
	}
	if len(h.Ints) != 1 || h.Ints[0].Name != "LIMIT" || h.Ints[0].Value != 2048 {
		t.Errorf("ints = %+v", h.Ints)
	}
	if got := strings.Join(h.Functions, " "); got != "" {
		// f_one/f_two are not declared with HIPDNN_BACKEND_EXPORT.
		t.Errorf("functions = %q, want none", got)
	}
}

func TestParseFunctions(t *testing.T) {
	files := []SourceFile{{Name: "h.h", Text: `
/* HIPDNN_BACKEND_EXPORT int commented_out(void); */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnCreate(hipdnnHandle_t* handle);
HIPDNN_BACKEND_EXPORT const char* hipdnnGetErrorString(hipdnnStatus_t status);
HIPDNN_BACKEND_DEPRECATED_EXPORT hipdnnStatus_t hipdnnGetVersion_ext(const char** version);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendCreateDescriptor(
    hipdnnBackendDescriptorType_t descriptorType, hipdnnBackendDescriptor_t* descriptor);
`}}
	h, err := Parse(files, "h.h")
	if err != nil {
		t.Fatal(err)
	}
	want := "hipdnnCreate hipdnnGetErrorString hipdnnGetVersion_ext hipdnnBackendCreateDescriptor"
	if got := strings.Join(h.Functions, " "); got != want {
		t.Errorf("functions = %q, want %q", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		desc string
		give string
		want string
	}{
		{"implicit value", "typedef enum { A = 0, B } t;", "B has no explicit value"},
		{"unknown reference", "typedef enum { A = LATER, LATER = 1 } t;", "neither an integer nor an enumerator"},
		{"duplicate name", "typedef enum { A = 0 } t; typedef enum { A = 1 } u;", "A declared again"},
		{"macro named like an enumerator", "typedef enum { A = 0 } t;\n#define A 1\n", "both an enumerator"},
		{"conflicting macro values", "#define M 1\n#define M 2\n", "defined as 1 and as 2"},
		{"expression", "typedef enum { A = 1 << 2 } t;", "neither an integer"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			_, err := Parse([]SourceFile{{Name: "x.h", Text: tt.give}}, "x.h")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestEmitRejectsUnknownEnum(t *testing.T) {
	h, err := Parse([]SourceFile{{Name: "x.h", Text: "typedef enum { A = 0 } mystery_t;"}}, "x.h")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := emitAPI(h); err == nil || !strings.Contains(err.Error(), "mystery_t has no Go type") {
		t.Errorf("emitAPI error = %v, want one naming mystery_t", err)
	}
}

func TestVersionStub(t *testing.T) {
	got := string(emitVersionStub("#define V_MAJOR @V_MAJOR@\n#define V_STRING \"@V_MAJOR@.@V_MINOR@\"\n#define ABI 1\n"))
	for _, want := range []string{"#define V_MAJOR 0\n", "#define V_STRING \"0.0\"\n", "#define ABI 1\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("stub %q lacks %q", got, want)
		}
	}
}

func equalEnumerators(a, b []Enumerator) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
