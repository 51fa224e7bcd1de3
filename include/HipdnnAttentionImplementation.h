/*
 * HipdnnAttentionImplementation.h - hipdnnAttentionImplementation_t, which attention
 * implementation an SDPA operation asks for (HIPDNN_ATTR_SDPA_FWD_IMPLEMENTATION_EXT; element
 * type HIPDNN_TYPE_ATTENTION_IMPLEMENTATION_EXT).
 */
#ifndef HIPDNN_ATTENTION_IMPLEMENTATION_H
#define HIPDNN_ATTENTION_IMPLEMENTATION_H

typedef enum
{
    HIPDNN_ATTENTION_IMPLEMENTATION_AUTO_EXT = 0,      /* let the engines decide */
    HIPDNN_ATTENTION_IMPLEMENTATION_COMPOSITE_EXT = 1, /* built from smaller operations */
    HIPDNN_ATTENTION_IMPLEMENTATION_UNIFIED_EXT = 2    /* one fused kernel */
} hipdnnAttentionImplementation_t;

#endif /* HIPDNN_ATTENTION_IMPLEMENTATION_H */
