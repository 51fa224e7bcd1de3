// ATen/core/Tensor.h - ATen stand-in (tests/mha/README.md): at::Tensor.
#pragma once
#include "../../mha_standin/tensor.h"
