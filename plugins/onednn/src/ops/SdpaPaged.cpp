// Paged K / V caches of an SDPA forward (cuDNN's paged attention): the checks of a node's page
// tables and caches at plan time. The forward with lengths (SdpaVarlen.cpp) reads the cache's
// rows through the table, a page at a time, and never reads keys past a batch's seq_len_kv
// (their table entries may name nothing).
#include "Sdpa.hpp"

#include "../Convert.hpp"

#include <algorithm>

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
        // The forward reads whole rows of W elements, widening 16-bit floats.
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

} // namespace hipdnngo::onednn
