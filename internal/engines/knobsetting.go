package engines

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/status"
)

// DecodeKnobSetting verifies and reads one KnobSetting flatbuffer, the element type of
// HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE. A buffer that does not verify is BAD_PARAM.
func DecodeKnobSetting(buf []byte) (KnobSetting, error) {
	v := &verifier{buf: buf}
	t, err := v.root("KnobSetting")
	if err == nil {
		err = v.knobSetting(t)
	}
	if err != nil {
		return KnobSetting{}, status.BadParam("KnobSetting buffer (%d bytes) does not verify: %v", len(buf), err)
	}
	ks := fb.GetRootAsKnobSetting(buf, 0)
	s := KnobSetting{ID: string(ks.KnobId())}
	var tab flatbuffers.Table
	if ks.Value(&tab) {
		s.Value = readValue(int(ks.ValueType()), tab)
	}
	return s, nil
}
