/* Every *.json graph of AMD's corpus (HIPDNN_CORPUS_DIR, else testdata/hipdnn_graphs under
 * HIPDNN_SOURCE_DIR) through the C API: JSON -> descriptor -> binary -> descriptor, the two
 * descriptors' canonical JSON must be identical, and both finalize once given a handle. Each
 * file is reported; a file that fails fails the test with its name. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "testutil.h"

static hipdnnHandle_t handle;
static int files_seen, files_ok;

static char* read_file(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *size = (size_t)n;
    }
    return buf;
}

static char* last_error(void) {
    static char msg[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnGetLastErrorString(msg, sizeof msg);
    return msg;
}

static char* json_of(hipdnnBackendDescriptor_t g) {
    size_t size = 0;
    if (hipdnnBackendGetSerializedJsonGraph_ext(g, 0, &size, NULL) != HIPDNN_STATUS_SUCCESS || size == 0)
        return NULL;
    char* s = malloc(size);
    size_t again = 0;
    if (hipdnnBackendGetSerializedJsonGraph_ext(g, size, &again, s) != HIPDNN_STATUS_SUCCESS || again != size
        || strlen(s) + 1 != size) {
        free(s);
        return NULL;
    }
    return s;
}

/* Runs one file; returns NULL on success or a description of the first failure. */
static const char* run_file(const char* path, char* why, size_t whylen) {
    size_t size = 0;
    char* text = read_file(path, &size);
    if (!text)
        return "cannot read the file";
    hipdnnBackendDescriptor_t d1 = NULL, d2 = NULL;
    const char* fail = NULL;
    char *j1 = NULL, *j2 = NULL;
    uint8_t* bin = NULL;
    hipdnnStatus_t st = hipdnnBackendCreateAndDeserializeJsonGraph_ext(&d1, text, size);
    if (st != HIPDNN_STATUS_SUCCESS || !d1) {
        snprintf(why, whylen, "CreateAndDeserializeJsonGraph_ext: %s: %s", hipdnnGetErrorString(st), last_error());
        fail = why;
        goto out;
    }
    size_t bsize = 0;
    st = hipdnnBackendGetSerializedBinaryGraph_ext(d1, 0, &bsize, NULL);
    if (st == HIPDNN_STATUS_SUCCESS) {
        bin = malloc(bsize ? bsize : 1);
        size_t again = 0;
        st = hipdnnBackendGetSerializedBinaryGraph_ext(d1, bsize, &again, bin);
        if (st == HIPDNN_STATUS_SUCCESS && again != bsize)
            st = HIPDNN_STATUS_INTERNAL_ERROR;
    }
    if (st != HIPDNN_STATUS_SUCCESS) {
        snprintf(why, whylen, "GetSerializedBinaryGraph_ext: %s: %s", hipdnnGetErrorString(st), last_error());
        fail = why;
        goto out;
    }
    st = hipdnnBackendCreateAndDeserializeGraph_ext(&d2, bin, bsize);
    if (st != HIPDNN_STATUS_SUCCESS || !d2) {
        snprintf(why, whylen, "CreateAndDeserializeGraph_ext of the binary: %s: %s", hipdnnGetErrorString(st), last_error());
        fail = why;
        goto out;
    }
    j1 = json_of(d1);
    j2 = json_of(d2);
    if (!j1 || !j2) {
        snprintf(why, whylen, "GetSerializedJsonGraph_ext failed: %s", last_error());
        fail = why;
        goto out;
    }
    if (strcmp(j1, j2) != 0) {
        size_t i = 0;
        while (j1[i] && j1[i] == j2[i])
            i++;
        size_t from = i > 40 ? i - 40 : 0;
        snprintf(why, whylen, "canonical JSON differs at byte %zu: \"%.80s\" vs \"%.80s\"", i, j1 + from, j2 + from);
        fail = why;
        goto out;
    }
    /* The binary of the copy equals the binary of the original. */
    {
        size_t b2size = 0;
        if (hipdnnBackendGetSerializedBinaryGraph_ext(d2, 0, &b2size, NULL) != HIPDNN_STATUS_SUCCESS || b2size != bsize) {
            snprintf(why, whylen, "the copy serializes to %zu bytes, the original to %zu", b2size, bsize);
            fail = why;
            goto out;
        }
    }
    hipdnnBackendDescriptor_t both[2] = {d1, d2};
    for (int k = 0; k < 2; k++) {
        st = hipdnnBackendSetAttribute(both[k], HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &handle);
        if (st == HIPDNN_STATUS_SUCCESS)
            st = hipdnnBackendFinalize(both[k]);
        if (st != HIPDNN_STATUS_SUCCESS) {
            snprintf(why, whylen, "Finalize of the %s descriptor: %s: %s", k == 0 ? "JSON" : "binary", hipdnnGetErrorString(st),
                     last_error());
            fail = why;
            goto out;
        }
    }
    /* Finalizing does not change the serialized form. */
    {
        char* j3 = json_of(d2);
        if (!j3 || strcmp(j3, j1) != 0) {
            snprintf(why, whylen, "the JSON changed when the graph was finalized");
            fail = why;
        }
        free(j3);
    }
out:
    free(j1);
    free(j2);
    free(bin);
    if (d1)
        hipdnnBackendDestroyDescriptor(d1);
    if (d2)
        hipdnnBackendDestroyDescriptor(d2);
    free(text);
    return fail;
}

static int visit(const char* path, const struct stat* sb, int type, struct FTW* ftw) {
    (void)sb;
    (void)ftw;
    size_t n = strlen(path);
    if (type != FTW_F || n < 5 || strcmp(path + n - 5, ".json") != 0)
        return 0;
    files_seen++;
    char why[1024];
    const char* fail = run_file(path, why, sizeof why);
    check_count++;
    if (fail) {
        CHECK_FAIL("%s: %s", path, fail);
        printf("FAIL %s\n", path);
    } else {
        files_ok++;
        printf("ok   %s\n", path);
    }
    return 0;
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    char dir[4096];
    if (HIPDNN_CORPUS_DIR[0] != '\0')
        snprintf(dir, sizeof dir, "%s", HIPDNN_CORPUS_DIR);
    else
        snprintf(dir, sizeof dir, "%s/testdata/hipdnn_graphs", HIPDNN_SOURCE_DIR);
    CHECK_OK(hipdnnCreate(&handle));
    tu_clear_last_error();
    if (nftw(dir, visit, 16, FTW_PHYS) != 0)
        CHECK_FAIL("cannot walk the corpus folder %s", dir);
    printf("%d of %d corpus graphs round-tripped and finalized (%s)\n", files_ok, files_seen, dir);
    if (files_seen == 0)
        CHECK_FAIL("no *.json graph found under %s", dir);
    CHECK_OK(hipdnnDestroy(handle));
    return check_finish("test_corpus_roundtrip");
}
