#include "kernels/Matmul.hpp"

#include "core/Parallel.hpp"

#include <algorithm>
#include <vector>

namespace hipdnngo::cpu_reference
{
namespace
{

// batchView returns v's batch dimensions (all but the last two) as a shape-only view.
TensorView batchView(const TensorView& v)
{
    TensorView out = v;
    out.rank = v.rank - 2;
    return out;
}

} // namespace

std::string checkMatmul(const TensorView& a, const TensorView& b, const TensorView& c)
{
    if(a.rank < 2 || b.rank < 2 || c.rank < 2)
    {
        return "matmul: operands need rank >= 2 (a " + a.describe() + ", b " + b.describe() + ", c " + c.describe() + ")";
    }
    const int64_t m = a.dims[a.rank - 2], k = a.dims[a.rank - 1];
    const int64_t n = b.dims[b.rank - 1];
    if(b.dims[b.rank - 2] != k)
    {
        return "matmul: a " + a.describe() + " and b " + b.describe() + " disagree on K";
    }
    if(c.dims[c.rank - 2] != m || c.dims[c.rank - 1] != n)
    {
        return "matmul: c " + c.describe() + " must end in [" + std::to_string(m) + "," + std::to_string(n) + "]";
    }
    const TensorView cb = batchView(c);
    if(!isBroadcastableTo(batchView(a), cb.rank, cb.dims) || !isBroadcastableTo(batchView(b), cb.rank, cb.dims))
    {
        return "matmul: batch dimensions of a " + a.describe() + " and b " + b.describe() + " do not broadcast to those of c "
               + c.describe();
    }
    return "";
}

namespace
{

template <typename Acc>
void run(const TensorView& a, const TensorView& b, const TensorView& c)
{
    const int64_t m = a.dims[a.rank - 2], k = a.dims[a.rank - 1], n = b.dims[b.rank - 1];
    // Widen A and B into dense row-major buffers of their own shape; index their batches through
    // broadcast views of those buffers.
    std::vector<Acc> as(static_cast<size_t>(a.elementCount()));
    std::vector<Acc> bs(static_cast<size_t>(b.elementCount()));
    gatherDense(a, as.data());
    gatherDense(b, bs.data());
    auto denseBatch = [](const TensorView& v) {
        TensorView d = v;
        const std::vector<int64_t> s = TensorView::packedStrides(std::vector<int64_t>(v.dims, v.dims + v.rank));
        for(int i = 0; i < v.rank; ++i)
            d.strides[i] = s[i];
        d.rank = v.rank - 2;
        return d;
    };
    const TensorView cb = batchView(c);
    const TensorView ab = broadcastTo(denseBatch(a), cb.rank, cb.dims);
    const TensorView bb = broadcastTo(denseBatch(b), cb.rank, cb.dims);
    const int64_t batches = cb.elementCount();
    const int64_t cRowStride = c.strides[c.rank - 2], cColStride = c.strides[c.rank - 1];

    parallelFor(batches * m, 1, [&](int64_t begin, int64_t end) {
        std::vector<Acc> row(static_cast<size_t>(n));
        for(int64_t bm = begin; bm < end; ++bm)
        {
            const int64_t batch = bm / m, i = bm % m;
            int64_t rest = batch, aOff = 0, bOff = 0, cOff = 0;
            for(int d = cb.rank - 1; d >= 0; --d)
            {
                const int64_t idx = rest % cb.dims[d];
                rest /= cb.dims[d];
                aOff += idx * ab.strides[d];
                bOff += idx * bb.strides[d];
                cOff += idx * cb.strides[d];
            }
            std::fill(row.begin(), row.end(), Acc(0));
            const Acc* arow = as.data() + aOff + i * k;
            const Acc* bmat = bs.data() + bOff;
            for(int64_t kk = 0; kk < k; ++kk)
            {
                const Acc av = arow[kk];
                const Acc* brow = bmat + kk * n;
                for(int64_t j = 0; j < n; ++j)
                {
                    row[j] += av * brow[j];
                }
            }
            for(int64_t j = 0; j < n; ++j)
            {
                c.store(cOff + i * cRowStride + j * cColStride, row[j]);
            }
        }
    });
}

} // namespace

void matmul(const TensorView& a, const TensorView& b, const TensorView& c, const MatmulParams& p)
{
    const std::string err = checkMatmul(a, b, c);
    if(!err.empty())
    {
        throw KernelError(err);
    }
    if(useDoubleAccumulator(p.accumulator, {a.dtype, b.dtype, c.dtype}))
        run<double>(a, b, c);
    else
        run<float>(a, b, c);
}

} // namespace hipdnngo::cpu_reference
