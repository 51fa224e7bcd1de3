#include "kernels/Reduction.hpp"

#include "core/Parallel.hpp"
#include "core/StridedLoop.hpp"

#include <cmath>
#include <limits>

namespace hipdnngo::cpu_reference
{

std::string checkReduction(const TensorView& in, const TensorView& out, ReductionMode mode)
{
    const int m = static_cast<int>(mode);
    if(m < 1 || m > 9)
    {
        return "reduction: unknown mode " + std::to_string(m);
    }
    if(in.rank != out.rank)
    {
        return "reduction: in " + in.describe() + " and out " + out.describe() + " differ in rank";
    }
    for(int d = 0; d < in.rank; ++d)
    {
        if(in.dims[d] < 1 || (out.dims[d] != in.dims[d] && out.dims[d] != 1))
        {
            return "reduction: out " + out.describe() + " is not in " + in.describe() + " with some dimensions reduced to 1";
        }
    }
    return "";
}

void reduce(const TensorView& in, const TensorView& out, ReductionMode mode)
{
    const std::string err = checkReduction(in, out, mode);
    if(!err.empty())
    {
        throw KernelError(err);
    }
    // Split the input's axes: kept ones (walked by the outer, parallel loop over out) and
    // reduced ones (walked by an inner loop per output element).
    TensorView reduced = in; // shape of the reduced sub-space, strides of in
    TensorView kept = in;
    int64_t count = 1;
    for(int d = 0; d < in.rank; ++d)
    {
        const bool isReduced = out.dims[d] == 1 && in.dims[d] != 1;
        reduced.dims[d] = isReduced ? in.dims[d] : 1;
        kept.dims[d] = isReduced ? 1 : in.dims[d];
        count *= reduced.dims[d];
    }
    const TensorView* innerViews[1] = {&reduced};
    const StridedLoop inner(reduced, innerViews, 1);
    const TensorView* outerViews[2] = {&out, &kept};
    const StridedLoop outer(out, outerViews, 2);

    outer.runParallel(
        [&](const int64_t* off, const int64_t*) {
            const int64_t base = off[1];
            double acc = 0.0;
            bool sawNaN = false;
            switch(mode)
            {
            case ReductionMode::Mul:
            case ReductionMode::MulNoZeros: acc = 1.0; break;
            case ReductionMode::Min: acc = std::numeric_limits<double>::infinity(); break;
            case ReductionMode::Max: acc = -std::numeric_limits<double>::infinity(); break;
            default: acc = 0.0; break;
            }
            inner.run(0, inner.total(), [&](const int64_t* o, const int64_t*) {
                const double x = in.load<double>(base + o[0]);
                switch(mode)
                {
                case ReductionMode::Add:
                case ReductionMode::Avg: acc += x; break;
                case ReductionMode::Mul: acc *= x; break;
                case ReductionMode::MulNoZeros:
                    if(x != 0.0)
                        acc *= x;
                    break;
                case ReductionMode::Min:
                    sawNaN |= std::isnan(x);
                    acc = x < acc ? x : acc;
                    break;
                case ReductionMode::Max:
                    sawNaN |= std::isnan(x);
                    acc = x > acc ? x : acc;
                    break;
                case ReductionMode::AMax:
                    sawNaN |= std::isnan(x);
                    acc = std::fabs(x) > acc ? std::fabs(x) : acc;
                    break;
                case ReductionMode::Norm1: acc += std::fabs(x); break;
                case ReductionMode::Norm2: acc += x * x; break;
                }
            });
            if(sawNaN)
                acc = std::numeric_limits<double>::quiet_NaN();
            else if(mode == ReductionMode::Avg)
                acc /= static_cast<double>(count);
            else if(mode == ReductionMode::Norm2)
                acc = std::sqrt(acc);
            out.store(off[0], acc);
        },
        count >= 4096 ? 1 : 4096 / count);
}

} // namespace hipdnngo::cpu_reference
