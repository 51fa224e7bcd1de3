/* Tensor descriptor (conformance checklist items 27-32): attribute round trip, finalize
 * rules, pass-by-value scalars (VALUE_EXT / CONSTANT_VALUE) for every accepted data type with
 * exact byte sizes, IS_BY_VALUE, IS_RUNTIME_PASS_BY_VALUE_EXT, copy semantics. */
#include <stdbool.h>

#include "testutil.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static hipdnnBackendDescriptor_t new_tensor(void) {
    hipdnnBackendDescriptor_t t = NULL;
    CHECK_OK(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &t));
    return t;
}

static void set_shape(hipdnnBackendDescriptor_t t, hipdnnDataType_t dt) {
    int64_t one = 1;
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 1, &one));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 1, &one));
}

/* 27: every attribute set, finalized, read back unchanged. */
static void check_round_trip(void) {
    hipdnnBackendDescriptor_t t = new_tensor();
    int64_t uid = 0x7000000000000042LL;
    const char* name = "activations";
    hipdnnDataType_t dt = HIPDNN_DATA_BFLOAT16;
    int64_t dims[4] = {2, 3, 5, 7}, strides[4] = {105, 1, 21, 3}; /* NHWC */
    bool virt = true;
    int64_t align = 64, ragged = 99;
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, (int64_t)strlen(name), name));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 4, dims));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 4, strides));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &virt));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, HIPDNN_TYPE_INT64, 1, &align));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, HIPDNN_TYPE_INT64, 1, &ragged));
    CHECK_OK(hipdnnBackendFinalize(t));

    int64_t n = -1, i64 = 0;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &n, &i64));
    CHECK_EQ_INT(n, 1);
    CHECK(i64 == uid);
    /* NAME_EXT: size query includes the NUL; full copy; truncated copy. */
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, 0, &n, NULL));
    CHECK_EQ_INT(n, (int64_t)strlen(name) + 1);
    char buf[64];
    memset(buf, '#', sizeof buf);
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof buf, &n, buf));
    CHECK_STREQ(buf, name);
    CHECK_EQ_INT(n, (int64_t)strlen(name) + 1);
    memset(buf, '#', sizeof buf);
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, 4, &n, buf));
    CHECK_STREQ(buf, "act");
    CHECK_EQ_INT(n, 4);
    CHECK(buf[4] == '#');

    hipdnnDataType_t dt_back = HIPDNN_DATA_FLOAT;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &n, &dt_back));
    CHECK_EQ_INT(dt_back, HIPDNN_DATA_BFLOAT16);
    int64_t back[8] = {0};
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 0, &n, NULL));
    CHECK_EQ_INT(n, 4);
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 8, &n, back));
    CHECK_EQ_INT(n, 4);
    CHECK(memcmp(back, dims, sizeof dims) == 0);
    memset(back, 0, sizeof back);
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 4, &n, back));
    CHECK_EQ_INT(n, 4);
    CHECK(memcmp(back, strides, sizeof strides) == 0);
    /* A smaller request copies a prefix and reports how many were copied. */
    memset(back, 0, sizeof back);
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 2, &n, back));
    CHECK_EQ_INT(n, 2);
    CHECK(back[0] == 2 && back[1] == 3 && back[2] == 0);
    bool b = false;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &n, &b));
    CHECK(b);
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, HIPDNN_TYPE_INT64, 1, &n, &i64));
    CHECK_EQ_INT(i64, 64);
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, HIPDNN_TYPE_INT64, 1, &n, &i64));
    CHECK_EQ_INT(i64, 99);
    /* Defaults of a tensor given only what finalize needs. */
    hipdnnBackendDescriptor_t d = new_tensor();
    set_shape(d, HIPDNN_DATA_FLOAT);
    CHECK_OK(hipdnnBackendFinalize(d));
    /* spec §3.1: UNIQUE_ID defaults to 0 and IS_VIRTUAL to false; they read back as such. */
    i64 = -1;
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &n, &i64));
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(i64, 0);
    b = true;
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(d, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &n, &b));
    CHECK_EQ_INT(n, 1);
    CHECK(!b);
    n = -1; /* unset optional: count 0 */
    CHECK_OK(hipdnnBackendGetAttribute(d, HIPDNN_ATTR_TENSOR_RAGGED_OFFSET_DESC, HIPDNN_TYPE_INT64, 1, &n, &i64));
    CHECK_EQ_INT(n, 0);
    n = -1; /* unset name: the empty string */
    CHECK_OK(hipdnnBackendGetAttribute(d, HIPDNN_ATTR_TENSOR_NAME_EXT, HIPDNN_TYPE_CHAR, 0, &n, NULL));
    CHECK(n == 0 || n == 1);
    CHECK_OK(hipdnnBackendDestroyDescriptor(d));
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));
}

