// ATen/TensorUtils.h - ATen stand-in (tests/mha/README.md): nothing beyond the tensor itself.
#pragma once
#include "../mha_standin/tensor.h"
