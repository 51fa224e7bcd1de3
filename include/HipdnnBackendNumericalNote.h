/*
 * HipdnnBackendNumericalNote.h - hipdnnBackendNumericalNote_t, numerical properties of an
 * engine configuration; read with HIPDNN_ATTR_ENGINE_NUMERICAL_NOTE (element type
 * HIPDNN_TYPE_NUMERICAL_NOTE) on a finalized engine (its default configuration) or a finalized
 * engine configuration.
 *
 * Project extension, not in AMD's interface (since 0.1.0, C ABI 1.0.0): the names and values
 * are cuDNN's cudnnBackendNumericalNote_t, so hipified cuDNN code that filters plans by
 * numerical notes (deselect NONDETERMINISTIC, select TENSOR_CORE …) compiles and behaves.
 * An engine whose plugin does not report notes (hipdnnEnginePluginGetNumericalNotesV1_ext,
 * hipdnn_plugin_sdk/EnginePluginExtensions.h) has none.
 *
 * The plugin SDK includes this header; the guard HIPDNN_NUMERICAL_NOTE_TYPES_DEFINED lets a
 * copy of the enum live elsewhere.
 */
#ifndef HIPDNN_BACKEND_NUMERICAL_NOTE_H
#define HIPDNN_BACKEND_NUMERICAL_NOTE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HIPDNN_NUMERICAL_NOTE_TYPES_DEFINED
#define HIPDNN_NUMERICAL_NOTE_TYPES_DEFINED

typedef enum
{
    HIPDNN_NUMERICAL_NOTE_TENSOR_CORE = 0,                 /* uses matrix (tensor-core) units */
    HIPDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS = 1,         /* converts inputs to a narrower type */
    HIPDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION = 2, /* accumulates in a narrower type */
    HIPDNN_NUMERICAL_NOTE_FFT = 3,                         /* FFT-based convolution */
    HIPDNN_NUMERICAL_NOTE_NONDETERMINISTIC = 4,            /* results may differ between runs */
    HIPDNN_NUMERICAL_NOTE_WINOGRAD = 5,                    /* Winograd convolution */
    HIPDNN_NUMERICAL_NOTE_WINOGRAD_TILE_4x4 = 6,
    HIPDNN_NUMERICAL_NOTE_WINOGRAD_TILE_6x6 = 7,
    HIPDNN_NUMERICAL_NOTE_WINOGRAD_TILE_13x13 = 8,
    HIPDNN_NUMERICAL_NOTE_STRICT_NAN_PROP = 9,             /* propagates NaN strictly */
    HIPDNN_NUMERICAL_NOTE_TYPE_COUNT = 10                  /* number of notes above; not a note */
} hipdnnBackendNumericalNote_t;

#endif /* HIPDNN_NUMERICAL_NOTE_TYPES_DEFINED */

#ifdef __cplusplus
}
#endif

#endif /* HIPDNN_BACKEND_NUMERICAL_NOTE_H */
