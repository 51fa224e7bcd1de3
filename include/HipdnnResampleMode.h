/*
 * HipdnnResampleMode.h - hipdnnResampleMode_t, the value of HIPDNN_ATTR_RESAMPLE_MODE (element
 * type HIPDNN_TYPE_RESAMPLE_MODE) for resample (pooling) forward and backward. Values start at
 * 1; 0 is not a mode.
 */
#ifndef HIPDNN_RESAMPLE_MODE_H
#define HIPDNN_RESAMPLE_MODE_H

typedef enum
{
    HIPDNN_RESAMPLE_MAXPOOL = 1,
    HIPDNN_RESAMPLE_AVGPOOL_EXCLUDE_PADDING = 2, /* average over the non-padded positions */
    HIPDNN_RESAMPLE_AVGPOOL_INCLUDE_PADDING = 3  /* average over the whole window */
} hipdnnResampleMode_t;

#endif /* HIPDNN_RESAMPLE_MODE_H */
