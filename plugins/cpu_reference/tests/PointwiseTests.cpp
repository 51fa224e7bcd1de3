// Pointwise tests: all 47 modes, each against a formula written here independently (often an
// algebraically different form: sigmoid via tanh, GELU via erfc, tanh-GELU via sigmoid, …),
// with broadcast inputs, three layouts, four float types, and boolean/int outputs for the
// comparison and logical modes.
#include "TestSupport.hpp"

#include "kernels/Pointwise.hpp"

#include <map>

using namespace cpuref_test;
namespace cr = hipdnngo::cpu_reference;
using Mode = cr::PointwiseMode;

namespace
{

const double kPi = 3.14159265358979323846;

double sig(double x)
{
    return 0.5 * (1.0 + std::tanh(0.5 * x)); // σ(x) written through tanh
}

struct ModeSpec
{
    Mode mode;
    int arity;
    double lo, hi; // input domain for in_0 / in_1 (x)
    bool integerInputs; // comparisons, logic, select: small integers so ties happen
    std::function<double(const cr::PointwiseParams&, double, double, double)> ref;
};

std::vector<ModeSpec> specs()
{
    using P = const cr::PointwiseParams&;
    return {
        {Mode::Abs, 1, -3, 3, false, [](P, double a, double, double) { return a < 0 ? -a : a; }},
        {Mode::Add, 2, -3, 3, false, [](P, double a, double b, double) { return a + b; }},
        {Mode::AddSquare, 2, -3, 3, false, [](P, double a, double b, double) { return a + std::pow(b, 2); }},
        {Mode::BinarySelect, 3, -3, 3, true, [](P, double a, double b, double c) { return c ? a : b; }},
        {Mode::Ceil, 1, -3, 3, false, [](P, double a, double, double) { return -std::floor(-a); }},
        {Mode::CmpEq, 2, -2, 2, true, [](P, double a, double b, double) { return double(a == b); }},
        {Mode::CmpGe, 2, -2, 2, true, [](P, double a, double b, double) { return double(!(a < b)); }},
        {Mode::CmpGt, 2, -2, 2, true, [](P, double a, double b, double) { return double(b < a); }},
        {Mode::CmpLe, 2, -2, 2, true, [](P, double a, double b, double) { return double(!(b < a)); }},
        {Mode::CmpLt, 2, -2, 2, true, [](P, double a, double b, double) { return double(a < b); }},
        {Mode::CmpNeq, 2, -2, 2, true, [](P, double a, double b, double) { return double(!(a == b)); }},
        {Mode::Div, 2, 0.5, 2, false, [](P, double a, double b, double) { return a * (1.0 / b); }},
        {Mode::EluBwd, 2, -3, 3, false,
         [](P p, double dy, double x, double) { return x > 0 ? dy : dy * p.eluAlpha * std::exp(x); }},
        {Mode::EluFwd, 1, -3, 3, false,
         [](P p, double x, double, double) { return x > 0 ? x : p.eluAlpha * (std::exp(x) - 1.0); }},
        {Mode::Erf, 1, -3, 3, false, [](P, double a, double, double) { return 1.0 - std::erfc(a); }},
        {Mode::Exp, 1, -3, 3, false, [](P, double a, double, double) { return std::pow(2.718281828459045, a); }},
        {Mode::Floor, 1, -3, 3, false, [](P, double a, double, double) { return -std::ceil(-a); }},
        {Mode::GeluApproxTanhBwd, 2, -3, 3, false,
         [](P, double dy, double x, double) {
             const double k = std::sqrt(2.0 / kPi);
             const double u = k * (x + 0.044715 * x * x * x), du = k * (1 + 3 * 0.044715 * x * x);
             const double s = sig(2 * u); // ½(1 + tanh u) = σ(2u)
             return dy * (s + x * s * (1 - s) * 2 * du);
         }},
        {Mode::GeluApproxTanhFwd, 1, -3, 3, false,
         [](P, double x, double, double) {
             const double u = std::sqrt(2.0 / kPi) * (x + 0.044715 * x * x * x);
             return x * sig(2 * u);
         }},
        {Mode::GeluBwd, 2, -3, 3, false,
         [](P, double dy, double x, double) {
             return dy * (0.5 * std::erfc(-x / std::sqrt(2.0)) + x * std::exp(-x * x / 2) / std::sqrt(2 * kPi));
         }},
        {Mode::GeluFwd, 1, -3, 3, false, [](P, double x, double, double) { return x * 0.5 * std::erfc(-x / std::sqrt(2.0)); }},
        {Mode::Identity, 1, -3, 3, false, [](P, double a, double, double) { return a; }},
        {Mode::Log, 1, 0.1, 3, false, [](P, double a, double, double) { return std::log2(a) / std::log2(2.718281828459045); }},
        {Mode::LogicalAnd, 2, -1, 1, true, [](P, double a, double b, double) { return (a != 0) * (b != 0) * 1.0; }},
        {Mode::LogicalNot, 1, -1, 1, true, [](P, double a, double, double) { return a != 0 ? 0.0 : 1.0; }},
        {Mode::LogicalOr, 2, -1, 1, true, [](P, double a, double b, double) { return (a == 0 && b == 0) ? 0.0 : 1.0; }},
        {Mode::MaxOp, 2, -3, 3, false, [](P, double a, double b, double) { return std::fmax(a, b); }},
        {Mode::MinOp, 2, -3, 3, false, [](P, double a, double b, double) { return std::fmin(a, b); }},
        {Mode::Mul, 2, -3, 3, false, [](P, double a, double b, double) { return a * b; }},
        {Mode::Neg, 1, -3, 3, false, [](P, double a, double, double) { return 0.0 - a; }},
        {Mode::Reciprocal, 1, 0.25, 2, false, [](P, double a, double, double) { return std::pow(a, -1.0); }},
        {Mode::ReluBwd, 2, -3, 3, false,
         [](P p, double dy, double x, double) {
             if(x <= p.reluLowerClip)
                 return dy * p.reluLowerClipSlope;
             return x > p.reluUpperClip ? 0.0 : dy;
         }},
        {Mode::ReluFwd, 1, -3, 3, false,
         [](P p, double x, double, double) {
             if(x > p.reluLowerClip)
                 return std::min(x, p.reluUpperClip);
             return p.reluLowerClip + (x - p.reluLowerClip) * p.reluLowerClipSlope;
         }},
        {Mode::Rsqrt, 1, 0.1, 3, false, [](P, double a, double, double) { return std::pow(a, -0.5); }},
        {Mode::SigmoidBwd, 2, -3, 3, false, [](P, double dy, double x, double) { return dy * sig(x) * sig(-x); }},
        {Mode::SigmoidFwd, 1, -3, 3, false, [](P, double x, double, double) { return sig(x); }},
        {Mode::Sin, 1, -3, 3, false, [](P, double a, double, double) { return std::cos(a - kPi / 2); }},
        {Mode::SoftplusBwd, 2, -3, 3, false, [](P p, double dy, double x, double) { return dy * sig(p.softplusBeta * x); }},
        {Mode::SoftplusFwd, 1, -3, 3, false,
         [](P p, double x, double, double) { return std::log(1.0 + std::exp(p.softplusBeta * x)) / p.softplusBeta; }},
        {Mode::Sqrt, 1, 0.1, 3, false, [](P, double a, double, double) { return std::pow(a, 0.5); }},
        {Mode::Sub, 2, -3, 3, false, [](P, double a, double b, double) { return a + (-b); }},
        {Mode::SwishBwd, 2, -3, 3, false,
         [](P p, double dy, double x, double) {
             const double s = sig(p.swishBeta * x);
             return dy * (s + p.swishBeta * x * s * sig(-p.swishBeta * x));
         }},
        {Mode::SwishFwd, 1, -3, 3, false, [](P p, double x, double, double) { return x * sig(p.swishBeta * x); }},
        {Mode::Tan, 1, -1.2, 1.2, false, [](P, double a, double, double) { return std::sin(a) / std::cos(a); }},
        {Mode::TanhBwd, 2, -3, 3, false, [](P, double dy, double x, double) { return dy / (std::cosh(x) * std::cosh(x)); }},
        {Mode::TanhFwd, 1, -3, 3, false, [](P, double x, double, double) { return 2 * sig(2 * x) - 1; }},
    };
}

// Pointwise outputs are one rounding of an exactly computed value; formulas here differ from the
// kernel's by a few double ulps, so double gets 1e-12 relative + 1e-13 absolute.
Tolerance pointwiseTolerance(DataType t)
{
    if(t == DataType::Double)
        return {1e-12, 0, 1e-13};
    return toleranceFor(t, 1);
}

cr::PointwiseParams paramsVariant(Mode m, int variant)
{
    cr::PointwiseParams p;
    p.mode = m;
    if(variant == 1)
    {
        // Non-default parameters: clipped leaky ReLU, swish β, ELU α, softplus β.
        p.reluLowerClip = -0.5;
        p.reluUpperClip = 1.5;
        p.reluLowerClipSlope = 0.1;
        p.swishBeta = 1.7;
        p.eluAlpha = 0.6;
        p.softplusBeta = 2.5;
    }
    return p;
}

void fillInts(Tensor& t, std::mt19937& rng, int lo, int hi)
{
    std::uniform_int_distribution<int> dist(lo, hi);
    t.forEachIndex([&](const Dims& i) { t.set(i, dist(rng)); });
}

} // namespace

