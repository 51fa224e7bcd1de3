#include "kernels/Pointwise.hpp"

#include "core/StridedLoop.hpp"

#include <hipdnn_plugin_sdk/helpers/PointwiseModes.hpp>

#include <cmath>

namespace hipdnngo::cpu_reference
{
namespace
{

constexpr double kSqrt2OverPi = 0.79788456080286535588; // √(2/π)
constexpr double kInvSqrt2 = 0.70710678118654752440; // 1/√2
constexpr double kInvSqrt2Pi = 0.39894228040143267794; // 1/√(2π)
constexpr double kGeluTanhCoeff = 0.044715;

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// softplusUnscaled is log(1 + eᵗ) without overflow for large t.
double softplusUnscaled(double t) { return t > 0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t)); }

double nanOr(double a, double b, double v)
{
    return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<double>::quiet_NaN() : v;
}

} // namespace

// The wire numbers these modes; the SDK's table names them and gives their arity.
const char* pointwiseModeName(PointwiseMode mode) { return hipdnn_plugin_sdk::pointwiseModeName(static_cast<int>(mode)); }

int pointwiseArity(PointwiseMode mode) { return hipdnn_plugin_sdk::pointwiseArity(static_cast<int>(mode)); }

double pointwiseScalar(const PointwiseParams& p, double a, double b, double c)
{
    switch(p.mode)
    {
    case PointwiseMode::Abs: return std::fabs(a);
    case PointwiseMode::Add: return a + b;
    case PointwiseMode::AddSquare: return a + b * b;
    case PointwiseMode::BinarySelect: return c != 0.0 ? a : b;
    case PointwiseMode::Ceil: return std::ceil(a);
    case PointwiseMode::CmpEq: return a == b ? 1.0 : 0.0;
    case PointwiseMode::CmpGe: return a >= b ? 1.0 : 0.0;
    case PointwiseMode::CmpGt: return a > b ? 1.0 : 0.0;
    case PointwiseMode::CmpLe: return a <= b ? 1.0 : 0.0;
    case PointwiseMode::CmpLt: return a < b ? 1.0 : 0.0;
    case PointwiseMode::CmpNeq: return a != b ? 1.0 : 0.0;
    case PointwiseMode::Div: return a / b;
    case PointwiseMode::EluBwd: return a * (b > 0.0 ? 1.0 : p.eluAlpha * std::exp(b));
    case PointwiseMode::EluFwd: return a > 0.0 ? a : p.eluAlpha * std::expm1(a);
    case PointwiseMode::Erf: return std::erf(a);
    case PointwiseMode::Exp: return std::exp(a);
    case PointwiseMode::Floor: return std::floor(a);
    case PointwiseMode::GeluApproxTanhBwd:
    {
        const double x = b;
        const double t = std::tanh(kSqrt2OverPi * (x + kGeluTanhCoeff * x * x * x));
        const double du = kSqrt2OverPi * (1.0 + 3.0 * kGeluTanhCoeff * x * x);
        return a * (0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * du);
    }
    case PointwiseMode::GeluApproxTanhFwd: return 0.5 * a * (1.0 + std::tanh(kSqrt2OverPi * (a + kGeluTanhCoeff * a * a * a)));
    case PointwiseMode::GeluBwd:
    {
        const double x = b;
        const double cdf = 0.5 * (1.0 + std::erf(x * kInvSqrt2));
        const double pdf = kInvSqrt2Pi * std::exp(-0.5 * x * x);
        return a * (cdf + x * pdf);
    }
    case PointwiseMode::GeluFwd: return 0.5 * a * (1.0 + std::erf(a * kInvSqrt2));
    case PointwiseMode::GenIndex: return std::numeric_limits<double>::quiet_NaN();
    case PointwiseMode::Identity: return a;
    case PointwiseMode::Log: return std::log(a);
    case PointwiseMode::LogicalAnd: return (a != 0.0 && b != 0.0) ? 1.0 : 0.0;
    case PointwiseMode::LogicalNot: return a == 0.0 ? 1.0 : 0.0;
    case PointwiseMode::LogicalOr: return (a != 0.0 || b != 0.0) ? 1.0 : 0.0;
    case PointwiseMode::MaxOp: return nanOr(a, b, a > b ? a : b);
    case PointwiseMode::MinOp: return nanOr(a, b, a < b ? a : b);
    case PointwiseMode::Mul: return a * b;
    case PointwiseMode::Neg: return -a;
    case PointwiseMode::Reciprocal: return 1.0 / a;
    case PointwiseMode::ReluBwd:
    {
        const double x = b;
        const double slope = x <= p.reluLowerClip ? p.reluLowerClipSlope : (x > p.reluUpperClip ? 0.0 : 1.0);
        return a * slope;
    }
    case PointwiseMode::ReluFwd:
        if(a <= p.reluLowerClip)
            return p.reluLowerClip + p.reluLowerClipSlope * (a - p.reluLowerClip);
        return a >= p.reluUpperClip ? p.reluUpperClip : a;
    case PointwiseMode::Rsqrt: return 1.0 / std::sqrt(a);
    case PointwiseMode::SigmoidBwd:
    {
        const double s = sigmoid(b);
        return a * s * (1.0 - s);
    }
    case PointwiseMode::SigmoidFwd: return sigmoid(a);
    case PointwiseMode::Sin: return std::sin(a);
    case PointwiseMode::SoftplusBwd: return a * sigmoid(p.softplusBeta * b);
    case PointwiseMode::SoftplusFwd: return softplusUnscaled(p.softplusBeta * a) / p.softplusBeta;
    case PointwiseMode::Sqrt: return std::sqrt(a);
    case PointwiseMode::Sub: return a - b;
    case PointwiseMode::SwishBwd:
    {
        const double s = sigmoid(p.swishBeta * b);
        return a * (s + p.swishBeta * b * s * (1.0 - s));
    }
    case PointwiseMode::SwishFwd: return a * sigmoid(p.swishBeta * a);
    case PointwiseMode::Tan: return std::tan(a);
    case PointwiseMode::TanhBwd:
    {
        const double t = std::tanh(b);
        return a * (1.0 - t * t);
    }
    case PointwiseMode::TanhFwd: return std::tanh(a);
    }
    return std::numeric_limits<double>::quiet_NaN();
}