/* 28 and the other finalize rules. */
static void check_finalize_rules(void) {
    int64_t uid = 1, two[2] = {2, 3}, one = 1;
    hipdnnBackendDescriptor_t t = new_tensor();
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::finalize() failed: required attribute(s) not set: HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_ATTR_TENSOR_STRIDES",
        hipdnnBackendFinalize(t)); /* only the UID */
    hipdnnDataType_t dt = HIPDNN_DATA_FLOAT;
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_TENSOR_DIMENSIONS", hipdnnBackendFinalize(t));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 2, two));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_TENSOR_STRIDES", hipdnnBackendFinalize(t));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 1, &one));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "strides", hipdnnBackendFinalize(t)); /* rank mismatch */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "TensorDescriptor::getAttribute() failed: Not finalized.",
              hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, NULL, &uid));
    int64_t s2[2] = {3, 1};
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 2, s2)); /* replaces */
    CHECK_OK(hipdnnBackendFinalize(t));
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));

    /* Empty dimension lists, invalid data types and alignments are refused at set. */
    t = new_tensor();
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "TensorDescriptor::setAttribute() failed: HIPDNN_ATTR_TENSOR_DIMENSIONS takes at least 1 element(s), got 0",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 0, two));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "TensorDescriptor::setAttribute() failed: arrayOfElements is NULL for HIPDNN_ATTR_TENSOR_DIMENSIONS",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 2, NULL));
    hipdnnDataType_t bad = (hipdnnDataType_t)99;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "TensorDescriptor::setAttribute() failed: 99 is not a hipdnnDataType_t",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &bad));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_TENSOR_DATA_TYPE takes HIPDNN_TYPE_DATA_TYPE, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_INT64, 1, &uid));
    int64_t zero = 0;
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "TensorDescriptor::setAttribute() failed: value must be positive, got 0",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_BYTE_ALIGNMENT, HIPDNN_TYPE_INT64, 1, &zero));
    /* Our additions: non-positive dimensions or strides fail finalize. */
    set_shape(t, HIPDNN_DATA_HALF);
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 1, &zero));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "dimension", hipdnnBackendFinalize(t));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 1, &one));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 1, &zero));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "stride", hipdnnBackendFinalize(t));
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));
}

