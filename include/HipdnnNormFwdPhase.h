/*
 * HipdnnNormFwdPhase.h - hipdnnNormFwdPhase_t, the forward phase of a normalization
 * (HIPDNN_ATTR_OPERATION_LAYERNORM_FWD_PHASE_EXT, HIPDNN_ATTR_OPERATION_RMSNORM_FWD_PHASE_EXT;
 * element type HIPDNN_TYPE_NORM_FWD_PHASE). Values start at 1; 0 is not a phase.
 */
#ifndef HIPDNN_NORM_FWD_PHASE_H
#define HIPDNN_NORM_FWD_PHASE_H

typedef enum
{
    HIPDNN_NORM_FWD_INFERENCE = 1, /* statistics are not produced */
    HIPDNN_NORM_FWD_TRAINING = 2   /* statistics for the backward pass are produced */
} hipdnnNormFwdPhase_t;

#endif /* HIPDNN_NORM_FWD_PHASE_H */
