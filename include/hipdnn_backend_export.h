/*
 * hipdnn_backend_export.h - symbol visibility macros for libhipdnn_backend.so.
 *
 * AMD's build produces this header with CMake's GenerateExportHeader; ours is written by hand
 * because the library is linked by the Go toolchain, not by CMake. The macro names are the ones
 * AMD's headers use, so code written against either header compiles against the other.
 *
 *   HIPDNN_BACKEND_EXPORT             marks a function the shared library exports.
 *   HIPDNN_BACKEND_NO_EXPORT          marks a symbol that stays inside the library.
 *   HIPDNN_BACKEND_DEPRECATED         marks a declaration whose use draws a compiler warning.
 *   HIPDNN_BACKEND_DEPRECATED_EXPORT  both of the first and the third.
 *
 * Every macro can be predefined by the includer; an empty HIPDNN_BACKEND_DEPRECATED, for
 * instance, silences the deprecation warnings. Which symbols the library really exports is
 * decided by its linker version script; these attributes only have to agree with it.
 */
#ifndef HIPDNN_BACKEND_EXPORT_H
#define HIPDNN_BACKEND_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#  define HIPDNN_BACKEND_VISIBLE_ __attribute__((visibility("default")))
#  define HIPDNN_BACKEND_HIDDEN_ __attribute__((visibility("hidden")))
#  define HIPDNN_BACKEND_DEPRECATED_ATTR_ __attribute__((__deprecated__))
#else
#  define HIPDNN_BACKEND_VISIBLE_
#  define HIPDNN_BACKEND_HIDDEN_
#  define HIPDNN_BACKEND_DEPRECATED_ATTR_
#endif

#ifndef HIPDNN_BACKEND_EXPORT
#  define HIPDNN_BACKEND_EXPORT HIPDNN_BACKEND_VISIBLE_
#endif

#ifndef HIPDNN_BACKEND_NO_EXPORT
#  define HIPDNN_BACKEND_NO_EXPORT HIPDNN_BACKEND_HIDDEN_
#endif

#ifndef HIPDNN_BACKEND_DEPRECATED
#  define HIPDNN_BACKEND_DEPRECATED HIPDNN_BACKEND_DEPRECATED_ATTR_
#endif

#ifndef HIPDNN_BACKEND_DEPRECATED_EXPORT
#  define HIPDNN_BACKEND_DEPRECATED_EXPORT HIPDNN_BACKEND_EXPORT HIPDNN_BACKEND_DEPRECATED
#endif

#ifndef HIPDNN_BACKEND_DEPRECATED_NO_EXPORT
#  define HIPDNN_BACKEND_DEPRECATED_NO_EXPORT HIPDNN_BACKEND_NO_EXPORT HIPDNN_BACKEND_DEPRECATED
#endif

#endif /* HIPDNN_BACKEND_EXPORT_H */
