// Matmul tests: plain, batched, broadcast batches (size-1 and missing dims), transposed and
// permuted operand views, four floating-point types; reference is a triple loop in double.
#include "TestSupport.hpp"

#include "kernels/Matmul.hpp"

using namespace cpuref_test;
namespace cr = hipdnngo::cpu_reference;

namespace
{

struct MatmulCase
{
    std::string name;
    Dims a, b, c;
};

// refIndex maps c's batch index onto an operand of rank r with NumPy broadcasting.
Dims operandIndex(const Dims& cIndex, const Dims& operandDims, int64_t row, int64_t col)
{
    const size_t r = operandDims.size(), cr_ = cIndex.size();
    Dims idx(r, 0);
    for(size_t i = 0; i + 2 < r; ++i)
    {
        const size_t ci = cr_ - r + i; // right-aligned batch dims
        idx[i] = operandDims[i] == 1 ? 0 : cIndex[ci];
    }
    idx[r - 2] = row;
    idx[r - 1] = col;
    return idx;
}

} // namespace

CPUREF_TEST(matmul_matches_triple_loop)
{
    const std::vector<MatmulCase> cases{
        {"2d", {5, 7}, {7, 3}, {5, 3}},
        {"batched", {2, 4, 6}, {2, 6, 5}, {2, 4, 5}},
        {"broadcast_a_batch1", {1, 3, 4}, {3, 4, 2}, {3, 3, 2}},
        {"broadcast_rank_mismatch", {4, 5}, {2, 3, 5, 3}, {2, 3, 4, 3}},
        {"broadcast_both", {2, 1, 3, 4}, {1, 3, 4, 2}, {2, 3, 3, 2}},
        {"long_k", {3, 129}, {129, 2}, {3, 2}},
    };
    std::mt19937 rng(99);
    for(const MatmulCase& mc : cases)
        for(DataType t : floatTypes())
        {
            const auto la = standardLayouts(static_cast<int>(mc.a.size()));
            const auto lb = standardLayouts(static_cast<int>(mc.b.size()));
            const auto lc = standardLayouts(static_cast<int>(mc.c.size()));
            for(size_t li = 0; li < 3; ++li)
            {
                // Rotate layouts across operands so transposed A meets packed B and so on.
                Tensor a(t, mc.a, la[li % la.size()]), b(t, mc.b, lb[(li + 1) % lb.size()]), c(t, mc.c, lc[(li + 2) % lc.size()]);
                a.fillUniform(rng, -1, 1);
                b.fillUniform(rng, -1, 1);
                c.fillUniform(rng, 50, 60);
                cr::matmul(a.view, b.view, c.view);
                const int64_t k = mc.a.back();
                auto compute = [&](const Dims& i, bool wantScale) {
                    double sum = 0, mag = 0;
                    const int64_t row = i[i.size() - 2], col = i[i.size() - 1];
                    for(int64_t kk = 0; kk < k; ++kk)
                    {
                        const double term = a.at(operandIndex(i, mc.a, row, kk)) * b.at(operandIndex(i, mc.b, kk, col));
                        sum += term;
                        mag += std::fabs(term);
                    }
                    return wantScale ? mag : sum;
                };
                expectClose(
                    "matmul " + mc.name + "/" + cr::dataTypeName(t) + "/layout" + std::to_string(li), c,
                    [&](const Dims& i) { return compute(i, false); }, [&](const Dims& i) { return compute(i, true); },
                    toleranceFor(t, k));
            }
        }
}

CPUREF_TEST(matmul_mixed_types_and_explicit_transpose_view)
{
    // A stored as [K, M] row-major but viewed as [M, K] via swapped strides; half in, float out.
    std::mt19937 rng(3);
    Tensor aStore(DataType::Half, {6, 4});
    aStore.fillUniform(rng, -2, 2);
    TensorView aT = aStore.view;
    std::swap(aT.dims[0], aT.dims[1]);
    std::swap(aT.strides[0], aT.strides[1]);
    Tensor b(DataType::BFloat16, {6, 3}), c(DataType::Float, {4, 3});
    b.fillUniform(rng, -2, 2);
    cr::matmul(aT, b.view, c.view);
    expectClose(
        "matmul transposed view", c,
        [&](const Dims& i) {
            double s = 0;
            for(int64_t k = 0; k < 6; ++k)
                s += aStore.at({k, i[0]}) * b.at({k, i[1]});
            return s;
        },
        [](const Dims&) { return 24.0; }, toleranceFor(DataType::Float, 6));
}

CPUREF_TEST(matmul_rejects_bad_shapes)
{
    Tensor a(DataType::Float, {2, 3}), b(DataType::Float, {4, 5}), c(DataType::Float, {2, 5});
    CPUREF_CHECK(!cr::checkMatmul(a.view, b.view, c.view).empty(), "K mismatch accepted");
    Tensor a2(DataType::Float, {2, 2, 3}), b2(DataType::Float, {3, 3, 5}), c2(DataType::Float, {2, 2, 5});
    CPUREF_CHECK(!cr::checkMatmul(a2.view, b2.view, c2.view).empty(), "batch 3 vs 2 accepted");
}
