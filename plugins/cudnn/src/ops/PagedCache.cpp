// Paged KV caches of SDPA forward. K and V may live in a cache of fixed-size blocks,
// container [blocks, h, block_size, d], with a page table [b, pages] naming the blocks of each
// batch in order. cuDNN has an operation for the gather (PAGED_CACHE_LOAD, cuDNN 9.5+): it
// fills a virtual K^T or V for the attention matmuls, up to each batch's seq_len_kv, which is
// how cudnn-frontend's SDPA node feeds its fused-attention pattern.
#include "SdpaPatterns.hpp"

#include <algorithm>

namespace hipdnngo::cudnn
{

namespace sdpa
{

namespace
{

// pageTable makes a page table [b, pages] (rank-padded to [1, 1, b, pages]) the
// [b, 1, pages, 1] cuDNN reads; a [b, 1, pages, 1] table is kept. Returns pages.
int64_t pageTable(Model& m, int64_t uid, int64_t b, const char* which)
{
    TensorSpec* t = m.find(uid);
    if(t == nullptr)
        throw Unsupported(std::string("sdpa: unknown ") + which + " tensor");
    std::vector<int64_t>& d = t->dims;
    if(d[0] == b && d[1] == 1 && d[3] == 1)
        return d[2];
    if(d[0] == 1 && d[1] == 1 && d[2] == b)
    {
        const int64_t pages = d[3], row = t->strides[2], col = t->strides[3];
        d = {b, 1, pages, 1};
        t->strides = {row, row, col, 1};
        return pages;
    }
    throw Unsupported(std::string("sdpa: ") + which + " must be [b, pages] or [b, 1, pages, 1] with b = " + std::to_string(b));
}

} // namespace

PagedKv pagedKvOf(Model& m, const fbs::SdpaAttributes& a)
{
    PagedKv p;
    p.k = a.page_table_k_tensor_uid().has_value();
    p.v = a.page_table_v_tensor_uid().has_value();
    const TensorSpec* q = m.find(a.q_tensor_uid());
    TensorSpec* k = m.find(a.k_tensor_uid());
    const TensorSpec* v = m.find(a.v_tensor_uid());
    if(!q || !k || !v || q->dims.size() != 4 || k->dims.size() != 4 || v->dims.size() != 4)
        throw Unsupported("sdpa: Q, K, V must be rank-4 tensors (a paged K or V: a cache [blocks, h, block_size, d])");
    if(!a.seq_len_q_tensor_uid().has_value() || !a.seq_len_kv_tensor_uid().has_value())
        throw Unsupported("sdpa: a paged KV cache needs seq_len_q and seq_len_kv (cuDNN loads each batch's pages up to "
                          "its length and masks by both)");
    Qkv& x = p.x;
    x = Qkv{q->dims[0], q->dims[1], k->dims[1], v->dims[1], q->dims[2], 0, q->dims[3], v->dims[3], q->dtype};
    if(k->dims[3] != x.d)
        throw Unsupported("sdpa: K's head size " + std::to_string(k->dims[3]) + " differs from Q's " + std::to_string(x.d));
    const int64_t pagesK = p.k ? pageTable(m, a.page_table_k_tensor_uid().value(), x.b, "page_table_k") : 0;
    const int64_t pagesV = p.v ? pageTable(m, a.page_table_v_tensor_uid().value(), x.b, "page_table_v") : 0;
    // s_kv as cudnn-frontend infers it: max_seq_len_kv, else an unpaged K or V, else the
    // shorter of what the page tables can address.
    if(a.max_seq_len_kv().has_value() && a.max_seq_len_kv().value() > 0)
        x.skv = a.max_seq_len_kv().value();
    else if(!p.k)
        x.skv = k->dims[2];
    else if(!p.v)
        x.skv = v->dims[2];
    else
        x.skv = std::min(pagesK * k->dims[2], pagesV * v->dims[2]);
    struct Cache
    {
        bool paged;
        int64_t table, pages, extent; // extent: block size, or s_kv of an unpaged tensor
        const char* name;
    };
    for(const Cache& c : {Cache{p.k, uidOrAbsent(a.page_table_k_tensor_uid()), pagesK, k->dims[2], "K"},
                          Cache{p.v, uidOrAbsent(a.page_table_v_tensor_uid()), pagesV, v->dims[2], "V"}})
    {
        if(!c.paged)
        {
            if(c.extent != x.skv)
                throw Unsupported(std::string("sdpa: unpaged ") + c.name + " has s_kv " + std::to_string(c.extent)
                                  + " but the paged cache's is " + std::to_string(x.skv));
            continue;
        }
        // A packed (ragged) page table holds only the pages in use; a plain one covers s_kv.
        const bool packed = m.find(c.table)->raggedOffset >= 0;
        if(!packed && (x.skv + c.extent - 1) / c.extent != c.pages)
            throw Unsupported(std::string("sdpa: the page table of ") + c.name + " has " + std::to_string(c.pages)
                              + " pages, but s_kv " + std::to_string(x.skv) + " in blocks of " + std::to_string(c.extent)
                              + " needs " + std::to_string((x.skv + c.extent - 1) / c.extent)
                              + " (cuDNN's paged-cache load takes exactly those)");
    }
    if(!p.k)
    {
        std::swap(k->dims[2], k->dims[3]);
        std::swap(k->strides[2], k->strides[3]);
    }
    return p;
}

int64_t pagedKT(Model& m, const fbs::SdpaAttributes& a, CompositeBuilder& g, const Qkv& x, int64_t seqKv)
{
    TensorSpec& y = g.add(m.find(a.k_tensor_uid())->dtype, {x.b, x.hk, x.d, x.skv});
    y.strides = {x.d * x.skv * x.hk, x.d * x.skv, 1, x.d};
    const int64_t uid = y.uid;
    g.pagedCacheLoad(a.k_tensor_uid(), a.page_table_k_tensor_uid().value(), seqKv, uid);
    return uid;
}

int64_t pagedV(Model& m, const fbs::SdpaAttributes& a, CompositeBuilder& g, const Qkv& x, int64_t seqKv)
{
    const int64_t uid = g.add(m.find(a.v_tensor_uid())->dtype, {x.b, x.hv, x.skv, x.dv}).uid;
    g.pagedCacheLoad(a.v_tensor_uid(), a.page_table_v_tensor_uid().value(), seqKv, uid);
    return uid;
}

} // namespace sdpa

// buildPagedCacheLoad: OpSpec t = container pageTable seqLen y, set in cudnn-frontend's order.
DescPtr buildPagedCacheLoad(const OpSpec& op, BuildContext& ctx)
{
    auto node = std::make_shared<Desc>(CUDNN_BACKEND_OPERATION_PAGED_CACHE_LOAD_DESCRIPTOR);
    node->setDesc(CUDNN_ATTR_OPERATION_PAGED_CACHE_LOAD_CONTAINER_DESC, ctx.tensor(op.t[0]), "paged cache load");
    node->setDesc(CUDNN_ATTR_OPERATION_PAGED_CACHE_LOAD_PAGE_TABLE_DESC, ctx.tensor(op.t[1]), "paged cache load");
    node->setDesc(CUDNN_ATTR_OPERATION_PAGED_CACHE_LOAD_SEQUENCE_DESC, ctx.tensor(op.t[2]), "paged cache load");
    node->setDesc(CUDNN_ATTR_OPERATION_PAGED_CACHE_LOAD_YDESC, ctx.tensor(op.t[3]), "paged cache load");
    node->finalize("paged cache load operation");
    return node;
}

} // namespace hipdnngo::cudnn
