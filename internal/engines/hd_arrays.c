/* The C-side arrays a plugin execute call takes, built once per finalized variant pack. */
#include <stdlib.h>
#include <string.h>

#include "shim.h"

hipdnnPluginDeviceBuffer_t* hd_buffers_new(uint32_t count) {
    return (hipdnnPluginDeviceBuffer_t*)calloc(count == 0 ? 1 : count, sizeof(hipdnnPluginDeviceBuffer_t));
}

hd_verdicts* hd_verdicts_new(void) { return (hd_verdicts*)calloc(1, sizeof(hd_verdicts)); }

/* One block: the hd_overrides header, then ids, lengths, the shape and stride pointer arrays,
 * and flat copies of all shapes and strides that the pointers slice. The caller has checked
 * that every length is in 1..UINT32_MAX and that shapes and strides hold `total` values. */
hd_overrides* hd_overrides_new(uint32_t count, const int64_t* ids, const int64_t* lengths, const int64_t* shapes,
                               const int64_t* strides, size_t total) {
    size_t bytes = sizeof(hd_overrides) + count * sizeof(int64_t) + count * sizeof(uint32_t) + 2 * count * sizeof(int64_t*)
                   + 2 * total * sizeof(int64_t) + 16;
    char* block = (char*)calloc(1, bytes);
    if (block == NULL) {
        return NULL;
    }
    hd_overrides* ov = (hd_overrides*)block;
    char* p = block + sizeof(hd_overrides);
    int64_t* id_copy = (int64_t*)p;
    p += count * sizeof(int64_t);
    const int64_t** shape_ptrs = (const int64_t**)p;
    p += count * sizeof(int64_t*);
    const int64_t** stride_ptrs = (const int64_t**)p;
    p += count * sizeof(int64_t*);
    int64_t* shape_copy = (int64_t*)p;
    p += total * sizeof(int64_t);
    int64_t* stride_copy = (int64_t*)p;
    p += total * sizeof(int64_t);
    uint32_t* length_copy = (uint32_t*)p;

    memcpy(id_copy, ids, count * sizeof(int64_t));
    if (total > 0) {
        memcpy(shape_copy, shapes, total * sizeof(int64_t));
        memcpy(stride_copy, strides, total * sizeof(int64_t));
    }
    size_t at = 0;
    for (uint32_t i = 0; i < count; ++i) {
        length_copy[i] = (uint32_t)lengths[i];
        shape_ptrs[i] = shape_copy + at;
        stride_ptrs[i] = stride_copy + at;
        at += (size_t)lengths[i];
    }
    ov->count = count;
    ov->ids = id_copy;
    ov->lengths = length_copy;
    ov->shapes = shape_ptrs;
    ov->strides = stride_ptrs;
    return ov;
}
