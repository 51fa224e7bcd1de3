// Graphs the HIPDNNGO_CUDA_RTC tests share: a small FlatBuffers graph builder and the
// canonical graphs of each pattern (layernorm / RMSNorm forward, pointwise chains).
#pragma once

#include <hipdnn_flatbuffers_sdk/graph_generated.h>

#include <cmath>
#include <string>
#include <vector>

namespace rtc_test
{

namespace fbs = hipdnn_flatbuffers_sdk::data_objects;

inline std::vector<int64_t> packed(const std::vector<int64_t>& dims)
{
    std::vector<int64_t> s(dims.size(), 1);
    for(int i = static_cast<int>(dims.size()) - 2; i >= 0; --i)
        s[static_cast<size_t>(i)] = s[static_cast<size_t>(i) + 1] * dims[static_cast<size_t>(i) + 1];
    return s;
}

struct T
{
    int64_t uid = 0;
    std::string name;
    fbs::DataType dt = fbs::DataType::FLOAT;
    std::vector<int64_t> dims;
    bool virt = false;
    double constant = NAN; // set: a constant scalar (stored as FLOAT / DOUBLE value)
    std::vector<int64_t> strides; // empty: packed
    bool byValue = false;
};

struct PwSpec
{
    fbs::PointwiseMode mode = fbs::PointwiseMode::IDENTITY;
    int64_t in0 = -1, in1 = -1, in2 = -1, out = -1;
    flatbuffers::Optional<float> reluLo, reluHi, reluSlope, swishBeta, eluAlpha, softplusBeta;
    flatbuffers::Optional<int64_t> axis;
};

class G
{
public:
    std::vector<T> ts;

    G& tensor(T t)
    {
        ts.push_back(std::move(t));
        return *this;
    }

    G& pointwise(const PwSpec& p)
    {
        auto a = fbs::CreatePointwiseAttributes(
            fbb_, p.mode, p.reluLo, p.reluHi, p.reluSlope, p.axis, p.in0,
            p.in1 >= 0 ? flatbuffers::Optional<int64_t>(p.in1) : flatbuffers::nullopt,
            p.in2 >= 0 ? flatbuffers::Optional<int64_t>(p.in2) : flatbuffers::nullopt, p.out, p.swishBeta, p.eluAlpha,
            p.softplusBeta);
        nodes_.push_back(fbs::CreateNodeDirect(fbb_, "pw", fbs::DataType::FLOAT, fbs::NodeAttributes::PointwiseAttributes, a.Union()));
        return *this;
    }

    G& layernorm(int64_t x, int64_t scale, int64_t bias, int64_t eps, int64_t y, int64_t k, int64_t mean = -1, int64_t inv = -1)
    {
        const bool training = mean >= 0 || inv >= 0;
        auto a = fbs::CreateLayernormAttributes(fbb_, x, scale, bias, eps, y, k,
                                                mean >= 0 ? flatbuffers::Optional<int64_t>(mean) : flatbuffers::nullopt,
                                                inv >= 0 ? flatbuffers::Optional<int64_t>(inv) : flatbuffers::nullopt,
                                                training ? fbs::NormFwdPhase::TRAINING : fbs::NormFwdPhase::INFERENCE);
        nodes_.push_back(fbs::CreateNodeDirect(fbb_, "layernorm", fbs::DataType::FLOAT, fbs::NodeAttributes::LayernormAttributes,
                                               a.Union()));
        return *this;
    }

    G& rmsnorm(int64_t x, int64_t scale, int64_t eps, int64_t y, int64_t bias = -1, int64_t inv = -1)
    {
        auto a = fbs::CreateRMSNormAttributes(fbb_, x, scale, eps, y,
                                              bias >= 0 ? flatbuffers::Optional<int64_t>(bias) : flatbuffers::nullopt,
                                              inv >= 0 ? flatbuffers::Optional<int64_t>(inv) : flatbuffers::nullopt,
                                              inv >= 0 ? fbs::NormFwdPhase::TRAINING : fbs::NormFwdPhase::INFERENCE);
        nodes_.push_back(
            fbs::CreateNodeDirect(fbb_, "rmsnorm", fbs::DataType::FLOAT, fbs::NodeAttributes::RMSNormAttributes, a.Union()));
        return *this;
    }

