/*
 * HipdnnBackendBehaviorNote.h - hipdnnBackendBehaviorNote_t, properties an engine declares
 * about itself; read with HIPDNN_ATTR_ENGINE_BEHAVIOR_NOTE (element type
 * HIPDNN_TYPE_BEHAVIOR_NOTE).
 *
 * The plugin SDK declares the same enum; both copies sit behind the shared guard
 * HIPDNN_BEHAVIOR_NOTE_TYPES_DEFINED.
 */
#ifndef HIPDNN_BACKEND_BEHAVIOR_NOTE_H
#define HIPDNN_BACKEND_BEHAVIOR_NOTE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HIPDNN_BEHAVIOR_NOTE_TYPES_DEFINED
#define HIPDNN_BEHAVIOR_NOTE_TYPES_DEFINED

typedef enum
{
    HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION = 0,       /* compiles kernels at plan time */
    HIPDNN_BEHAVIOR_NOTE_REQUIRES_LAYOUT_TRANSFORM = 1, /* reorders tensors internally */
    HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE = 2,    /* executions may be stream-captured */
    HIPDNN_BEHAVIOR_NOTE_EXTERNAL_LIBRARY_DEPENDENCY = 3,
    HIPDNN_BEHAVIOR_NOTE_SUPPORTS_EXECUTION_PLAN_SERIALIZATION = 4,
    HIPDNN_BEHAVIOR_NOTE_TYPE_COUNT = 5 /* number of notes above; not a note itself */
} hipdnnBackendBehaviorNote_t;

#endif /* HIPDNN_BEHAVIOR_NOTE_TYPES_DEFINED */

#ifdef __cplusplus
}
#endif

#endif /* HIPDNN_BACKEND_BEHAVIOR_NOTE_H */
