/*
 * hipdnn-info: what the hipDNN backend in this process is and what it can run.
 *
 * Prints the library version, the component (interface) versions, the engine plugins loaded for
 * a fresh handle, every engine they provide, every heuristic policy, and the HIP runtime as the
 * backend reports it. Everything printed comes from the public API (hipdnn_backend.h); the
 * HIP runtime and the plugin-loading problems (a plugin that failed to load, an engine id two
 * plugins claim, an unregistered engine name) come from the backend's own log messages,
 * delivered to a user log callback.
 *
 * Exit code: 0 on success, 1 if an API call fails.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, dup in hdtool.h */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlfcn.h>

#include "hdtool.h"

#define CHECK(call)                                                    \
    do                                                                 \
    {                                                                  \
        if(hd_report((call), #call, NULL, 0) != HIPDNN_STATUS_SUCCESS) \
        {                                                              \
            return 1;                                                  \
        }                                                              \
    } while(0)

static int print_component_versions(void)
{
    static const struct
    {
        hipdnnVersionKind_ext_t kind;
        const char* label;
    } kinds[] = {
        {HIPDNN_VERSION_KIND_PRODUCT_EXT, "product"},
        {HIPDNN_VERSION_KIND_C_ABI_EXT, "C ABI"},
        {HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MIN_EXT, "engine plugin API (oldest hosted)"},
        {HIPDNN_VERSION_KIND_ENGINE_PLUGIN_API_MAX_EXT, "engine plugin API (newest hosted)"},
        {HIPDNN_VERSION_KIND_HEURISTIC_PLUGIN_API_EXT, "heuristic plugin API"},
        {HIPDNN_VERSION_KIND_GRAPH_SCHEMA_EXT, "graph schema"},
    };
    size_t i;
    printf("component versions:\n");
    for(i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    {
        int64_t major = 0, minor = 0, patch = 0;
        CHECK(hipdnnGetComponentVersion_ext(kinds[i].kind, &major, &minor, &patch));
        printf("  %-36s %lld.%lld.%lld\n", kinds[i].label, (long long)major, (long long)minor, (long long)patch);
    }
    return 0;
}

static int print_plugin_paths(hipdnnHandle_t handle)
{
    size_t count = 0, maxLen = 0, i;
    char** paths;
    char* storage;
    CHECK(hipdnnGetLoadedEnginePluginPaths_ext(handle, &count, NULL, &maxLen));
    printf("loaded engine plugins: %zu\n", count);
    if(count == 0)
    {
        return 0;
    }
    paths = (char**)calloc(count, sizeof *paths);
    storage = (char*)calloc(count, maxLen);
    if(paths == NULL || storage == NULL)
    {
        fprintf(stderr, "out of memory\n");
        free(paths);
        free(storage);
        return 1;
    }
    for(i = 0; i < count; i++)
    {
        paths[i] = storage + i * maxLen;
    }
    if(hd_report(hipdnnGetLoadedEnginePluginPaths_ext(handle, &count, paths, &maxLen), "hipdnnGetLoadedEnginePluginPaths_ext",
                 NULL, 0)
       != HIPDNN_STATUS_SUCCESS)
    {
        free(paths);
        free(storage);
        return 1;
    }
    for(i = 0; i < count; i++)
    {
        printf("  %s\n", paths[i]);
    }
    free(paths);
    free(storage);
    return 0;
}

/* Four strings of an engine or policy description, sized by a first call. */
typedef struct
{
    char* s[4];
    size_t len[4];
} info_strings;

static int alloc_strings(info_strings* st)
{
    int i;
    for(i = 0; i < 4; i++)
    {
        st->s[i] = (char*)calloc(st->len[i] ? st->len[i] : 1, 1);
        if(st->s[i] == NULL)
        {
            return 1;
        }
    }
    return 0;
}

static void free_strings(info_strings* st)
{
    int i;
    for(i = 0; i < 4; i++)
    {
        free(st->s[i]);
        st->s[i] = NULL;
    }
}

static int print_engines(hipdnnHandle_t handle, size_t* engineCount)
{
    size_t count = 0, i;
    CHECK(hipdnnGetEngineCount_ext(handle, &count));
    *engineCount = count;
    printf("engines: %zu\n", count);
    for(i = 0; i < count; i++)
    {
        info_strings st;
        int64_t id = 0;
        memset(&st, 0, sizeof st);
        CHECK(hipdnnGetEngineInfo_ext(handle, i, &id, NULL, &st.len[0], NULL, &st.len[1], NULL, &st.len[2], NULL, &st.len[3]));
        if(alloc_strings(&st) != 0)
        {
            free_strings(&st);
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        if(hd_report(hipdnnGetEngineInfo_ext(handle, i, &id, st.s[0], &st.len[0], st.s[1], &st.len[1], st.s[2], &st.len[2],
                                             st.s[3], &st.len[3]),
                     "hipdnnGetEngineInfo_ext", NULL, 0)
           != HIPDNN_STATUS_SUCCESS)
        {
            free_strings(&st);
            return 1;
        }
        printf("  %-36s id 0x%016llX  plugin %s  version %s  type %s\n", st.s[0], (unsigned long long)id, st.s[1], st.s[2],
               st.s[3]);
        free_strings(&st);
    }
    return 0;
}

static int print_policies(hipdnnHandle_t handle)
{
    size_t count = 0, i;
    CHECK(hipdnnGetHeuristicPolicyCount_ext(handle, &count));
    printf("heuristic policies: %zu\n", count);
    for(i = 0; i < count; i++)
    {
        info_strings st;
        int64_t id = 0;
        memset(&st, 0, sizeof st);
        CHECK(hipdnnGetHeuristicPolicyInfo_ext(handle, i, &id, NULL, &st.len[0], NULL, &st.len[1], NULL, &st.len[2], NULL,
                                               &st.len[3]));
        if(alloc_strings(&st) != 0)
        {
            free_strings(&st);
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        if(hd_report(hipdnnGetHeuristicPolicyInfo_ext(handle, i, &id, st.s[0], &st.len[0], st.s[1], &st.len[1], st.s[2],
                                                      &st.len[2], st.s[3], &st.len[3]),
                     "hipdnnGetHeuristicPolicyInfo_ext", NULL, 0)
           != HIPDNN_STATUS_SUCCESS)
        {
            free_strings(&st);
            return 1;
        }
        printf("  %-36s id 0x%016llX  provider %s  version %s  heuristic API %s\n", st.s[0], (unsigned long long)id, st.s[1],
               st.s[2], st.s[3]);
        free_strings(&st);
    }
    return 0;
}

/*
 * The API has no query for the HIP runtime, but hipdnnSetStream logs at INFO which device the
 * stream is on, or that there is no GPU runtime and only host engines can run. Setting the
 * default stream with those messages captured tells what the backend knows.
 */
static void print_runtime(hipdnnHandle_t handle, size_t engines)
{
    static hd_log_capture capture;
    hipdnnStatus_t status;
    int i, found = 0;
    char scratch[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hd_capture_begin(&capture);
    status = hipdnnSetStream(handle, NULL);
    hd_capture_end(&capture);
    if(status != HIPDNN_STATUS_SUCCESS)
    {
        hipdnnGetLastErrorString(scratch, sizeof scratch);
        printf("HIP runtime: hipdnnSetStream(NULL) failed: %s: %s\n", hipdnnGetErrorString(status), scratch);
        return;
    }
    for(i = 0; i < capture.count; i++)
    {
        const char* text = strstr(capture.lines[i], "hipdnnSetStream: ");
        if(text != NULL)
        {
            printf("HIP runtime (as the backend logs it for the default stream): %s\n", text + 17);
            found = 1;
        }
    }
    if(!found)
    {
        printf("HIP runtime: not reported by this backend; %s\n",
               engines == 0 ? "no engine is loaded, so no graph can run"
                            : "the engines above are all this process can run graphs on");
    }
}

/* Prints the "capabilities: " lines engine plugins logged while loading (the oneDNN engine: its
 * effective ISA and whether bf16 / fp16 run natively or staged through f32). */
static void print_capabilities(const hd_log_capture* capture)
{
    int i;
    for(i = 0; i < capture->count; i++)
    {
        const char* line = capture->lines[i];
        const char* at = strstr(line, "] capabilities: ");
        const char* plugin = strrchr(line, '[');
        if(at == NULL || plugin == NULL || plugin > at)
        {
            continue;
        }
        printf("engine capabilities: %.*s: %s\n", (int)(at - plugin - 1), plugin + 1, at + strlen("] capabilities: "));
    }
}

/* Prints the WARN and ERROR lines the backend logged while loading plugins for the first handle. */
static void print_load_problems(const hd_log_capture* capture)
{
    int i, shown = 0;
    for(i = 0; i < capture->count; i++)
    {
        const char* line = capture->lines[i];
        if(strstr(line, "] [warn] ") == NULL && strstr(line, "] [error] ") == NULL)
        {
            continue;
        }
        if(shown++ == 0)
        {
            printf("plugin loading problems:\n");
        }
        printf("  %s\n", line);
    }
    if(shown == 0)
    {
        printf("plugin loading problems: none\n");
    }
}

/*
 * print_nvidia lists the CUDA devices and the cuDNN library the HIPDNNGO_CUDNN engine would use,
 * through the CUDA driver and cuDNN opened with dlopen (nothing is linked; absent libraries are
 * reported as absent).
 */
static void print_nvidia(void)
{
    void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    void* dnn = dlopen("libcudnn.so.9", RTLD_NOW | RTLD_LOCAL);
    int (*cu_init)(unsigned) = NULL;
    int (*cu_count)(int*) = NULL;
    int (*cu_name)(char*, int, int) = NULL;
    int (*cu_attr)(int*, int, int) = NULL;
    int (*cu_version)(int*) = NULL;
    size_t (*dnn_version)(void) = NULL;
    int count = 0, i, driver = 0;
    if(dnn != NULL)
        *(void**)(&dnn_version) = dlsym(dnn, "cudnnGetVersion");
    if(dnn_version != NULL)
    {
        size_t v = dnn_version();
        printf("cuDNN: %zu.%zu.%zu (libcudnn.so.9)\n", v / 10000, (v / 100) % 100, v % 100);
    }
    else
        printf("cuDNN: not found (libcudnn.so.9)\n");
    if(cuda == NULL)
    {
        printf("CUDA devices: no CUDA driver (libcuda.so.1)\n");
        return;
    }
    *(void**)(&cu_init) = dlsym(cuda, "cuInit");
    *(void**)(&cu_count) = dlsym(cuda, "cuDeviceGetCount");
    *(void**)(&cu_name) = dlsym(cuda, "cuDeviceGetName");
    *(void**)(&cu_attr) = dlsym(cuda, "cuDeviceGetAttribute");
    *(void**)(&cu_version) = dlsym(cuda, "cuDriverGetVersion");
    if(cu_init == NULL || cu_count == NULL || cu_name == NULL || cu_attr == NULL || cu_init(0) != 0 || cu_count(&count) != 0)
    {
        printf("CUDA devices: none (the CUDA driver does not initialise)\n");
        return;
    }
    if(cu_version != NULL)
        cu_version(&driver);
    printf("CUDA devices: %d (driver API %d.%d)\n", count, driver / 1000, (driver % 1000) / 10);
    for(i = 0; i < count; i++)
    {
        char name[256] = {0};
        int major = 0, minor = 0, sms = 0;
        cu_name(name, (int)sizeof name, i);
        cu_attr(&major, 75, i); /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
        cu_attr(&minor, 76, i); /* ..._MINOR */
        cu_attr(&sms, 16, i); /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT */
        printf("  device %d: %s, compute capability %d.%d, %d SMs\n", i, name, major, minor, sms);
    }
}

int main(int argc, char** argv)
{
    static hd_log_capture loading;
    hipdnnHandle_t handle = NULL;
    size_t engines = 0;
    int rc = 0;
    if(argc > 1)
    {
        int help = strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0;
        fprintf(help ? stdout : stderr,
                "usage: hipdnn-info\n"
                "Prints the hipDNN backend version, its component versions, the loaded engine plugins,\n"
                "their engines and the heuristic policies. Plugins are searched as hipdnnCreate does\n"
                "(HIPDNN_PLUGIN_DIR, HIPDNN_HEURISTIC_PLUGIN_DIR, or hipdnn_plugins/ next to the library).\n");
        return help ? 0 : 1;
    }

    printf("hipDNN backend %s (header %s)\n", hipdnnVersionString_ext(), HIPDNN_BACKEND_VERSION_STRING);
    if(print_component_versions() != 0)
    {
        return 1;
    }
    hd_capture_begin(&loading);
    rc = hd_report(hipdnnCreate(&handle), "hipdnnCreate", NULL, 0) != HIPDNN_STATUS_SUCCESS;
    hd_capture_end(&loading);
    if(rc != 0)
    {
        return 1;
    }
    if(print_plugin_paths(handle) != 0 || print_engines(handle, &engines) != 0 || print_policies(handle) != 0)
    {
        rc = 1;
    }
    if(rc == 0)
    {
        print_capabilities(&loading);
        print_load_problems(&loading);
        /* The CUDA listing loads the driver, as a GPU program would, before the backend is
           asked: the backend starts no GPU runtime in a process that has no driver loaded. */
        print_nvidia();
        print_runtime(handle, engines);
    }
    if(hd_report(hipdnnDestroy(handle), "hipdnnDestroy", NULL, 0) != HIPDNN_STATUS_SUCCESS)
    {
        rc = 1;
    }
    return rc;
}
