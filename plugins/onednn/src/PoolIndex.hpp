// PoolIndex: hipDNN's max-pool index tensor as oneDNN's max-pool workspace.
//
// hipDNN's ResampleBwd node carries dy, dx and the forward's index tensor, never the forward
// input, so oneDNN cannot recompute its own workspace. The index holds, per output o, the flat
// position of the maximum within its (n, c) input plane (d·H·W + h·W + w, the CPU reference
// engine's and PyTorch's convention). oneDNN 2.6's max-pool workspace holds, per output, the
// position within o's window (kd·KH·KW + kh·KW + kw; u8 for windows under 256 elements, else
// s32) in dy's layout. One is a pure function of the other and the geometry, so execute
// converts the index into the workspace, then runs oneDNN's max-pool backward on it.
#pragma once

#include "Graph.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hipdnngo::onednn
{

struct PoolIndexGeometry
{
    fbs::DataType indexType = fbs::DataType::INT32; // INT8, UINT8, INT32 or INT64
    bool workspaceS32 = false; // else u8
    int spatial = 2; // 1 to 3; the arrays below are padded to 3 with leading 1s / 0s
    int64_t n = 1, c = 1;
    int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, window[3] = {1, 1, 1}, stride[3] = {1, 1, 1}, pre[3] = {0, 0, 0};
    int64_t indexStrides[5] = {0, 0, 0, 0, 0}; // elements: N, C, spatial (padded)
    int64_t workspaceStrides[5] = {0, 0, 0, 0, 0};
    std::string indexLabel; // for messages: "uid 7 ('index')"
};

// firstPaddingTap: the first window position (kd·KH·KW + kh·KW + kw, row-major) of the window
// at `origin` (input coordinates, padded to 3 dims) that lies outside the input; -1 when the
// window is inside. Where hipDNN's index is -1 (the maximum was padding) the workspace names
// this tap: oneDNN's max-pool backward visits only the taps inside the input (the reference
// implementation returns for a position outside, the JIT kernels loop over the inside taps), so
// that output's gradient goes nowhere, as on the CPU reference engine.
int64_t firstPaddingTap(const int64_t origin[3], const int64_t in[3], const int64_t window[3]);

// indexTypeSupported: the index types the conversion reads.
bool indexTypeSupported(fbs::DataType t);

// PoolIndexConverter turns an index into a workspace for one geometry. Built at plan time: it
// precomputes, for every offset of a flat index from its window's origin, the window position
// it names, so execute needs no integer division (windows wider than the input, where offsets
// collide, and very large tables fall back to dividing). Immutable after construction; run may
// be called from several threads at once.
class PoolIndexConverter
{
public:
    explicit PoolIndexConverter(PoolIndexGeometry g);

    // run writes the whole workspace from the index (parallel over the outer dims, OpenMP). An
    // index element that is not an input position inside its output's window, nor -1 for a
    // window that reaches into the padding, fails with BAD_PARAM naming the element and its value.
    void run(const void* index, void* workspace) const;

    const PoolIndexGeometry& geometry() const { return g_; }

    struct Tap
    {
        int32_t w[3]; // window position per (padded) spatial dim
        int32_t k; // oneDNN's workspace value, kd·KH·KW + kh·KW + kw; -1: no tap
    };

private:
    template <typename I, typename W>
    int64_t convert(const void* index, void* workspace) const;

    PoolIndexGeometry g_;
    std::vector<Tap> taps_; // by offset from the window origin; empty: divide instead
};

// PoolArgmax is the forward direction, for a max-pool forward with hipDNN's index output: it
// turns the workspace of oneDNN's max-pool forward (training) into the index (flat in-plane
// positions), and fixes y where oneDNN's padding (-inf, never chosen) differs from hipDNN's:
//   ZERO_PAD, a window reaching into the padding: the padding takes part with value 0, first
//     maximum in window order wins, so y = 0 and index -1 where y < 0, or y == 0 and the first
//     padding tap comes before oneDNN's choice;
//   a window entirely in the padding: y = 0 (ZERO_PAD) or -inf, index -1.
// Both engines take the first maximum in window order (strict >), so ties agree; a NaN input
// differs (the reference engine picks it, oneDNN does not). y is f32, in y's own strides (a
// plan with 16-bit y is staged). Immutable after construction; run may be called from several
// threads at once.
class PoolArgmax
{
public:
    // g: the geometry (indexStrides for the index output, workspaceStrides for oneDNN's), y's
    // strides [N, C, spatial padded to 3], zeroPad: hipDNN's padding mode is ZERO_PAD.
    PoolArgmax(PoolIndexGeometry g, const int64_t yStrides[5], bool zeroPad, bool writeIndex);

    void run(const void* workspace, void* index, float* y) const;

private:
    template <typename I, typename W>
    void convert(const void* workspace, void* index, float* y) const;

    PoolIndexGeometry g_;
    int64_t yStrides_[5];
    bool zeroPad_, writeIndex_;
    std::vector<int64_t> tapOffset_; // by oneDNN's window position: offset from the origin, flat in-plane
};

} // namespace hipdnngo::onednn
