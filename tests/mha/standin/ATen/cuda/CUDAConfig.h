// ATen/cuda/CUDAConfig.h - ATen stand-in (tests/mha/README.md): cuDNN is enabled. A build may
// define AT_CUDNN_ENABLED itself (e.g. -D'AT_CUDNN_ENABLED()=0' to compile MHA.cpp's fallback).
#pragma once
#ifndef AT_CUDNN_ENABLED
#define AT_CUDNN_ENABLED() 1
#endif
