/*
 * HipdnnPaddingMode.h - hipdnnPaddingMode_t, the value of HIPDNN_ATTR_RESAMPLE_PADDING_MODE
 * (element type HIPDNN_TYPE_PADDING_MODE): what padded positions contribute to a resample
 * window. Values start at 1; 0 is not a mode.
 */
#ifndef HIPDNN_PADDING_MODE_H
#define HIPDNN_PADDING_MODE_H

typedef enum
{
    HIPDNN_PADDING_NEG_INF_PAD = 1, /* padding acts as negative infinity */
    HIPDNN_PADDING_ZERO_PAD = 2     /* padding acts as zero */
} hipdnnPaddingMode_t;

#endif /* HIPDNN_PADDING_MODE_H */
