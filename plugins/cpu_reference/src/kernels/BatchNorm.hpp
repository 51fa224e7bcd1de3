// Batch normalization kernels: inference (given mean and inverse variance, or mean and variance
// with epsilon), training forward and backward.
//
// x / y / dy / dx : [N, C, spatial...] (rank >= 2, any strides). Every per-channel tensor (scale,
// bias, mean, inv_variance, variance, running statistics, dscale, dbias) must broadcast to x with
// only the channel axis varying: [1, C, 1, ...] (a lower rank is right-aligned by NumPy rules, so
// [C] only works for rank-2 x). A channel's statistics are taken over the M = N·spatial
// elements of every axis except axis 1.
//
//   inference           y = scale·(x − mean)·inv_variance + bias
//   inference+variance  inv_variance = 1/√(variance + ε), then as above
//   training            mean = Σx/M,  var = Σ(x − mean)²/M (biased; two passes),
//                       inv = 1/√(var + ε),  y = scale·(x − mean)·inv + bias;
//                       optional outputs: saved mean = mean, saved inv_variance = inv;
//                       running statistics (cuDNN / PyTorch convention: the running variance
//                       is updated with the UNBIASED batch variance var·M/(M−1)):
//                         next_mean = (1 − momentum)·prev_mean + momentum·mean
//                         next_var  = (1 − momentum)·prev_var  + momentum·var·M/(M−1)
//   backward            x̂ = (x − mean)·inv with the saved mean / inv_variance,
//                       dbias = Σ dy,  dscale = Σ dy·x̂,
//                       dx = scale·inv·(dy − dbias/M − x̂·dscale/M)
//
// Arithmetic: fp32 for float/half/bfloat16, fp64 when any tensor is double or the accumulator is
// Double; sums are blocked (NormCommon.hpp). Every output is rounded once to its type.
#pragma once

#include "core/StridedLoop.hpp"
#include "core/TensorView.hpp"

#include <string>

namespace hipdnngo::cpu_reference
{

// checkPerChannel returns "" when `t` broadcasts to x varying only along axis 1 with size C.
std::string checkPerChannel(const TensorView& x, const TensorView& t, const char* role);

struct BatchnormInferenceParams
{
    bool varianceForm = false; // false: `stat` is inv_variance; true: `stat` is variance (+ epsilon)
    double epsilon = 0.0; // variance form only
    Accumulator accumulator = Accumulator::Auto;
};

std::string checkBatchnormInference(const TensorView& x, const TensorView& mean, const TensorView& stat, const TensorView& scale,
                                    const TensorView& bias, const TensorView& y);

void batchnormInference(const TensorView& x, const TensorView& mean, const TensorView& stat, const TensorView& scale,
                        const TensorView& bias, const TensorView& y, const BatchnormInferenceParams& p);

// BatchnormTrainingViews: required x, scale, bias, y; optional outputs (nullptr = absent). The
// running-statistics pairs go together: next_running_mean needs prev_running_mean (and a
// momentum), next_running_variance needs prev_running_variance.
struct BatchnormTrainingViews
{
    TensorView x, scale, bias, y;
    const TensorView* savedMean = nullptr;
    const TensorView* savedInvVariance = nullptr;
    const TensorView* prevRunningMean = nullptr;
    const TensorView* prevRunningVariance = nullptr;
    const TensorView* nextRunningMean = nullptr;
    const TensorView* nextRunningVariance = nullptr;
};

struct BatchnormTrainingParams
{
    double epsilon = 0.0;
    double momentum = 0.0;
    Accumulator accumulator = Accumulator::Auto;
};

std::string checkBatchnormTraining(const BatchnormTrainingViews& v);
void batchnormTraining(const BatchnormTrainingViews& v, const BatchnormTrainingParams& p);

std::string checkBatchnormBackward(const TensorView& dy, const TensorView& x, const TensorView& mean,
                                   const TensorView& invVariance, const TensorView& scale, const TensorView& dx,
                                   const TensorView& dscale, const TensorView& dbias);

void batchnormBackward(const TensorView& dy, const TensorView& x, const TensorView& mean, const TensorView& invVariance,
                       const TensorView& scale, const TensorView& dx, const TensorView& dscale, const TensorView& dbias,
                       Accumulator accumulator = Accumulator::Auto);

} // namespace hipdnngo::cpu_reference
