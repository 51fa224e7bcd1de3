/* Every operation descriptor kind (23), table driven: one row per operation lists its tensors
 * (consistent shapes) and attributes. For each row: create, set everything, finalize, read every
 * attribute back, OPERATION_TYPE_EXT, NAME_EXT; misuse: each missing required attribute
 * (BAD_PARAM naming it), an unfinalized tensor (BAD_PARAM_NOT_FINALIZED), a descriptor of the
 * wrong kind (BAD_PARAM), a wrong attribute type (BAD_PARAM), get before finalize and set after
 * finalize (NOT_INITIALIZED), an unset optional reading count 0. Then the shape checks this
 * backend adds (convolution output size, matmul inner dimensions, pointwise arity, ...). */
#include <stdbool.h>

#include "builders.h"
#include "testutil.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_T 12
#define MAX_A 20

enum vkind { V_TENSOR, V_I64S, V_I64, V_I32, V_F32, V_BOOL, V_ENUM, V_DT, V_STR, V_BYTES };

struct attr {
    hipdnnBackendAttributeName_t name;
    const char* label; /* the enumerator name, which a missing-attribute message must contain */
    enum vkind kind;
    bool req;
    int t[3]; /* V_TENSOR: tensor indices */
    int nt; /* V_TENSOR: how many (more than one: a tensor array) */
    hipdnnBackendAttributeType_t etype; /* V_ENUM: the attribute type */
    int64_t i; /* V_I64, V_I32, V_BOOL, V_ENUM, V_DT */
    int64_t iv[4]; /* V_I64S */
    int niv;
    float f; /* V_F32 */
    const char* s; /* V_STR, V_BYTES */
    int ns; /* V_BYTES: length */
};

struct tshape {
    int rank;
    int64_t d[5];
};

struct row {
    const char* name;
    hipdnnBackendDescriptorType_t kind;
    int op_type;
    int nt;
    struct tshape t[MAX_T];
    struct attr a[MAX_A];
    /* An optional attribute left unset, which must read back with count 0 (0: none). */
    hipdnnBackendAttributeName_t unset;
    hipdnnBackendAttributeType_t unset_type;
};

