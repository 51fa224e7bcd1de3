// cudnn_frontend_utils.h - the frontend's enums, its error type and error macros.
//
// Enumerators are upstream's (cudnn-frontend 1.23), in upstream's order, so code that switches
// on them or stores them compiles unchanged. Which of them hipdnn_backend can honour is decided
// where they are lowered (cudnn_frontend/backend/convert.h); this file only declares them.
#pragma once

#include <cassert>  // upstream's headers bring assert() to code that includes them
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>

#include "cudnn.h"
#include "cudnn_frontend_Logging.h"

namespace hipdnn_frontend {
namespace compatibility {
namespace cudnn_frontend {

enum class [[nodiscard]] error_code_t {
    OK,
    ATTRIBUTE_NOT_SET,
    SHAPE_DEDUCTION_FAILED,
    INVALID_TENSOR_NAME,
    INVALID_VARIANT_PACK,
    GRAPH_NOT_SUPPORTED,
    GRAPH_EXECUTION_PLAN_CREATION_FAILED,
    GRAPH_EXECUTION_FAILED,
    HEURISTIC_QUERY_FAILED,
    UNSUPPORTED_GRAPH_FORMAT,
    CUDA_API_FAILED,
    CUDNN_BACKEND_API_FAILED,
    INVALID_CUDA_DEVICE,
    HANDLE_ERROR,
    INVALID_VALUE,
    NVRTC_COMPILATION_FAILED
};

// to_string names an error code the way upstream prints it.
inline const char*
to_string(error_code_t code) {
    switch (code) {
        case error_code_t::OK: return "OK";
        case error_code_t::ATTRIBUTE_NOT_SET: return "ATTRIBUTE_NOT_SET";
        case error_code_t::SHAPE_DEDUCTION_FAILED: return "SHAPE_DEDUCTION_FAILED";
        case error_code_t::INVALID_TENSOR_NAME: return "INVALID_TENSOR_NAME";
        case error_code_t::INVALID_VARIANT_PACK: return "INVALID_VARIANT_PACK";
        case error_code_t::GRAPH_NOT_SUPPORTED: return "GRAPH_NOT_SUPPORTED";
        case error_code_t::GRAPH_EXECUTION_PLAN_CREATION_FAILED: return "GRAPH_EXECUTION_PLAN_CREATION_FAILED";
        case error_code_t::GRAPH_EXECUTION_FAILED: return "GRAPH_EXECUTION_FAILED";
        case error_code_t::HEURISTIC_QUERY_FAILED: return "HEURISTIC_QUERY_FAILED";
        case error_code_t::UNSUPPORTED_GRAPH_FORMAT: return "UNSUPPORTED_GRAPH_FORMAT";
        case error_code_t::CUDA_API_FAILED: return "CUDA_API_FAILED";
        case error_code_t::CUDNN_BACKEND_API_FAILED: return "CUDNN_BACKEND_API_FAILED";
        case error_code_t::INVALID_CUDA_DEVICE: return "INVALID_CUDA_DEVICE";
        case error_code_t::HANDLE_ERROR: return "HANDLE_ERROR";
        case error_code_t::INVALID_VALUE: return "INVALID_VALUE";
        case error_code_t::NVRTC_COMPILATION_FAILED: return "NVRTC_COMPILATION_FAILED";
    }
    return "UNKNOWN";
}

// error_object is what every fallible frontend call returns: a code and a message saying what
// was wrong. Upstream names it error_t too.
typedef struct [[nodiscard]] error_object {
    error_code_t code;
    std::string err_msg;

    error_object() : code(error_code_t::OK), err_msg("") {}
    // An error is logged where it is made (as upstream's macros do), so the log's first ERROR
    // line says what went wrong even when the caller drops the error_t.
    error_object(error_code_t err, std::string msg) : code(err), err_msg(std::move(msg)) {
        if (err != error_code_t::OK) CUDNN_FE_LOG_LABEL_ENDL("ERROR: " << to_string(err) << ": " << err_msg);
    }

    error_code_t
    get_code() {
        return code;
    }

    std::string
    get_message() {
        return err_msg;
    }

    bool
    is_good() const {
        return code == error_code_t::OK;
    }

    bool
    is_bad() const {
        return !is_good();
    }

    bool
    operator==(error_code_t compare_code) {
        return code == compare_code;
    }

    bool
    operator!=(error_code_t compare_code) {
        return code != compare_code;
    }
} error_t;

inline std::ostream&
operator<<(std::ostream& os, const error_code_t& code) {
    return os << to_string(code);
}

inline std::ostream&
operator<<(std::ostream& os, error_object& err) {
    return os << err.get_code() << err.get_message();
}

enum class BuildPlanPolicy_t {
    HEURISTICS_CHOICE,
    ALL,
};

enum class TensorReordering_t {
    NONE,
    INT8x32,
    F16x16,
    F8_128x4,
};

enum class ResampleMode_t {
    NOT_SET,
    AVGPOOL_EXCLUDE_PADDING,
    AVGPOOL_INCLUDE_PADDING,
    BILINEAR,
    NEAREST,
    MAXPOOL,
};

enum class PaddingMode_t { NOT_SET, EDGE_VAL_PAD, NEG_INF_PAD, ZERO_PAD };

enum class ReshapeMode_t { NOT_SET, VIEW_ONLY, LOGICAL };

enum class ConvolutionMode_t {
    NOT_SET,
    CONVOLUTION,
    CROSS_CORRELATION,
};

enum class NormFwdPhase_t { NOT_SET, INFERENCE, TRAINING };

enum class MoeGroupedMatmulMode_t { NOT_SET, NONE, GATHER, SCATTER };

enum class NormMode_t {
    NOT_SET,
    LAYER_NORM,
    INSTANCE_NORM,
    BATCH_NORM,
    GROUP_NORM,
    RMS_NORM,
    ADA_LAYER_NORM,
};

enum class PointwiseMode_t {
    NOT_SET,
    ADD,
    MUL,
    SQRT,
    MAX,
    MIN,
    RELU_FWD,
    TANH_FWD,
    SIGMOID_FWD,
    ELU_FWD,
    GELU_FWD,
    SOFTPLUS_FWD,
    SWISH_FWD,
    RELU_BWD,
    TANH_BWD,
    SIGMOID_BWD,
    ELU_BWD,
    GELU_BWD,
    SOFTPLUS_BWD,
    SWISH_BWD,
    ERF,
    IDENTITY,
    GELU_APPROX_TANH_BWD,
    GELU_APPROX_TANH_FWD,
    GEN_INDEX,
    BINARY_SELECT,
    EXP,
    LOG,
    NEG,
    MOD,
    POW,
    ABS,
    CEIL,
    COS,
    FLOOR,
    RSQRT,
    SIN,
    LOGICAL_NOT,
    TAN,
    SUB,
    ADD_SQUARE,
    DIV,
    CMP_EQ,
    CMP_NEQ,
    CMP_GT,
    CMP_GE,
    CMP_LT,
    CMP_LE,
    LOGICAL_AND,
    LOGICAL_OR,
    RECIPROCAL,
};

enum class HeurMode_t {
    A,
    B,
    FALLBACK,
    OPENSOURCE,
};

enum class BehaviorNote_t {
    NOT_SET,
    RUNTIME_COMPILATION,
    REQUIRES_FILTER_INT8x32_REORDER,
    REQUIRES_BIAS_INT8x32_REORDER,
    SUPPORTS_CUDA_GRAPH_NATIVE_API,
    CUBLASLT_DEPENDENCY,
};

enum class NumericalNote_t {
    NOT_SET,
    TENSOR_CORE,
    DOWN_CONVERT_INPUTS,
    REDUCED_PRECISION_REDUCTION,
    FFT,
    NONDETERMINISTIC,
    WINOGRAD,
    WINOGRAD_TILE_4x4,
    WINOGRAD_TILE_6x6,
    WINOGRAD_TILE_13x13,
    STRICT_NAN_PROP,
};

enum class DataType_t {
    NOT_SET,
    FLOAT,
    DOUBLE,
    HALF,
    INT8,
    INT32,
    INT8x4,
    UINT8,
    UINT8x4,
    INT8x32,
    BFLOAT16,
    INT64,
    BOOLEAN,
    FP8_E4M3,
    FP8_E5M2,
    FAST_FLOAT_FOR_FP8,
    FP8_E8M0,
    FP4_E2M1,
    INT4,
    COMPLEX_FP32,
    COMPLEX_FP64,
};

namespace detail {

// get_element_size_in_bits: storage bits of one element (sub-byte types pack), as upstream.
static inline size_t
get_element_size_in_bits(DataType_t datatype) {
    switch (datatype) {
        case DataType_t::INT8x32:
            return 256;
        case DataType_t::COMPLEX_FP64:
            return 128;
        case DataType_t::DOUBLE:
        case DataType_t::INT64:
        case DataType_t::COMPLEX_FP32:
            return 64;
        case DataType_t::FLOAT:
        case DataType_t::INT32:
        case DataType_t::INT8x4:
        case DataType_t::UINT8x4:
            return 32;
        case DataType_t::HALF:
        case DataType_t::BFLOAT16:
            return 16;
        case DataType_t::INT8:
        case DataType_t::UINT8:
        case DataType_t::FP8_E4M3:
        case DataType_t::FP8_E5M2:
        case DataType_t::FAST_FLOAT_FOR_FP8:
        case DataType_t::FP8_E8M0:
            return 8;
        case DataType_t::FP4_E2M1:
        case DataType_t::INT4:
            return 4;
        case DataType_t::BOOLEAN:  // bit-packed
            return 1;
        case DataType_t::NOT_SET:
            break;
    }
    return 0;
}

// get_backend_version: the cuDNN feature level the shim claims (cudnnGetVersion), which is what
// upstream's callers compare against cuDNN version numbers.
inline size_t
get_backend_version(void) {
    return cudnnGetVersion();
}

inline std::string
get_backend_version_string() {
    size_t v = get_backend_version();
    return std::to_string(v / 10000) + "." + std::to_string((v % 10000) / 100) + "." + std::to_string(v % 100);
}

}  // namespace detail

enum class ReductionMode_t { NOT_SET, ADD, MUL, MIN, MAX, AMAX, AVG, NORM1, NORM2, MUL_NO_ZEROS };

enum class RngDistribution_t {
    NOT_SET,
    BERNOULLI,
    UNIFORM,
    NORMAL,
};

enum class DiagonalAlignment_t { TOP_LEFT, BOTTOM_RIGHT };

enum class AttentionImplementation_t { AUTO, COMPOSITE, UNIFIED };

enum class KnobType_t {
    NOT_SET,
    SWIZZLE,
    TILE_SIZE,
    EDGE,
    MULTIPLY,
    SPLIT_K_BUF,
    TILEK,
    STAGES,
    REDUCTION_MODE,
    SPLIT_K_SLC,
    IDX_MODE,
    SPECFILT,
    KERNEL_CFG,
    WORKSPACE,
    TILE_CGA_M,
    TILE_CGA_N,
    BLOCK_SIZE,
    OCCUPANCY,
    ARRAY_SIZE_PER_THREAD,
    SPLIT_COLS,
    TILE_ROWS,
    TILE_COLS,
    LOAD_SIZE,
    CTA_COUNT,
    STREAM_K,
    SPLIT_P_SLC,
    TILE_M,
    TILE_N,
    WARP_SPEC_CFG,
};

// Knob describes one tunable of an engine and its range.
class Knob {
   public:
    KnobType_t type  = KnobType_t::NOT_SET;
    int64_t maxValue = 0;
    int64_t minValue = 0;
    int64_t stride   = 0;

