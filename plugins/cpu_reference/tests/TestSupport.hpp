// Test support for the CPU reference kernel tests: a tiny test registry, owned tensors with
// chosen layouts and random contents, and tolerant comparison.
//
// Independence rule: the expected values in these tests come from straightforward double loops
// written here, over logical indices. The only kernel-library code the tests use is the
// TensorView struct (to lay out, fill and read tensors) — never a kernel helper.
#pragma once

#include "core/TensorView.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace cpuref_test
{

using hipdnngo::cpu_reference::DataType;
using hipdnngo::cpu_reference::TensorView;
using Dims = std::vector<int64_t>;

// ---- registry -------------------------------------------------------------------------------

struct TestCase
{
    const char* name;
    void (*fn)();
};
std::vector<TestCase>& registry();
struct Registrar
{
    Registrar(const char* name, void (*fn)()) { registry().push_back({name, fn}); }
};
#define CPUREF_TEST(name)                                           \
    static void name();                                             \
    static ::cpuref_test::Registrar name##_registrar(#name, &name); \
    static void name()

// TestFailure carries an assertion message out of a test.
struct TestFailure : std::exception
{
    explicit TestFailure(std::string m) : msg(std::move(m)) {}
    const char* what() const noexcept override { return msg.c_str(); }
    std::string msg;
};

#define CPUREF_CHECK(cond, message)                                                         \
    do                                                                                      \
    {                                                                                       \
        if(!(cond))                                                                         \
        {                                                                                   \
            std::ostringstream os_;                                                         \
            os_ << __FILE__ << ":" << __LINE__ << ": check failed: " #cond ": " << message; \
            throw ::cpuref_test::TestFailure(os_.str());                                    \
        }                                                                                   \
    } while(0)

// ---- layouts ---------------------------------------------------------------------------------

// Layout names a memory order: memOrder[0] is the outermost logical dimension, the last the
// innermost (stride 1). gap adds that many unused elements after every innermost row, so strides
// are not packed.
struct Layout
{
    std::string name;
    std::vector<int> memOrder; // empty: row-major (logical order)
    int64_t gap = 0;
};

// standardLayouts returns NCHW-like (packed row-major), NHWC-like (channel innermost) and a
// scrambled permutation with row gaps, for tensors of the given rank.
std::vector<Layout> standardLayouts(int rank);

// stridesFor computes element strides for dims in the given layout.
Dims stridesFor(const Dims& dims, const Layout& layout);

// ---- tensors ---------------------------------------------------------------------------------

// Tensor owns storage for a view of `dims` in `layout`.
struct Tensor
{
    Tensor(DataType dtype, const Dims& dims, const Layout& layout = {});
    Tensor(DataType dtype, const Dims& dims, const Dims& strides);
    TensorView view;
    std::vector<unsigned char> storage;
    Dims dims;

    int64_t count() const;
    // at reads the element at a logical multi-index as double.
    double at(const Dims& index) const;
    void set(const Dims& index, double v);
    // fillUniform fills with uniform values in [lo, hi) rounded to the dtype.
    void fillUniform(std::mt19937& rng, double lo, double hi);
    // forEachIndex calls f(index) for every logical multi-index in row-major order.
    void forEachIndex(const std::function<void(const Dims&)>& f) const;
};

// forEachIndexOf enumerates every multi-index of dims in row-major order.
void forEachIndexOf(const Dims& dims, const std::function<void(const Dims&)>& f);

// ---- tolerances ------------------------------------------------------------------------------

// Tolerance for one output element with expected value `expected`:
//   |got - expected| <= outRel·|expected| + accRel·scale + abs
// outRel covers the final rounding to the output type, accRel·scale the accumulation error of
// a sum whose terms have absolute sum `scale`, abs the subnormal/underflow floor.
struct Tolerance
{
    double outRel;
    double accRel;
    double abs;
};

// toleranceFor returns the tolerance for an output of `dtype` computed from sums of `terms`
// products (terms = 1 for elementwise ops). See the justification in TestSupport.cpp.
Tolerance toleranceFor(DataType dtype, int64_t terms);

// expectClose compares every element of `got` with expected(index) (and the per-element scale,
// Σ|terms|, for accumulation error). Throws TestFailure naming the first bad element.
void expectClose(const std::string& what, const Tensor& got, const std::function<double(const Dims&)>& expected,
                 const std::function<double(const Dims&)>& scale, const Tolerance& tol);

std::string dimsString(const Dims& d);

const std::vector<DataType>& floatTypes(); // float, half, bfloat16, double

} // namespace cpuref_test