/* 29: VALUE_EXT for every accepted data type, with its exact byte size. */
static void check_values(void) {
    static const struct {
        hipdnnDataType_t dt;
        int64_t bytes;
    } accepted[] = {
        {HIPDNN_DATA_FLOAT, 4},         {HIPDNN_DATA_DOUBLE, 8},   {HIPDNN_DATA_HALF, 2},     {HIPDNN_DATA_BFLOAT16, 2},
        {HIPDNN_DATA_INT32, 4},         {HIPDNN_DATA_INT64, 8},    {HIPDNN_DATA_BOOLEAN, 1},  {HIPDNN_DATA_UINT8, 1},
        {HIPDNN_DATA_INT8, 1},          {HIPDNN_DATA_FP8_E4M3, 1}, {HIPDNN_DATA_FP8_E5M2, 1}, {HIPDNN_DATA_FP8_E4M3_FNUZ, 1},
        {HIPDNN_DATA_FP8_E5M2_FNUZ, 1},
    };
    for (size_t i = 0; i < N_ELEMS(accepted); i++) {
        hipdnnBackendDescriptor_t t = new_tensor();
        set_shape(t, accepted[i].dt);
        unsigned char in[16], out[16];
        for (int k = 0; k < 16; k++)
            in[k] = (unsigned char)(0xA0 + 7 * k + (int)i);
        /* One byte too few and one too many are refused. */
        if (accepted[i].bytes > 1)
            CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM,
                         hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, accepted[i].bytes - 1, in));
        CHECK_STATUS(HIPDNN_STATUS_BAD_PARAM,
                     hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, accepted[i].bytes + 1, in));
        hipdnnStatus_t st = hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, accepted[i].bytes, in);
        if (st != HIPDNN_STATUS_SUCCESS) {
            CHECK_FAIL("data type %d: VALUE_EXT of %lld bytes returned %s", (int)accepted[i].dt, (long long)accepted[i].bytes,
                    hipdnnGetErrorString(st));
            CHECK_OK(hipdnnBackendDestroyDescriptor(t));
            continue;
        }
        CHECK_OK(hipdnnBackendFinalize(t));
        int64_t n = -1;
        CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 0, &n, NULL));
        if (n != accepted[i].bytes)
            CHECK_FAIL("data type %d: VALUE_EXT size query gave %lld, want %lld", (int)accepted[i].dt, (long long)n,
                    (long long)accepted[i].bytes);
        memset(out, 0, sizeof out);
        n = -1;
        CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, sizeof out, &n, out));
        if (n != accepted[i].bytes || memcmp(in, out, (size_t)accepted[i].bytes) != 0)
            CHECK_FAIL("data type %d: VALUE_EXT read back %lld bytes, different from what was set", (int)accepted[i].dt,
                    (long long)n);
        CHECK(out[accepted[i].bytes] == 0); /* raw bytes: nothing written past the value */
        bool byval = false;
        CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_IS_BY_VALUE, HIPDNN_TYPE_BOOLEAN, 1, &n, &byval));
        CHECK(byval);
        CHECK_OK(hipdnnBackendDestroyDescriptor(t));
    }
    /* Data types without a pass-by-value form. */
    static const hipdnnDataType_t refused[] = {HIPDNN_DATA_FP8_E8M0, HIPDNN_DATA_FP4_E2M1, HIPDNN_DATA_INT4,
                                               HIPDNN_DATA_FP6_E2M3_EXT, HIPDNN_DATA_FP6_E3M2_EXT};
    for (size_t i = 0; i < N_ELEMS(refused); i++) {
        hipdnnBackendDescriptor_t t = new_tensor();
        set_shape(t, refused[i]);
        unsigned char in[8] = {0};
        for (int64_t k = 1; k <= 8; k++) {
            hipdnnStatus_t st = hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, k, in);
            if (st != HIPDNN_STATUS_BAD_PARAM)
                CHECK_FAIL("data type %d: VALUE_EXT of %lld bytes returned %s, want BAD_PARAM", (int)refused[i], (long long)k,
                        hipdnnGetErrorString(st));
        }
        CHECK_OK(hipdnnBackendDestroyDescriptor(t));
    }
    tu_clear_last_error();
}

