package status

import (
	"errors"
	"fmt"
	"testing"

	"github.com/hipdnn-go/backend/internal/api"
)

func TestCode(t *testing.T) {
	tests := []struct {
		desc string
		give error
		want api.Status
	}{
		{"nil is success", nil, api.HIPDNN_STATUS_SUCCESS},
		{"own error", BadParam("x"), api.HIPDNN_STATUS_BAD_PARAM},
		{"wrapped own error", fmt.Errorf("ctx: %w", NotSupported("y")), api.HIPDNN_STATUS_NOT_SUPPORTED},
		{"foreign error", errors.New("boom"), api.HIPDNN_STATUS_INTERNAL_ERROR},
		{"plugin", Plugin("p"), api.HIPDNN_STATUS_PLUGIN_ERROR},
	}
	for _, tt := range tests {
		if got := Code(tt.give); got != tt.want {
			t.Errorf("%s: Code = %v, want %v", tt.desc, got, tt.want)
		}
	}
}

func TestWrapKeepsStatusAndPrefixes(t *testing.T) {
	err := Wrap(NullPointer("arrayOfElements is NULL"), "hipdnnBackendSetAttribute")
	if Code(err) != api.HIPDNN_STATUS_BAD_PARAM_NULL_POINTER {
		t.Fatalf("status = %v", Code(err))
	}
	if want := "hipdnnBackendSetAttribute: arrayOfElements is NULL"; err.Error() != want {
		t.Fatalf("message = %q, want %q", err.Error(), want)
	}
	if Wrap(nil, "x") != nil {
		t.Fatal("Wrap(nil) must be nil")
	}
}