    // node adds any other node (for decline tests).
    G& node(fbs::NodeAttributes type, flatbuffers::Offset<void> attrs)
    {
        nodes_.push_back(fbs::CreateNodeDirect(fbb_, "other", fbs::DataType::FLOAT, type, attrs));
        return *this;
    }
    flatbuffers::FlatBufferBuilder& fbb() { return fbb_; }

    std::vector<uint8_t> finish()
    {
        std::vector<flatbuffers::Offset<fbs::TensorAttributes>> tensors;
        for(const T& t : ts)
        {
            const std::vector<int64_t> strides = t.strides.empty() ? packed(t.dims) : t.strides;
            fbs::TensorValue vt = fbs::TensorValue::NONE;
            flatbuffers::Offset<void> v = 0;
            if(!std::isnan(t.constant))
            {
                if(t.dt == fbs::DataType::DOUBLE)
                {
                    const fbs::Float64Value d(t.constant);
                    v = fbb_.CreateStruct(d).Union();
                    vt = fbs::TensorValue::Float64Value;
                }
                else
                {
                    const fbs::Float32Value f(static_cast<float>(t.constant));
                    v = fbb_.CreateStruct(f).Union();
                    vt = fbs::TensorValue::Float32Value;
                }
            }
            tensors.push_back(fbs::CreateTensorAttributesDirect(fbb_, t.uid, t.name.c_str(), t.dt, &strides, &t.dims, t.virt, vt,
                                                                v, t.byValue));
        }
        fbb_.Finish(fbs::CreateGraphDirect(fbb_, "g", fbs::DataType::FLOAT, fbs::DataType::FLOAT, fbs::DataType::FLOAT, &tensors,
                                           &nodes_));
        return std::vector<uint8_t>(fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize());
    }

private:
    flatbuffers::FlatBufferBuilder fbb_;
    std::vector<flatbuffers::Offset<fbs::Node>> nodes_;
};

// Uids of the canonical graphs.
constexpr int64_t kX = 1, kScale = 2, kBias = 3, kEps = 4, kY = 5, kMean = 6, kInv = 7;
constexpr int64_t kT0 = 10; // pointwise intermediates and outputs from here
constexpr int64_t kDy = 20, kDx = 21, kDscale = 22, kDbias = 23; // backward

// layernormGraph: x [rows, n] of dt, scale / bias [n] of pdt, epsilon 1e-5 (a double constant);
// training adds mean / inv_variance [rows, 1] (fp32). epilogue: y is virtual and feeds
// y * 0.5 -> relu into kT0+1.
inline std::vector<uint8_t> layernormGraph(fbs::DataType dt, fbs::DataType pdt, std::vector<int64_t> xdims, int k,
                                           bool training, bool epilogue = false)
{
    G g;
    std::vector<int64_t> pdims(xdims.end() - k, xdims.end());
    std::vector<int64_t> sdims = xdims;
    for(size_t d = xdims.size() - static_cast<size_t>(k); d < xdims.size(); ++d)
        sdims[d] = 1;
    g.tensor({kX, "x", dt, xdims}).tensor({kScale, "scale", pdt, pdims}).tensor({kBias, "bias", pdt, pdims});
    g.tensor({kEps, "eps", fbs::DataType::DOUBLE, {1}, false, 1e-5});
    g.tensor({kY, "y", dt, xdims, epilogue});
    if(training)
        g.tensor({kMean, "mean", fbs::DataType::FLOAT, sdims}).tensor({kInv, "inv", fbs::DataType::FLOAT, sdims});
    g.layernorm(kX, kScale, kBias, kEps, kY, k, training ? kMean : -1, training ? kInv : -1);
    if(epilogue)
    {
        g.tensor({kT0, "half", fbs::DataType::FLOAT, {1}, false, 0.5});
        g.tensor({kT0 + 2, "scaled", fbs::DataType::FLOAT, xdims, true});
        g.tensor({kT0 + 1, "out", dt, xdims});
        PwSpec mul;
        mul.mode = fbs::PointwiseMode::MUL;
        mul.in0 = kY;
        mul.in1 = kT0;
        mul.out = kT0 + 2;
        PwSpec relu;
        relu.mode = fbs::PointwiseMode::RELU_FWD;
        relu.in0 = kT0 + 2;
        relu.out = kT0 + 1;
        g.pointwise(mul).pointwise(relu);
    }
    return g.finish();
}

// rmsnormGraph: x [rows, n], scale [1, n] (pdt), epsilon 1e-6 (float constant), optional bias
// and inv_rms output.
inline std::vector<uint8_t> rmsnormGraph(fbs::DataType dt, fbs::DataType pdt, std::vector<int64_t> xdims, bool bias,
                                         bool invRms)
{
    G g;
    std::vector<int64_t> pdims(xdims.size(), 1);
    pdims.back() = xdims.back();
    std::vector<int64_t> sdims = xdims;
    sdims.back() = 1;
    g.tensor({kX, "x", dt, xdims}).tensor({kScale, "scale", pdt, pdims});
    if(bias)
        g.tensor({kBias, "bias", pdt, pdims});
    g.tensor({kEps, "eps", fbs::DataType::FLOAT, {1}, false, 1e-6});
    g.tensor({kY, "y", dt, xdims});
    if(invRms)
        g.tensor({kInv, "inv_rms", fbs::DataType::FLOAT, sdims});
    g.rmsnorm(kX, kScale, kEps, kY, bias ? kBias : -1, invRms ? kInv : -1);
    return g.finish();
}

// pointwiseChainGraph: out = gelu((x + b) * 0.5) with x [n, c, h, w] and b [1, c, 1, 1]
// (broadcast), all of dt; a second output out2 = x > 0 (cmp_gt against a float constant).
inline std::vector<uint8_t> pointwiseChainGraph(fbs::DataType dt, std::vector<int64_t> xdims)
{
    G g;
    std::vector<int64_t> bdims(xdims.size(), 1);
    bdims[1] = xdims[1];
    g.tensor({kX, "x", dt, xdims}).tensor({kBias, "b", dt, bdims});
    g.tensor({kT0, "half", fbs::DataType::FLOAT, {1}, false, 0.5});
    g.tensor({kT0 + 1, "sum", dt, xdims, true});
    g.tensor({kT0 + 2, "scaled", fbs::DataType::FLOAT, xdims, true});
    g.tensor({kT0 + 3, "out", dt, xdims});
    g.tensor({kT0 + 4, "zero", fbs::DataType::FLOAT, {1}, false, 0.0});
    g.tensor({kT0 + 5, "positive", dt, xdims});
    PwSpec add{fbs::PointwiseMode::ADD, kX, kBias, -1, kT0 + 1};
    PwSpec mul{fbs::PointwiseMode::MUL, kT0 + 1, kT0, -1, kT0 + 2};
    PwSpec gelu{fbs::PointwiseMode::GELU_FWD, kT0 + 2, -1, -1, kT0 + 3};
    PwSpec gt{fbs::PointwiseMode::CMP_GT, kX, kT0 + 4, -1, kT0 + 5};
    g.pointwise(add).pointwise(mul).pointwise(gelu).pointwise(gt);
    return g.finish();
}

// singleModeGraph: one pointwise node of `mode` over x [4, 33] (and y [33], z [4, 1] as needed).
inline std::vector<uint8_t> singleModeGraph(fbs::PointwiseMode mode, int arity, fbs::DataType dt)
{
    G g;
    g.tensor({kX, "x", dt, {4, 33}}).tensor({kY, "y", dt, {33}}).tensor({kBias, "z", dt, {4, 1}});
    g.tensor({kT0, "out", dt, {4, 33}});
    PwSpec p;
    p.mode = mode;
    p.in0 = kX;
    p.in1 = arity >= 2 ? kY : -1;
    p.in2 = arity >= 3 ? kBias : -1;
    p.out = kT0;
    if(mode == fbs::PointwiseMode::GEN_INDEX)
        p.axis = 1;
    if(mode == fbs::PointwiseMode::RELU_FWD || mode == fbs::PointwiseMode::RELU_BWD)
    {
        p.reluLo = -1.0f;
        p.reluHi = 6.0f;
        p.reluSlope = 0.01f;
    }
    g.pointwise(p);
    return g.finish();
}

// convertGraph: IDENTITY from x [n] of type `from` to out [n] of type `to` (a type conversion).
inline std::vector<uint8_t> convertGraph(fbs::DataType from, fbs::DataType to, int64_t n)
{
    G g;
    g.tensor({kX, "x", from, {n}}).tensor({kT0, "out", to, {n}});
    PwSpec p;
    p.in0 = kX;
    p.out = kT0;
    g.pointwise(p);
    return g.finish();
}

// layernormBwdGraph: dy, x [rows, n] of dt, scale [n] of pdt, dx of dt, dscale / dbias [n] of
// pdt; with saved mean / inv_variance [rows, 1] (fp32), or recomputed with epsilon 1e-5.
inline std::vector<uint8_t> layernormBwdGraph(fbs::DataType dt, fbs::DataType pdt, std::vector<int64_t> xdims, bool saved)
{
    G g;
    std::vector<int64_t> pdims{xdims.back()};
    std::vector<int64_t> sdims = xdims;
    sdims.back() = 1;
    g.tensor({kDy, "dy", dt, xdims}).tensor({kX, "x", dt, xdims}).tensor({kScale, "scale", pdt, pdims});
    if(saved)
        g.tensor({kMean, "mean", fbs::DataType::FLOAT, sdims}).tensor({kInv, "inv", fbs::DataType::FLOAT, sdims});
    else
        g.tensor({kEps, "eps", fbs::DataType::FLOAT, {1}, false, 1e-5});
    g.tensor({kDx, "dx", dt, xdims}).tensor({kDscale, "dscale", pdt, pdims}).tensor({kDbias, "dbias", pdt, pdims});
    auto a = fbs::CreateLayernormBackwardAttributes(
        g.fbb(), kDy, kX, kScale, saved ? flatbuffers::Optional<int64_t>(kMean) : flatbuffers::nullopt,
        saved ? flatbuffers::Optional<int64_t>(kInv) : flatbuffers::nullopt,
        saved ? flatbuffers::nullopt : flatbuffers::Optional<int64_t>(kEps), kDx, kDscale, kDbias, 1);
    g.node(fbs::NodeAttributes::LayernormBackwardAttributes, a.Union());
    return g.finish();
}

// rmsnormBwdGraph: dy, x [rows, n], scale [1, n] (pdt), inv_rms [rows, 1] (fp32), dx, dscale,
// optional dbias.
inline std::vector<uint8_t> rmsnormBwdGraph(fbs::DataType dt, fbs::DataType pdt, std::vector<int64_t> xdims, bool bias)
{
    G g;
    std::vector<int64_t> pdims(xdims.size(), 1);
    pdims.back() = xdims.back();
    std::vector<int64_t> sdims = xdims;
    sdims.back() = 1;
    g.tensor({kDy, "dy", dt, xdims}).tensor({kX, "x", dt, xdims}).tensor({kScale, "scale", pdt, pdims});
    g.tensor({kInv, "inv_rms", fbs::DataType::FLOAT, sdims});
    g.tensor({kDx, "dx", dt, xdims}).tensor({kDscale, "dscale", pdt, pdims});
    if(bias)
        g.tensor({kDbias, "dbias", pdt, pdims});
    auto a = fbs::CreateRMSNormBackwardAttributes(g.fbb(), kDy, kX, kScale, kInv, kDx, kDscale,
                                                  bias ? flatbuffers::Optional<int64_t>(kDbias) : flatbuffers::nullopt);
    g.node(fbs::NodeAttributes::RMSNormBackwardAttributes, a.Union());
    return g.finish();
}

// batchnormInferenceGraph: x [n, c, h, w] of dt, mean / inv_variance (or variance + epsilon
// 1e-5) / scale / bias [1, c, 1, 1] fp32, y virtual fp32 -> relu -> out (kT0 + 1) of dt.
inline std::vector<uint8_t> batchnormInferenceGraph(fbs::DataType dt, std::vector<int64_t> xdims, bool varianceForm)
{
    G g;
    std::vector<int64_t> cdims(xdims.size(), 1);
    cdims[1] = xdims[1];
    g.tensor({kX, "x", dt, xdims}).tensor({kMean, "mean", fbs::DataType::FLOAT, cdims});
    g.tensor({kInv, varianceForm ? "variance" : "inv_variance", fbs::DataType::FLOAT, cdims});
    g.tensor({kScale, "scale", fbs::DataType::FLOAT, cdims}).tensor({kBias, "bias", fbs::DataType::FLOAT, cdims});
    g.tensor({kY, "y", fbs::DataType::FLOAT, xdims, true}).tensor({kT0 + 1, "out", dt, xdims});
    if(varianceForm)
    {
        g.tensor({kEps, "eps", fbs::DataType::FLOAT, {1}, false, 1e-5});
        g.node(fbs::NodeAttributes::BatchnormInferenceAttributesVarianceExt,
               fbs::CreateBatchnormInferenceAttributesVarianceExt(g.fbb(), kX, kMean, kInv, kScale, kBias, kY, kEps).Union());
    }
    else
    {
        g.node(fbs::NodeAttributes::BatchnormInferenceAttributes,
               fbs::CreateBatchnormInferenceAttributes(g.fbb(), kX, kMean, kInv, kScale, kBias, kY).Union());
    }
    g.pointwise({fbs::PointwiseMode::RELU_FWD, kY, -1, -1, kT0 + 1});
    return g.finish();
}

// reductionGraph: in (kX) of dt reduced to out (kY, dt) with `mode`; epilogue: out is virtual
// fp32 and feeds sqrt(|out| * 0.25) -> kT0 + 1 (dt).
inline std::vector<uint8_t> reductionGraph(fbs::DataType dt, fbs::ReductionMode mode, std::vector<int64_t> in,
                                           std::vector<int64_t> out, bool epilogue = false)
{
    G g;
    g.tensor({kX, "in", dt, in}).tensor({kY, "out", epilogue ? fbs::DataType::FLOAT : dt, out, epilogue});
    g.node(fbs::NodeAttributes::ReductionAttributes, fbs::CreateReductionAttributes(g.fbb(), mode, kX, kY).Union());
    if(epilogue)
    {
        g.tensor({kT0, "quarter", fbs::DataType::FLOAT, {1}, false, 0.25});
        g.tensor({kT0 + 2, "abs", fbs::DataType::FLOAT, out, true}).tensor({kT0 + 3, "scaled", fbs::DataType::FLOAT, out, true});
        g.tensor({kT0 + 1, "root", dt, out});
        g.pointwise({fbs::PointwiseMode::ABS, kY, -1, -1, kT0 + 2});
        g.pointwise({fbs::PointwiseMode::MUL, kT0 + 2, kT0, -1, kT0 + 3});
        g.pointwise({fbs::PointwiseMode::SQRT, kT0 + 3, -1, -1, kT0 + 1});
    }
    return g.finish();
}

// prologueReductionGraph: the sum of squared deviations from a given mean, reduced to out dims
// (out, fp32): d = x - mean (mean fp32 of out dims; d virtual fp32, or with `writeD` written as
// kT0 + 3 of dt), s = d * d (virtual), out = sum(s). The pointwise nodes are the reduction's
// prologue.
inline std::vector<uint8_t> prologueReductionGraph(fbs::DataType dt, std::vector<int64_t> xdims, std::vector<int64_t> odims,
                                                   bool writeD)
{
    G g;
    const auto F = fbs::DataType::FLOAT;
    g.tensor({kX, "x", dt, xdims}).tensor({kMean, "mean", F, odims});
    g.tensor({kT0 + 3, "d", writeD ? dt : F, xdims, !writeD}).tensor({kT0 + 4, "s", F, xdims, true});
    g.tensor({kY, "out", F, odims});
    g.pointwise({fbs::PointwiseMode::SUB, kX, kMean, -1, kT0 + 3});
    g.pointwise({fbs::PointwiseMode::MUL, kT0 + 3, kT0 + 3, -1, kT0 + 4});
    g.node(fbs::NodeAttributes::ReductionAttributes, fbs::CreateReductionAttributes(g.fbb(), fbs::ReductionMode::ADD, kT0 + 4, kY).Union());
    return g.finish();
}

// prologueIndexGraph: out = sum(x * index), index = gen_index(x) along `axis` (virtual fp32),
// reduced to out dims (fp32): the prologue's gen_index on a kept or a reduced axis.
inline std::vector<uint8_t> prologueIndexGraph(fbs::DataType dt, std::vector<int64_t> xdims, std::vector<int64_t> odims, int64_t axis)
{
    G g;
    const auto F = fbs::DataType::FLOAT;
    g.tensor({kX, "x", dt, xdims}).tensor({kT0 + 3, "index", F, xdims, true}).tensor({kT0 + 4, "p", F, xdims, true});
    g.tensor({kY, "out", F, odims});
    PwSpec index;
    index.mode = fbs::PointwiseMode::GEN_INDEX;
    index.in0 = kX;
    index.out = kT0 + 3;
    index.axis = axis;
    g.pointwise(index);
    g.pointwise({fbs::PointwiseMode::MUL, kX, kT0 + 3, -1, kT0 + 4});
    g.node(fbs::NodeAttributes::ReductionAttributes, fbs::CreateReductionAttributes(g.fbb(), fbs::ReductionMode::ADD, kT0 + 4, kY).Union());
    return g.finish();
}

// Batchnorm training forward: x [n, c, h, w] of dt, per-channel fp32 scale / bias / saved mean
// and inv_variance / running statistics (prev: kT0 + 4, kT0 + 5; next: kT0 + 6, kT0 + 7),
// epsilon 1e-5, momentum 0.1; relu: y virtual fp32 -> relu -> kT0 + 1 (dt), else y (kY, dt).
inline std::vector<uint8_t> batchnormTrainingGraph(fbs::DataType dt, std::vector<int64_t> xdims, bool relu)
{
    G g;
    std::vector<int64_t> cdims(xdims.size(), 1);
    cdims[1] = xdims[1];
    const auto F = fbs::DataType::FLOAT;
    g.tensor({kX, "x", dt, xdims}).tensor({kScale, "scale", F, cdims}).tensor({kBias, "bias", F, cdims});
    g.tensor({kEps, "eps", fbs::DataType::DOUBLE, {1}, false, 1e-5}).tensor({kT0 + 8, "momentum", F, {1}, false, 0.1});
    g.tensor({kY, "y", relu ? F : dt, xdims, relu}).tensor({kMean, "mean", F, cdims}).tensor({kInv, "inv", F, cdims});
    g.tensor({kT0 + 4, "prev_mean", F, cdims}).tensor({kT0 + 5, "prev_var", F, cdims});
    g.tensor({kT0 + 6, "next_mean", F, cdims}).tensor({kT0 + 7, "next_var", F, cdims});
    g.node(fbs::NodeAttributes::BatchnormAttributes,
           fbs::CreateBatchnormAttributesDirect(g.fbb(), kX, kScale, kBias, kEps, nullptr, kT0 + 4, kT0 + 5, kT0 + 8, kY, kMean,
                                                kInv, kT0 + 6, kT0 + 7)
               .Union());
    if(relu)
    {
        g.tensor({kT0 + 1, "out", dt, xdims});
        g.pointwise({fbs::PointwiseMode::RELU_FWD, kY, -1, -1, kT0 + 1});
    }
    return g.finish();
}

// Batchnorm backward: dy, x [n, c, h, w] of dt, saved mean / inv_variance and scale per channel
// (fp32), dx (dt), dscale / dbias (fp32).
inline std::vector<uint8_t> batchnormBackwardGraph(fbs::DataType dt, std::vector<int64_t> xdims)
{
    G g;
    std::vector<int64_t> cdims(xdims.size(), 1);
    cdims[1] = xdims[1];
    const auto F = fbs::DataType::FLOAT;
    g.tensor({kDy, "dy", dt, xdims}).tensor({kX, "x", dt, xdims}).tensor({kMean, "mean", F, cdims});
    g.tensor({kInv, "inv", F, cdims}).tensor({kScale, "scale", F, cdims}).tensor({kDx, "dx", dt, xdims});
    g.tensor({kDscale, "dscale", F, cdims}).tensor({kDbias, "dbias", F, cdims});
    g.node(fbs::NodeAttributes::BatchnormBackwardAttributes,
           fbs::CreateBatchnormBackwardAttributesDirect(g.fbb(), kDy, kX, kMean, kInv, kScale, nullptr, kDx, kDscale, kDbias).Union());
    return g.finish();
}

// softmaxGraph: y = exp(x - max(x)) / sum(exp(x - max(x))) over the last axis of x [rows, n]
// (dt); intermediates virtual fp32; with stats, the row sum is also written (kT0 + 9, fp32).
inline std::vector<uint8_t> softmaxGraph(fbs::DataType dt, std::vector<int64_t> xdims, bool stats)
{
    G g;
    std::vector<int64_t> rdims = xdims;
    rdims.back() = 1;
    const auto F = fbs::DataType::FLOAT;
    g.tensor({kX, "x", dt, xdims}).tensor({kT0 + 2, "max", F, rdims, true}).tensor({kT0 + 3, "d", F, xdims, true});
    g.tensor({kT0 + 4, "e", F, xdims, true}).tensor({kT0 + 9, "sum", F, rdims, !stats}).tensor({kY, "y", dt, xdims});
    g.node(fbs::NodeAttributes::ReductionAttributes,
           fbs::CreateReductionAttributes(g.fbb(), fbs::ReductionMode::MAX_OP, kX, kT0 + 2).Union());
    g.pointwise({fbs::PointwiseMode::SUB, kX, kT0 + 2, -1, kT0 + 3});
    g.pointwise({fbs::PointwiseMode::EXP, kT0 + 3, -1, -1, kT0 + 4});
    g.node(fbs::NodeAttributes::ReductionAttributes,
           fbs::CreateReductionAttributes(g.fbb(), fbs::ReductionMode::ADD, kT0 + 4, kT0 + 9).Union());
    g.pointwise({fbs::PointwiseMode::DIV, kT0 + 4, kT0 + 9, -1, kY});
    return g.finish();
}

// centerGraph: y = x - mean(x) over the last axis (one reduction, then a pointwise node that
// reads x again: a row program, not a reduction epilogue).
inline std::vector<uint8_t> centerGraph(fbs::DataType dt, std::vector<int64_t> xdims)
{
    G g;
    std::vector<int64_t> rdims = xdims;
    rdims.back() = 1;
    g.tensor({kX, "x", dt, xdims}).tensor({kT0 + 2, "mean", fbs::DataType::FLOAT, rdims, true}).tensor({kY, "y", dt, xdims});
    g.node(fbs::NodeAttributes::ReductionAttributes,
           fbs::CreateReductionAttributes(g.fbb(), fbs::ReductionMode::AVG, kX, kT0 + 2).Union());
    g.pointwise({fbs::PointwiseMode::SUB, kX, kT0 + 2, -1, kY});
    return g.finish();
}

// residualNormGraph: s = x + r (virtual, dt), then layernorm (scale, bias [n] of pdt; mean and
// inv_variance [rows, 1] fp32) or RMSNorm (scale [1, n]; inv_rms) of s into y (dt).
inline std::vector<uint8_t> residualNormGraph(fbs::DataType dt, fbs::DataType pdt, std::vector<int64_t> xdims, bool layer)
{
    G g;
    std::vector<int64_t> rdims = xdims;
    rdims.back() = 1;
    std::vector<int64_t> pdims{xdims.back()};
    const auto F = fbs::DataType::FLOAT;
    g.tensor({kX, "x", dt, xdims}).tensor({kT0 + 5, "residual", dt, xdims}).tensor({kT0 + 6, "sum", dt, xdims, true});
    g.tensor({kScale, "scale", pdt, pdims}).tensor({kEps, "eps", fbs::DataType::DOUBLE, {1}, false, 1e-5});
    g.tensor({kY, "y", dt, xdims}).tensor({kInv, "inv", F, rdims});
    g.pointwise({fbs::PointwiseMode::ADD, kX, kT0 + 5, -1, kT0 + 6});
    if(layer)
    {
        g.tensor({kBias, "bias", pdt, pdims}).tensor({kMean, "mean", F, rdims});
        g.layernorm(kT0 + 6, kScale, kBias, kEps, kY, 1, kMean, kInv);
    }
    else
    {
        g.rmsnorm(kT0 + 6, kScale, kEps, kY, -1, kInv);
    }
    return g.finish();
}

} // namespace rtc_test
