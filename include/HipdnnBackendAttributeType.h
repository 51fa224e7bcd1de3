/*
 * HipdnnBackendAttributeType.h - hipdnnBackendAttributeType_t, the element type tag passed to
 * hipdnnBackendSetAttribute / hipdnnBackendGetAttribute.
 *
 * The tag says what `arrayOfElements` points to; the comment after each enumerator names that
 * C element type. Tags marked "unused" exist for cuDNN parity: no descriptor accepts them.
 */
#ifndef HIPDNN_BACKEND_ATTRIBUTE_TYPE_H
#define HIPDNN_BACKEND_ATTRIBUTE_TYPE_H

typedef enum
{
    HIPDNN_TYPE_HANDLE = 0,                     /* hipdnnHandle_t */
    HIPDNN_TYPE_DATA_TYPE = 1,                  /* hipdnnDataType_t (4 bytes) */
    HIPDNN_TYPE_BOOLEAN = 2,                    /* C++ bool / C _Bool: 1 byte */
    HIPDNN_TYPE_INT64 = 3,                      /* int64_t */
    HIPDNN_TYPE_FLOAT = 4,                      /* float */
    HIPDNN_TYPE_DOUBLE = 5,                     /* double */
    HIPDNN_TYPE_VOID_PTR = 6,                   /* void* */
    HIPDNN_TYPE_HEUR_MODE = 7,                  /* hipdnnBackendHeurMode_t */
    HIPDNN_TYPE_KNOB_TYPE = 8,                  /* unused: knobs are named by strings */
    HIPDNN_TYPE_NAN_PROPOGATION = 9,            /* unused (spelling as upstream) */
    HIPDNN_TYPE_NUMERICAL_NOTE = 10,            /* hipdnnBackendNumericalNote_t (our extension) */
    HIPDNN_TYPE_LAYOUT_TYPE = 11,               /* unused */
    HIPDNN_TYPE_ATTRIB_NAME = 12,               /* hipdnnBackendAttributeName_t */
    HIPDNN_TYPE_BACKEND_DESCRIPTOR = 13,        /* hipdnnBackendDescriptor_t */
    HIPDNN_TYPE_GENSTATS_MODE = 14,             /* unused */
    HIPDNN_TYPE_BN_FINALIZE_STATS_MODE = 15,    /* unused */
    HIPDNN_TYPE_BEHAVIOR_NOTE = 16,             /* hipdnnBackendBehaviorNote_t */
    HIPDNN_TYPE_TENSOR_REORDERING_MODE = 17,    /* unused */
    HIPDNN_TYPE_INT32 = 18,                     /* int32_t */
    HIPDNN_TYPE_CHAR = 19,                      /* char: strings and raw byte payloads */
    HIPDNN_TYPE_SIGNAL_MODE = 20,               /* unused */
    HIPDNN_TYPE_FRACTION = 21,                  /* unused */
    HIPDNN_TYPE_NORM_FWD_PHASE = 22,            /* hipdnnNormFwdPhase_t */
    HIPDNN_TYPE_RNG_DISTRIBUTION = 23,          /* unused */
    HIPDNN_TYPE_CONVOLUTION_MODE = 24,          /* hipdnnConvolutionMode_t */
    HIPDNN_TYPE_POINTWISE_MODE = 25,            /* hipdnnPointwiseMode_t */
    HIPDNN_TYPE_DIAGONAL_ALIGNMENT_EXT = 26,     /* hipdnnDiagonalAlignment_t */
    HIPDNN_TYPE_ATTENTION_IMPLEMENTATION_EXT = 27, /* hipdnnAttentionImplementation_t */
    HIPDNN_TYPE_REDUCTION_OPERATOR_TYPE = 28,   /* hipdnnReduceTensorOp_t */
    HIPDNN_TYPE_RESAMPLE_MODE = 29,             /* hipdnnResampleMode_t */
    HIPDNN_TYPE_PADDING_MODE = 30,              /* hipdnnPaddingMode_t */
    HIPDNN_TYPE_MOE_GROUPED_MATMUL_MODE = 31,   /* hipdnnMoeGroupedMatmulMode_t */

    HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT = 10000, /* hipdnnBackendFlatbufferData_t */
    HIPDNN_TYPE_OPERATION_TYPE_EXT = 10001          /* hipdnnOperationType_ext_t */
} hipdnnBackendAttributeType_t;

/* Spellings of an older header generation, kept so code written against it still compiles. */
#define HIPDNN_TYPE_DIAGONAL_ALIGNMENT HIPDNN_TYPE_DIAGONAL_ALIGNMENT_EXT
#define HIPDNN_TYPE_ATTENTION_IMPLEMENTATION HIPDNN_TYPE_ATTENTION_IMPLEMENTATION_EXT

#endif /* HIPDNN_BACKEND_ATTRIBUTE_TYPE_H */
