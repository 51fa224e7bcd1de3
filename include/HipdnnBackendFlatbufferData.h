/*
 * HipdnnBackendFlatbufferData.h - hipdnnBackendFlatbufferData_t, one serialized FlatBuffer
 * passed by reference; the element type of HIPDNN_TYPE_FLATBUFFER_DATA_STRUCT_EXT attributes
 * (HIPDNN_ATTR_KNOB_INFO_SERIALIZED_VALUE, HIPDNN_ATTR_KNOB_CHOICE_SERIALIZED_VALUE).
 *
 * Layout (LP64): ptr at offset 0, size at offset 8, 16 bytes in all.
 */
#ifndef HIPDNN_BACKEND_FLATBUFFER_DATA_H
#define HIPDNN_BACKEND_FLATBUFFER_DATA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
    const void* ptr; /* first byte of the serialized FlatBuffer; not owned by the struct */
    size_t size;     /* length of the buffer in bytes */
} hipdnnBackendFlatbufferData_t;

#ifdef __cplusplus
}
#endif

#endif /* HIPDNN_BACKEND_FLATBUFFER_DATA_H */
