/*
 * test_exports.c - the library exports every function of the interface by name.
 *
 * AMD's runtime-loading frontend never links against the backend: it dlopen()s it and
 * dlsym()s each function, and a missing name turns that call into
 * HIPDNN_STATUS_VERSION_MISMATCH. This test does the same with the backend this program is
 * linked against (found through dladdr), and also checks that the library answers to its
 * soname, libhipdnn_backend.so.<HIPDNN_BACKEND_VERSION_MAJOR>.
 */
#define _GNU_SOURCE /* dladdr, RTLD_NOLOAD */
#include <dlfcn.h>

#include "testutil.h"
#include "hipdnn_backend_version.h"
#include "header_functions.h"

#define SONAME_OF(major) "libhipdnn_backend.so." #major
#define SONAME_FOR(major) SONAME_OF(major)
static const char kSoname[] = SONAME_FOR(HIPDNN_BACKEND_VERSION_MAJOR);

/* Every function hipdnn_backend.h declares (header_functions.h is generated from the installed
 * header): AMD's 38 and hipdnnGetComponentVersion_ext. */
static const char* const functions[] = {
#define X(name) #name,
    HIPDNN_HEADER_FUNCTIONS(X)
#undef X
};

#define FUNCTION_COUNT (sizeof functions / sizeof functions[0])

int main(void) {
    /* ISO C has no cast between function and object pointers; a union carries the address. */
    union {
        hipdnnStatus_t (*fn)(hipdnnHandle_t*);
        void* object;
    } create;
    Dl_info self;
    void* lib;
    void* by_soname;
    size_t i;

    CHECK_EQ_INT(FUNCTION_COUNT, 39);

    create.fn = hipdnnCreate;
    if (dladdr(create.object, &self) == 0 || self.dli_fname == NULL) {
        CHECK_FAIL("dladdr cannot tell which library defines hipdnnCreate");
        return check_finish("test_exports");
    }
    CHECK(strstr(self.dli_fname, "libhipdnn_backend") != NULL);

    lib = dlopen(self.dli_fname, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        CHECK_FAIL("dlopen(\"%s\"): %s", self.dli_fname, dlerror());
        return check_finish("test_exports");
    }

    for (i = 0; i < FUNCTION_COUNT; i++) {
        Dl_info where;
        void* sym;
        check_count++;
        dlerror();
        sym = dlsym(lib, functions[i]);
        if (sym == NULL) {
            const char* err = dlerror();
            CHECK_FAIL("%s: missing symbol %s (%s)", self.dli_fname, functions[i], err ? err : "no error text");
            continue;
        }
        /* dlsym also searches the library's dependencies; the definition must be the backend's. */
        check_count++;
        if (dladdr(sym, &where) == 0)
            CHECK_FAIL("dladdr cannot place %s", functions[i]);
        else if (where.dli_fbase != self.dli_fbase)
            CHECK_FAIL("%s is defined in %s, not in %s", functions[i], where.dli_fname ? where.dli_fname : "(unknown)",
                    self.dli_fname);
    }

    /* The soname the build promises (and the name a loader asks for) maps to the same library. */
    by_soname = dlopen(kSoname, RTLD_NOW | RTLD_NOLOAD);
    check_count++;
    if (by_soname != lib)
        CHECK_FAIL("dlopen(\"%s\", RTLD_NOLOAD) = %p, want the loaded %s (%p)", kSoname, by_soname, self.dli_fname, lib);
    if (by_soname != NULL)
        dlclose(by_soname);

    /* The Go runtime inside the library must not be unloaded; this only drops our reference. */
    dlclose(lib);
    return check_finish("test_exports");
}
