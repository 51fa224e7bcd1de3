// Convolution tests: forward, backward data and backward filter against direct double loops
// written from the definition, for 1-D/2-D/3-D, groups, asymmetric padding, stride, dilation,
// both conv modes, three layouts and four floating-point types.
#include "TestSupport.hpp"

#include "kernels/Convolution.hpp"

using namespace cpuref_test;
namespace cr = hipdnngo::cpu_reference;

namespace
{

struct ConvCase
{
    std::string name;
    Dims x, w; // [N,C,spatial...], [K,C/G,filter...]
    Dims pre, post, stride, dilation;
    bool convolutionMode; // flipped filter
};

Dims outputDims(const ConvCase& c)
{
    Dims y{c.x[0], c.w[0]};
    for(size_t i = 0; i + 2 < c.x.size(); ++i)
        y.push_back((c.x[i + 2] + c.pre[i] + c.post[i] - (c.dilation[i] * (c.w[i + 2] - 1) + 1)) / c.stride[i] + 1);
    return y;
}

cr::ConvParams paramsOf(const ConvCase& c)
{
    cr::ConvParams p;
    p.spatialDims = static_cast<int>(c.x.size()) - 2;
    for(int i = 0; i < p.spatialDims; ++i)
    {
        p.prePadding[i] = c.pre[i];
        p.postPadding[i] = c.post[i];
        p.stride[i] = c.stride[i];
        p.dilation[i] = c.dilation[i];
    }
    p.mode = c.convolutionMode ? cr::ConvMode::Convolution : cr::ConvMode::CrossCorrelation;
    return p;
}

// filterTap maps a stored filter index to the tap it multiplies (flipped in CONVOLUTION mode).
int64_t filterTap(const ConvCase& c, size_t i, int64_t stored) { return c.convolutionMode ? c.w[i + 2] - 1 - stored : stored; }

const std::vector<ConvCase>& cases()
{
    static const std::vector<ConvCase> all{
        {"2d_groups2_asym_pad_stride_dilation", {2, 4, 7, 6}, {6, 2, 3, 3}, {1, 0}, {1, 2}, {2, 1}, {1, 2}, false},
        {"2d_conv_mode_pad1", {1, 3, 5, 5}, {2, 3, 2, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, true},
        {"2d_depthwise", {2, 4, 5, 4}, {4, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, false},
        {"1d_stride2_dilation2", {2, 3, 9}, {4, 3, 3}, {2}, {0}, {2}, {2}, false},
        {"3d_conv_mode", {1, 2, 4, 4, 5}, {3, 2, 2, 2, 3}, {1, 1, 1}, {1, 0, 1}, {1, 2, 1}, {1, 1, 2}, true},
    };
    return all;
}

// forEachConv runs body over every case × dtype × layout combination with fresh random data.
template <typename Body>
void forEachConv(Body body)
{
    std::mt19937 rng(1234);
    for(const ConvCase& c : cases())
    {
        const Dims y = outputDims(c);
        const auto layouts = standardLayouts(static_cast<int>(c.x.size()));
        for(DataType t : floatTypes())
            for(size_t li = 0; li < layouts.size(); ++li)
            {
                const Layout& act = layouts[li];
                const Layout& wl = layouts[(li + 1) % layouts.size()];
                body(c, y, t, act, wl, rng);
            }
    }
}

std::string label(const ConvCase& c, DataType t, const Layout& l) { return c.name + "/" + cr::dataTypeName(t) + "/" + l.name; }

} // namespace

CPUREF_TEST(convolution_forward_matches_direct_loops)
{
    forEachConv([](const ConvCase& c, const Dims& yd, DataType t, const Layout& act, const Layout& wl, std::mt19937& rng) {
        Tensor x(t, c.x, act), w(t, c.w, wl), y(t, yd, act);
        x.fillUniform(rng, -1, 1);
        w.fillUniform(rng, -1, 1);
        cr::convolutionForward(x.view, w.view, y.view, paramsOf(c));
        const size_t s = c.x.size() - 2;
        const int64_t cg = c.w[1], groups = c.x[1] / cg, kg = c.w[0] / groups;
        Dims filter(c.w.begin() + 2, c.w.end());
        int64_t terms = cg;
        for(int64_t f : filter)
            terms *= f;
        std::vector<double> ref(static_cast<size_t>(y.count())), scale(ref.size());
        size_t flat = 0;
        y.forEachIndex([&](const Dims& o) {
            const int64_t n = o[0], k = o[1], g = k / kg;
            double sum = 0, mag = 0;
            for(int64_t ci = 0; ci < cg; ++ci)
                forEachIndexOf(filter, [&](const Dims& f) {
                    Dims xi{n, g * cg + ci}, wi{k, ci};
                    for(size_t i = 0; i < s; ++i)
                    {
                        const int64_t tap = filterTap(c, i, f[i]);
                        const int64_t pos = o[i + 2] * c.stride[i] - c.pre[i] + tap * c.dilation[i];
                        if(pos < 0 || pos >= c.x[i + 2])
                            return;
                        xi.push_back(pos);
                        wi.push_back(f[i]);
                    }
                    const double term = x.at(xi) * w.at(wi);
                    sum += term;
                    mag += std::fabs(term);
                });
            ref[flat] = sum;
            scale[flat++] = mag;
        });
        auto lin = [&](const Dims& i) {
            int64_t l = 0;
            for(size_t d = 0; d < i.size(); ++d)
                l = l * yd[d] + i[d];
            return static_cast<size_t>(l);
        };
        expectClose(
            "conv fwd " + label(c, t, act), y, [&](const Dims& i) { return ref[lin(i)]; },
            [&](const Dims& i) { return scale[lin(i)]; }, toleranceFor(t, terms));
    });
}

CPUREF_TEST(convolution_backward_data_matches_direct_loops)
{
    forEachConv([](const ConvCase& c, const Dims& yd, DataType t, const Layout& act, const Layout& wl, std::mt19937& rng) {
        Tensor dx(t, c.x, act), w(t, c.w, wl), dy(t, yd, act);
        dy.fillUniform(rng, -1, 1);
        w.fillUniform(rng, -1, 1);
        dx.fillUniform(rng, 100, 200); // must be overwritten
        cr::convolutionBackwardData(dy.view, w.view, dx.view, paramsOf(c));
        const size_t s = c.x.size() - 2;
        const int64_t cg = c.w[1], groups = c.x[1] / cg, kg = c.w[0] / groups;
        Dims filter(c.w.begin() + 2, c.w.end());
        int64_t terms = kg;
        for(int64_t f : filter)
            terms *= f;
        auto compute = [&](const Dims& i, bool wantScale) {
            const int64_t n = i[0], cf = i[1], g = cf / cg, ci = cf % cg;
            double sum = 0, mag = 0;
            for(int64_t kk = 0; kk < kg; ++kk)
                forEachIndexOf(filter, [&](const Dims& f) {
                    const int64_t k = g * kg + kk;
                    Dims dyi{n, k}, wi{k, ci};
                    for(size_t d = 0; d < s; ++d)
                    {
                        const int64_t tap = filterTap(c, d, f[d]);
                        const int64_t num = i[d + 2] + c.pre[d] - tap * c.dilation[d];
                        if(num < 0 || num % c.stride[d] != 0 || num / c.stride[d] >= yd[d + 2])
                            return;
                        dyi.push_back(num / c.stride[d]);
                        wi.push_back(f[d]);
                    }
                    const double term = dy.at(dyi) * w.at(wi);
                    sum += term;
                    mag += std::fabs(term);
                });
            return wantScale ? mag : sum;
        };
        expectClose(
            "conv bwd data " + label(c, t, act), dx, [&](const Dims& i) { return compute(i, false); },
            [&](const Dims& i) { return compute(i, true); }, toleranceFor(t, terms));
    });
}

CPUREF_TEST(convolution_backward_filter_matches_direct_loops)
{
    forEachConv([](const ConvCase& c, const Dims& yd, DataType t, const Layout& act, const Layout& wl, std::mt19937& rng) {
        Tensor x(t, c.x, act), dw(t, c.w, wl), dy(t, yd, act);
        x.fillUniform(rng, -1, 1);
        dy.fillUniform(rng, -1, 1);
        cr::convolutionBackwardFilter(x.view, dy.view, dw.view, paramsOf(c));
        const size_t s = c.x.size() - 2;
        const int64_t cg = c.w[1], groups = c.x[1] / cg, kg = c.w[0] / groups;
        Dims outSpatial(yd.begin() + 2, yd.end());
        int64_t terms = c.x[0];
        for(int64_t o : outSpatial)
            terms *= o;
        auto compute = [&](const Dims& j, bool wantScale) {
            const int64_t k = j[0], ci = j[1], g = k / kg;
            double sum = 0, mag = 0;
            for(int64_t n = 0; n < c.x[0]; ++n)
                forEachIndexOf(outSpatial, [&](const Dims& o) {
                    Dims xi{n, g * cg + ci}, dyi{n, k};
                    for(size_t d = 0; d < s; ++d)
                    {
                        const int64_t tap = filterTap(c, d, j[d + 2]);
                        const int64_t pos = o[d] * c.stride[d] - c.pre[d] + tap * c.dilation[d];
                        if(pos < 0 || pos >= c.x[d + 2])
                            return;
                        xi.push_back(pos);
                        dyi.push_back(o[d]);
                    }
                    const double term = x.at(xi) * dy.at(dyi);
                    sum += term;
                    mag += std::fabs(term);
                });
            return wantScale ? mag : sum;
        };
        expectClose(
            "conv bwd filter " + label(c, t, act), dw, [&](const Dims& j) { return compute(j, false); },
            [&](const Dims& j) { return compute(j, true); }, toleranceFor(t, terms));
    });
}

CPUREF_TEST(convolution_rejects_inconsistent_shapes)
{
    cr::ConvParams p;
    p.spatialDims = 2;
    Tensor x(DataType::Float, {1, 4, 5, 5}), w(DataType::Float, {2, 3, 3, 3}), y(DataType::Float, {1, 2, 3, 3});
    CPUREF_CHECK(!cr::checkConvolution(x.view, w.view, y.view, p).empty(), "4 channels vs filter channels 3");
    Tensor w2(DataType::Float, {2, 4, 3, 3}), ybad(DataType::Float, {1, 2, 4, 3});
    CPUREF_CHECK(cr::checkConvolution(x.view, w2.view, y.view, p).empty(), "valid problem rejected");
    const std::string err = cr::checkConvolution(x.view, w2.view, ybad.view, p);
    CPUREF_CHECK(err.find("output spatial dimension 0") != std::string::npos, "wrong message: " << err);
    bool threw = false;
    try
    {
        cr::convolutionForward(x.view, w2.view, ybad.view, p);
    }
    catch(const cr::KernelError&)
    {
        threw = true;
    }
    CPUREF_CHECK(threw, "kernel must throw on a bad output size");
}

CPUREF_TEST(convolution_size_one_dims_with_odd_strides)
{
    // N = 1 and H = 1 with arbitrary strides on the size-1 dims must not matter.
    std::mt19937 rng(5);
    Tensor x(DataType::Float, {1, 3, 1, 6}, Dims{9999, 1, 12345, 3});
    Tensor w(DataType::Float, {2, 3, 1, 2});
    Tensor y(DataType::Float, {1, 2, 1, 5}, Dims{777, 5, 4242, 1});
    x.fillUniform(rng, -1, 1);
    w.fillUniform(rng, -1, 1);
    cr::ConvParams p;
    p.spatialDims = 2;
    cr::convolutionForward(x.view, w.view, y.view, p);
    expectClose(
        "conv fwd odd strides", y,
        [&](const Dims& o) {
            double s = 0;
            for(int64_t c = 0; c < 3; ++c)
                for(int64_t f = 0; f < 2; ++f)
                    s += x.at({0, c, 0, o[3] + f}) * w.at({o[1], c, 0, f});
            return s;
        },
        [](const Dims&) { return 6.0; }, toleranceFor(DataType::Float, 6));
}
