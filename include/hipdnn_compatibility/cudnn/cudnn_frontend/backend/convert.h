// convert.h - frontend enums to hipdnn_backend's, one function per enum. Each returns false for
// a value our backend has no counterpart for, and name() gives the enumerator's spelling, so
// the caller's message can say exactly which value was refused.
#pragma once

#include <string>

#include "../../cudnn_frontend_utils.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {
namespace detail {

inline const char*
name(DataType_t t) {
    static const char* const n[] = {"NOT_SET",  "FLOAT",    "DOUBLE",   "HALF",    "INT8",     "INT32",
                                    "INT8x4",   "UINT8",    "UINT8x4",  "INT8x32", "BFLOAT16", "INT64",
                                    "BOOLEAN",  "FP8_E4M3", "FP8_E5M2", "FAST_FLOAT_FOR_FP8",   "FP8_E8M0",
                                    "FP4_E2M1", "INT4",     "COMPLEX_FP32",        "COMPLEX_FP64"};
    auto i = static_cast<size_t>(t);
    return i < sizeof n / sizeof n[0] ? n[i] : "UNKNOWN";
}

inline bool
convert(DataType_t t, hipdnnDataType_t& out) {
    switch (t) {
        case DataType_t::FLOAT: out = HIPDNN_DATA_FLOAT; return true;
        case DataType_t::DOUBLE: out = HIPDNN_DATA_DOUBLE; return true;
        case DataType_t::HALF: out = HIPDNN_DATA_HALF; return true;
        case DataType_t::INT8: out = HIPDNN_DATA_INT8; return true;
        case DataType_t::INT32: out = HIPDNN_DATA_INT32; return true;
        case DataType_t::UINT8: out = HIPDNN_DATA_UINT8; return true;
        case DataType_t::BFLOAT16: out = HIPDNN_DATA_BFLOAT16; return true;
        case DataType_t::INT64: out = HIPDNN_DATA_INT64; return true;
        case DataType_t::BOOLEAN: out = HIPDNN_DATA_BOOLEAN; return true;
        case DataType_t::FP8_E4M3: out = HIPDNN_DATA_FP8_E4M3; return true;
        case DataType_t::FP8_E5M2: out = HIPDNN_DATA_FP8_E5M2; return true;
        case DataType_t::FP8_E8M0: out = HIPDNN_DATA_FP8_E8M0; return true;
        case DataType_t::FP4_E2M1: out = HIPDNN_DATA_FP4_E2M1; return true;
        case DataType_t::INT4: out = HIPDNN_DATA_INT4; return true;
        default: return false;  // vectorized ints, FAST_FLOAT_FOR_FP8, complex: no hipDNN type
    }
}

// element_size in bytes of a frontend type (0 for sub-byte and unknown types).
inline size_t
element_size(DataType_t t) {
    switch (t) {
        case DataType_t::DOUBLE:
        case DataType_t::INT64: return 8;
        case DataType_t::FLOAT:
        case DataType_t::INT32: return 4;
        case DataType_t::HALF:
        case DataType_t::BFLOAT16: return 2;
        case DataType_t::INT8:
        case DataType_t::UINT8:
        case DataType_t::BOOLEAN:
        case DataType_t::FP8_E4M3:
        case DataType_t::FP8_E5M2:
        case DataType_t::FP8_E8M0: return 1;
        default: return 0;
    }
}

inline const char*
name(PointwiseMode_t m) {
    static const char* const n[] = {
        "NOT_SET",  "ADD",       "MUL",          "SQRT",        "MAX",        "MIN",
        "RELU_FWD", "TANH_FWD",  "SIGMOID_FWD",  "ELU_FWD",     "GELU_FWD",   "SOFTPLUS_FWD",
        "SWISH_FWD", "RELU_BWD", "TANH_BWD",     "SIGMOID_BWD", "ELU_BWD",    "GELU_BWD",
        "SOFTPLUS_BWD", "SWISH_BWD", "ERF",      "IDENTITY",    "GELU_APPROX_TANH_BWD",
        "GELU_APPROX_TANH_FWD", "GEN_INDEX", "BINARY_SELECT", "EXP", "LOG", "NEG", "MOD", "POW",
        "ABS", "CEIL", "COS", "FLOOR", "RSQRT", "SIN", "LOGICAL_NOT", "TAN", "SUB", "ADD_SQUARE",
        "DIV", "CMP_EQ", "CMP_NEQ", "CMP_GT", "CMP_GE", "CMP_LT", "CMP_LE", "LOGICAL_AND",
        "LOGICAL_OR", "RECIPROCAL"};
    auto i = static_cast<size_t>(m);
    return i < sizeof n / sizeof n[0] ? n[i] : "UNKNOWN";
}

// pointwise_arity is how many inputs a mode takes (0 for an unknown mode).
inline int
pointwise_arity(PointwiseMode_t m) {
    switch (m) {
        case PointwiseMode_t::ADD:
        case PointwiseMode_t::MUL:
        case PointwiseMode_t::MAX:
        case PointwiseMode_t::MIN:
        case PointwiseMode_t::SUB:
        case PointwiseMode_t::DIV:
        case PointwiseMode_t::ADD_SQUARE:
        case PointwiseMode_t::MOD:
        case PointwiseMode_t::POW:
        case PointwiseMode_t::CMP_EQ:
        case PointwiseMode_t::CMP_NEQ:
        case PointwiseMode_t::CMP_GT:
        case PointwiseMode_t::CMP_GE:
        case PointwiseMode_t::CMP_LT:
        case PointwiseMode_t::CMP_LE:
        case PointwiseMode_t::LOGICAL_AND:
        case PointwiseMode_t::LOGICAL_OR:
        case PointwiseMode_t::RELU_BWD:
        case PointwiseMode_t::TANH_BWD:
        case PointwiseMode_t::SIGMOID_BWD:
        case PointwiseMode_t::ELU_BWD:
        case PointwiseMode_t::GELU_BWD:
        case PointwiseMode_t::GELU_APPROX_TANH_BWD:
        case PointwiseMode_t::SOFTPLUS_BWD:
        case PointwiseMode_t::SWISH_BWD: return 2;
        case PointwiseMode_t::BINARY_SELECT: return 3;
        case PointwiseMode_t::NOT_SET: return 0;
        default: return 1;
    }
}

inline bool
convert(PointwiseMode_t m, hipdnnPointwiseMode_t& out) {
    switch (m) {
        case PointwiseMode_t::ADD: out = HIPDNN_POINTWISE_ADD; return true;
        case PointwiseMode_t::MUL: out = HIPDNN_POINTWISE_MUL; return true;
        case PointwiseMode_t::SQRT: out = HIPDNN_POINTWISE_SQRT; return true;
        case PointwiseMode_t::MAX: out = HIPDNN_POINTWISE_MAX; return true;
        case PointwiseMode_t::MIN: out = HIPDNN_POINTWISE_MIN; return true;
        case PointwiseMode_t::RELU_FWD: out = HIPDNN_POINTWISE_RELU_FWD; return true;
        case PointwiseMode_t::TANH_FWD: out = HIPDNN_POINTWISE_TANH_FWD; return true;
        case PointwiseMode_t::SIGMOID_FWD: out = HIPDNN_POINTWISE_SIGMOID_FWD; return true;
        case PointwiseMode_t::ELU_FWD: out = HIPDNN_POINTWISE_ELU_FWD; return true;
        case PointwiseMode_t::GELU_FWD: out = HIPDNN_POINTWISE_GELU_FWD; return true;
        case PointwiseMode_t::SOFTPLUS_FWD: out = HIPDNN_POINTWISE_SOFTPLUS_FWD; return true;
        case PointwiseMode_t::SWISH_FWD: out = HIPDNN_POINTWISE_SWISH_FWD; return true;
        case PointwiseMode_t::RELU_BWD: out = HIPDNN_POINTWISE_RELU_BWD; return true;
        case PointwiseMode_t::TANH_BWD: out = HIPDNN_POINTWISE_TANH_BWD; return true;
        case PointwiseMode_t::SIGMOID_BWD: out = HIPDNN_POINTWISE_SIGMOID_BWD; return true;
        case PointwiseMode_t::ELU_BWD: out = HIPDNN_POINTWISE_ELU_BWD; return true;
        case PointwiseMode_t::GELU_BWD: out = HIPDNN_POINTWISE_GELU_BWD; return true;
        case PointwiseMode_t::SOFTPLUS_BWD: out = HIPDNN_POINTWISE_SOFTPLUS_BWD; return true;
        case PointwiseMode_t::SWISH_BWD: out = HIPDNN_POINTWISE_SWISH_BWD; return true;
        case PointwiseMode_t::ERF: out = HIPDNN_POINTWISE_ERF; return true;
        case PointwiseMode_t::IDENTITY: out = HIPDNN_POINTWISE_IDENTITY; return true;
        case PointwiseMode_t::GELU_APPROX_TANH_BWD: out = HIPDNN_POINTWISE_GELU_APPROX_TANH_BWD; return true;
        case PointwiseMode_t::GELU_APPROX_TANH_FWD: out = HIPDNN_POINTWISE_GELU_APPROX_TANH_FWD; return true;
        case PointwiseMode_t::GEN_INDEX: out = HIPDNN_POINTWISE_GEN_INDEX; return true;
        case PointwiseMode_t::BINARY_SELECT: out = HIPDNN_POINTWISE_BINARY_SELECT; return true;
        case PointwiseMode_t::EXP: out = HIPDNN_POINTWISE_EXP; return true;
        case PointwiseMode_t::LOG: out = HIPDNN_POINTWISE_LOG; return true;
        case PointwiseMode_t::NEG: out = HIPDNN_POINTWISE_NEG; return true;
        case PointwiseMode_t::ABS: out = HIPDNN_POINTWISE_ABS; return true;
        case PointwiseMode_t::CEIL: out = HIPDNN_POINTWISE_CEIL; return true;
        case PointwiseMode_t::FLOOR: out = HIPDNN_POINTWISE_FLOOR; return true;
        case PointwiseMode_t::RSQRT: out = HIPDNN_POINTWISE_RSQRT; return true;
        case PointwiseMode_t::SIN: out = HIPDNN_POINTWISE_SIN; return true;
        case PointwiseMode_t::LOGICAL_NOT: out = HIPDNN_POINTWISE_LOGICAL_NOT; return true;
        case PointwiseMode_t::TAN: out = HIPDNN_POINTWISE_TAN; return true;
        case PointwiseMode_t::SUB: out = HIPDNN_POINTWISE_SUB; return true;
        case PointwiseMode_t::ADD_SQUARE: out = HIPDNN_POINTWISE_ADD_SQUARE; return true;
        case PointwiseMode_t::DIV: out = HIPDNN_POINTWISE_DIV; return true;
        case PointwiseMode_t::CMP_EQ: out = HIPDNN_POINTWISE_CMP_EQ; return true;
        case PointwiseMode_t::CMP_NEQ: out = HIPDNN_POINTWISE_CMP_NEQ; return true;
        case PointwiseMode_t::CMP_GT: out = HIPDNN_POINTWISE_CMP_GT; return true;
        case PointwiseMode_t::CMP_GE: out = HIPDNN_POINTWISE_CMP_GE; return true;
        case PointwiseMode_t::CMP_LT: out = HIPDNN_POINTWISE_CMP_LT; return true;
        case PointwiseMode_t::CMP_LE: out = HIPDNN_POINTWISE_CMP_LE; return true;
        case PointwiseMode_t::LOGICAL_AND: out = HIPDNN_POINTWISE_LOGICAL_AND; return true;
        case PointwiseMode_t::LOGICAL_OR: out = HIPDNN_POINTWISE_LOGICAL_OR; return true;
        case PointwiseMode_t::RECIPROCAL: out = HIPDNN_POINTWISE_RECIPROCAL; return true;
        default: return false;  // NOT_SET, MOD, POW, COS: hipDNN has no such mode
    }
}

inline const char*
name(ReductionMode_t m) {
    static const char* const n[] = {"NOT_SET", "ADD", "MUL", "MIN", "MAX", "AMAX", "AVG", "NORM1", "NORM2",
                                    "MUL_NO_ZEROS"};
    auto i = static_cast<size_t>(m);
    return i < sizeof n / sizeof n[0] ? n[i] : "UNKNOWN";
}

inline bool
convert(ReductionMode_t m, hipdnnReduceTensorOp_t& out) {
    switch (m) {
        case ReductionMode_t::ADD: out = HIPDNN_REDUCE_TENSOR_ADD; return true;
        case ReductionMode_t::MUL: out = HIPDNN_REDUCE_TENSOR_MUL; return true;
        case ReductionMode_t::MIN: out = HIPDNN_REDUCE_TENSOR_MIN; return true;
        case ReductionMode_t::MAX: out = HIPDNN_REDUCE_TENSOR_MAX; return true;
        case ReductionMode_t::AMAX: out = HIPDNN_REDUCE_TENSOR_AMAX; return true;
        case ReductionMode_t::AVG: out = HIPDNN_REDUCE_TENSOR_AVG; return true;
        case ReductionMode_t::NORM1: out = HIPDNN_REDUCE_TENSOR_NORM1; return true;
        case ReductionMode_t::NORM2: out = HIPDNN_REDUCE_TENSOR_NORM2; return true;
        case ReductionMode_t::MUL_NO_ZEROS: out = HIPDNN_REDUCE_TENSOR_MUL_NO_ZEROS; return true;
        default: return false;
    }
}

inline bool
convert(ConvolutionMode_t m, hipdnnConvolutionMode_t& out) {
    switch (m) {
        case ConvolutionMode_t::CONVOLUTION: out = HIPDNN_CONVOLUTION; return true;
        case ConvolutionMode_t::CROSS_CORRELATION: out = HIPDNN_CROSS_CORRELATION; return true;
        default: return false;
    }
}

inline bool
convert(NormFwdPhase_t p, hipdnnNormFwdPhase_t& out) {
    switch (p) {
        case NormFwdPhase_t::INFERENCE: out = HIPDNN_NORM_FWD_INFERENCE; return true;
        case NormFwdPhase_t::TRAINING: out = HIPDNN_NORM_FWD_TRAINING; return true;
        default: return false;
    }
}

inline const char*
name(ResampleMode_t m) {
    static const char* const n[] = {"NOT_SET", "AVGPOOL_EXCLUDE_PADDING", "AVGPOOL_INCLUDE_PADDING", "BILINEAR",
                                    "NEAREST", "MAXPOOL"};
    auto i = static_cast<size_t>(m);
    return i < sizeof n / sizeof n[0] ? n[i] : "UNKNOWN";
}

inline bool
convert(ResampleMode_t m, hipdnnResampleMode_t& out) {
    switch (m) {
        case ResampleMode_t::MAXPOOL: out = HIPDNN_RESAMPLE_MAXPOOL; return true;
        case ResampleMode_t::AVGPOOL_EXCLUDE_PADDING: out = HIPDNN_RESAMPLE_AVGPOOL_EXCLUDE_PADDING; return true;
        case ResampleMode_t::AVGPOOL_INCLUDE_PADDING: out = HIPDNN_RESAMPLE_AVGPOOL_INCLUDE_PADDING; return true;
        default: return false;  // BILINEAR, NEAREST: hipDNN resamples by pooling only
    }
}

inline bool
convert(PaddingMode_t m, hipdnnPaddingMode_t& out) {
    switch (m) {
        case PaddingMode_t::NEG_INF_PAD: out = HIPDNN_PADDING_NEG_INF_PAD; return true;
        case PaddingMode_t::ZERO_PAD: out = HIPDNN_PADDING_ZERO_PAD; return true;
        default: return false;  // EDGE_VAL_PAD: no hipDNN counterpart
    }
}

// convert maps a numerical note both ways; NOT_SET has no backend value.
inline bool
convert(NumericalNote_t n, hipdnnBackendNumericalNote_t& out) {
    if (n == NumericalNote_t::NOT_SET) return false;
    out = static_cast<hipdnnBackendNumericalNote_t>(static_cast<int>(n) - 1);  // same order, shifted by NOT_SET
    return true;
}

inline NumericalNote_t
from_backend(hipdnnBackendNumericalNote_t n) {
    if (n < 0 || n >= HIPDNN_NUMERICAL_NOTE_TYPE_COUNT) return NumericalNote_t::NOT_SET;
    return static_cast<NumericalNote_t>(static_cast<int>(n) + 1);
}

// convert maps the behaviour notes that hipDNN also has; the others are false.
inline bool
convert(BehaviorNote_t n, hipdnnBackendBehaviorNote_t& out) {
    switch (n) {
        case BehaviorNote_t::RUNTIME_COMPILATION: out = HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION; return true;
        case BehaviorNote_t::SUPPORTS_CUDA_GRAPH_NATIVE_API:
            out = HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE;
            return true;
        default: return false;
    }
}

inline BehaviorNote_t
from_backend(hipdnnBackendBehaviorNote_t n) {
    switch (n) {
        case HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION: return BehaviorNote_t::RUNTIME_COMPILATION;
        case HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE: return BehaviorNote_t::SUPPORTS_CUDA_GRAPH_NATIVE_API;
        default: return BehaviorNote_t::NOT_SET;
    }
}

}  // namespace detail
}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend
