/* The file that holds this code (dladdr): libhipdnn_backend.so in production, the test binary
 * under go test. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

void hd_plugindir_self_path(char* out, size_t outlen)
{
    Dl_info info;
    out[0] = '\0';
    if(dladdr((void*)&hd_plugindir_self_path, &info) != 0 && info.dli_fname != NULL && strlen(info.dli_fname) < outlen)
        strcpy(out, info.dli_fname);
}