#define T(A, I) \
    { .name = A, .label = #A, .kind = V_TENSOR, .req = true, .t = {I}, .nt = 1 }
#define TO(A, I) \
    { .name = A, .label = #A, .kind = V_TENSOR, .req = false, .t = {I}, .nt = 1 }
#define TL(A, I, J) \
    { .name = A, .label = #A, .kind = V_TENSOR, .req = false, .t = {I, J}, .nt = 2 }
#define IV2(A, X, Y) \
    { .name = A, .label = #A, .kind = V_I64S, .req = true, .iv = {X, Y}, .niv = 2 }
#define I64(A, R, V) \
    { .name = A, .label = #A, .kind = V_I64, .req = R, .i = V }
#define I32(A, R, V) \
    { .name = A, .label = #A, .kind = V_I32, .req = R, .i = V }
#define F32(A, V) \
    { .name = A, .label = #A, .kind = V_F32, .req = false, .f = V }
#define BOOL(A, V) \
    { .name = A, .label = #A, .kind = V_BOOL, .req = false, .i = V }
#define ENUM(A, R, TYPE, V) \
    { .name = A, .label = #A, .kind = V_ENUM, .req = R, .etype = TYPE, .i = V }
#define DT(A, R, V) \
    { .name = A, .label = #A, .kind = V_DT, .req = R, .i = V }
#define STR(A, R, S) \
    { .name = A, .label = #A, .kind = V_STR, .req = R, .s = S }
#define BYTES(A, S, N) \
    { .name = A, .label = #A, .kind = V_BYTES, .req = false, .s = S, .ns = N }
#define COMP(A) DT(A, true, HIPDNN_DATA_FLOAT)

#define S4(A, B, C, D)    \
    {                     \
        4, { A, B, C, D } \
    }
#define S3(A, B, C)    \
    {                  \
        3, { A, B, C } \
    }
#define S2(A, B)    \
    {               \
        2, { A, B } \
    }
#define S1(A)    \
    {            \
        1, { A } \
    }

#define CONV_PARAMS                                                                                            \
    IV2(HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, 1, 1), IV2(HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, 1, 1),         \
        IV2(HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, 1, 1), IV2(HIPDNN_ATTR_CONVOLUTION_DILATIONS, 1, 1),       \
        ENUM(HIPDNN_ATTR_CONVOLUTION_CONV_MODE, true, HIPDNN_TYPE_CONVOLUTION_MODE, HIPDNN_CROSS_CORRELATION), \
        COMP(HIPDNN_ATTR_CONVOLUTION_COMP_TYPE)

#define RESAMPLE_PARAMS(MODE)                                                                                             \
    ENUM(HIPDNN_ATTR_RESAMPLE_MODE, true, HIPDNN_TYPE_RESAMPLE_MODE, MODE), IV2(HIPDNN_ATTR_RESAMPLE_PRE_PADDINGS, 0, 0), \
        IV2(HIPDNN_ATTR_RESAMPLE_POST_PADDINGS, 0, 0), IV2(HIPDNN_ATTR_RESAMPLE_STRIDES, 2, 2),                           \
        IV2(HIPDNN_ATTR_RESAMPLE_WINDOW_DIMS, 2, 2),                                                                      \
        ENUM(HIPDNN_ATTR_RESAMPLE_PADDING_MODE, false, HIPDNN_TYPE_PADDING_MODE, HIPDNN_PADDING_ZERO_PAD),                \
        DT(HIPDNN_ATTR_RESAMPLE_COMP_TYPE, false, HIPDNN_DATA_FLOAT)

static const struct row rows[] = {
    {"convolution forward",
     HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_CONVOLUTION_FORWARD_EXT,
     3,
     {S4(1, 4, 8, 8), S4(8, 4, 3, 3), S4(1, 8, 8, 8)},
     {T(HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, 0), T(HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, 1),
      T(HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, 2), CONV_PARAMS},
     0,
     0},
    {"convolution backward data",
     HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_CONVOLUTION_BACKWARD_DATA_EXT,
     3,
     {S4(1, 8, 8, 8), S4(8, 4, 3, 3), S4(1, 4, 8, 8)},
     {T(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, 0), T(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W, 1),
      T(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, 2), CONV_PARAMS},
     0,
     0},
    {"convolution backward filter",
     HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_CONVOLUTION_BACKWARD_WEIGHTS_EXT,
     3,
     {S4(1, 4, 8, 8), S4(1, 8, 8, 8), S4(8, 4, 3, 3)},
     {T(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, 0), T(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY, 1),
      T(HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW, 2), CONV_PARAMS},
     0,
     0},
    {"batchnorm inference",
     HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT,
     HIPDNN_OPERATION_TYPE_BATCHNORM_INFERENCE_EXT,
     6,
     {S4(2, 4, 3, 3), S4(1, 4, 1, 1), S4(1, 4, 1, 1), S4(1, 4, 1, 1), S4(1, 4, 1, 1), S4(2, 4, 3, 3)},
     {T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_X_EXT, 0), T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_MEAN_EXT, 1),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_INV_VARIANCE_EXT, 2), T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_SCALE_EXT, 3),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_BIAS_EXT, 4), T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_Y_EXT, 5),
      COMP(HIPDNN_ATTR_BATCHNORM_INF_COMP_TYPE_EXT)},
     0,
     0},
    {"batchnorm backward",
     HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT,
     HIPDNN_OPERATION_TYPE_BATCHNORM_BACKWARD_EXT,
     8,
     {S4(2, 4, 3, 3), S4(2, 4, 3, 3), S4(1, 4, 1, 1), S4(2, 4, 3, 3), S4(1, 4, 1, 1), S4(1, 4, 1, 1), S4(1, 4, 1, 1),
      S4(1, 4, 1, 1)},
     {T(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DY_EXT, 0), T(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_X_EXT, 1),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_SCALE_EXT, 2), T(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DX_EXT, 3),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DSCALE_EXT, 4), T(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_DBIAS_EXT, 5),
      TO(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_MEAN_EXT, 6), TO(HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_INV_VARIANCE_EXT, 7),
      COMP(HIPDNN_ATTR_BATCHNORM_BACKWARD_COMP_TYPE_EXT)},
     HIPDNN_ATTR_OPERATION_BATCHNORM_BACKWARD_PEER_STATS_EXT,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"batchnorm inference variance",
     HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT,
     HIPDNN_OPERATION_TYPE_BATCHNORM_INFERENCE_VARIANCE_EXT,
     7,
     {S4(2, 4, 3, 3), S4(1, 4, 1, 1), S4(1, 4, 1, 1), S4(1, 4, 1, 1), S4(1, 4, 1, 1), S4(2, 4, 3, 3), S4(1, 1, 1, 1)},
     {T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_X_EXT, 0),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_MEAN_EXT, 1),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_VARIANCE_EXT, 2),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_SCALE_EXT, 3),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_BIAS_EXT, 4),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_Y_EXT, 5),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_INFERENCE_VARIANCE_EPSILON_EXT, 6), COMP(HIPDNN_ATTR_BATCHNORM_INF_VAR_COMP_TYPE_EXT)},
     0,
     0},
    {"batchnorm training",
     HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT,
     HIPDNN_OPERATION_TYPE_BATCHNORM_EXT,
     7,
     {S4(2, 4, 3, 3), S4(1, 4, 1, 1), S4(1, 4, 1, 1), S4(1, 1, 1, 1), S4(2, 4, 3, 3), S4(1, 4, 1, 1), S4(1, 4, 1, 1)},
     {T(HIPDNN_ATTR_OPERATION_BATCHNORM_X_EXT, 0), T(HIPDNN_ATTR_OPERATION_BATCHNORM_SCALE_EXT, 1),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_BIAS_EXT, 2), T(HIPDNN_ATTR_OPERATION_BATCHNORM_EPSILON_EXT, 3),
      T(HIPDNN_ATTR_OPERATION_BATCHNORM_Y_EXT, 4), TO(HIPDNN_ATTR_OPERATION_BATCHNORM_MEAN_EXT, 5),
      TO(HIPDNN_ATTR_OPERATION_BATCHNORM_INV_VARIANCE_EXT, 6), COMP(HIPDNN_ATTR_BATCHNORM_COMP_TYPE_EXT)},
     HIPDNN_ATTR_OPERATION_BATCHNORM_PREV_RUNNING_MEAN_EXT,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"pointwise",
     HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_POINTWISE_EXT,
     3,
     {S2(2, 3), S2(1, 3), S2(2, 3)},
     {T(HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, 0), TO(HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, 1),
      T(HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, 2),
      ENUM(HIPDNN_ATTR_POINTWISE_MODE, true, HIPDNN_TYPE_POINTWISE_MODE, HIPDNN_POINTWISE_ADD),
      F32(HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, 0.25f), F32(HIPDNN_ATTR_POINTWISE_SWISH_BETA, 1.5f),
      F32(HIPDNN_ATTR_POINTWISE_ELU_ALPHA, -2.0f), COMP(HIPDNN_ATTR_POINTWISE_MATH_PREC)},
     HIPDNN_ATTR_OPERATION_POINTWISE_IN_2_EXT,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"matmul",
     HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_MATMUL_EXT,
     3,
     {S3(2, 3, 4), S3(1, 4, 5), S3(2, 3, 5)},
     {T(HIPDNN_ATTR_OPERATION_MATMUL_ADESC, 0), T(HIPDNN_ATTR_OPERATION_MATMUL_BDESC, 1),
      T(HIPDNN_ATTR_OPERATION_MATMUL_CDESC, 2), COMP(HIPDNN_ATTR_MATMUL_COMP_TYPE)},
     0,
     0},
    {"rmsnorm",
     HIPDNN_BACKEND_OPERATION_RMSNORM_DESCRIPTOR_EXT,
     HIPDNN_OPERATION_TYPE_RMSNORM_EXT,
     5,
     {S3(2, 3, 8), S3(1, 1, 8), S3(1, 1, 1), S3(2, 3, 8), S3(2, 3, 1)},
     {T(HIPDNN_ATTR_OPERATION_RMSNORM_X_EXT, 0), T(HIPDNN_ATTR_OPERATION_RMSNORM_SCALE_EXT, 1),
      T(HIPDNN_ATTR_OPERATION_RMSNORM_EPSILON_EXT, 2), T(HIPDNN_ATTR_OPERATION_RMSNORM_Y_EXT, 3),
      TO(HIPDNN_ATTR_OPERATION_RMSNORM_INV_RMS_EXT, 4),
      ENUM(HIPDNN_ATTR_OPERATION_RMSNORM_FWD_PHASE_EXT, true, HIPDNN_TYPE_NORM_FWD_PHASE, HIPDNN_NORM_FWD_TRAINING),
      COMP(HIPDNN_ATTR_RMSNORM_COMP_TYPE_EXT)},
     HIPDNN_ATTR_OPERATION_RMSNORM_BIAS_EXT,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"sdpa forward",
     HIPDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_SDPA_FORWARD_EXT,
     6,
     {S4(1, 4, 16, 8), S4(1, 2, 32, 8), S4(1, 2, 32, 6), S4(1, 4, 16, 6), S4(1, 1, 1, 1), S4(1, 4, 16, 1)},
     {T(HIPDNN_ATTR_OPERATION_SDPA_FWD_QDESC, 0), T(HIPDNN_ATTR_OPERATION_SDPA_FWD_KDESC, 1),
      T(HIPDNN_ATTR_OPERATION_SDPA_FWD_VDESC, 2), T(HIPDNN_ATTR_OPERATION_SDPA_FWD_ODESC, 3),
      TO(HIPDNN_ATTR_OPERATION_SDPA_FWD_SCALEDESC, 4), TO(HIPDNN_ATTR_OPERATION_SDPA_FWD_STATSDESC, 5),
      BOOL(HIPDNN_ATTR_SDPA_FWD_GENERATE_STATS_EXT, 1), BOOL(HIPDNN_ATTR_SDPA_FWD_CAUSAL_MASK_EXT, 1),
      F32(HIPDNN_ATTR_SDPA_FWD_ATTN_SCALE_VALUE_EXT, 0.125f), F32(HIPDNN_ATTR_SDPA_FWD_DROPOUT_PROBABILITY_EXT, 0.0f),
      I64(HIPDNN_ATTR_SDPA_FWD_LEFT_BOUND_EXT, false, 5), I32(HIPDNN_ATTR_SDPA_FWD_MAX_SEQ_LEN_KV_EXT, false, 32),
      ENUM(HIPDNN_ATTR_SDPA_FWD_DIAGONAL_ALIGNMENT_EXT, false, HIPDNN_TYPE_DIAGONAL_ALIGNMENT_EXT,
           HIPDNN_DIAGONAL_ALIGNMENT_BOTTOM_RIGHT_EXT),
      DT(HIPDNN_ATTR_SDPA_FWD_MMA_CORE_MODE_EXT, false, HIPDNN_DATA_HALF),
      ENUM(HIPDNN_ATTR_SDPA_FWD_IMPLEMENTATION_EXT, false, HIPDNN_TYPE_ATTENTION_IMPLEMENTATION_EXT,
           HIPDNN_ATTENTION_IMPLEMENTATION_UNIFIED_EXT),
      COMP(HIPDNN_ATTR_SDPA_FWD_COMP_TYPE_EXT)},
     HIPDNN_ATTR_OPERATION_SDPA_FWD_ATTN_MASK_EXT,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"layernorm",
     HIPDNN_BACKEND_OPERATION_LAYERNORM_DESCRIPTOR_EXT,
     HIPDNN_OPERATION_TYPE_LAYERNORM_EXT,
     5,
     {S3(2, 3, 8), S3(1, 1, 8), S3(1, 1, 8), S3(1, 1, 1), S3(2, 3, 8)},
     {T(HIPDNN_ATTR_OPERATION_LAYERNORM_X_EXT, 0), T(HIPDNN_ATTR_OPERATION_LAYERNORM_SCALE_EXT, 1),
      T(HIPDNN_ATTR_OPERATION_LAYERNORM_BIAS_EXT, 2), T(HIPDNN_ATTR_OPERATION_LAYERNORM_EPSILON_EXT, 3),
      T(HIPDNN_ATTR_OPERATION_LAYERNORM_Y_EXT, 4),
      ENUM(HIPDNN_ATTR_OPERATION_LAYERNORM_FWD_PHASE_EXT, true, HIPDNN_TYPE_NORM_FWD_PHASE, HIPDNN_NORM_FWD_INFERENCE),
      I64(HIPDNN_ATTR_OPERATION_LAYERNORM_NORMALIZED_DIM_COUNT_EXT, false, 1), COMP(HIPDNN_ATTR_LAYERNORM_COMP_TYPE_EXT)},
     HIPDNN_ATTR_OPERATION_LAYERNORM_MEAN_EXT,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"block scale quantize",
     HIPDNN_BACKEND_OPERATION_BLOCK_SCALE_QUANTIZE_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_BLOCK_SCALE_QUANTIZE_EXT,
     3,
     {S2(4, 32), S2(4, 32), S2(4, 1)},
     {T(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_XDESC, 0), T(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_YDESC, 1),
      T(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_SCALE_DESC, 2),
      I64(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_BLOCK_SIZE, true, 32),
      I64(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_AXIS_EXT, false, 1),
      BOOL(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_TRANSPOSE_EXT, 1),
      COMP(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_QUANTIZE_MATH_PREC)},
     0,
     0},
    {"sdpa backward",
     HIPDNN_BACKEND_OPERATION_SDPA_BWD_DESCRIPTOR_EXT,
     HIPDNN_OPERATION_TYPE_SDPA_BACKWARD_EXT,
     10,
     {S4(1, 2, 4, 8), S4(1, 2, 4, 8), S4(1, 2, 4, 8), S4(1, 2, 4, 8), S4(1, 2, 4, 8), S4(1, 2, 4, 1), S4(1, 2, 4, 8),
      S4(1, 2, 4, 8), S4(1, 2, 4, 8), S4(1, 1, 1, 1)},
     {T(HIPDNN_ATTR_OPERATION_SDPA_BWD_Q_EXT, 0), T(HIPDNN_ATTR_OPERATION_SDPA_BWD_K_EXT, 1),
      T(HIPDNN_ATTR_OPERATION_SDPA_BWD_V_EXT, 2), T(HIPDNN_ATTR_OPERATION_SDPA_BWD_O_EXT, 3),
      T(HIPDNN_ATTR_OPERATION_SDPA_BWD_DO_EXT, 4), T(HIPDNN_ATTR_OPERATION_SDPA_BWD_STATS_EXT, 5),
      T(HIPDNN_ATTR_OPERATION_SDPA_BWD_DQ_EXT, 6), T(HIPDNN_ATTR_OPERATION_SDPA_BWD_DK_EXT, 7),
      T(HIPDNN_ATTR_OPERATION_SDPA_BWD_DV_EXT, 8), TO(HIPDNN_ATTR_OPERATION_SDPA_BWD_SCALE_EXT, 9),
      BOOL(HIPDNN_ATTR_SDPA_BWD_CAUSAL_MASK_EXT, 1), F32(HIPDNN_ATTR_SDPA_BWD_ATTN_SCALE_VALUE_EXT, 0.5f),
      I64(HIPDNN_ATTR_SDPA_BWD_RIGHT_BOUND_EXT, false, 3),
      ENUM(HIPDNN_ATTR_SDPA_BWD_DIAGONAL_ALIGNMENT_EXT, false, HIPDNN_TYPE_DIAGONAL_ALIGNMENT_EXT,
           HIPDNN_DIAGONAL_ALIGNMENT_TOP_LEFT_EXT),
      COMP(HIPDNN_ATTR_SDPA_BWD_COMP_TYPE_EXT)},
     HIPDNN_ATTR_OPERATION_SDPA_BWD_ATTN_MASK_EXT,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"block scale dequantize",
     HIPDNN_BACKEND_OPERATION_BLOCK_SCALE_DEQUANTIZE_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_BLOCK_SCALE_DEQUANTIZE_EXT,
     3,
     {S2(4, 32), S2(4, 1), S2(4, 32)},
     {T(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_XDESC, 0), T(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_SCALE_DESC, 1),
      T(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_YDESC, 2),
      IV2(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_BLOCK_SIZE, 1, 32),
      BOOL(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_NEG_SCALE, 1),
      COMP(HIPDNN_ATTR_OPERATION_BLOCK_SCALE_DEQUANTIZE_MATH_PREC)},
     0,
     0},
    {"custom op",
     HIPDNN_BACKEND_OPERATION_CUSTOM_OP_DESCRIPTOR_EXT,
     HIPDNN_OPERATION_TYPE_CUSTOM_OP_EXT,
     3,
     {S2(2, 3), S2(2, 3), S2(4, 4)},
     {TL(HIPDNN_ATTR_OPERATION_CUSTOM_OP_INPUTS_EXT, 0, 1), STR(HIPDNN_ATTR_OPERATION_CUSTOM_OP_ID_EXT, true, "my.custom_op"),
      BYTES(HIPDNN_ATTR_OPERATION_CUSTOM_OP_DATA_EXT, "\x01\x00\x02\xff", 4), COMP(HIPDNN_ATTR_CUSTOM_OP_COMP_TYPE_EXT)},
     HIPDNN_ATTR_OPERATION_CUSTOM_OP_OUTPUTS_EXT,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"reduction",
     HIPDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_REDUCTION_EXT,
     2,
     {S3(2, 3, 4), S3(2, 1, 4)},
     {T(HIPDNN_ATTR_OPERATION_REDUCTION_XDESC, 0), T(HIPDNN_ATTR_OPERATION_REDUCTION_YDESC, 1),
      ENUM(HIPDNN_ATTR_REDUCTION_OPERATOR, true, HIPDNN_TYPE_REDUCTION_OPERATOR_TYPE, HIPDNN_REDUCE_TENSOR_NORM2),
      BOOL(HIPDNN_ATTR_REDUCTION_IS_DETERMINISTIC, 1), COMP(HIPDNN_ATTR_REDUCTION_COMP_TYPE)},
     0,
     0},
    {"resample forward",
     HIPDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_RESAMPLE_FWD,
     2,
     {S4(1, 2, 6, 6), S4(1, 2, 3, 3)},
     {T(HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_XDESC, 0), T(HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_YDESC, 1),
      BOOL(HIPDNN_ATTR_RESAMPLE_GENERATE_INDEX_EXT, 0), RESAMPLE_PARAMS(HIPDNN_RESAMPLE_MAXPOOL)},
     HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_IDXDESC,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"rmsnorm backward",
     HIPDNN_BACKEND_OPERATION_RMSNORM_BACKWARD_DESCRIPTOR_EXT,
     HIPDNN_OPERATION_TYPE_RMSNORM_BACKWARD_EXT,
     6,
     {S3(2, 3, 8), S3(2, 3, 8), S3(1, 1, 8), S3(2, 3, 1), S3(2, 3, 8), S3(1, 1, 8)},
     {T(HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DY_EXT, 0), T(HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_X_EXT, 1),
      T(HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_SCALE_EXT, 2), T(HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_INV_RMS_EXT, 3),
      T(HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DX_EXT, 4), T(HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DSCALE_EXT, 5),
      COMP(HIPDNN_ATTR_RMSNORM_BACKWARD_COMP_TYPE_EXT)},
     HIPDNN_ATTR_OPERATION_RMSNORM_BACKWARD_DBIAS_EXT,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"layernorm backward",
     HIPDNN_BACKEND_OPERATION_LAYERNORM_BACKWARD_DESCRIPTOR_EXT,
     HIPDNN_OPERATION_TYPE_LAYERNORM_BACKWARD_EXT,
     8,
     {S3(2, 3, 8), S3(2, 3, 8), S3(1, 1, 8), S3(2, 3, 1), S3(2, 3, 1), S3(2, 3, 8), S3(1, 1, 8), S3(1, 1, 8)},
     {T(HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DY_EXT, 0), T(HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_X_EXT, 1),
      T(HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_SCALE_EXT, 2), TO(HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_MEAN_EXT, 3),
      TO(HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_INV_VARIANCE_EXT, 4), T(HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DX_EXT, 5),
      T(HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DSCALE_EXT, 6), T(HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_DBIAS_EXT, 7),
      I64(HIPDNN_ATTR_LAYERNORM_BACKWARD_NORMALIZED_DIM_COUNT_EXT, false, 1), COMP(HIPDNN_ATTR_LAYERNORM_BACKWARD_COMP_TYPE_EXT)},
     HIPDNN_ATTR_OPERATION_LAYERNORM_BACKWARD_EPSILON_EXT,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"resample backward",
     HIPDNN_BACKEND_OPERATION_RESAMPLE_BWD_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_RESAMPLE_BWD,
     2,
     {S4(1, 2, 3, 3), S4(1, 2, 6, 6)},
     {T(HIPDNN_ATTR_OPERATION_RESAMPLE_BWD_DYDESC, 0), T(HIPDNN_ATTR_OPERATION_RESAMPLE_BWD_DXDESC, 1),
      RESAMPLE_PARAMS(HIPDNN_RESAMPLE_AVGPOOL_INCLUDE_PADDING)},
     HIPDNN_ATTR_OPERATION_RESAMPLE_BWD_IDXDESC,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"moe grouped matmul",
     HIPDNN_BACKEND_OPERATION_MOE_GROUPED_MATMUL_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_MOE_GROUPED_MATMUL_EXT,
     5,
     {S2(8, 16), S3(4, 16, 32), S1(5), S2(8, 32), S1(8)},
     {T(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_TOKEN_DESC, 0), T(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_WEIGHT_DESC, 1),
      T(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_FIRST_TOKEN_OFFSET_DESC, 2),
      T(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_OUTPUT_DESC, 3),
      TO(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_TOKEN_INDEX_DESC, 4),
      ENUM(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_MODE, true, HIPDNN_TYPE_MOE_GROUPED_MATMUL_MODE,
           HIPDNN_MOE_GROUPED_MATMUL_MODE_GATHER),
      I64(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_TOP_K, false, 2), COMP(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_MATH_PREC)},
     HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_TOKEN_KS_DESC,
     HIPDNN_TYPE_BACKEND_DESCRIPTOR},
    {"moe grouped matmul backward",
     HIPDNN_BACKEND_OPERATION_MOE_GROUPED_MATMUL_BWD_DESCRIPTOR,
     HIPDNN_OPERATION_TYPE_MOE_GROUPED_MATMUL_BWD_EXT,
     4,
     {S2(8, 32), S2(8, 16), S1(5), S3(4, 16, 32)},
     {T(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_BWD_DOUTPUT_DESC, 0),
      T(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_BWD_TOKEN_DESC, 1),
      T(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_BWD_FIRST_TOKEN_OFFSET_DESC, 2),
      T(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_BWD_DWEIGHT_DESC, 3),
      COMP(HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_BWD_MATH_PREC)},
     0,
     0},
};

