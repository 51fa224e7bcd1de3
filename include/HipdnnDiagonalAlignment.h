/*
 * HipdnnDiagonalAlignment.h - hipdnnDiagonalAlignment_t, where the diagonal of an attention
 * mask starts (HIPDNN_ATTR_SDPA_FWD_DIAGONAL_ALIGNMENT_EXT,
 * HIPDNN_ATTR_SDPA_BWD_DIAGONAL_ALIGNMENT_EXT; element type HIPDNN_TYPE_DIAGONAL_ALIGNMENT_EXT).
 */
#ifndef HIPDNN_DIAGONAL_ALIGNMENT_H
#define HIPDNN_DIAGONAL_ALIGNMENT_H

typedef enum
{
    HIPDNN_DIAGONAL_ALIGNMENT_TOP_LEFT_EXT = 0,
    HIPDNN_DIAGONAL_ALIGNMENT_BOTTOM_RIGHT_EXT = 1
} hipdnnDiagonalAlignment_t;

#endif /* HIPDNN_DIAGONAL_ALIGNMENT_H */
