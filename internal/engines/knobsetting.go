package engines

import "github.com/hipdnn-go/backend/internal/status"

// DecodeKnobSetting reads one KnobSetting flatbuffer, the element type of
// HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE. A value of a type this host does not know keeps its
// tag in Value.Kind and nothing else (its table is never followed). A buffer that does not
// decode is BAD_PARAM.
func DecodeKnobSetting(buf []byte) (KnobSetting, error) {
	s, err := decodeRoot(buf, "KnobSetting", (*decoder).knobSetting)
	if err != nil {
		return KnobSetting{}, status.BadParam("KnobSetting buffer (%d bytes) does not verify: %v", len(buf), err)
	}
	return s, nil
}
