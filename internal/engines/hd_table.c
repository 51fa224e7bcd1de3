/* The plugin entry-point table and the fallback log sink. Loading (dlopen, dlsym) is
 * internal/dl's. */
#include <stdlib.h>

#include "shim.h"
#include "_cgo_export.h"

/* The fallback sink (shim.h): forwards to the Go logger. */
static void hd_fallback_log(hipdnnSeverity_t severity, const char* message) {
    if (message != NULL) {
        hdEnginesForwardLog((int)severity, (char*)message);
    }
}

hipdnnCallback_t hd_fallback_sink(void) { return hd_fallback_log; }

int hd_is_fallback_sink(hipdnnCallback_t sink) { return sink == hd_fallback_log; }

hd_table* hd_table_new(void) { return (hd_table*)calloc(1, sizeof(hd_table)); }

void hd_table_free(hd_table* t) { free(t); }

void hd_table_set(hd_table* t, int slot, void* fn) {
    if (slot >= 0 && slot < HD_SLOT_COUNT) {
        t->slot[slot] = fn;
    }
}

int hd_table_has(const hd_table* t, int slot) { return slot >= 0 && slot < HD_SLOT_COUNT && t->slot[slot] != NULL; }

void hd_free(void* p) { free(p); }
