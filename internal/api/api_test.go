package api

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

func TestString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		desc string
		give fmt.Stringer
		want string
	}{
		{"status", HIPDNN_STATUS_BAD_PARAM, "HIPDNN_STATUS_BAD_PARAM"},
		{"plugin error", HIPDNN_STATUS_PLUGIN_ERROR, "HIPDNN_STATUS_PLUGIN_ERROR"},
		{"newest status", HIPDNN_STATUS_VERSION_MISMATCH, "HIPDNN_STATUS_VERSION_MISMATCH"},
		{"unknown status", Status(-999), "HIPDNN_STATUS_UNKNOWN"},
		{"attribute", HIPDNN_ATTR_TENSOR_DIMENSIONS, "HIPDNN_ATTR_TENSOR_DIMENSIONS"},
		{"shared value names the first", HIPDNN_ATTR_TENSOR_CONSTANT_VALUE, "HIPDNN_ATTR_TENSOR_VALUE_EXT"},
		{"unknown attribute", AttributeName(12345), "AttributeName(12345)"},
		{"attribute type", HIPDNN_TYPE_OPERATION_TYPE_EXT, "HIPDNN_TYPE_OPERATION_TYPE_EXT"},
		{"alias names the enumerator", AttributeType(HIPDNN_TYPE_DIAGONAL_ALIGNMENT), "HIPDNN_TYPE_DIAGONAL_ALIGNMENT_EXT"},
		{"unknown attribute type", AttributeType(32), "HIPDNN_ATTRIBUTE_UNKNOWN"},
		{"descriptor type", HIPDNN_BACKEND_TENSOR_DESCRIPTOR, "HIPDNN_BACKEND_TENSOR_DESCRIPTOR"},
		{"unknown descriptor type", DescriptorType(39), "UNKNOWN_TYPE"},
		{"data type", HIPDNN_DATA_FP8_E5M2_FNUZ, "HIPDNN_DATA_FP8_E5M2_FNUZ"},
		{"unknown data type", DataType(18), "HIPDNN_DATA_UNKNOWN"},
		{"behavior note", HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE, "HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE"},
		{"unknown behavior note", BehaviorNote(-1), "HIPDNN_BEHAVIOR_NOTE_UNKNOWN"},
		{"pointwise", HIPDNN_POINTWISE_TANH_FWD, "HIPDNN_POINTWISE_TANH_FWD"},
		{"pointwise zero is no mode", PointwiseMode(0), "PointwiseMode(0)"},
		{"operation type", HIPDNN_OPERATION_TYPE_RESAMPLE_BWD, "HIPDNN_OPERATION_TYPE_RESAMPLE_BWD"},
		{"severity", HIPDNN_SEV_OFF, "HIPDNN_SEV_OFF"},
		{"unknown severity", Severity(5), "Severity(5)"},
		{"version kind", HIPDNN_VERSION_KIND_GRAPH_SCHEMA_EXT, "HIPDNN_VERSION_KIND_GRAPH_SCHEMA_EXT"},
		{"unknown version kind", VersionKind(6), "VersionKind(6)"},
		{"flags are not combined", SerializedContentFlags(3), "SerializedContentFlags(3)"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := tt.give.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestIsValid(t *testing.T) {
	t.Parallel()
	type validator interface{ IsValid() bool }
	tests := []struct {
		desc string
		give validator
		want bool
	}{
		{"first status", HIPDNN_STATUS_SUCCESS, true},
		{"last status", HIPDNN_STATUS_VERSION_MISMATCH, true},
		{"past the last status", Status(16), false},
		{"negative status", Status(-1), false},
		{"attribute in a gap", AttributeName(108), false},
		{"project attribute", HIPDNN_ATTR_PROFILING_STALL_USED_EXT, true},
		{"attribute type after the gap", HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT, true},
		{"attribute type in the gap", AttributeType(9999), false},
		{"invalid descriptor type is declared", HIPDNN_INVALID_TYPE_EXT, true},
		{"pointwise zero", PointwiseMode(0), false},
		{"resample zero", ResampleMode(0), false},
		{"plugin loading default", PluginLoadingMode(HIPDNN_DEFAULT_PLUGIN_LOADING_MODE), true},
		{"plugin unloading out of range", PluginUnloadingMode(2), false},
		{"log callback mode", HIPDNN_LOG_CALLBACK_ASYNC, true},
		{"autotune outcome", HIPDNN_AUTOTUNE_CACHE_WRITE_UNCHANGED, true},
		{"version kind out of range", VersionKind(6), false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			if got := tt.give.IsValid(); got != tt.want {
				t.Errorf("IsValid() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestConstants(t *testing.T) {
	t.Parallel()
	if ERROR_STRING_MAX_LENGTH != 2048 || HIPDNN_ERROR_STRING_MAX_LENGTH != ERROR_STRING_MAX_LENGTH {
		t.Errorf("ERROR_STRING_MAX_LENGTH = %d, HIPDNN_ERROR_STRING_MAX_LENGTH = %d, want 2048",
			ERROR_STRING_MAX_LENGTH, HIPDNN_ERROR_STRING_MAX_LENGTH)
	}
	for name, want := range map[string]int64{
		"HIPDNN_STATUS_PLUGIN_ERROR":        14,
		"HIPDNN_ATTR_TENSOR_CONSTANT_VALUE": 1306,
		"HIPDNN_INVALID_TYPE":               0,
		"HIPDNN_ATTR_OPERATION_MATMUL_A":    2500,
		"HIPDNN_ERROR_STRING_MAX_LENGTH":    2048,
	} {
		if got, ok := AllConstants[name]; !ok || got != want {
			t.Errorf("AllConstants[%q] = %d, %v; want %d", name, got, ok, want)
		}
	}
}

// TestCTestsNameEveryFunction keeps the C tests that must cover the whole interface in step with
// the header: each of them has to mention every declared function. (test_exports.c takes its list
// from the installed header itself, through the generated header_functions.h.)
func TestCTestsNameEveryFunction(t *testing.T) {
	t.Parallel()
	if len(ExportedFunctions) != 39 {
		t.Errorf("hipdnn_backend.h declares %d functions, want 39 (38 of AMD's + hipdnnGetComponentVersion_ext)",
			len(ExportedFunctions))
	}
	for _, file := range []string{"test_header_c.c", "test_header_cpp.cpp"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "tests", "c", file))
		if err != nil {
			t.Error(err)
			continue
		}
		for _, fn := range ExportedFunctions {
			if !regexp.MustCompile(`\b` + fn + `\b`).Match(src) {
				t.Errorf("tests/c/%s does not mention %s", file, fn)
			}
		}
	}
}