CPUREF_TEST(pointwise_every_mode_has_a_reference)
{
    // 46 formula-checked modes here + GEN_INDEX (tested separately) = all 47 PointwiseModes.
    std::map<int, int> seen;
    for(const ModeSpec& s : specs())
    {
        seen[static_cast<int>(s.mode)]++;
        CPUREF_CHECK(cr::pointwiseArity(s.mode) == s.arity, cr::pointwiseModeName(s.mode) << " arity");
    }
    for(int m = cr::kFirstPointwiseMode; m <= cr::kLastPointwiseMode; ++m)
    {
        const int want = m == static_cast<int>(Mode::GenIndex) ? 0 : 1;
        CPUREF_CHECK(seen[m] == want, "mode " << m << " covered " << seen[m] << " times");
    }
}

CPUREF_TEST(pointwise_modes_with_broadcast_layouts_and_types)
{
    std::mt19937 rng(42);
    const Dims outDims{2, 3, 4, 5};
    const Dims in1Dims{1, 3, 1, 5}; // broadcast over N and H
    const Dims in2Dims{2, 1, 4, 1};
    const auto layouts = standardLayouts(4);
    int checked = 0;
    for(const ModeSpec& s : specs())
        for(DataType t : floatTypes())
            for(size_t li = 0; li < layouts.size(); ++li)
                for(int variant = 0; variant < 2; ++variant)
                {
                    const cr::PointwiseParams p = paramsVariant(s.mode, variant);
                    Tensor in0(t, outDims, layouts[li]);
                    Tensor in1(t, in1Dims, layouts[(li + 1) % layouts.size()]);
                    Tensor in2(DataType::Boolean, in2Dims, layouts[(li + 2) % layouts.size()]);
                    Tensor out(t, outDims, layouts[(li + 1) % layouts.size()]);
                    if(s.integerInputs)
                    {
                        fillInts(in0, rng, static_cast<int>(s.lo), static_cast<int>(s.hi));
                        fillInts(in1, rng, static_cast<int>(s.lo), static_cast<int>(s.hi));
                    }
                    else
                    {
                        in0.fillUniform(rng, s.lo, s.hi);
                        in1.fillUniform(rng, s.lo, s.hi);
                        if(s.mode == Mode::EluBwd || s.mode == Mode::GeluBwd || s.mode == Mode::ReluBwd
                           || s.mode == Mode::SigmoidBwd || s.mode == Mode::SoftplusBwd || s.mode == Mode::SwishBwd
                           || s.mode == Mode::TanhBwd || s.mode == Mode::GeluApproxTanhBwd)
                            in0.fillUniform(rng, -2, 2); // dy
                    }
                    fillInts(in2, rng, 0, 1);
                    cr::pointwise(in0.view, s.arity >= 2 ? &in1.view : nullptr, s.arity >= 3 ? &in2.view : nullptr, out.view, p);
                    auto expected = [&](const Dims& i) {
                        const double a = in0.at(i);
                        const double b = s.arity >= 2 ? in1.at({0, i[1], 0, i[3]}) : 0.0;
                        const double c = s.arity >= 3 ? in2.at({i[0], 0, i[2], 0}) : 0.0;
                        return s.ref(p, a, b, c);
                    };
                    expectClose(std::string("pointwise ") + cr::pointwiseModeName(s.mode) + "/" + cr::dataTypeName(t) + "/"
                                    + layouts[li].name + "/params" + std::to_string(variant),
                                out, expected, nullptr, pointwiseTolerance(t));
                    ++checked;
                }
    CPUREF_CHECK(checked == 46 * 4 * 3 * 2, "ran " << checked << " combinations");
}

