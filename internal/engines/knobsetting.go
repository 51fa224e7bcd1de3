package engines

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/hipdnn-go/backend/internal/fb"
	"github.com/hipdnn-go/backend/internal/status"
)

// DecodeKnobSetting verifies and reads one KnobSetting flatbuffer, the element type of
// HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE. A buffer that does not verify is BAD_PARAM.
func DecodeKnobSetting(buf []byte) (KnobSetting, error) {
	if err := verifyKnobSetting(buf); err != nil {
		return KnobSetting{}, status.BadParam("KnobSetting buffer (%d bytes) does not verify: %v", len(buf), err)
	}
	return readSetting(fb.GetRootAsKnobSetting(buf, 0)), nil
}

// readSetting copies a verified KnobSetting. A value of a type this host does not know keeps
// its tag in Value.Kind and nothing else (its table is never followed).
func readSetting(ks *fb.KnobSetting) KnobSetting {
	s := KnobSetting{ID: string(ks.KnobId()), Value: KnobValue{Kind: int(ks.ValueType())}}
	var tab flatbuffers.Table
	if k := s.Value.Kind; k >= KnobInt && k <= KnobString && ks.Value(&tab) {
		s.Value = readValue(k, tab)
	}
	return s
}
