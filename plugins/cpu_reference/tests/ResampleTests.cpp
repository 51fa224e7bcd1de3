// Resample (pooling) tests: max / average (include and exclude padding), both padding modes,
// 1-D/2-D/3-D windows, index output, backward via index and via recomputed argmax; three
// layouts and four float types. The reference enumerates each window directly.
#include "TestSupport.hpp"

#include "kernels/Resample.hpp"

using namespace cpuref_test;
namespace cr = hipdnngo::cpu_reference;

namespace
{

struct PoolCase
{
    std::string name;
    Dims x;
    Dims pre, post, stride, window;
    cr::ResampleMode mode;
    cr::PaddingMode padding;
    double lo, hi; // input value range
};

Dims poolOut(const PoolCase& c)
{
    Dims y{c.x[0], c.x[1]};
    for(size_t i = 0; i + 2 < c.x.size(); ++i)
        y.push_back((c.x[i + 2] + c.pre[i] + c.post[i] - c.window[i]) / c.stride[i] + 1);
    return y;
}

cr::ResampleParams paramsOf(const PoolCase& c)
{
    cr::ResampleParams p;
    p.spatialDims = static_cast<int>(c.x.size()) - 2;
    for(int i = 0; i < p.spatialDims; ++i)
    {
        p.prePadding[i] = c.pre[i];
        p.postPadding[i] = c.post[i];
        p.stride[i] = c.stride[i];
        p.window[i] = c.window[i];
    }
    p.mode = c.mode;
    p.padding = c.padding;
    return p;
}

const std::vector<PoolCase>& cases()
{
    using M = cr::ResampleMode;
    using P = cr::PaddingMode;
    static const std::vector<PoolCase> all{
        {"2d_max_neginf", {2, 3, 7, 6}, {1, 1}, {1, 1}, {2, 2}, {3, 3}, M::MaxPool, P::NegInfPad, -2, 2},
        {"2d_max_zeropad_negative", {1, 2, 5, 5}, {1, 1}, {1, 1}, {2, 2}, {3, 3}, M::MaxPool, P::ZeroPad, -2, -0.5},
        {"2d_avg_include_asym", {1, 2, 5, 5}, {1, 0}, {0, 1}, {2, 2}, {2, 2}, M::AvgPoolIncludePadding, P::ZeroPad, -2, 2},
        {"2d_avg_exclude_asym", {1, 2, 5, 5}, {1, 0}, {0, 1}, {2, 2}, {2, 2}, M::AvgPoolExcludePadding, P::ZeroPad, -2, 2},
        {"1d_avg_exclude_all_pad_window", {2, 2, 7}, {3}, {0}, {2}, {3}, M::AvgPoolExcludePadding, P::ZeroPad, -2, 2},
        {"1d_max_all_pad_window", {2, 2, 7}, {3}, {0}, {2}, {3}, M::MaxPool, P::NegInfPad, -2, 2},
        {"3d_max", {1, 2, 4, 5, 4}, {0, 1, 0}, {0, 0, 1}, {2, 2, 2}, {2, 2, 2}, M::MaxPool, P::NegInfPad, -2, 2},
        {"3d_avg_include",
         {1, 2, 4, 5, 4},
         {1, 0, 1},
         {1, 1, 0},
         {1, 2, 2},
         {2, 3, 2},
         M::AvgPoolIncludePadding,
         P::ZeroPad,
         -2,
         2},
    };
    return all;
}

// Window is the reference's reduction of one output's window.
struct Window
{
    double value;
    int64_t argmax; // flat in-plane input index, -1 for padding / none
    double divisor;
    std::vector<int64_t> members; // in-range flat input indices
};

Window referenceWindow(const PoolCase& c, const Tensor& x, int64_t n, int64_t ch, const Dims& o)
{
    const size_t s = c.x.size() - 2;
    Dims win(c.window.begin(), c.window.end());
    Window w{0, -1, 0, {}};
    double best = -INFINITY;
    bool have = false;
    double sum = 0;
    forEachIndexOf(win, [&](const Dims& f) {
        Dims xi{n, ch};
        int64_t flat = 0;
        bool inside = true;
        for(size_t d = 0; d < s; ++d)
        {
            const int64_t pos = o[d] * c.stride[d] - c.pre[d] + f[d];
            inside = inside && pos >= 0 && pos < c.x[d + 2];
            xi.push_back(pos);
            flat = flat * c.x[d + 2] + pos;
        }
        double v;
        if(inside)
        {
            v = x.at(xi);
            sum += v;
            w.members.push_back(flat);
        }
        else if(c.padding == cr::PaddingMode::ZeroPad)
            v = 0;
        else
            return;
        if(!have || v > best)
        {
            best = v;
            w.argmax = inside ? flat : -1;
            have = true;
        }
    });
    if(c.mode == cr::ResampleMode::MaxPool)
    {
        w.value = best;
        return w;
    }
    int64_t volume = 1;
    for(int64_t k : c.window)
        volume *= k;
    w.divisor = c.mode == cr::ResampleMode::AvgPoolIncludePadding ? double(volume) : double(w.members.size());
    w.value = w.divisor > 0 ? sum / w.divisor : 0;
    return w;
}

Dims unflat(int64_t flat, const Dims& dims)
{
    Dims i(dims.size());
    for(size_t d = dims.size(); d-- > 0;)
    {
        i[d] = flat % dims[d];
        flat /= dims[d];
    }
    return i;
}

template <typename Body>
void forEachPool(Body body)
{
    std::mt19937 rng(2024);
    for(const PoolCase& c : cases())
    {
        const auto layouts = standardLayouts(static_cast<int>(c.x.size()));
        for(DataType t : floatTypes())
            for(size_t li = 0; li < layouts.size(); ++li)
                body(c, t, layouts[li], layouts[(li + 1) % layouts.size()], rng);
    }
}

} // namespace

