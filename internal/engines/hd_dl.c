/* dlopen / dlsym helpers, the plugin entry-point table, and the few process facts the loader
 * needs (where this library lives, secure execution, the log sink handed to plugins). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"
#include "_cgo_export.h"

static char* hd_copy(const char* s)
{
    return strdup(s != NULL ? s : "");
}

hd_result hd_dlopen(const char* path)
{
    hd_result r = {0};
    dlerror();
    r.ptr = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if(r.ptr == NULL)
    {
        r.status = HD_STATUS_MISSING;
        r.err = hd_copy(dlerror());
    }
    return r;
}

hd_result hd_dlsym(void* lib, const char* name)
{
    hd_result r = {0};
    dlerror();
    r.ptr = dlsym(lib, name);
    if(r.ptr == NULL)
    {
        const char* e = dlerror();
        r.status = HD_STATUS_MISSING;
        r.err = hd_copy(e != NULL ? e : "symbol resolves to NULL");
    }
    return r;
}

void hd_dlclose(void* lib)
{
    if(lib != NULL)
    {
        dlclose(lib);
    }
}

/* Used when the backend's hipdnnLoggingCallback_ext is not in this object (inside go test):
 * forwards to the same Go logger. */
static void hd_fallback_sink(hipdnnSeverity_t severity, const char* message)
{
    if(message != NULL)
    {
        hdEnginesForwardLog((int)severity, (char*)message);
    }
}

hipdnnCallback_t hd_log_sink(void)
{
    Dl_info info;
    if(dladdr((void*)&hd_log_sink, &info) != 0 && info.dli_fname != NULL)
    {
        void* self = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if(self != NULL)
        {
            void* sink = dlsym(self, "hipdnnLoggingCallback_ext");
            dlclose(self);
            if(sink != NULL)
            {
                return (hipdnnCallback_t)sink;
            }
        }
    }
    return hd_fallback_sink;
}

int hd_is_fallback_sink(hipdnnCallback_t sink)
{
    return sink == hd_fallback_sink;
}

hd_table* hd_table_new(void)
{
    return (hd_table*)calloc(1, sizeof(hd_table));
}

void hd_table_free(hd_table* t)
{
    free(t);
}

void hd_table_set(hd_table* t, int slot, void* fn)
{
    if(slot >= 0 && slot < HD_SLOT_COUNT)
    {
        t->slot[slot] = fn;
    }
}

int hd_table_has(const hd_table* t, int slot)
{
    return slot >= 0 && slot < HD_SLOT_COUNT && t->slot[slot] != NULL;
}

void hd_free(void* p)
{
    free(p);
}
