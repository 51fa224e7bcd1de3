// StridedLoop: visit every element of a shape while tracking element offsets into several views
// that share that shape (broadcast them first with broadcastTo). This is the loop every
// elementwise-style kernel (pointwise, gather/scatter to dense buffers, reductions) is built on.
//
// Loop order: the dimensions are visited so that the first view's smallest stride is innermost
// (so an NHWC output is written in memory order), which keeps the loop cache-friendly whatever
// the layout. The callback still receives the logical multi-index.
#pragma once

#include "core/Parallel.hpp"
#include "core/TensorView.hpp"

#include <algorithm>
#include <cstdlib>

namespace hipdnngo::cpu_reference
{

// kMaxLoopViews bounds how many views one StridedLoop tracks.
constexpr int kMaxLoopViews = 4;

class StridedLoop
{
public:
    // StridedLoop prepares a loop over `shape`'s dims for `count` views, each of rank shape.rank
    // (throws KernelError otherwise). The first view decides the loop order.
    StridedLoop(const TensorView& shape, const TensorView* const* views, int count) : rank_(shape.rank), count_(count)
    {
        if(count > kMaxLoopViews)
        {
            throw KernelError("strided loop: too many views");
        }
        for(int v = 0; v < count; ++v)
        {
            if(views[v]->rank != rank_)
            {
                throw KernelError("strided loop: view rank " + std::to_string(views[v]->rank) + " differs from loop rank "
                                  + std::to_string(rank_));
            }
            for(int d = 0; d < rank_; ++d)
            {
                strides_[v][d] = views[v]->strides[d];
            }
        }
        total_ = 1;
        for(int d = 0; d < rank_; ++d)
        {
            dims_[d] = shape.dims[d];
            order_[d] = d;
            total_ *= dims_[d];
        }
        // Outermost first: larger |stride| of view 0 outside; ties keep logical order.
        const TensorView* lead = count > 0 ? views[0] : &shape;
        std::stable_sort(order_, order_ + rank_,
                         [&](int a, int b) { return std::llabs(lead->strides[a]) > std::llabs(lead->strides[b]); });
    }

    int64_t total() const { return total_; }

    // run calls f(offsets, index) for the linear positions [begin, end) of the loop order;
    // offsets[v] is the element offset into view v, index the logical multi-index.
    template <typename F>
    void run(int64_t begin, int64_t end, F&& f) const
    {
        if(begin >= end)
        {
            return;
        }
        int64_t index[kMaxRank] = {};
        int64_t offsets[kMaxLoopViews] = {};
        int64_t rest = begin;
        for(int p = rank_ - 1; p >= 0; --p)
        {
            const int d = order_[p];
            index[d] = rest % dims_[d];
            rest /= dims_[d];
            for(int v = 0; v < count_; ++v)
            {
                offsets[v] += index[d] * strides_[v][d];
            }
        }
        for(int64_t i = begin; i < end; ++i)
        {
            f(static_cast<const int64_t*>(offsets), static_cast<const int64_t*>(index));
            for(int p = rank_ - 1; p >= 0; --p)
            {
                const int d = order_[p];
                if(++index[d] < dims_[d])
                {
                    for(int v = 0; v < count_; ++v)
                    {
                        offsets[v] += strides_[v][d];
                    }
                    break;
                }
                index[d] = 0;
                for(int v = 0; v < count_; ++v)
                {
                    offsets[v] -= (dims_[d] - 1) * strides_[v][d];
                }
            }
        }
    }

    // runParallel splits the whole loop over the thread pool.
    template <typename F>
    void runParallel(F&& f, int64_t minChunk = 4096) const
    {
        parallelFor(total_, minChunk, [&](int64_t b, int64_t e) { run(b, e, f); });
    }

private:
    int rank_;
    int count_;
    int64_t total_ = 0;
    int64_t dims_[kMaxRank] = {};
    int order_[kMaxRank] = {};
    int64_t strides_[kMaxLoopViews][kMaxRank] = {};
};

// DenseBuffer<Acc> holds a tensor's values widened to Acc in packed row-major order of the
// view's logical dims: the form conv/matmul kernels compute on.
// gatherDense copies view -> buffer; scatterDense rounds buffer -> view.
template <typename Acc>
void gatherDense(const TensorView& view, Acc* out)
{
    TensorView packed = view;
    packed.data = nullptr;
    const std::vector<int64_t> strides = TensorView::packedStrides(std::vector<int64_t>(view.dims, view.dims + view.rank));
    for(int d = 0; d < view.rank; ++d)
    {
        packed.strides[d] = strides[d];
    }
    const TensorView* views[2] = {&view, &packed};
    StridedLoop loop(view, views, 2);
    loop.runParallel([&](const int64_t* off, const int64_t*) { out[off[1]] = view.load<Acc>(off[0]); });
}

template <typename Acc>
void scatterDense(const Acc* in, const TensorView& view)
{
    TensorView packed = view;
    packed.data = nullptr;
    const std::vector<int64_t> strides = TensorView::packedStrides(std::vector<int64_t>(view.dims, view.dims + view.rank));
    for(int d = 0; d < view.rank; ++d)
    {
        packed.strides[d] = strides[d];
    }
    const TensorView* views[2] = {&view, &packed};
    StridedLoop loop(view, views, 2);
    loop.runParallel([&](const int64_t* off, const int64_t*) { view.store(off[0], in[off[1]]); });
}

// Accumulator selects a kernel's arithmetic (conv, matmul, norms, SDPA): Auto means double when
// any operand is DOUBLE, float otherwise (half and bfloat16 accumulate in fp32).
enum class Accumulator
{
    Auto,
    Float,
    Double,
};

inline bool useDoubleAccumulator(Accumulator acc, std::initializer_list<DataType> types)
{
    if(acc != Accumulator::Auto)
    {
        return acc == Accumulator::Double;
    }
    for(DataType t : types)
    {
        if(t == DataType::Double)
        {
            return true;
        }
    }
    return false;
}

// The same over tensors, some of them optional (null: absent).
inline bool useDoubleAccumulator(Accumulator acc, std::initializer_list<const TensorView*> views)
{
    if(acc != Accumulator::Auto)
    {
        return acc == Accumulator::Double;
    }
    for(const TensorView* v : views)
    {
        if(v != nullptr && v->dtype == DataType::Double)
        {
            return true;
        }
    }
    return false;
}

} // namespace hipdnngo::cpu_reference
