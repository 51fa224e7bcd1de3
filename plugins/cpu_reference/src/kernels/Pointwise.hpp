// Pointwise kernel: out = f(in_0[, in_1[, in_2]]) element by element, with NumPy broadcasting of
// every input to out's dims. All arithmetic is done in double (exact for every integer below
// 2^53), then rounded once to out's type (see TensorView::store), so this is a tight oracle for
// fp32/fp16/bf16 engines.
//
// Mode semantics (cuDNN / hipDNN pointwise; x = in_0, y = in_1, z = in_2; the _BWD modes take
// in_0 = dy (incoming gradient) and in_1 = x (the forward input) and return dx):
//   ABS            |x|
//   ADD            x + y
//   ADD_SQUARE     x + y²
//   BINARY_SELECT  z != 0 ? x : y                                  (in_2 selects)
//   CEIL / FLOOR   ⌈x⌉ / ⌊x⌋
//   CMP_EQ/NEQ/GT/GE/LT/LE  x op y → 1 or 0 (NaN compares false, so NEQ with NaN is 1)
//   DIV            x / y (IEEE: ±inf or NaN on zero divisor)
//   ELU_FWD        x > 0 ? x : α·(eˣ - 1)                          α = elu_alpha (default 1)
//   ELU_BWD        dy · (x > 0 ? 1 : α·eˣ)
//   ERF, EXP, LOG, SIN, TAN, SQRT  the libm functions
//   GELU_FWD       x·Φ(x) = ½x(1 + erf(x/√2))
//   GELU_BWD       dy · (Φ(x) + x·φ(x)),  φ(x) = e^(-x²/2)/√(2π)  (erf form)
//   GELU_APPROX_TANH_FWD  ½x(1 + tanh(u)), u = √(2/π)(x + 0.044715x³)
//   GELU_APPROX_TANH_BWD  dy · (½(1 + tanh u) + ½x(1 - tanh²u)·√(2/π)(1 + 3·0.044715x²))
//   GEN_INDEX      out[i] = i[axis]: the output element's index along `axis` (inputs unread)
//   IDENTITY       x (a type conversion when the types differ)
//   LOGICAL_AND/OR (x != 0) && / || (y != 0) → 1 or 0;  LOGICAL_NOT  x == 0 → 1 or 0
//   MAX_OP/MIN_OP  max(x, y) / min(x, y); a NaN operand gives NaN
//   MUL, SUB, NEG  x·y, x - y, -x
//   RECIPROCAL     1 / x;   RSQRT  1 / √x
//   RELU_FWD       x <= lo ? lo + slope·(x - lo) : (x >= hi ? hi : x)
//                  lo = relu_lower_clip (default 0), hi = relu_upper_clip (default +inf),
//                  slope = relu_lower_clip_slope (default 0): plain, clipped and leaky ReLU
//   RELU_BWD       dy · (x <= lo ? slope : (x > hi ? 0 : 1))       (plain ReLU: dy·(x > 0))
//   SIGMOID_FWD    σ(x) = 1 / (1 + e^(-x));   SIGMOID_BWD  dy · σ(x)(1 - σ(x))
//   SOFTPLUS_FWD   log1p(e^(βx)) / β          β = softplus_beta (default 1)
//   SOFTPLUS_BWD   dy · σ(βx)
//   SWISH_FWD      x · σ(βx)                  β = swish_beta (default 1)
//   SWISH_BWD      dy · (σ(βx) + βx·σ(βx)(1 - σ(βx)))
//   TANH_FWD       tanh x;    TANH_BWD  dy · (1 - tanh²x)
#pragma once

#include "core/TensorView.hpp"

#include <limits>
#include <string>

namespace hipdnngo::cpu_reference
{

// PointwiseMode values equal the flatbuffer PointwiseMode values (UNSET = 0 is not a mode).
enum class PointwiseMode : int
{
    Abs = 1,
    Add = 2,
    AddSquare = 3,
    BinarySelect = 4,
    Ceil = 5,
    CmpEq = 6,
    CmpGe = 7,
    CmpGt = 8,
    CmpLe = 9,
    CmpLt = 10,
    CmpNeq = 11,
    Div = 12,
    EluBwd = 13,
    EluFwd = 14,
    Erf = 15,
    Exp = 16,
    Floor = 17,
    GeluApproxTanhBwd = 18,
    GeluApproxTanhFwd = 19,
    GeluBwd = 20,
    GeluFwd = 21,
    GenIndex = 22,
    Identity = 23,
    Log = 24,
    LogicalAnd = 25,
    LogicalNot = 26,
    LogicalOr = 27,
    MaxOp = 28,
    MinOp = 29,
    Mul = 30,
    Neg = 31,
    Reciprocal = 32,
    ReluBwd = 33,
    ReluFwd = 34,
    Rsqrt = 35,
    SigmoidBwd = 36,
    SigmoidFwd = 37,
    Sin = 38,
    SoftplusBwd = 39,
    SoftplusFwd = 40,
    Sqrt = 41,
    Sub = 42,
    SwishBwd = 43,
    SwishFwd = 44,
    Tan = 45,
    TanhBwd = 46,
    TanhFwd = 47,
};

constexpr int kFirstPointwiseMode = 1;
constexpr int kLastPointwiseMode = 47;

// pointwiseModeName returns the mode's lower_snake_case hipDNN spelling ("relu_fwd").
const char* pointwiseModeName(PointwiseMode mode);

// pointwiseArity returns how many inputs the mode reads: 1, 2 or 3 (GEN_INDEX: 1, whose
// in_0 only has to be broadcastable to out).
int pointwiseArity(PointwiseMode mode);

struct PointwiseParams
{
    PointwiseMode mode = PointwiseMode::Identity;
    double reluLowerClip = 0.0;
    double reluUpperClip = std::numeric_limits<double>::infinity();
    double reluLowerClipSlope = 0.0;
    double swishBeta = 1.0;
    double eluAlpha = 1.0;
    double softplusBeta = 1.0;
    int64_t axis = -1; // GEN_INDEX only; must be in [0, out.rank)
};

// pointwiseScalar evaluates the mode on scalars (a = in_0, b = in_1, c = in_2; unused ones are
// ignored). GEN_INDEX is not scalar and returns NaN here.
double pointwiseScalar(const PointwiseParams& p, double a, double b, double c);

// checkPointwise returns "" when in0/in1/in2 (null when unused) broadcast to out and the mode's
// arity and parameters are satisfied, else the reason.
std::string checkPointwise(const TensorView& in0, const TensorView* in1, const TensorView* in2, const TensorView& out,
                           const PointwiseParams& p);

// pointwise computes out. Throws KernelError when checkPointwise fails.
void pointwise(const TensorView& in0, const TensorView* in1, const TensorView* in2, const TensorView& out,
               const PointwiseParams& p);

} // namespace hipdnngo::cpu_reference