static int n_attrs(const struct row* r) {
    int n = 0;
    while (n < MAX_A && r->a[n].label != NULL)
        n++;
    return n;
}

static hipdnnBackendDescriptor_t make_tensor(int64_t uid, const struct tshape* s, bool finalize) {
    hipdnnBackendDescriptor_t t = NULL;
    CHECK_OK(tu_tensor_open(&t, uid, HIPDNN_DATA_FLOAT, s->rank, s->d));
    if (finalize)
        CHECK_OK(hipdnnBackendFinalize(t));
    return t;
}

static int64_t uid_of(hipdnnBackendDescriptor_t t) {
    int64_t uid = -1;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, NULL, &uid));
    return uid;
}

/* Sets one attribute from its table entry. */
static hipdnnStatus_t set_attr(hipdnnBackendDescriptor_t op, const struct attr* a, hipdnnBackendDescriptor_t* ts) {
    switch (a->kind) {
    case V_TENSOR: {
        hipdnnBackendDescriptor_t list[3];
        for (int i = 0; i < a->nt; i++)
            list[i] = ts[a->t[i]];
        return hipdnnBackendSetAttribute(op, a->name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, a->nt, list);
    }
    case V_I64S: return hipdnnBackendSetAttribute(op, a->name, HIPDNN_TYPE_INT64, a->niv, a->iv);
    case V_I64: return hipdnnBackendSetAttribute(op, a->name, HIPDNN_TYPE_INT64, 1, &a->i);
    case V_I32: {
        int32_t v = (int32_t)a->i;
        return hipdnnBackendSetAttribute(op, a->name, HIPDNN_TYPE_INT32, 1, &v);
    }
    case V_F32: return hipdnnBackendSetAttribute(op, a->name, HIPDNN_TYPE_FLOAT, 1, &a->f);
    case V_BOOL: {
        bool b = a->i != 0;
        return hipdnnBackendSetAttribute(op, a->name, HIPDNN_TYPE_BOOLEAN, 1, &b);
    }
    case V_ENUM: {
        int32_t v = (int32_t)a->i;
        return hipdnnBackendSetAttribute(op, a->name, a->etype, 1, &v);
    }
    case V_DT: {
        hipdnnDataType_t v = (hipdnnDataType_t)a->i;
        return hipdnnBackendSetAttribute(op, a->name, HIPDNN_TYPE_DATA_TYPE, 1, &v);
    }
    case V_STR: return hipdnnBackendSetAttribute(op, a->name, HIPDNN_TYPE_CHAR, (int64_t)strlen(a->s), a->s);
    case V_BYTES: return hipdnnBackendSetAttribute(op, a->name, HIPDNN_TYPE_CHAR, a->ns, a->s);
    }
    return HIPDNN_STATUS_INTERNAL_ERROR;
}