CPUREF_TEST(pointwise_comparisons_and_logic_write_exact_bool_and_int_outputs)
{
    std::mt19937 rng(8);
    for(const ModeSpec& s : specs())
    {
        if(!s.integerInputs || s.mode == Mode::BinarySelect)
            continue;
        for(DataType outType : {DataType::Boolean, DataType::Int8, DataType::Int32, DataType::Uint8})
        {
            cr::PointwiseParams p;
            p.mode = s.mode;
            Tensor a(DataType::Float, {3, 4}), b(DataType::Half, {4}), out(outType, {3, 4}, Layout{"t", {1, 0}, 0});
            fillInts(a, rng, -1, 1);
            fillInts(b, rng, -1, 1);
            cr::pointwise(a.view, s.arity >= 2 ? &b.view : nullptr, nullptr, out.view, p);
            expectClose(std::string("pointwise ") + cr::pointwiseModeName(s.mode) + " -> " + cr::dataTypeName(outType), out,
                        [&](const Dims& i) { return s.ref(p, a.at(i), s.arity >= 2 ? b.at({i[1]}) : 0, 0); }, nullptr, {0, 0, 0});
        }
    }
}

CPUREF_TEST(pointwise_gen_index_along_each_axis)
{
    const Dims dims{2, 3, 4};
    for(DataType t : {DataType::Float, DataType::Half, DataType::Int32, DataType::Int64, DataType::Double})
        for(int64_t axis = 0; axis < 3; ++axis)
        {
            Tensor in(DataType::Float, dims), out(t, dims, Layout{"rev", {2, 1, 0}, 1});
            cr::PointwiseParams p;
            p.mode = Mode::GenIndex;
            p.axis = axis;
            cr::pointwise(in.view, nullptr, nullptr, out.view, p);
            expectClose("gen_index axis " + std::to_string(axis) + "/" + cr::dataTypeName(t), out,
                        [&](const Dims& i) { return static_cast<double>(i[static_cast<size_t>(axis)]); }, nullptr, {0, 0, 0});
        }
    cr::PointwiseParams bad;
    bad.mode = Mode::GenIndex;
    bad.axis = 3;
    Tensor in(DataType::Float, dims);
    CPUREF_CHECK(!cr::checkPointwise(in.view, nullptr, nullptr, in.view, bad).empty(), "axis 3 of rank 3 accepted");
}

