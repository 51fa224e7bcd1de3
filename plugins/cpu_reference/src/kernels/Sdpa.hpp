// Scaled dot-product attention kernels, forward and backward.
//
// Shapes (logical dims; any strides, so BSHD, BHSD, SBHD, … are just views):
//   q [B, Hq, Sq, D]   k [B, Hk, Skv, D]   v [B, Hv, Skv, Dv]   o / dO [B, Hq, Sq, Dv]
//   Hq must be a multiple of Hk and of Hv (GQA / MQA): query head h reads key head h / (Hq/Hk)
//   and value head h / (Hq/Hv). D and Dv may differ.
//   stats [B, Hq, Sq, 1] (or [B, Hq, Sq]): per row logsumexp of the masked, scaled scores.
//   max, sum_exp (optional forward outputs, the same shape): the row's max m and Σ exp(s − m),
//   cuDNN's softmax outputs (stats = max + log sum_exp); any of the three may be asked for.
//   bias (optional) broadcasts to [B, Hq, Sq, Skv] (NumPy, right-aligned, rank 1–4) and is ADDED
//   to the scaled scores; -inf entries mask.
//   seq_len_q / seq_len_kv (optional, integer, B elements in logical row-major order): valid
//   lengths per batch, sq_b <= Sq and skv_b <= Skv (else KernelError at execute).
//   Ragged / paged layouts (kernels/SdpaLayout.hpp): any of q, k, v, o, stats, max, sum_exp (and
//   dO, dQ, dK, dV backward) may carry [B+1] ragged offsets; those need their seq_len tensor. Forward k / v
//   may be paged containers [num_blocks, Hk, block, D] with a page table each; then Skv is
//   max_seq_len_kv when given, else the other (unpaged) tensor's S, else bias dims[3], else
//   min over the paged ones of P·block (cuDNN's inference), and seq_len_kv is required.
//   sink (optional, forward, Hq elements, e.g. [1, Hq, 1, 1]): a logit per head that joins every
//   row's softmax denominator and has no value: cuDNN's softmax sink, not scaled, not masked.
//   alibi (SdpaParams::alibi): ALiBi as cudnn-frontend builds it, slope_h · (j − i) added after
//   the bias, with j and i the key and query positions in the padded [Sq, Skv] scores and
//   cudnn-frontend's slopes (hipdnn_plugin_sdk::alibiSlopes).
//
// Score of query row i and key j of batch b, head h:
//   s = scale · Σ_d q[b,h,i,d]·k[b,h/(Hq/Hk),j,d] + bias[b,h,i,j] (+ slope_h · (j − i))
// Key j is visible from row i when j < skv_b and it lies in the diagonal band
//   (rightBound < 0  or  j <= i + off + rightBound)  and  (leftBound < 0  or  j >= i + off − leftBound)
// with off = 0 for TOP_LEFT alignment and off = skv_b − sq_b for BOTTOM_RIGHT (per batch, so
// padding moves the diagonal with the valid lengths). So rightBound 0 is causal, leftBound L keeps
// L keys left of the diagonal plus the diagonal itself (a window of L+1 keys); this is hipDNN's
// definition (its CPU reference masks j < i + off − L). cuDNN's left_bound counts the diagonal:
// cuDNN left_bound = hipDNN leftBound + 1.
//
// Forward, per row:  m = max visible s,  l = Σ exp(s − m),  o = Σ exp(s − m)·v / l,
//   stats = m + log(l) (cuDNN / hipDNN: max + log Σ exp), max = m, sum_exp = l. A row with no
//   visible key (fully masked, or all its biases -inf) writes o = 0, stats = max = -inf and
//   sum_exp = 0. Rows i >= sq_b (padding) are written the same way, except in ragged tensors,
//   where they do not exist (the offsets pack the next batch there) and are not written, as
//   cuDNN's THD layouts.
//   With a sink σ_h: m = max(m, σ_h), l = Σ exp(s − m) + exp(σ_h − m), so stats, max and sum_exp
//   include the sink; a row with no visible key writes o = 0, stats = max = σ_h, sum_exp = 1.
// Backward (recomputes P from stats; flash-attention form):
//   P = exp(s − stats),  Δ_i = Σ_d dO[i,d]·O[i,d],  dP = dO·vᵀ,  dS = P·(dP − Δ_i),
//   dQ = scale·dS·k,  dK = scale·dSᵀ·q,  dV = Pᵀ·dO,
//   dK / dV summed over the query heads that share a key / value head. Rows with stats = -inf or
//   i >= sq_b contribute nothing; their dQ rows, and dK/dV rows of keys no row sees, are 0
//   (ragged dQ / dK / dV: rows past the lengths are not written).
//   dbias (optional, [1 or B, 1 or Hq, Sq, Skv], cuDNN's shapes): dS before the scale (the
//   gradient of the scores the bias is added to), summed in a fixed order over the batches and
//   heads it broadcasts over; 0 for hidden keys and for rows that contribute nothing.
//
// Arithmetic: fp32 for float/half/bfloat16 inputs, fp64 when any tensor is double or the
// accumulator is Double. Scale defaults to 1/√D computed in that precision. Outputs are rounded
// once to their type.
#pragma once

#include "core/StridedLoop.hpp"
#include "core/TensorView.hpp"

#include <string>

namespace hipdnngo::cpu_reference
{

struct SdpaMask
{
    int64_t leftBound = -1; // < 0: unbounded on the left
    int64_t rightBound = -1; // < 0: unbounded on the right
    bool bottomRight = false; // diagonal alignment
};

struct SdpaParams
{
    bool hasScale = false; // false: 1/√D
    double scale = 0.0;
    SdpaMask mask;
    bool alibi = false;
    Accumulator accumulator = Accumulator::Auto;
};

// SdpaRagged: the ragged offsets of each tensor ([B+1] integers), null for dense batches.
struct SdpaRagged
{
    const TensorView *q = nullptr, *k = nullptr, *v = nullptr, *o = nullptr, *stats = nullptr;
    const TensorView *dO = nullptr, *dQ = nullptr, *dK = nullptr, *dV = nullptr; // backward
    const TensorView *max = nullptr, *sumExp = nullptr; // forward
};

struct SdpaForwardViews
{
    TensorView q, k, v, o;
    const TensorView* bias = nullptr;
    const TensorView* seqLenQ = nullptr;
    const TensorView* seqLenKv = nullptr;
    const TensorView* stats = nullptr; // optional outputs
    const TensorView* max = nullptr;
    const TensorView* sumExp = nullptr;
    SdpaRagged ragged = {};
    const TensorView* pageTableK = nullptr; // k is a block container
    const TensorView* pageTableV = nullptr; // v is a block container
    const TensorView* sink = nullptr;
    int64_t maxSeqLenKv = -1; // < 0: not given
};

struct SdpaBackwardViews
{
    TensorView q, k, v, o, dO, stats, dQ, dK, dV;
    const TensorView* bias = nullptr;
    const TensorView* dBias = nullptr; // optional output
    const TensorView* seqLenQ = nullptr;
    const TensorView* seqLenKv = nullptr;
    SdpaRagged ragged = {};
};

std::string checkSdpaForward(const SdpaForwardViews& t);
std::string checkSdpaBackward(const SdpaBackwardViews& t);

void sdpaForward(const SdpaForwardViews& t, const SdpaParams& p);
void sdpaBackward(const SdpaBackwardViews& t, const SdpaParams& p);

} // namespace hipdnngo::cpu_reference