/* Reads one attribute back and compares it with the table. */
static void check_readback(const struct row* r, hipdnnBackendDescriptor_t op, const struct attr* a,
                           hipdnnBackendDescriptor_t* ts) {
    int64_t n = -1;
    hipdnnStatus_t st = HIPDNN_STATUS_SUCCESS;
    bool same = true;
    switch (a->kind) {
    case V_TENSOR: {
        hipdnnBackendDescriptor_t got[3] = {NULL, NULL, NULL};
        if (a->nt > 1) {
            st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL);
            if (st == HIPDNN_STATUS_SUCCESS && n != a->nt)
                same = false;
        }
        if (st == HIPDNN_STATUS_SUCCESS)
            st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, a->nt, &n, got);
        if (st == HIPDNN_STATUS_SUCCESS) {
            same = same && n == a->nt;
            for (int i = 0; i < a->nt && i < n; i++) {
                if (got[i] == NULL) {
                    same = false;
                    continue;
                }
                if (got[i] == ts[a->t[i]])
                    CHECK_FAIL("%s: %s returned the caller's own handle, not a new one", r->name, a->label);
                if (uid_of(got[i]) != uid_of(ts[a->t[i]]))
                    same = false;
                CHECK_OK(hipdnnBackendDestroyDescriptor(got[i]));
            }
        }
        break;
    }
    case V_I64S: {
        int64_t v[8] = {0};
        st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_INT64, 8, &n, v);
        same = n == a->niv && memcmp(v, a->iv, sizeof(int64_t) * (size_t)a->niv) == 0;
        break;
    }
    case V_I64: {
        int64_t v = 0;
        st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_INT64, 1, &n, &v);
        same = n == 1 && v == a->i;
        break;
    }
    case V_I32: {
        int32_t v = 0;
        st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_INT32, 1, &n, &v);
        same = n == 1 && v == a->i;
        break;
    }
    case V_F32: {
        float v = 0;
        st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_FLOAT, 1, &n, &v);
        same = n == 1 && v == a->f;
        break;
    }
    case V_BOOL: {
        bool v = a->i == 0;
        st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_BOOLEAN, 1, &n, &v);
        same = n == 1 && v == (a->i != 0);
        break;
    }
    case V_ENUM: {
        int32_t v = -1;
        st = hipdnnBackendGetAttribute(op, a->name, a->etype, 1, &n, &v);
        same = n == 1 && v == a->i;
        break;
    }
    case V_DT: {
        int32_t v = -1;
        st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_DATA_TYPE, 1, &n, &v);
        same = n == 1 && v == a->i;
        break;
    }
    case V_STR: {
        char v[64];
        st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_CHAR, 0, &n, NULL);
        same = n == (int64_t)strlen(a->s) + 1;
        if (st == HIPDNN_STATUS_SUCCESS)
            st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_CHAR, sizeof v, &n, v);
        same = same && strcmp(v, a->s) == 0;
        break;
    }
    case V_BYTES: {
        char v[16];
        memset(v, 0x55, sizeof v);
        st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_CHAR, 0, &n, NULL);
        same = n == a->ns; /* raw bytes: no terminator counted */
        if (st == HIPDNN_STATUS_SUCCESS)
            st = hipdnnBackendGetAttribute(op, a->name, HIPDNN_TYPE_CHAR, sizeof v, &n, v);
        same = same && n == a->ns && memcmp(v, a->s, (size_t)a->ns) == 0 && v[a->ns] == 0x55;
        break;
    }
    }
    if (st != HIPDNN_STATUS_SUCCESS)
        CHECK_FAIL("%s: reading %s back returned %s", r->name, a->label, hipdnnGetErrorString(st));
    else if (!same)
        CHECK_FAIL("%s: %s read back a different value (count %lld)", r->name, a->label, (long long)n);
    check_count++;
}

