// Paged K / V caches of an SDPA forward (cuDNN's paged attention): the plan gathers each paged
// cache into a dense f32 [B, Hk, Skv, W] copy, widening 16-bit types on the way, and the usual
// steps (Sdpa.cpp) run on that copy. Keys past a batch's seq_len_kv are not read (their page
// table entries may name nothing) and are written as 0: the padding kernel masks their scores,
// and a zero V row keeps E V finite whatever the cache holds there.
#include "Sdpa.hpp"

#include "../Convert.hpp"

#include <algorithm>
#include <cstring>

namespace hipdnngo::onednn
{

PlanBuilder::SdpaPaging PlanBuilder::sdpaPaging(const fbs::SdpaAttributes& a, const Tensor& q, const Tensor& k,
                                                const Tensor& v, const Tensor* seqKv, const std::string& name)
{
    SdpaPaging pg;
    if(!a.page_table_k_tensor_uid().has_value() && !a.page_table_v_tensor_uid().has_value())
        return pg;
    if(q.rank() != 4 || k.rank() != 4 || v.rank() != 4)
        throw Unsupported(name + ": SDPA tensors must be [B, H, S, D]");
    const int64_t B = q.dims[0];
    // table: INT32, batch first, one other dim of P (the others 1), dense.
    auto table = [&](flatbuffers::Optional<int64_t> uid, const Tensor& cache, const char* role, int64_t& pages) -> const Tensor* {
        if(!uid.has_value())
            return nullptr;
        const Tensor& t = tensor(*uid, role, name);
        int64_t others = 0;
        for(size_t d = 1; d < t.dims.size(); ++d)
            others += t.dims[d] != 1;
        if(t.dtype != fbs::DataType::INT32 || t.rank() < 2 || t.dims[0] != B || others > 1 || !rowMajor(t) || t.isConstant
           || t.isPassByValue)
            throw Unsupported(name + ": SDPA " + role + " must be a dense INT32 tensor [B, P] or [B, 1, P, 1] with B = "
                              + std::to_string(B));
        // A container of blocks, not rows of batches: it cannot be ragged too.
        if(cache.raggedOffsetUid)
            throw Unsupported(name + ": SDPA paged cache " + cache.label() + " has ragged offsets too");
        // The gather copies whole rows of W elements, widening 16-bit floats.
        if(!(cache.dtype == fbs::DataType::FLOAT || isStageable(cache.dtype)))
            throw Unsupported(name + ": SDPA paged cache " + cache.label() + " must be FLOAT, HALF or BFLOAT16");
        if(cache.strides[3] != 1)
            throw Unsupported(name + ": SDPA paged cache " + cache.label() + " must have unit stride in its last dim");
        pages = t.elements() / B;
        return &t;
    };
    pg.tableK = table(a.page_table_k_tensor_uid(), k, "page_table_k", pg.pagesK);
    pg.tableV = table(a.page_table_v_tensor_uid(), v, "page_table_v", pg.pagesV);
    pg.seqKv = seqKv;
    if(pg.seqKv == nullptr)
        throw Unsupported(name + ": SDPA with a paged K / V cache needs the seq_len_kv tensor");
    // Skv (the rule in Sdpa.hpp).
    const Tensor* bias = a.attn_mask_tensor_uid() ? &tensor(*a.attn_mask_tensor_uid(), "attn_mask", name) : nullptr;
    if(a.max_seq_len_kv().has_value())
        pg.skv = a.max_seq_len_kv().value();
    else if(!pg.tableK)
        pg.skv = k.dims[2];
    else if(!pg.tableV)
        pg.skv = v.dims[2];
    else if(bias && bias->rank() == 4)
        pg.skv = bias->dims[3];
    else
        pg.skv = std::min(pg.pagesK * k.dims[2], pg.pagesV * v.dims[2]);
    if(pg.skv < 1)
        throw Unsupported(name + ": SDPA max_seq_len_kv = " + std::to_string(pg.skv) + " is not positive");
    for(const auto& [t, cache, pages, role] : {std::tuple{pg.tableK, &k, pg.pagesK, "page_table_k"}, std::tuple{pg.tableV, &v, pg.pagesV, "page_table_v"}})
        if(t && pages * cache->dims[2] < pg.skv)
            throw Unsupported(name + ": SDPA " + role + " holds " + std::to_string(pages) + " blocks of "
                              + std::to_string(cache->dims[2]) + " rows, fewer than Skv = " + std::to_string(pg.skv));
    return pg;
}

Buffer PlanBuilder::sdpaGather(const SdpaShape& s, bool values, const mdesc& dense, const std::string& name)
{
    const Tensor& cache = values ? *s.v : *s.k;
    const Tensor& table = values ? *s.paging.tableV : *s.paging.tableK;
    const char* role = values ? "page_table_v" : "page_table_k";
    const Buffer out = temp(dense);
    const int64_t B = s.B, Hk = s.Hk, Skv = s.Skv, W = values ? s.Dv : s.D, pages = values ? s.paging.pagesV : s.paging.pagesK;
    const int64_t blocks = cache.dims[0], block = cache.dims[2], s0 = cache.strides[0], s1 = cache.strides[1],
                  s2 = cache.strides[2];
    // input() hands a staged cache over as its f32 copy (the table then says FLOAT).
    const fbs::DataType type = cache.dtype;
    const ConvertIsa isa = convertIsa();
    addKernel({input(cache, name), input(table, name), input(*s.paging.seqKv, name), out},
              [=](void* const* at) {
                  const int32_t* tab = static_cast<const int32_t*>(at[1]);
                  const int32_t* lkv = static_cast<const int32_t*>(at[2]);
                  float* dst = static_cast<float*>(at[3]);
                  sdpaCheckLengths(nullptr, lkv, B, 0, Skv, name);
                  // Every block a valid key uses must lie in the cache, before anything is read.
                  for(int64_t b = 0; b < B; ++b)
                      for(int64_t p = 0; p * block < lkv[b]; ++p)
                          if(const int32_t e = tab[b * pages + p]; e < 0 || e >= blocks)
                              hipdnn_plugin_sdk::fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM,
                                                      name + ": " + role + "[" + std::to_string(b) + "][" + std::to_string(p)
                                                          + "] = " + std::to_string(e) + " names no block of the "
                                                          + std::to_string(blocks) + "-block cache");
                  const size_t esize = type == fbs::DataType::FLOAT ? 4 : 2;
                  const char* base = static_cast<const char*>(at[0]);
#pragma omp parallel for collapse(2) schedule(static)
                  for(int64_t b = 0; b < B; ++b)
                      for(int64_t h = 0; h < Hk; ++h)
                          for(int64_t j = 0; j < Skv; ++j)
                          {
                              float* row = dst + ((b * Hk + h) * Skv + j) * W;
                              if(j >= lkv[b])
                              {
                                  std::fill(row, row + W, 0.f);
                                  continue;
                              }
                              const int64_t at0 = tab[b * pages + j / block] * s0 + h * s1 + (j % block) * s2;
                              const char* src = base + static_cast<size_t>(at0) * esize;
                              if(type == fbs::DataType::FLOAT)
                                  std::memcpy(row, src, static_cast<size_t>(W) * sizeof(float));
                              else
                                  widenRow(isa, type, reinterpret_cast<const uint16_t*>(src), row, W);
                          }
              },
              name + " sdpa gather the paged " + (values ? "v" : "k") + " cache into dense f32 (" + role + ")");
    return out;
}

} // namespace hipdnngo::onednn
