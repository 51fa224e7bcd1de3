// What the graph readers of the model (Model.cpp, ModelNorm.cpp, ModelRowProgram.cpp,
// ModelSingle.cpp) share. Not part of the model's interface (Model.hpp).
#pragma once

#include "Model.hpp"

#include <set>

namespace hipdnngo::cuda_rtc::model
{

// dimsText: "AxBxC".
std::string dimsText(const std::vector<int64_t>& d);
// aligned: dims right-aligned to `rank` (leading 1s), or empty when dims has more axes.
std::vector<int64_t> aligned(const std::vector<int64_t>& dims, size_t rank);
bool sameAligned(const Tensor& t, const std::vector<int64_t>& dims);
bool broadcastsTo(const Tensor& t, const std::vector<int64_t>& space);
std::vector<Tensor> readTensors(const fbs::Graph& graph);
PwOp readPointwise(const fbs::PointwiseAttributes& a);
void checkPointwiseDag(const Program& p, const std::vector<PwOp>& ops, const std::vector<int64_t>& space,
                       std::set<int64_t> produced, std::set<int64_t> written);

// ModelNorm.cpp
NormFwd readLayernorm(const fbs::LayernormAttributes& a, const Program& p);
NormFwd readRmsnorm(const fbs::RMSNormAttributes& a);
int trailingAxesFromScale(const Tensor& x, const Tensor& scale);
bool denseOver(const Tensor& t, int from);
void checkNormFwd(Program& p);
void checkBatchnorm(Program& p);
void checkNormBwd(Program& p);
void lowerBatchnormInference(Program& p, int64_t x, int64_t mean, int64_t inv, int64_t var, int64_t eps, int64_t scale,
                             int64_t bias, int64_t y);

// ModelRowProgram.cpp
Program readRowProgram(const fbs::Graph& graph, Program p);
bool isRowProgram(const fbs::Graph& graph, bool* maybe);

// ModelSingle.cpp
Program readSingle(const fbs::Graph& graph, Program p);

} // namespace hipdnngo::cuda_rtc::model
