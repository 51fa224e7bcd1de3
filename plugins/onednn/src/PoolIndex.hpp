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
    // index element that is not an input position inside its output's window (a padding
    // maximum, -1, included) fails with BAD_PARAM naming the element and its value.
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

} // namespace hipdnngo::onednn