std::string checkPointwise(const TensorView& in0, const TensorView* in1, const TensorView* in2, const TensorView& out,
                           const PointwiseParams& p)
{
    const int mode = static_cast<int>(p.mode);
    if(mode < kFirstPointwiseMode || mode > kLastPointwiseMode)
    {
        return "pointwise: unknown mode " + std::to_string(mode);
    }
    const int arity = pointwiseArity(p.mode);
    const std::string name = pointwiseModeName(p.mode);
    if(arity >= 2 && in1 == nullptr)
    {
        return "pointwise " + name + ": needs in_1";
    }
    if(arity >= 3 && in2 == nullptr)
    {
        return "pointwise " + name + ": needs in_2";
    }
    const TensorView* inputs[3] = {&in0, arity >= 2 ? in1 : nullptr, arity >= 3 ? in2 : nullptr};
    for(int i = 0; i < 3; ++i)
    {
        if(inputs[i] && !isBroadcastableTo(*inputs[i], out.rank, out.dims))
        {
            return "pointwise " + name + ": in_" + std::to_string(i) + " " + inputs[i]->describe() + " does not broadcast to out "
                   + out.describe();
        }
    }
    if(p.mode == PointwiseMode::GenIndex && (p.axis < 0 || p.axis >= out.rank))
    {
        return "pointwise gen_index: axis " + std::to_string(p.axis) + " outside [0, " + std::to_string(out.rank) + ")";
    }
    if((p.mode == PointwiseMode::SoftplusFwd || p.mode == PointwiseMode::SoftplusBwd) && p.softplusBeta == 0.0)
    {
        return "pointwise " + name + ": softplus_beta must not be 0";
    }
    return "";
}

void pointwise(const TensorView& in0, const TensorView* in1, const TensorView* in2, const TensorView& out,
               const PointwiseParams& p)
{
    const std::string err = checkPointwise(in0, in1, in2, out, p);
    if(!err.empty())
    {
        throw KernelError(err);
    }
    if(p.mode == PointwiseMode::GenIndex)
    {
        const TensorView* views[1] = {&out};
        StridedLoop loop(out, views, 1);
        const int64_t axis = p.axis;
        loop.runParallel([&](const int64_t* off, const int64_t* index) { out.store(off[0], static_cast<double>(index[axis])); });
        return;
    }
    const int arity = pointwiseArity(p.mode);
    const TensorView a = broadcastTo(in0, out.rank, out.dims);
    const TensorView b = arity >= 2 ? broadcastTo(*in1, out.rank, out.dims) : a;
    const TensorView c = arity >= 3 ? broadcastTo(*in2, out.rank, out.dims) : a;
    const TensorView* views[4] = {&out, &a, &b, &c};
    StridedLoop loop(out, views, 1 + arity);
    loop.runParallel([&](const int64_t* off, const int64_t*) {
        const double va = a.load<double>(off[1]);
        const double vb = arity >= 2 ? b.load<double>(off[2]) : 0.0;
        const double vc = arity >= 3 ? c.load<double>(off[3]) : 0.0;
        out.store(off[0], pointwiseScalar(p, va, vb, vc));
    });
}

} // namespace hipdnngo::cpu_reference
