/*
 * HipdnnBackendHeuristicType.h - hipdnnBackendHeurMode_t, the value of
 * HIPDNN_ATTR_ENGINEHEUR_MODE (element type HIPDNN_TYPE_HEUR_MODE).
 *
 * There is one mode. Which ranking the heuristic applies is chosen by policies instead:
 * HIPDNN_ATTR_ENGINEHEUR_POLICY_ORDER_EXT and the environment variable HIPDNN_HEUR_POLICY_ORDER.
 */
#ifndef HIPDNN_BACKEND_HEURISTIC_TYPE_H
#define HIPDNN_BACKEND_HEURISTIC_TYPE_H

typedef enum
{
    HIPDNN_HEUR_MODE_FALLBACK = 0
} hipdnnBackendHeurMode_t;

#endif /* HIPDNN_BACKEND_HEURISTIC_TYPE_H */
