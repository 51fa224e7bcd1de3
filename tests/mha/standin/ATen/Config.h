// ATen/Config.h - ATen stand-in (tests/mha/README.md): build configuration; AT_CUDNN_ENABLED() is in ATen/cuda/CUDAConfig.h as in ATen.
#pragma once