/* A type no operation attribute accepts, for the wrong-type misuse. */
static hipdnnBackendAttributeType_t wrong_type(const struct attr* a) {
    return a->kind == V_TENSOR ? HIPDNN_TYPE_INT64 : HIPDNN_TYPE_VOID_PTR;
}

static void expect(const struct row* r, const char* what, hipdnnStatus_t got, hipdnnStatus_t want, const char* needle) {
    check_count++;
    char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(msg, sizeof msg);
    if (got != want) {
        CHECK_FAIL("%s: %s returned %s, want %s (last error \"%s\")", r->name, what, hipdnnGetErrorString(got),
                hipdnnGetErrorString(want), msg);
        return;
    }
    if (want != HIPDNN_STATUS_SUCCESS && (msg[0] == '\0' || (needle && strstr(msg, needle) == NULL)))
        CHECK_FAIL("%s: %s: last error \"%s\" lacks \"%s\"", r->name, what, msg, needle ? needle : "");
}

static void run_row(const struct row* r, hipdnnBackendDescriptor_t other_kind) {
    hipdnnBackendDescriptor_t ts[MAX_T];
    for (int i = 0; i < r->nt; i++)
        ts[i] = make_tensor(100 + i, &r->t[i], true);
    int na = n_attrs(r);

    /* The happy path. */
    hipdnnBackendDescriptor_t op = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(r->kind, &op));
    int32_t ot = -1;
    int64_t n = -1;
    /* OPERATION_TYPE_EXT is read-only. */
    expect(r, "set OPERATION_TYPE_EXT",
           hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_TYPE_EXT, HIPDNN_TYPE_OPERATION_TYPE_EXT, 1, &ot),
           HIPDNN_STATUS_NOT_SUPPORTED, NULL);
    /* Get before finalize. */
    {
        hipdnnBackendDescriptor_t dummy = NULL;
        int64_t buf[8];
        const struct attr* a0 = &r->a[0];
        hipdnnStatus_t st = a0->kind == V_TENSOR
                                ? hipdnnBackendGetAttribute(op, a0->name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &dummy)
                                : hipdnnBackendGetAttribute(op, a0->name, HIPDNN_TYPE_CHAR, 8, &n, buf);
        expect(r, "get before finalize", st, HIPDNN_STATUS_NOT_INITIALIZED, NULL);
    }
    for (int i = 0; i < na; i++) {
        hipdnnStatus_t st = set_attr(op, &r->a[i], ts);
        if (st != HIPDNN_STATUS_SUCCESS)
            CHECK_FAIL("%s: setting %s returned %s", r->name, r->a[i].label, hipdnnGetErrorString(st));
        check_count++;
        /* Wrong attribute type for the same attribute. */
        int64_t junk[4] = {1, 1, 1, 1};
        char what[160];
        snprintf(what, sizeof what, "set %s with a wrong type", r->a[i].label);
        expect(r, what, hipdnnBackendSetAttribute(op, r->a[i].name, wrong_type(&r->a[i]), 1, junk), HIPDNN_STATUS_BAD_PARAM,
               NULL);
    }
    const char* opname = "node_under_test";
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, (int64_t)strlen(opname), opname));
    expect(r, "finalize", hipdnnBackendFinalize(op), HIPDNN_STATUS_SUCCESS, NULL);
    /* OPERATION_TYPE_EXT: size query gives 1; the value is this row's type. */
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(op, HIPDNN_ATTR_OPERATION_TYPE_EXT, HIPDNN_TYPE_OPERATION_TYPE_EXT, 0, &n, NULL));
    CHECK_EQ_INT(n, 1);
    CHECK_OK(hipdnnBackendGetAttribute(op, HIPDNN_ATTR_OPERATION_TYPE_EXT, HIPDNN_TYPE_OPERATION_TYPE_EXT, 1, &n, &ot));
    expect(r, "OPERATION_TYPE_EXT as INT32",
           hipdnnBackendGetAttribute(op, HIPDNN_ATTR_OPERATION_TYPE_EXT, HIPDNN_TYPE_INT32, 1, &n, &ot), HIPDNN_STATUS_BAD_PARAM,
           NULL);
    if (ot != r->op_type)
        CHECK_FAIL("%s: OPERATION_TYPE_EXT is %d, want %d", r->name, ot, r->op_type);
    char nb[64] = {0};
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(op, HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, 0, &n, NULL));
    CHECK_EQ_INT(n, (int64_t)strlen(opname) + 1);
    CHECK_OK(hipdnnBackendGetAttribute(op, HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof nb, &n, nb));
    CHECK_STREQ(nb, opname);
    for (int i = 0; i < na; i++)
        check_readback(r, op, &r->a[i], ts);
    /* The unset optional reads count 0. */
    if (r->unset != 0) {
        hipdnnBackendDescriptor_t none[2] = {NULL, NULL};
        n = -1;
        hipdnnStatus_t st = hipdnnBackendGetAttribute(op, r->unset, r->unset_type, 2, &n, none);
        expect(r, "get of an unset optional", st, HIPDNN_STATUS_SUCCESS, NULL);
        if (n != 0 || none[0] != NULL)
            CHECK_FAIL("%s: unset optional attribute %d read count %lld", r->name, (int)r->unset, (long long)n);
    }
    /* Set after finalize, whatever the attribute. */
    expect(r, "set after finalize", set_attr(op, &r->a[0], ts), HIPDNN_STATUS_NOT_INITIALIZED, NULL);
    expect(r, "set NAME_EXT after finalize",
           hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_NAME_EXT, HIPDNN_TYPE_CHAR, 1, "x"), HIPDNN_STATUS_NOT_INITIALIZED,
           NULL);
    /* Operations re-validate on a second finalize. */
    expect(r, "second finalize", hipdnnBackendFinalize(op), HIPDNN_STATUS_SUCCESS, NULL);
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));

    /* Each required attribute missing in turn: BAD_PARAM naming it. */
    for (int skip = 0; skip < na; skip++) {
        if (!r->a[skip].req)
            continue;
        CHECK_OK(hipdnnBackendCreateDescriptor(r->kind, &op));
        for (int i = 0; i < na; i++)
            if (i != skip)
                CHECK_OK(set_attr(op, &r->a[i], ts));
        char what[160];
        snprintf(what, sizeof what, "finalize without %s", r->a[skip].label);
        expect(r, what, hipdnnBackendFinalize(op), HIPDNN_STATUS_BAD_PARAM, r->a[skip].label);
        CHECK_OK(hipdnnBackendDestroyDescriptor(op));
    }

    /* Tensor slots: an unfinalized tensor, a descriptor of another kind, a NULL element. */
    CHECK_OK(hipdnnBackendCreateDescriptor(r->kind, &op));
    for (int i = 0; i < na; i++) {
        if (r->a[i].kind != V_TENSOR)
            continue;
        hipdnnBackendDescriptor_t raw = make_tensor(999, &r->t[r->a[i].t[0]], false);
        char what[160];
        snprintf(what, sizeof what, "%s with an unfinalized tensor", r->a[i].label);
        expect(r, what, hipdnnBackendSetAttribute(op, r->a[i].name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw),
               HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, NULL);
        snprintf(what, sizeof what, "%s with a variant pack", r->a[i].label);
        expect(r, what, hipdnnBackendSetAttribute(op, r->a[i].name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &other_kind),
               HIPDNN_STATUS_BAD_PARAM, NULL);
        hipdnnBackendDescriptor_t nul = NULL;
        snprintf(what, sizeof what, "%s with a NULL descriptor", r->a[i].label);
        expect(r, what, hipdnnBackendSetAttribute(op, r->a[i].name, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &nul),
               HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, NULL);
        CHECK_OK(hipdnnBackendDestroyDescriptor(raw));
    }
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));
    for (int i = 0; i < r->nt; i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(ts[i]));
}

