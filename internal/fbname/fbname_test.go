package fbname

import "testing"

func TestGo(t *testing.T) {
	for in, want := range map[string]string{"in_0_tensor_uid": "In0TensorUid", "io_data_type": "IoDataType", "x": "X", "": ""} {
		if got := Go(in); got != want {
			t.Errorf("Go(%q) = %q, want %q", in, got, want)
		}
	}
}
