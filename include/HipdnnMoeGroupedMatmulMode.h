/*
 * HipdnnMoeGroupedMatmulMode.h - hipdnnMoeGroupedMatmulMode_t, how a mixture-of-experts grouped
 * matmul routes tokens (HIPDNN_ATTR_OPERATION_MOE_GROUPED_MATMUL_MODE; element type
 * HIPDNN_TYPE_MOE_GROUPED_MATMUL_MODE).
 */
#ifndef HIPDNN_MOE_GROUPED_MATMUL_MODE_H
#define HIPDNN_MOE_GROUPED_MATMUL_MODE_H

typedef enum
{
    HIPDNN_MOE_GROUPED_MATMUL_MODE_NONE = 0, /* tokens are already routed to their experts */
    HIPDNN_MOE_GROUPED_MATMUL_MODE_GATHER = 1,
    HIPDNN_MOE_GROUPED_MATMUL_MODE_SCATTER = 2
} hipdnnMoeGroupedMatmulMode_t;

#endif /* HIPDNN_MOE_GROUPED_MATMUL_MODE_H */
