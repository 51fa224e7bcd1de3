/*
 * hipdnn_plugin_sdk/BehaviorNote.h
 *
 * Behaviour notes an engine reports in EngineDetails.behavior_notes (stored there as int32).
 * The backend's public HipdnnBackendBehaviorNote.h declares the same type under the same guard
 * macro, so the two headers can be included together in any order.
 */
#ifndef HIPDNN_PLUGIN_SDK_BEHAVIOR_NOTE_H
#define HIPDNN_PLUGIN_SDK_BEHAVIOR_NOTE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HIPDNN_BEHAVIOR_NOTE_TYPES_DEFINED
#define HIPDNN_BEHAVIOR_NOTE_TYPES_DEFINED

typedef enum
{
    /* The engine compiles kernels at plan-build time. */
    HIPDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION = 0,
    /* The engine transforms tensor layouts internally. */
    HIPDNN_BEHAVIOR_NOTE_REQUIRES_LAYOUT_TRANSFORM = 1,
    /* Execution may be captured into a HIP graph. */
    HIPDNN_BEHAVIOR_NOTE_SUPPORTS_GRAPH_CAPTURE = 2,
    /* The engine relies on a library outside the plugin. */
    HIPDNN_BEHAVIOR_NOTE_EXTERNAL_LIBRARY_DEPENDENCY = 3,
    /* The engine's execution contexts can be serialized and restored. */
    HIPDNN_BEHAVIOR_NOTE_SUPPORTS_EXECUTION_PLAN_SERIALIZATION = 4,
    /* Number of notes; not a note. */
    HIPDNN_BEHAVIOR_NOTE_TYPE_COUNT = 5
} hipdnnBackendBehaviorNote_t;

#endif /* HIPDNN_BEHAVIOR_NOTE_TYPES_DEFINED */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HIPDNN_PLUGIN_SDK_BEHAVIOR_NOTE_H */
