/* Test stand-in for the CUDA runtime header (declarations spelled as CUDA spells them), so the
 * shim's "beside CUDA" paths compile and run on a machine without CUDA. Never installed. */
#pragma once
typedef struct CUstream_st* cudaStream_t;
typedef struct CUgraph_st* cudaGraph_t;
#define CUDART_VERSION 12040
