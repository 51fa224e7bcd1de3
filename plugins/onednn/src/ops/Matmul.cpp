// Matmul (batched, broadcast over leading dims) with the following pointwise nodes fused as
// post-ops.
#include "../PlanBuilder.hpp"

#include <algorithm>

namespace hipdnngo::onednn
{

void matmulInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_MatmulAttributes();
    reads(a->a_tensor_uid()), reads(a->b_tensor_uid());
}

// A tensor's md left-padded with unit dims to `rank`.
mdesc PlanBuilder::paddedMd(const Tensor& t, size_t rank)
{
    std::vector<int64_t> dims(rank - t.dims.size(), 1), st(rank - t.dims.size(), 0);
    dims.insert(dims.end(), t.dims.begin(), t.dims.end());
    st.insert(st.end(), t.strides.begin(), t.strides.end());
    const int64_t outer = t.dims[0] * t.strides[0];
    for(size_t d = 0; d < rank - t.dims.size(); ++d)
        st[d] = std::max<int64_t>(outer, 1);
    return mdWith(dims, t.dtype, st);
}

void PlanBuilder::matmul(const fbs::Node& n, const std::string& name)
{
    const auto& at = *n.attributes_as_MatmulAttributes();
    const Tensor& a = tensor(at.a_tensor_uid(), "a", name);
    const Tensor& b = tensor(at.b_tensor_uid(), "b", name);
    const Tensor& c = tensor(at.c_tensor_uid(), "c", name);
    const size_t rank = c.dims.size();
    if(rank < 2 || a.dims.size() < 2 || b.dims.size() < 2 || a.dims.size() > rank || b.dims.size() > rank)
        throw Unsupported(name + ": matmul tensors must have rank >= 2 and a, b no larger than c");
    const mdesc aMd = paddedMd(a, rank), bMd = paddedMd(b, rank);
    const std::vector<PostOp> chain = collectChain(c.index);
    std::optional<api::Built> built;
    size_t used = 0;
    std::string lastError;
    for(size_t k = chain.size() + 1; k-- > 0;)
    {
        const Tensor& dst = k == 0 ? c : p_.tensors_.at(chain[k - 1].out);
        std::string names;
        const dnnl::primitive_attr attr = attrFor(chain, 0, k, dst.dims, nullptr, &names);
        try
        {
            built = api::matmul(aMd, bMd, mdOf(dst), attr, build_);
            used = k;
            break;
        }
        catch(const dnnl::error& e)
        {
            lastError = e.what();
        }
    }
    if(!built)
        throw Unsupported(name + ": oneDNN has no matmul for these shapes/layouts/types (" + lastError + ")");
    const Tensor& dst = used == 0 ? c : p_.tensors_.at(chain[used - 1].out);
    std::vector<Arg> args{Arg{DNNL_ARG_SRC, aMd, input(a, name)}, Arg{DNNL_ARG_WEIGHTS, bMd, input(b, name)}};
    markFused(chain, used, c.index);
    std::string names;
    attrFor(chain, 0, used, dst.dims, &args, &names);
    args.push_back(Arg{DNNL_ARG_DST, mdOf(dst), output(dst, name)});
    addStep(*built, std::move(args), "matmul" + names);
    next_ += used;
}

} // namespace hipdnngo::onednn
