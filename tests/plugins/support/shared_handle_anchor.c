/*
 * Support library of the two faulty shared-handle plugins (not a plugin itself). Both plugins
 * link against it and return the address of its one static object from hipdnnEnginePluginCreate,
 * so the host sees two plugins hand out the same handle pointer, as happens when plugins leak
 * their symbols into each other. It lives in test_plugins/support/ so that scanning a plugin
 * folder never picks it up.
 */
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define ANCHOR_EXPORT __attribute__((visibility("default")))
#else
#define ANCHOR_EXPORT
#endif

ANCHOR_EXPORT void* hipdnnTestSharedHandleAnchor(void);

static union
{
    unsigned char bytes[64];
    uint64_t align_u64;
    void* align_ptr;
} anchor_storage;

void* hipdnnTestSharedHandleAnchor(void) { return &anchor_storage; }
