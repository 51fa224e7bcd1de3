// Reduction tests: all nine modes over several axis sets, three layouts, four float types,
// reference sums/products in double over logical indices.
#include "TestSupport.hpp"

#include "kernels/Reduction.hpp"

using namespace cpuref_test;
namespace cr = hipdnngo::cpu_reference;
using RMode = cr::ReductionMode;

CPUREF_TEST(reduction_all_modes_axes_layouts_types)
{
    const Dims inDims{3, 4, 5, 2};
    const std::vector<Dims> outs{{3, 1, 5, 2}, {1, 4, 1, 2}, {3, 4, 5, 1}, {1, 1, 1, 1}, {3, 4, 5, 2}};
    const RMode modes[] = {RMode::Add, RMode::Mul,   RMode::Min,   RMode::Max,       RMode::AMax,
                           RMode::Avg, RMode::Norm1, RMode::Norm2, RMode::MulNoZeros};
    const auto layouts = standardLayouts(4);
    std::mt19937 rng(77);
    for(RMode mode : modes)
        for(const Dims& outDims : outs)
            for(DataType t : floatTypes())
                for(size_t li = 0; li < layouts.size(); ++li)
                {
                    Tensor in(t, inDims, layouts[li]), out(t, outDims, layouts[(li + 1) % layouts.size()]);
                    // Products stay O(1) with factors near ±1; MUL_NO_ZEROS gets real zeros.
                    const bool product = mode == RMode::Mul || mode == RMode::MulNoZeros;
                    in.fillUniform(rng, product ? 0.8 : -2.0, product ? 1.25 : 2.0);
                    if(mode == RMode::MulNoZeros || mode == RMode::Mul)
                    {
                        int k = 0;
                        in.forEachIndex([&](const Dims& i) {
                            if(++k % 7 == 0)
                                in.set(i, mode == RMode::MulNoZeros ? 0.0 : -1.0);
                        });
                    }
                    cr::reduce(in.view, out.view, mode);
                    auto compute = [&](const Dims& o, bool wantScale) {
                        double sum = 0, prod = 1, mn = INFINITY, mx = -INFINITY, amax = 0, abssum = 0, sq = 0;
                        int64_t count = 0;
                        in.forEachIndex([&](const Dims& i) {
                            for(size_t d = 0; d < i.size(); ++d)
                                if(outDims[d] != 1 && i[d] != o[d])
                                    return;
                            const double x = in.at(i);
                            ++count;
                            sum += x;
                            if(mode != RMode::MulNoZeros || x != 0)
                                prod *= x;
                            mn = std::min(mn, x);
                            mx = std::max(mx, x);
                            amax = std::max(amax, std::fabs(x));
                            abssum += std::fabs(x);
                            sq += x * x;
                        });
                        if(wantScale) // magnitude against which summation order error is measured
                            return mode == RMode::Avg ? abssum / count : (product ? std::fabs(prod) * count : abssum + sq);
                        switch(mode)
                        {
                        case RMode::Add: return sum;
                        case RMode::Mul:
                        case RMode::MulNoZeros: return prod;
                        case RMode::Min: return mn;
                        case RMode::Max: return mx;
                        case RMode::AMax: return amax;
                        case RMode::Avg: return sum / count;
                        case RMode::Norm1: return abssum;
                        case RMode::Norm2: return std::sqrt(sq);
                        }
                        return 0.0;
                    };
                    // The kernel accumulates in double; only the final store rounds to the output
                    // type, so: the type's one-rounding tolerance + 1e-13 of the magnitude for
                    // summation-order differences.
                    Tolerance tol = toleranceFor(t, 1);
                    tol.accRel = 1e-13;
                    expectClose(
                        "reduction mode " + std::to_string(static_cast<int>(mode)) + " to " + dimsString(outDims) + "/"
                            + cr::dataTypeName(t) + "/" + layouts[li].name,
                        out, [&](const Dims& o) { return compute(o, false); }, [&](const Dims& o) { return compute(o, true); },
                        tol);
                }
}

CPUREF_TEST(reduction_rejects_bad_shapes_and_propagates_nan)
{
    Tensor in(DataType::Float, {2, 3}), bad(DataType::Float, {2, 2}), rank(DataType::Float, {2});
    CPUREF_CHECK(!cr::checkReduction(in.view, bad.view, RMode::Add).empty(), "[2,3]->[2,2] accepted");
    CPUREF_CHECK(!cr::checkReduction(in.view, rank.view, RMode::Add).empty(), "rank change accepted");
    Tensor out(DataType::Float, {2, 1});
    in.forEachIndex([&](const Dims& i) { in.set(i, static_cast<double>(i[1])); });
    in.set({1, 1}, std::nan(""));
    cr::reduce(in.view, out.view, RMode::Max);
    CPUREF_CHECK(out.at({0, 0}) == 2.0 && std::isnan(out.at({1, 0})), "max with NaN row");
}
