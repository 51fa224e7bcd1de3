// c10/cuda/CUDACachingAllocator.h - ATen stand-in (tests/mha/README.md): handle, device properties, allocator, cache keys, AT_CUDNN_FRONTEND_CHECK.
#pragma once
#include "../../mha_standin/cuda.h"
