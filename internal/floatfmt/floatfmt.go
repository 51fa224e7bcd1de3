// Package floatfmt converts hipDNN's 16-bit float formats (binary16 and bfloat16) through the
// SDK's FloatFormats.h, the one implementation the engines and tools use too, so a scalar the
// core writes into a graph rounds exactly as an engine would round it. Not on a hot path: these
// convert scalar tensor values when graphs are serialized and read back.
package floatfmt

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo LDFLAGS: -lm
#include <hipdnn_plugin_sdk/helpers/FloatFormats.h>
*/
import "C"

// HalfToFloat decodes binary16 bits exactly.
func HalfToFloat(h uint16) float32 { return float32(C.hipdnnHalfToFloat(C.uint16_t(h))) }

// Bfloat16ToFloat decodes bfloat16 bits exactly.
func Bfloat16ToFloat(b uint16) float32 { return float32(C.hipdnnBfloat16ToFloat(C.uint16_t(b))) }

// Half rounds v to binary16 once, to nearest even; overflow gives infinity, NaN stays NaN.
func Half(v float64) uint16 { return uint16(C.hipdnnDoubleToHalf(C.double(v))) }

// Bfloat16 rounds v to bfloat16 once, to nearest even.
func Bfloat16(v float64) uint16 { return uint16(C.hipdnnDoubleToBfloat16(C.double(v))) }
