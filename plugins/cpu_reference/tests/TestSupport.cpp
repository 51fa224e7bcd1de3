#include "TestSupport.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace cpuref_test
{

std::vector<TestCase>& registry()
{
    static std::vector<TestCase> tests;
    return tests;
}

std::vector<Layout> standardLayouts(int rank)
{
    std::vector<Layout> out;
    out.push_back({"packed", {}, 0});
    if(rank >= 3)
    {
        std::vector<int> nhwc{0};
        for(int d = 2; d < rank; ++d)
            nhwc.push_back(d);
        nhwc.push_back(1);
        out.push_back({"channels-last", nhwc, 0});
    }
    else if(rank == 2)
    {
        out.push_back({"transposed", {1, 0}, 0});
    }
    std::vector<int> reversed(static_cast<size_t>(rank));
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    out.push_back({"reversed+gap", reversed, 3});
    return out;
}

Dims stridesFor(const Dims& dims, const Layout& layout)
{
    const int rank = static_cast<int>(dims.size());
    std::vector<int> order = layout.memOrder;
    if(order.empty())
    {
        order.resize(static_cast<size_t>(rank));
        std::iota(order.begin(), order.end(), 0);
    }
    Dims strides(dims.size(), 0);
    int64_t running = 1;
    for(int p = rank - 1; p >= 0; --p)
    {
        const int d = order[static_cast<size_t>(p)];
        strides[static_cast<size_t>(d)] = running;
        running *= dims[static_cast<size_t>(d)];
        if(p == rank - 1)
            running += layout.gap;
    }
    return strides;
}

static size_t storageElements(const Dims& dims, const Dims& strides)
{
    int64_t maxOff = 0;
    for(size_t d = 0; d < dims.size(); ++d)
        maxOff += (dims[d] - 1) * std::abs(strides[d]);
    return static_cast<size_t>(maxOff + 1);
}

Tensor::Tensor(DataType dtype, const Dims& d, const Layout& layout) : Tensor(dtype, d, stridesFor(d, layout)) {}

Tensor::Tensor(DataType dtype, const Dims& d, const Dims& strides) : dims(d)
{
    storage.assign(storageElements(d, strides) * hipdnngo::cpu_reference::dataTypeSize(dtype), 0);
    view = TensorView::make(storage.data(), dtype, d, strides);
}

int64_t Tensor::count() const
{
    int64_t n = 1;
    for(int64_t x : dims)
        n *= x;
    return n;
}

double Tensor::at(const Dims& index) const { return view.load<double>(view.offsetOf(index.data())); }

void Tensor::set(const Dims& index, double v) { view.store(view.offsetOf(index.data()), v); }

void forEachIndexOf(const Dims& dims, const std::function<void(const Dims&)>& f)
{
    for(int64_t x : dims)
        if(x == 0)
            return;
    Dims idx(dims.size(), 0);
    for(;;)
    {
        f(idx);
        int d = static_cast<int>(dims.size()) - 1;
        for(; d >= 0; --d)
        {
            if(++idx[static_cast<size_t>(d)] < dims[static_cast<size_t>(d)])
                break;
            idx[static_cast<size_t>(d)] = 0;
        }
        if(d < 0)
            return;
    }
}

void Tensor::forEachIndex(const std::function<void(const Dims&)>& f) const { forEachIndexOf(dims, f); }

void Tensor::fillUniform(std::mt19937& rng, double lo, double hi)
{
    std::uniform_real_distribution<double> dist(lo, hi);
    forEachIndex([&](const Dims& i) { set(i, dist(rng)); });
}

// Tolerance justification, per output dtype (inputs are read back from their own storage, so
// input rounding is already in the reference; only the kernel's arithmetic and the final store
// differ):
//  - double:   kernels accumulate in fp64: relative accumulation error ~ terms·2^-53; we allow
//              1e-12 per unit of Σ|terms| and 1e-14 relative for the final value.
//  - float:    fp32 accumulation: random-walk error ~ sqrt(K)·2^-24 ≈ 6e-8·sqrt(K) of Σ|terms|;
//              we allow 1e-5·sqrt(K) (≈ 170× headroom, still catches any real index bug, which
//              errs by O(1)), plus 2^-23 relative for the final store.
//  - half:     fp32 accumulation as above, then one rounding to binary16: 2^-11 ≈ 4.9e-4
//              relative; we allow 1e-3 relative, and 1e-7 absolute for the subnormal range
//              (half subnormal spacing is 6e-8).
//  - bfloat16: fp32 accumulation, then one rounding to 8 significant bits: 2^-8 ≈ 3.9e-3; we
//              allow 8e-3 relative.
Tolerance toleranceFor(DataType dtype, int64_t terms)
{
    const double rootK = std::sqrt(static_cast<double>(std::max<int64_t>(terms, 1)));
    switch(dtype)
    {
    case DataType::Double: return {1e-14, 1e-12 * rootK, 1e-300};
    case DataType::Float: return {2.4e-7, 1e-5 * rootK, 1e-37};
    case DataType::Half: return {1e-3, 1e-5 * rootK, 1e-7};
    case DataType::BFloat16: return {8e-3, 1e-5 * rootK, 1e-37};
    default: return {0.0, 0.0, 0.0}; // integers and booleans must match exactly
    }
}

std::string dimsString(const Dims& d)
{
    std::ostringstream os;
    os << '[';
    for(size_t i = 0; i < d.size(); ++i)
        os << (i ? "," : "") << d[i];
    os << ']';
    return os.str();
}

void expectClose(const std::string& what, const Tensor& got, const std::function<double(const Dims&)>& expected,
                 const std::function<double(const Dims&)>& scale, const Tolerance& tol)
{
    got.forEachIndex([&](const Dims& i) {
        const double g = got.at(i);
        const double e = expected(i);
        if(std::isnan(e) && std::isnan(g))
            return;
        if(std::isinf(e) && g == e)
            return;
        const double s = scale ? scale(i) : 0.0;
        const double allowed = tol.outRel * std::fabs(e) + tol.accRel * s + tol.abs;
        if(!(std::fabs(g - e) <= allowed))
        {
            std::ostringstream os;
            os.precision(10);
            os << what << ": element " << dimsString(i) << " got " << g << " expected " << e << " (|diff| " << std::fabs(g - e)
               << " > allowed " << allowed << ", tensor " << got.view.describe() << ")";
            throw TestFailure(os.str());
        }
    });
}

const std::vector<DataType>& floatTypes()
{
    static const std::vector<DataType> types{DataType::Float, DataType::Half, DataType::BFloat16, DataType::Double};
    return types;
}

} // namespace cpuref_test
