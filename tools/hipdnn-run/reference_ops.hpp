// The reference implementations (reference_ops.cpp, reference_norm.cpp, reference_sdpa.cpp). See reference.hpp for
// the conventions: dense row-major double values, error estimate E per element.
#pragma once

#include "reference.hpp"

namespace hdrun
{

std::string refConvFwd(OpContext& c);
std::string refConvBwdData(OpContext& c);
std::string refConvBwdFilter(OpContext& c);
std::string refMatmul(OpContext& c);
std::string refPointwise(OpContext& c);
std::string refReduction(OpContext& c);
std::string refBatchnormInference(OpContext& c);
std::string refBatchnormInferenceVariance(OpContext& c);
std::string refLayernorm(OpContext& c);
std::string refRmsnorm(OpContext& c);
std::string refBatchnormTraining(OpContext& c);
std::string refLayernormBackward(OpContext& c);
std::string refRmsnormBackward(OpContext& c);
std::string refBatchnormBackward(OpContext& c);
std::string refResampleFwd(OpContext& c);
std::string refResampleBwd(OpContext& c);
std::string refSdpaFwd(OpContext& c);
std::string refSdpaBwd(OpContext& c);

} // namespace hdrun
