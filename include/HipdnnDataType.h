/*
 * HipdnnDataType.h - hipdnnDataType_t, element type of a tensor and the type of compute /
 * math-precision attributes (element type HIPDNN_TYPE_DATA_TYPE).
 *
 * There is no "not set" value: an unset data type is reported with element count 0.
 */
#ifndef HIPDNN_DATA_TYPE_H
#define HIPDNN_DATA_TYPE_H

typedef enum
{
    HIPDNN_DATA_FLOAT = 0,          /* IEEE binary32 */
    HIPDNN_DATA_DOUBLE = 1,         /* IEEE binary64 */
    HIPDNN_DATA_HALF = 2,           /* IEEE binary16 */
    HIPDNN_DATA_INT8 = 3,
    HIPDNN_DATA_INT32 = 4,
    HIPDNN_DATA_UINT8 = 5,
    HIPDNN_DATA_BFLOAT16 = 6,
    HIPDNN_DATA_FP8_E4M3 = 7,       /* OCP 8-bit float */
    HIPDNN_DATA_FP8_E5M2 = 8,       /* OCP 8-bit float */
    HIPDNN_DATA_FP8_E8M0 = 9,       /* exponent-only scale type */
    HIPDNN_DATA_FP4_E2M1 = 10,
    HIPDNN_DATA_INT4 = 11,
    HIPDNN_DATA_FP6_E2M3_EXT = 12,
    HIPDNN_DATA_FP6_E3M2_EXT = 13,
    HIPDNN_DATA_INT64 = 14,
    HIPDNN_DATA_BOOLEAN = 15,       /* one byte per element */
    HIPDNN_DATA_FP8_E4M3_FNUZ = 16, /* finite only; no negative zero, whose bit
                                       pattern encodes NaN */
    HIPDNN_DATA_FP8_E5M2_FNUZ = 17
} hipdnnDataType_t;

#endif /* HIPDNN_DATA_TYPE_H */