/* 30: VALUE_EXT misuse. */
static void check_value_misuse(void) {
    float f = 2.5f;
    double dbl = 2.5;
    bool b = true;
    hipdnnBackendDescriptor_t t = new_tensor();
    /* before DATA_TYPE */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "HIPDNN_ATTR_TENSOR_DATA_TYPE",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 4, &f));
    set_shape(t, HIPDNN_DATA_FLOAT);
    /* non-CHAR attribute types */
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_TENSOR_VALUE_EXT takes HIPDNN_TYPE_CHAR, not HIPDNN_TYPE_FLOAT",
        hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_FLOAT, 1, &f));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_TENSOR_VALUE_EXT takes HIPDNN_TYPE_CHAR, not HIPDNN_TYPE_DOUBLE",
        hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_DOUBLE, 1, &dbl));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_TENSOR_VALUE_EXT takes HIPDNN_TYPE_CHAR, not HIPDNN_TYPE_BOOLEAN",
        hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_BOOLEAN, 1, &b));
    /* byte count that does not match the data type */
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "TensorDescriptor::setAttribute() failed: a HIPDNN_DATA_FLOAT value is 4 bytes, got 8",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 8, &dbl));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "TensorDescriptor::setAttribute() failed: a HIPDNN_DATA_FLOAT value is 4 bytes, got 2",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 2, &f));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM,
              "TensorDescriptor::setAttribute() failed: HIPDNN_ATTR_TENSOR_VALUE_EXT takes 1 to 8 elements, got 0",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 0, &f));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM_NULL_POINTER,
              "TensorDescriptor::setAttribute() failed: arrayOfElements is NULL for HIPDNN_ATTR_TENSOR_VALUE_EXT",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 4, NULL));
    CHECK_OK(hipdnnBackendFinalize(t));
    /* get when never set, and non-CHAR get types */
    int64_t n = -1;
    unsigned char out[8];
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "TensorDescriptor::getAttribute() failed: HIPDNN_ATTR_TENSOR_VALUE_EXT was never set",
              hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 8, &n, out));
    CHECK_ERR(HIPDNN_STATUS_BAD_PARAM, "TensorDescriptor::getAttribute() failed: HIPDNN_ATTR_TENSOR_VALUE_EXT was never set",
              hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 0, &n, NULL));
    bool byval = true;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_IS_BY_VALUE, HIPDNN_TYPE_BOOLEAN, 1, &n, &byval));
    CHECK(!byval);
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));

    t = new_tensor();
    set_shape(t, HIPDNN_DATA_FLOAT);
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 4, &f));
    CHECK_OK(hipdnnBackendFinalize(t));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_TENSOR_VALUE_EXT has type HIPDNN_TYPE_CHAR, not HIPDNN_TYPE_FLOAT",
        hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_FLOAT, 1, &n, &f));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_TENSOR_VALUE_EXT has type HIPDNN_TYPE_CHAR, not HIPDNN_TYPE_DOUBLE",
        hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_DOUBLE, 1, &n, &dbl));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::getAttribute() failed: attribute HIPDNN_ATTR_TENSOR_VALUE_EXT has type HIPDNN_TYPE_CHAR, not HIPDNN_TYPE_BOOLEAN",
        hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_BOOLEAN, 1, &n, &b));
    /* set after finalize */
    CHECK_ERR(HIPDNN_STATUS_NOT_INITIALIZED, "TensorDescriptor::setAttribute() failed: Already finalized.",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 4, &f));
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));
}

/* 31: the value is copied; the last write wins. 32: CONSTANT_VALUE is the same attribute. */
static void check_copy_and_alias(void) {
    CHECK_EQ_INT(HIPDNN_ATTR_TENSOR_CONSTANT_VALUE, HIPDNN_ATTR_TENSOR_VALUE_EXT);
    CHECK_EQ_INT(HIPDNN_ATTR_TENSOR_VALUE_EXT, 1306);
    hipdnnBackendDescriptor_t t = new_tensor();
    set_shape(t, HIPDNN_DATA_DOUBLE);
    {
        double scratch = 1.25;
        CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 8, &scratch));
        scratch = -7.0; /* the caller's buffer changes; the stored value must not */
    }
    double second = 3.5, third = -0.125;
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_CONSTANT_VALUE, HIPDNN_TYPE_CHAR, 8, &second));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 8, &third));
    third = 100.0;
    CHECK_OK(hipdnnBackendFinalize(t));
    double a = 0, c = 0;
    int64_t n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 8, &n, &a));
    CHECK_EQ_INT(n, 8);
    CHECK(a == -0.125);
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_CONSTANT_VALUE, HIPDNN_TYPE_CHAR, 8, &n, &c));
    CHECK(memcmp(&a, &c, sizeof a) == 0);
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));

    /* Same for a 2-byte type: a half 1.0 is 0x3C00. */
    t = new_tensor();
    set_shape(t, HIPDNN_DATA_HALF);
    uint16_t h = 0x3C00, hb = 0;
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 2, &h));
    CHECK_OK(hipdnnBackendFinalize(t));
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_CONSTANT_VALUE, HIPDNN_TYPE_CHAR, 2, &n, &hb));
    CHECK_EQ_INT(hb, 0x3C00);
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));
}