CPUREF_TEST(resample_forward_matches_window_loops)
{
    forEachPool([](const PoolCase& c, DataType t, const Layout& lx, const Layout& ly, std::mt19937& rng) {
        const Dims yd = poolOut(c);
        Tensor x(t, c.x, lx), y(t, yd, ly);
        x.fillUniform(rng, c.lo, c.hi);
        const bool withIndex = c.mode == cr::ResampleMode::MaxPool;
        Tensor index(t == DataType::Double ? DataType::Int64 : DataType::Int32, yd, ly);
        cr::resampleForward(x.view, y.view, withIndex ? &index.view : nullptr, paramsOf(c));
        const std::string what = c.name + "/" + cr::dataTypeName(t) + "/" + lx.name;
        auto win = [&](const Dims& o) { return referenceWindow(c, x, o[0], o[1], Dims(o.begin() + 2, o.end())); };
        int64_t volume = 1;
        for(int64_t k : c.window)
            volume *= k;
        Tolerance tol = toleranceFor(t, 1); // double accumulation, one final rounding
        tol.accRel = 1e-14;
        expectClose(
            "resample fwd " + what, y, [&](const Dims& o) { return win(o).value; }, [&](const Dims&) { return 2.0 * volume; },
            tol);
        if(withIndex)
            expectClose("resample fwd index " + what, index, [&](const Dims& o) { return double(win(o).argmax); }, nullptr,
                        {0, 0, 0});
    });
}

CPUREF_TEST(resample_backward_matches_window_scatter)
{
    forEachPool([](const PoolCase& c, DataType t, const Layout& lx, const Layout& ly, std::mt19937& rng) {
        const Dims yd = poolOut(c);
        const Dims plane(c.x.begin() + 2, c.x.end());
        Tensor x(t, c.x, lx), dy(t, yd, ly), dx(t, c.x, ly);
        x.fillUniform(rng, c.lo, c.hi);
        dy.fillUniform(rng, -1, 1);
        // Reference: scatter every output gradient into a double copy of dx.
        std::vector<double> ref(static_cast<size_t>(x.count()), 0.0);
        int64_t planeSize = 1;
        for(int64_t p : plane)
            planeSize *= p;
        Tensor index(DataType::Int64, yd, lx);
        dy.forEachIndex([&](const Dims& o) {
            const Window w = referenceWindow(c, x, o[0], o[1], Dims(o.begin() + 2, o.end()));
            const size_t base = static_cast<size_t>((o[0] * c.x[1] + o[1]) * planeSize);
            const double g = dy.at(o);
            if(c.mode == cr::ResampleMode::MaxPool)
            {
                index.set(o, double(w.argmax));
                if(w.argmax >= 0)
                    ref[base + static_cast<size_t>(w.argmax)] += g;
            }
            else if(w.divisor > 0)
                for(int64_t m : w.members)
                    ref[base + static_cast<size_t>(m)] += g / w.divisor;
        });
        auto expected = [&](const Dims& i) {
            int64_t flat = 0;
            for(size_t d = 0; d < i.size(); ++d)
                flat = flat * c.x[d] + i[d];
            return ref[static_cast<size_t>(flat)];
        };
        Tolerance tol = toleranceFor(t, 1);
        tol.accRel = 1e-14;
        const std::string what = c.name + "/" + cr::dataTypeName(t) + "/" + lx.name;
        const bool isMax = c.mode == cr::ResampleMode::MaxPool;
        dx.fillUniform(rng, 5, 6);
        cr::resampleBackward(dy.view, dx.view, isMax ? &index.view : nullptr, nullptr, paramsOf(c));
        expectClose(
            "resample bwd " + what, dx, expected, [](const Dims&) { return 16.0; }, tol);
        if(isMax)
        {
            dx.fillUniform(rng, 5, 6);
            cr::resampleBackward(dy.view, dx.view, nullptr, &x.view, paramsOf(c));
            expectClose(
                "resample bwd recomputed argmax " + what, dx, expected, [](const Dims&) { return 16.0; }, tol);
        }
        (void)unflat;
    });
}

CPUREF_TEST(resample_rejects_bad_shapes_and_indices)
{
    cr::ResampleParams p;
    p.spatialDims = 2;
    p.window[0] = p.window[1] = 2;
    p.stride[0] = p.stride[1] = 2;
    Tensor x(DataType::Float, {1, 1, 4, 4}), y(DataType::Float, {1, 1, 2, 2}), ybad(DataType::Float, {1, 1, 3, 2});
    CPUREF_CHECK(cr::checkResample(x.view, y.view, nullptr, p).empty(), "valid pooling rejected");
    CPUREF_CHECK(!cr::checkResample(x.view, ybad.view, nullptr, p).empty(), "bad output size accepted");
    Tensor idx(DataType::Int32, {1, 1, 2, 2});
    idx.forEachIndex([&](const Dims& i) { idx.set(i, 99); });
    bool threw = false;
    try
    {
        cr::resampleBackward(y.view, x.view, &idx.view, nullptr, p);
    }
    catch(const cr::KernelError&)
    {
        threw = true;
    }
    CPUREF_CHECK(threw, "index 99 in a 16-element plane must be rejected");
    Tensor fidx(DataType::Float, {1, 1, 2, 2});
    CPUREF_CHECK(!cr::checkResample(x.view, y.view, &fidx.view, p).empty(), "float index accepted");
}
