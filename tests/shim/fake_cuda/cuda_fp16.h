/* Test stand-in for CUDA's fp16 header: the type names only. Never installed. */
#pragma once
struct __half {
    unsigned short __x;
};
typedef __half half;