    Knob(KnobType_t type, int64_t max, int64_t min, int64_t str)
        : type(type), maxValue(max), minValue(min), stride(str) {}
};

}  // namespace cudnn_frontend
}  // namespace compatibility
}  // namespace hipdnn_frontend

// The error macros name the shim's namespace in full so that they work in user code, which
// reaches the frontend only through an alias.
#define CHECK_CUDNN_FRONTEND_ERROR(x)                                                             \
    do {                                                                                          \
        if (auto retval = x; retval.is_bad()) {                                                   \
            CUDNN_FE_LOG_LABEL_ENDL("ERROR: " << #x << " at " << __FILE__ << ":" << __LINE__);    \
            return retval;                                                                        \
        }                                                                                         \
    } while (0)

#define RETURN_CUDNN_FRONTEND_ERROR_IF(cond, retval, message)                                              \
    do {                                                                                                   \
        if (cond) {                                                                                        \
            CUDNN_FE_LOG_LABEL_ENDL(                                                                       \
                ((retval) == ::hipdnn_frontend::compatibility::cudnn_frontend::error_code_t::OK ? "INFO: "  \
                                                                                                : "ERROR: ") \
                << (message) << ". " << (retval) << " because (" << #cond ") at " << __FILE__ << ":"       \
                << __LINE__);                                                                              \
            return {retval, message};                                                                      \
        }                                                                                                  \
    } while (0)

#define CUDNN_FRONTEND_UNUSED(X) ((void)X)
