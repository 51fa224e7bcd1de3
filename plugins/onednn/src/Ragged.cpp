// Ragged tensors (cuDNN's THD / nested layouts): batch b of a [B, H, S, W] tensor starts at
// element offsets[b] (B + 1 INT32 or INT64 offsets, multiplier 1) instead of b * stride[0], and
// holds only its valid rows, i < lengths[b]. The plan computes on a dense row-major copy, and the
// table says so (claimRagged restrides the tensor), so the nodes that take ragged tensors plan
// them as dense ones:
//  - raggedIn gathers the rows that exist before the first reader and writes 0 into the others
//    (the node masks them; 0 keeps products with them finite);
//  - raggedOut is the dense buffer a node writes; flushStaged scatters its valid rows, and only
//    those, into the caller's buffer after the node's steps.
// 16-bit tensors of a staged plan are widened / narrowed on the way (the table says FLOAT).
#include "PlanBuilder.hpp"

#include "Convert.hpp"

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <algorithm>
#include <cstring>

namespace hipdnngo::onednn
{

void PlanBuilder::claimRagged(const Tensor* t, const Tensor* lengths, const char* lengthsRole, const std::string& node)
{
    if(t == nullptr || !t->raggedOffsetUid)
        return;
    if(lengths == nullptr)
        throw Unsupported(node + ": ragged tensor " + t->label() + " needs the " + lengthsRole + " tensor");
    if(t->isVirtual || t->isConstant || t->isPassByValue)
        throw Unsupported(node + ": ragged tensor " + t->label() + " must be a caller's buffer");
    // The copy moves whole rows of W elements.
    if(t->rank() != 4 || (t->strides[3] != 1 && t->dims[3] != 1))
        throw Unsupported(node + ": ragged tensor " + t->label() + " must be [B, H, S, W] with unit stride in W");
    const Tensor* off = p_.tensors_.find(*t->raggedOffsetUid);
    if(off == nullptr || !(off->dtype == fbs::DataType::INT32 || off->dtype == fbs::DataType::INT64)
       || off->elements() != t->dims[0] + 1 || !rowMajor(*off) || off->raggedOffsetUid || off->isConstant || off->isPassByValue
       || off->isVirtual)
        throw Unsupported(node + ": the ragged offsets of " + t->label() + " must be a dense INT32 or INT64 tensor of B + 1 = "
                          + std::to_string(t->dims[0] + 1) + " elements");
    RaggedTensor& r = ragged_[static_cast<size_t>(t->index)];
    if(r.lengths == nullptr)
    {
        r.userStrides = t->strides;
        r.userSpan = spanOf(*t);
        const int64_t H = t->dims[1], S = t->dims[2], W = t->dims[3];
        p_.tensors_.restride(t->index, {H * S * W, S * W, W, 1});
    }
    r.lengths = lengths;
}

// raggedStep: a kernel over the valid rows of ragged tensor t, between the caller's buffer (at[0])
// and its dense copy (at[1]); at[2] the offsets, at[3] the lengths. Gather and Check first check
// every batch's length (in [0, S]) and that its rows lie inside the tensor's span, and (Check, an
// output) apart from every other batch's rows; Gather and Scatter then move the rows. An output is
// checked when it is bound, ahead of every scatter, so a bad one fails the execute before any
// output is written.
void PlanBuilder::raggedStep(const Tensor& t, RaggedStep step, const Buffer& dense, const std::string& node)
{
    const bool in = step == RaggedStep::Gather, check = step != RaggedStep::Scatter, copy = step != RaggedStep::Check;
    const Tensor& off = *p_.tensors_.find(*t.raggedOffsetUid);
    const RaggedTensor& r = ragged_[static_cast<size_t>(t.index)];
    const Tensor& lengths = *r.lengths;
    const int64_t B = t.dims[0], H = t.dims[1], S = t.dims[2], W = t.dims[3];
    const int64_t s1 = r.userStrides[1], s2 = r.userStrides[2], span = r.userSpan;
    const fbs::DataType user = p_.stored_[static_cast<size_t>(t.index)], compute = t.dtype;
    const bool off64 = off.dtype == fbs::DataType::INT64;
    const size_t userSize = dataTypeSize(user), computeSize = dataTypeSize(compute);
    const ConvertIsa isa = convertIsa();
    const std::string label = t.label(), lengthsLabel = lengths.label();
    addKernel({external(t), dense, external(off), input(lengths, node)},
              [=](void* const* at) {
                  const int32_t* len = static_cast<const int32_t*>(at[3]);
                  auto start = [&](int64_t b) {
                      return off64 ? static_cast<const int64_t*>(at[2])[b] : int64_t{static_cast<const int32_t*>(at[2])[b]};
                  };
                  // The elements batch b's rows reach from its offset.
                  auto reachOf = [&](int64_t b) { return len[b] == 0 ? 0 : (H - 1) * s1 + (len[b] - 1) * s2 + W; };
                  for(int64_t b = 0; check && b < B; ++b)
                  {
                      if(len[b] < 0 || len[b] > S)
                          hipdnn_plugin_sdk::fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                                  node + ": " + lengthsLabel + "[" + std::to_string(b) + "] = " + std::to_string(len[b])
                                                      + " is outside [0, " + std::to_string(S) + "]");
                      if(start(b) < 0 || start(b) + reachOf(b) > span)
                          hipdnn_plugin_sdk::fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                                  node + ": ragged offset of " + label + " batch " + std::to_string(b) + " = "
                                                      + std::to_string(start(b)) + " with " + std::to_string(len[b])
                                                      + " rows reaches past the tensor's " + std::to_string(span) + " elements");
                  }
                  // An output's batches must not overlap (their rows would be written twice). Packed
                  // offsets ascend, so one pass in batch order settles it; other orders compare pairs.
                  auto overlap = [&](int64_t a, int64_t b) {
                      hipdnn_plugin_sdk::fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                              node + ": ragged output " + label + " has overlapping batches (" + std::to_string(a)
                                                  + " and " + std::to_string(b) + ")");
                  };
                  bool ascending = true;
                  for(int64_t b = 0, prev = -1; check && !in && ascending && b < B; ++b)
                      if(reachOf(b) > 0)
                      {
                          if(prev >= 0 && start(b) < start(prev))
                              ascending = false;
                          else if(prev >= 0 && start(b) < start(prev) + reachOf(prev))
                              overlap(prev, b);
                          else
                              prev = b;
                      }
                  for(int64_t a = 0; check && !in && !ascending && a < B; ++a)
                      for(int64_t b = a + 1; b < B; ++b)
                          if(reachOf(a) > 0 && reachOf(b) > 0 && start(a) < start(b) + reachOf(b) && start(b) < start(a) + reachOf(a))
                              overlap(a, b);
                  if(!copy)
                      return;
                  char* u = static_cast<char*>(at[0]);
                  char* d = static_cast<char*>(at[1]);
#pragma omp parallel for collapse(2) schedule(static)
                  for(int64_t b = 0; b < B; ++b)
                      for(int64_t h = 0; h < H; ++h)
                          for(int64_t i = 0; i < S; ++i)
                          {
                              char* dr = d + static_cast<size_t>(((b * H + h) * S + i) * W) * computeSize;
                              if(i >= len[b])
                              {
                                  if(in)
                                      std::memset(dr, 0, static_cast<size_t>(W) * computeSize);
                                  continue;
                              }
                              char* ur = u + static_cast<size_t>(start(b) + h * s1 + i * s2) * userSize;
                              if(user == compute)
                                  std::memcpy(in ? dr : ur, in ? ur : dr, static_cast<size_t>(W) * userSize);
                              else if(in)
                                  widenRow(isa, user, reinterpret_cast<const uint16_t*>(ur), reinterpret_cast<float*>(dr), W);
                              else
                                  narrowRow(isa, user, reinterpret_cast<const float*>(dr), reinterpret_cast<uint16_t*>(ur), W);
                          }
              },
              std::string(in ? "gather ragged " : copy ? "scatter ragged " : "check the offsets of ragged output ") + label
                  + (in ? " into a dense copy" : copy ? " from its dense copy" : ""));
}

// denseCopy: the workspace buffer of ragged tensor t's dense row-major copy, in its compute type.
Buffer PlanBuilder::denseCopy(const Tensor& t)
{
    requireClaimed(t);
    Buffer dense;
    dense.kind = Buffer::Kind::Workspace;
    dense.offset = allocate(static_cast<size_t>(spanOf(t)) * dataTypeSize(t.dtype));
    return dense;
}

Buffer PlanBuilder::raggedIn(const Tensor& t, const std::string& node)
{
    const Buffer dense = denseCopy(t);
    raggedStep(t, RaggedStep::Gather, dense, node);
    return dense;
}

Buffer PlanBuilder::raggedOut(const Tensor& t, const std::string& node)
{
    const Buffer dense = denseCopy(t);
    raggedStep(t, RaggedStep::Check, dense, node);
    raggedOut_.push_back({t.index, dense, node});
    return dense;
}

void PlanBuilder::requireClaimed(const Tensor& t) const
{
    if(t.raggedOffsetUid && ragged_[static_cast<size_t>(t.index)].lengths == nullptr)
        throw Unsupported("tensor " + t.label() + " is ragged; the oneDNN engine takes ragged tensors only in SDPA");
}

} // namespace hipdnngo::onednn