/* ---- shape checks this backend adds ---- */

static hipdnnBackendDescriptor_t t4(int64_t uid, int64_t a, int64_t b, int64_t c, int64_t d) {
    struct tshape s = {4, {a, b, c, d}};
    return make_tensor(uid, &s, true);
}

static hipdnnBackendDescriptor_t t3(int64_t uid, int64_t a, int64_t b, int64_t c) {
    struct tshape s = {3, {a, b, c}};
    return make_tensor(uid, &s, true);
}

static hipdnnStatus_t conv_finalize(hipdnnBackendDescriptor_t x, hipdnnBackendDescriptor_t w, hipdnnBackendDescriptor_t y,
                                    int64_t pad, int64_t stride) {
    hipdnnBackendDescriptor_t op = NULL;
    hipdnnStatus_t st = tu_conv_fwd(&op, x, w, y, pad, stride, NULL);
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));
    return st;
}

static void check_conv_shapes(void) {
    hipdnnBackendDescriptor_t x = t4(1, 2, 4, 9, 9), w = t4(2, 6, 4, 3, 3);
    hipdnnBackendDescriptor_t good = t4(3, 2, 6, 5, 5); /* (9 + 2 - 3) / 2 + 1 = 5 */
    hipdnnBackendDescriptor_t bad = t4(4, 2, 6, 4, 5); /* wrong height */
    hipdnnBackendDescriptor_t badk = t4(5, 2, 8, 5, 5); /* 8 channels, filter has 6 */
    hipdnnBackendDescriptor_t grouped_w = t4(6, 6, 2, 3, 3); /* 2 groups of 2 input channels */
    hipdnnBackendDescriptor_t bad_w = t4(7, 6, 3, 3, 3); /* 4 channels are not a multiple of 3 */
    hipdnnBackendDescriptor_t rank3 = t3(8, 2, 4, 9);
    CHECK_OK(conv_finalize(x, w, good, 1, 2));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "= 5", conv_finalize(x, w, bad, 1, 2));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "channels", conv_finalize(x, w, badk, 1, 2));
    CHECK_OK(conv_finalize(x, grouped_w, good, 1, 2));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "ConvolutionFwdOperationDescriptor::finalize() failed: x has 4 channels, not a multiple of w's 3 input channels per group",
        conv_finalize(x, bad_w, good, 1, 2));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "rank", conv_finalize(x, w, rank3, 1, 2));
    /* Parameters of the wrong length or value. */
    hipdnnBackendDescriptor_t op = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, &op));
    hipdnnConvolutionMode_t badmode = (hipdnnConvolutionMode_t)7;
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "ConvolutionFwdOperationDescriptor::setAttribute() failed: 7 is not a valid HIPDNN_TYPE_CONVOLUTION_MODE value for HIPDNN_ATTR_CONVOLUTION_CONV_MODE",
        hipdnnBackendSetAttribute(op, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &badmode));
    int64_t empty[1] = {0};
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "ConvolutionFwdOperationDescriptor::setAttribute() failed: HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS takes at least 1 element(s), got 0",
        hipdnnBackendSetAttribute(op, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, 0, empty));
    /* The older generation's INT64 conv mode (the wire value, CROSS_CORRELATION = 2) is accepted. */
    int64_t legacy = 2;
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_INT64, 1, &legacy));
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));
    hipdnnBackendDescriptor_t all[] = {x, w, good, bad, badk, grouped_w, bad_w, rank3};
    for (size_t i = 0; i < N_ELEMS(all); i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
}

