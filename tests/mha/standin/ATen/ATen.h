// ATen/ATen.h - ATen stand-in (tests/mha/README.md): tensors, at::empty/empty_like/diff, the check macros.
#pragma once
#include "../mha_standin/tensor.h"