/* 32: IS_RUNTIME_PASS_BY_VALUE_EXT and IS_BY_VALUE. */
static void check_by_value_flags(void) {
    CHECK_EQ_INT(HIPDNN_ATTR_TENSOR_IS_BY_VALUE, 1307);
    CHECK_EQ_INT(HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, 1308);
    bool yes = true, b = false;
    int64_t n = -1;

    /* Default false; IS_BY_VALUE is read-only. */
    hipdnnBackendDescriptor_t t = new_tensor();
    set_shape(t, HIPDNN_DATA_FLOAT);
    CHECK_ERR(HIPDNN_STATUS_NOT_SUPPORTED,
              "TensorDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_TENSOR_IS_BY_VALUE is read-only",
              hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_BY_VALUE, HIPDNN_TYPE_BOOLEAN, 1, &yes));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::setAttribute() failed: attribute HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT takes HIPDNN_TYPE_BOOLEAN, not HIPDNN_TYPE_INT64",
        hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, HIPDNN_TYPE_INT64, 1, &n));
    CHECK_OK(hipdnnBackendFinalize(t));
    b = true; /* item 32: default false */
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, HIPDNN_TYPE_BOOLEAN, 1, &n, &b));
    CHECK_EQ_INT(n, 1);
    CHECK(!b);
    b = true;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_IS_BY_VALUE, HIPDNN_TYPE_BOOLEAN, 1, &n, &b));
    CHECK(!b);
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));

    /* Runtime pass-by-value set, no constant: the two flags are independent. */
    t = new_tensor();
    set_shape(t, HIPDNN_DATA_FLOAT);
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, HIPDNN_TYPE_BOOLEAN, 1, &yes));
    CHECK_OK(hipdnnBackendFinalize(t));
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, HIPDNN_TYPE_BOOLEAN, 1, &n, &b));
    CHECK(b);
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_IS_BY_VALUE, HIPDNN_TYPE_BOOLEAN, 1, &n, &b));
    CHECK(!b);
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));

    /* Constant set: IS_BY_VALUE true, runtime flag still false. */
    t = new_tensor();
    set_shape(t, HIPDNN_DATA_INT32);
    int32_t k = 42;
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 4, &k));
    CHECK_OK(hipdnnBackendFinalize(t));
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_IS_BY_VALUE, HIPDNN_TYPE_BOOLEAN, 1, &n, &b));
    CHECK(b);
    n = -1;
    CHECK_OK(hipdnnBackendGetAttribute(t, HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, HIPDNN_TYPE_BOOLEAN, 1, &n, &b));
    CHECK_EQ_INT(n, 1);
    CHECK(!b);
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));

    /* Our decision: a constant cannot also be a runtime pass-by-value scalar (finalize fails). */
    t = new_tensor();
    set_shape(t, HIPDNN_DATA_INT32);
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, 4, &k));
    CHECK_OK(hipdnnBackendSetAttribute(t, HIPDNN_ATTR_TENSOR_IS_RUNTIME_PASS_BY_VALUE_EXT, HIPDNN_TYPE_BOOLEAN, 1, &yes));
    CHECK_ERR(
        HIPDNN_STATUS_BAD_PARAM,
        "TensorDescriptor::finalize() failed: a tensor is either a constant (VALUE_EXT) or a runtime pass-by-value scalar, not both",
        hipdnnBackendFinalize(t));
    CHECK_OK(hipdnnBackendDestroyDescriptor(t));
}

int main(void) {
    check_round_trip();
    check_finalize_rules();
    check_values();
    check_value_misuse();
    check_copy_and_alias();
    check_by_value_flags();
    return check_finish("test_tensor");
}