static hipdnnStatus_t matmul_finalize(hipdnnBackendDescriptor_t a, hipdnnBackendDescriptor_t b, hipdnnBackendDescriptor_t c) {
    hipdnnBackendDescriptor_t op = NULL;
    hipdnnDataType_t comp = HIPDNN_DATA_FLOAT;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, &op));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_MATMUL_ADESC, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &a));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_MATMUL_BDESC, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &b));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_MATMUL_CDESC, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &c));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_MATMUL_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &comp));
    hipdnnStatus_t st = hipdnnBackendFinalize(op);
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));
    return st;
}

static void check_matmul_shapes(void) {
    hipdnnBackendDescriptor_t a = t3(1, 2, 3, 4), b = t3(2, 1, 4, 5), c = t3(3, 2, 3, 5);
    hipdnnBackendDescriptor_t bad_k = t3(4, 2, 5, 5), bad_c = t3(5, 2, 3, 6), bad_batch = t3(6, 3, 4, 5);
    CHECK_OK(matmul_finalize(a, b, c));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "inner dimensions", matmul_finalize(a, bad_k, c));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "MatmulOperationDescriptor::finalize() failed: c is [2 3 6] but a·b is 3×5",
              matmul_finalize(a, b, bad_c));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "batch", matmul_finalize(a, bad_batch, c));
    hipdnnBackendDescriptor_t all[] = {a, b, c, bad_k, bad_c, bad_batch};
    for (size_t i = 0; i < N_ELEMS(all); i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
}

static hipdnnStatus_t pw_finalize(hipdnnPointwiseMode_t mode, hipdnnBackendDescriptor_t in0, hipdnnBackendDescriptor_t in1,
                                  hipdnnBackendDescriptor_t in2, hipdnnBackendDescriptor_t out) {
    hipdnnBackendDescriptor_t op = NULL;
    hipdnnStatus_t st = tu_pointwise(&op, mode, in0, in1, in2, out, NULL);
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));
    return st;
}

