// hipdnn-run's independent reference: every node it knows is recomputed in double precision
// from the exact input values, together with an estimate E of how far a correct engine may be
// from the exact result (rounding of sums and of intermediate virtual tensors, propagated to
// first order). The engine's outputs are then compared element by element:
//
//   |got - ref| <= E + 2·u(T)·|ref| + a(T)         T = the output tensor's type
//
//   u(T) (unit roundoff): double 2^-53, float 2^-24, half 2^-11, bfloat16 2^-8
//   a(T) (absolute floor): double 2^-1022, float and bfloat16 2^-126, half 2^-24
//   E, per node:  a K-term sum adds 8·sqrt(K)·u(c)·Σ|terms|; every other computed value adds
//                 8·u(c)·|value|; u(c) is the unit roundoff of the node's compute type (float
//                 when unset); input errors propagate through first-order sensitivities
//                 (pointwise ops: by evaluating the op at the input ± its error); a virtual
//                 tensor of type V adds u(V)·|value| when stored.
//   Integer outputs must equal trunc(ref) exactly, unless ref ± E crosses an integer.
//
// Non-virtual tensors written by one node and read by another are read back from the engine's
// buffer (exact, E = 0), so every node is checked on the inputs it actually saw.
#pragma once

#include "buffers.hpp"
#include "graph_model.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hdrun
{

// Dense row-major values of one tensor, with per-element error estimate and skip mask.
struct RefTensor
{
    std::vector<int64_t> dims;
    std::vector<double> v;
    std::vector<double> e; // empty: exact
    std::vector<uint8_t> skip; // empty: compare everything; 1 = not compared (e.g. padded rows)

    int64_t numel() const { return static_cast<int64_t>(v.size()); }
    double err(int64_t i) const { return e.empty() ? 0.0 : e[static_cast<size_t>(i)]; }
};

constexpr double kSumFactor = 8.0; // multiplies sqrt(K)·u·Σ|terms|
constexpr double kOpFactor = 8.0; // multiplies u·|value|

struct OpContext
{
    const Graph& graph;
    const Node& node;
    std::map<int64_t, RefTensor>& values;
    double u; // unit roundoff of the node's compute type
    std::vector<std::string> notes; // interpretation notes printed with the check

    const Tensor* tensor(int64_t uid) const { return graph.tensor(uid); }
    // in returns the reference values of an input uid (nullptr if unknown).
    const RefTensor* in(int64_t uid) const;
    // out creates (or resets) the reference tensor of output uid, sized by the graph's dims.
    RefTensor* out(int64_t uid);
    // scalar reads element 0 of an input tensor; false when it is not available.
    bool scalar(int64_t uid, double* value) const;
};

// A reference op returns "" on success, else why it cannot compute the node.
using RefOp = std::string (*)(OpContext&);

// refOpFor returns the reference implementation for a node type, or nullptr.
RefOp refOpFor(const std::string& nodeType);
// refOpNames lists the node types with a reference (for --help).
std::string refOpNames();

struct CheckResult
{
    int checkedTensors = 0;
    int failedTensors = 0;
    int uncheckedNodes = 0; // no reference (or inputs unknown)
    std::string uncheckedWhy; // the reasons, "; "-separated
    int64_t nonFinite = 0; // non-finite outputs where the reference is finite or unknown
    double maxAbsError = 0;
    double maxTolRatio = 0;
};

// checkGraph recomputes the graph and compares every output the engine wrote. Prints one line
// per checked tensor and per unchecked node (unless quiet), and returns the summary. With
// compare false (--reference-only) nothing is compared: the reference values of every output
// stand in for the engine's. refs, when given, receives the reference of every node output.
// minU raises every node's unit roundoff to at least that: the precision a plan announces with
// REDUCED_PRECISION_REDUCTION (0: the compute types').
CheckResult checkGraph(const Graph& g, const Buffers& buffers, bool quiet, bool compare = true,
                       std::map<int64_t, RefTensor>* refs = nullptr, double minU = 0);

// estimateFlops: a rough count of the floating-point operations of the reference for g
// (sum over nodes; used for the --max-gflop budget).
double estimateFlops(const Graph& g);

// Broadcasting helpers shared by the reference ops.
std::vector<int64_t> denseStrides(const std::vector<int64_t>& dims);
// bcastStrides: strides (in elements of a dense `in`) aligned right to `out`, 0 where `in`
// broadcasts. Returns false when `in` does not broadcast to `out`.
bool bcastStrides(const std::vector<int64_t>& in, const std::vector<int64_t>& out, std::vector<int64_t>* strides);
std::string dimsText(const std::vector<int64_t>& dims);

} // namespace hdrun
