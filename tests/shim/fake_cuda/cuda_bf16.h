/* Test stand-in for CUDA's bf16 header: the type names only. Never installed. */
#pragma once
struct __nv_bfloat16 {
    unsigned short __x;
};
typedef __nv_bfloat16 nv_bfloat16;