static void check_pointwise_arity(void) {
    hipdnnBackendDescriptor_t a = t3(1, 2, 3, 4), b = t3(2, 1, 1, 4), c = t3(3, 2, 3, 4), y = t3(4, 2, 3, 4);
    hipdnnBackendDescriptor_t wide = t3(5, 2, 3, 5);
    CHECK_OK(pw_finalize(HIPDNN_POINTWISE_ADD, a, b, NULL, y));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "in_1", pw_finalize(HIPDNN_POINTWISE_ADD, a, NULL, NULL, y));
    CHECK_OK(pw_finalize(HIPDNN_POINTWISE_RELU_FWD, a, NULL, NULL, y));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "in_1", pw_finalize(HIPDNN_POINTWISE_RELU_FWD, a, b, NULL, y));
    CHECK_OK(pw_finalize(HIPDNN_POINTWISE_BINARY_SELECT, a, b, c, y));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "in_2", pw_finalize(HIPDNN_POINTWISE_BINARY_SELECT, a, b, NULL, y));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "in_2", pw_finalize(HIPDNN_POINTWISE_SUB, a, b, c, y));
    CHECK_OK(pw_finalize(HIPDNN_POINTWISE_RELU_BWD, a, c, NULL, y)); /* backward modes take (dy, x) */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "broadcast", pw_finalize(HIPDNN_POINTWISE_ADD, a, wide, NULL, y));
    /* Mode values outside the enum (0 is not a pointwise mode). */
    hipdnnBackendDescriptor_t op = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, &op));
    hipdnnPointwiseMode_t bad = (hipdnnPointwiseMode_t)0;
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "PointwiseOperationDescriptor::setAttribute() failed: 0 is not a valid HIPDNN_TYPE_POINTWISE_MODE value for HIPDNN_ATTR_POINTWISE_MODE",
        hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &bad));
    bad = (hipdnnPointwiseMode_t)48;
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "PointwiseOperationDescriptor::setAttribute() failed: 48 is not a valid HIPDNN_TYPE_POINTWISE_MODE value for HIPDNN_ATTR_POINTWISE_MODE",
        hipdnnBackendSetAttribute(op, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &bad));
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));
    hipdnnBackendDescriptor_t all[] = {a, b, c, y, wide};
    for (size_t i = 0; i < N_ELEMS(all); i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
}

/* Reduction output dims, resample output size, both-or-neither statistics, scalar epsilon. */
static void check_other_shapes(void) {
    hipdnnBackendDescriptor_t x = t3(1, 2, 3, 4), y_bad = t3(2, 2, 2, 4);
    hipdnnBackendDescriptor_t op = NULL;
    hipdnnReduceTensorOp_t red = HIPDNN_REDUCE_TENSOR_ADD;
    hipdnnDataType_t f = HIPDNN_DATA_FLOAT;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR, &op));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_REDUCTION_XDESC, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_REDUCTION_YDESC, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y_bad));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_REDUCTION_OPERATOR, HIPDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &red));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_REDUCTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &f));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "ReductionOperationDescriptor::finalize() failed: y dimension 1 is 2; it must equal x's 3 or be 1 (a reduced axis",
              hipdnnBackendFinalize(op));
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));

    hipdnnBackendDescriptor_t px = t4(3, 1, 2, 6, 6), py_bad = t4(4, 1, 2, 4, 4);
    hipdnnResampleMode_t rm = HIPDNN_RESAMPLE_MAXPOOL;
    int64_t zero[2] = {0, 0}, two[2] = {2, 2};
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_RESAMPLE_FWD_DESCRIPTOR, &op));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_XDESC, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &px));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_RESAMPLE_FWD_YDESC, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &py_bad));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_RESAMPLE_MODE, HIPDNN_TYPE_RESAMPLE_MODE, 1, &rm));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_RESAMPLE_PRE_PADDINGS, HIPDNN_TYPE_INT64, 2, zero));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_RESAMPLE_POST_PADDINGS, HIPDNN_TYPE_INT64, 2, zero));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_RESAMPLE_STRIDES, HIPDNN_TYPE_INT64, 2, two));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_RESAMPLE_WINDOW_DIMS, HIPDNN_TYPE_INT64, 2, two));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "= 3", hipdnnBackendFinalize(op));
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));

    /* Layernorm: mean without inv_variance; an epsilon with two elements. */
    hipdnnBackendDescriptor_t lx = t3(5, 2, 3, 8), ls = t3(6, 1, 1, 8), lb = t3(7, 1, 1, 8), le = t3(8, 1, 1, 1),
                              ly = t3(9, 2, 3, 8), lm = t3(10, 2, 3, 1), le2 = t3(11, 1, 1, 2);
    hipdnnNormFwdPhase_t ph = HIPDNN_NORM_FWD_TRAINING;
    for (int variant = 0; variant < 2; variant++) {
        CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_LAYERNORM_DESCRIPTOR_EXT, &op));
        CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_LAYERNORM_X_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &lx));
        CHECK_OK(
            hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_LAYERNORM_SCALE_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &ls));
        CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_LAYERNORM_BIAS_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &lb));
        CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_LAYERNORM_EPSILON_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                           variant == 0 ? &le : &le2));
        CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_LAYERNORM_Y_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &ly));
        CHECK_OK(
            hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_LAYERNORM_FWD_PHASE_EXT, HIPDNN_TYPE_NORM_FWD_PHASE, 1, &ph));
        CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_LAYERNORM_COMP_TYPE_EXT, HIPDNN_TYPE_DATA_TYPE, 1, &f));
        if (variant == 0) {
            CHECK_OK(
                hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_LAYERNORM_MEAN_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &lm));
            CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "inv_variance", hipdnnBackendFinalize(op));
        } else {
            CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "epsilon", hipdnnBackendFinalize(op));
        }
        CHECK_OK(hipdnnBackendDestroyDescriptor(op));
    }
    /* Custom op: an empty id is refused at finalize. */
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_CUSTOM_OP_DESCRIPTOR_EXT, &op));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_OPERATION_CUSTOM_OP_ID_EXT, HIPDNN_TYPE_CHAR, 0, ""));
    CHECK_OK(hipdnnBackendSetAttribute(op, HIPDNN_ATTR_CUSTOM_OP_COMP_TYPE_EXT, HIPDNN_TYPE_DATA_TYPE, 1, &f));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "CustomOpOperationDescriptor::finalize() failed: HIPDNN_ATTR_OPERATION_CUSTOM_OP_ID_EXT is empty",
              hipdnnBackendFinalize(op));
    CHECK_OK(hipdnnBackendDestroyDescriptor(op));
    hipdnnBackendDescriptor_t all[] = {x, y_bad, px, py_bad, lx, ls, lb, le, ly, lm, le2};
    for (size_t i = 0; i < N_ELEMS(all); i++)
        CHECK_OK(hipdnnBackendDestroyDescriptor(all[i]));
}

int main(void) {
    CHECK_EQ_INT(N_ELEMS(rows), 23);
    /* A finalized descriptor of a kind no tensor slot accepts. */
    hipdnnBackendDescriptor_t pack = NULL;
    int64_t uid = 1;
    void* ptr = &uid;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &pack));
    CHECK_OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 1, &uid));
    CHECK_OK(hipdnnBackendSetAttribute(pack, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 1, &ptr));
    CHECK_OK(hipdnnBackendFinalize(pack));
    /* Every kind once, and no two rows for one kind. */
    for (size_t i = 0; i < N_ELEMS(rows); i++)
        for (size_t j = i + 1; j < N_ELEMS(rows); j++)
            if (rows[i].kind == rows[j].kind)
                CHECK_FAIL("rows %s and %s test the same kind", rows[i].name, rows[j].name);
    for (size_t i = 0; i < N_ELEMS(rows); i++)
        run_row(&rows[i], pack);
    CHECK_OK(hipdnnBackendDestroyDescriptor(pack));
    check_conv_shapes();
    check_matmul_shapes();
    check_pointwise_arity();
    check_other_shapes();
    return check_finish("test_ops");
}