CPUREF_TEST(pointwise_special_values)
{
    // NaN propagation through MAX/MIN, division by zero, relu with defaults on ±inf.
    Tensor a(DataType::Float, {4}), b(DataType::Float, {4}), out(DataType::Float, {4});
    const double av[4] = {std::nan(""), 1.0, -1.0, INFINITY};
    const double bv[4] = {1.0, std::nan(""), 0.0, 2.0};
    for(int64_t i = 0; i < 4; ++i)
    {
        a.set({i}, av[i]);
        b.set({i}, bv[i]);
    }
    cr::PointwiseParams p;
    p.mode = Mode::MaxOp;
    cr::pointwise(a.view, &b.view, nullptr, out.view, p);
    CPUREF_CHECK(std::isnan(out.at({0})) && std::isnan(out.at({1})), "max must propagate NaN");
    p.mode = Mode::Div;
    cr::pointwise(a.view, &b.view, nullptr, out.view, p);
    CPUREF_CHECK(out.at({2}) == -INFINITY, "-1/0 must be -inf, got " << out.at({2}));
    p.mode = Mode::ReluFwd;
    cr::pointwise(a.view, nullptr, nullptr, out.view, p);
    CPUREF_CHECK(out.at({3}) == INFINITY && out.at({2}) == 0.0, "relu(inf)=inf, relu(-1)=0");
    CPUREF_CHECK(!cr::checkPointwise(a.view, nullptr, nullptr, out.view,
                                     [] {
                                         cr::PointwiseParams q;
                                         q.mode = Mode::Add;
                                         return q;
                                     }())
                      .empty(),
                 "ADD without in_1 accepted");
}
