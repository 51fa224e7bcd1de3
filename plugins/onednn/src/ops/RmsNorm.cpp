// RMSNorm forward (inference and training) and backward: the engine's kernel
// (NormKernels.hpp), planned here. oneDNN 2.6 has no RMSNorm primitive. The normalized axes
// follow the CPU reference engine: the axes along which scale varies (never the batch axis); a
// scale of one element normalizes every axis but the first. They must be contiguous in a dense
// row-major x. The kernel computes in f32, so a plan with 16-bit tensors is staged
// (Plan's constructor retries a declined native plan staged).
#include "../PlanBuilder.hpp"
#include "../NormKernels.hpp"

namespace hipdnngo::onednn
{

void rmsnormInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_RMSNormAttributes();
    reads(a->x_tensor_uid()), reads(a->scale_tensor_uid()), reads(a->epsilon_tensor_uid());
    if(a->bias_tensor_uid())
        reads(*a->bias_tensor_uid());
}

void rmsnormBackwardInputs(const fbs::Node& n, const InputCounter& reads)
{
    const auto* a = n.attributes_as_RMSNormBackwardAttributes();
    reads(a->dy_tensor_uid()), reads(a->x_tensor_uid()), reads(a->scale_tensor_uid()), reads(a->inv_rms_tensor_uid());
}

namespace
{

// aligned: t's dims left-padded with 1s to `rank`; nullopt if t does not broadcast to x.
std::optional<std::vector<int64_t>> alignedTo(const Tensor& t, const Tensor& x) { return broadcastTo(t.dims, x.dims); }

} // namespace

// rmsShape: the [A, N, B] view of x for a scale tensor (declines what the kernel cannot do).
RmsNormShape PlanBuilder::rmsShape(const Tensor& x, const Tensor& scale, const std::string& name)
{
    const auto sd = alignedTo(scale, x);
    if(!sd)
        throw Unsupported(name + ": RMSNorm scale " + scale.label() + " does not broadcast to x");
    int first = -1, last = -1;
    for(int d = 0; d < x.rank(); ++d)
        if((*sd)[static_cast<size_t>(d)] != 1)
        {
            first = first < 0 ? d : first;
            last = d;
        }
    if(first == 0 && x.rank() >= 2)
        throw Unsupported(name + ": RMSNorm scale varies along the batch axis");
    if(first < 0) // one-element scale: every axis but the first
        first = x.rank() >= 2 ? 1 : 0, last = x.rank() - 1;
    for(int d = first; d <= last; ++d)
        if((*sd)[static_cast<size_t>(d)] == 1 && x.dims[static_cast<size_t>(d)] != 1 && scale.elements() != 1)
            throw Unsupported(name + ": RMSNorm over non-contiguous axes (scale " + scale.label()
                              + " varies along axes " + std::to_string(first) + " and " + std::to_string(last)
                              + " but not all between)");
    if(!rowMajor(x))
        throw Unsupported(name + ": RMSNorm needs a dense row-major x");
    RmsNormShape s;
    for(int d = 0; d < x.rank(); ++d)
    {
        const int64_t v = x.dims[static_cast<size_t>(d)];
        (d < first ? s.a : d <= last ? s.n : s.b) *= v;
    }
    s.scaleScalar = scale.elements() == 1;
    return s;
}

// rmsVector: a per-N parameter (scale, bias, dscale, dbias) as a dense f32 vector of N elements
// or one element; returns whether it is the one-element form.
bool PlanBuilder::rmsVector(const Tensor& t, const Tensor& x, const RmsNormShape& s, const char* role, const std::string& name)
{
    if(t.dtype != fbs::DataType::FLOAT)
        throw Unsupported(name + ": RMSNorm " + role + " " + t.label() + " is " + fbs::EnumNameDataType(t.dtype)
                          + "; the engine's RMSNorm kernel computes in f32 (16-bit tensors are staged)");
    if(t.isConstant || t.isPassByValue)
        throw Unsupported(name + ": RMSNorm " + role + " must be a tensor, not a scalar");
    if(t.elements() == 1)
        return true;
    const auto ad = alignedTo(t, x);
    if(!ad || t.elements() != s.n || !rowMajor(t))
        throw Unsupported(name + ": RMSNorm " + role + " " + t.label() + " must be dense with the normalized axes' "
                          + std::to_string(s.n) + " elements");
    return false;
}

// rmsData: x-shaped data (x, y, dy, dx) in f32, dense row-major with x's dims.
void PlanBuilder::rmsData(const Tensor& t, const Tensor& x, const char* role, const std::string& name)
{
    if(t.dtype != fbs::DataType::FLOAT)
        throw Unsupported(name + ": RMSNorm " + role + " " + t.label() + " is " + fbs::EnumNameDataType(t.dtype)
                          + "; the engine's RMSNorm kernel computes in f32 (16-bit tensors are staged)");
    if(t.dims != x.dims || !rowMajor(t))
        throw Unsupported(name + ": RMSNorm " + role + " " + t.label() + " must be dense row-major with x's dims");
}

// rmsStats: inv_rms, x's dims with the normalized axes 1, dense: A·B f32 elements.
void PlanBuilder::rmsStats(const Tensor& t, const RmsNormShape& s, const std::string& name)
{
    if(t.dtype != fbs::DataType::FLOAT)
        throw Unsupported(name + ": RMSNorm inv_rms " + t.label() + " is " + fbs::EnumNameDataType(t.dtype)
                          + "; the engine's RMSNorm kernel computes in f32 (16-bit tensors are staged)");
    if(t.elements() != s.a * s.b || !rowMajor(t) || t.isConstant || t.isPassByValue)
        throw Unsupported(name + ": RMSNorm inv_rms " + t.label() + " must be dense with " + std::to_string(s.a * s.b)
                          + " elements (x's dims, the normalized axes 1)");
}

void PlanBuilder::rmsnorm(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_RMSNormAttributes();
    const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
    const Tensor& scale = tensor(a.scale_tensor_uid(), "scale", name);
    const Tensor& y = tensor(a.y_tensor_uid(), "y", name);
    const Tensor* bias = a.bias_tensor_uid() ? &tensor(*a.bias_tensor_uid(), "bias", name) : nullptr;
    const Tensor* inv = a.inv_rms_tensor_uid() ? &tensor(*a.inv_rms_tensor_uid(), "inv_rms", name) : nullptr;
    const Tensor* eps = p_.tensors_.find(a.epsilon_tensor_uid());
    if(eps == nullptr || !(eps->isConstant || (eps->isPassByValue && eps->dtype == fbs::DataType::FLOAT)))
        throw Unsupported(name + ": RMSNorm epsilon must be a constant scalar or an f32 pass-by-value scalar");
    RmsNormShape s = rmsShape(x, scale, name);
    rmsData(x, x, "x", name);
    rmsData(y, x, "y", name);
    rmsVector(scale, x, s, "scale", name);
    if(bias)
        s.biasScalar = rmsVector(*bias, x, s, "bias", name);
    if(inv)
        rmsStats(*inv, s, name);
    // 16-bit x and y in a staged plan: the kernel reads and writes them itself.
    const std::optional<Storage> raw = rawStorage({&x}, {&y});
    s.data = raw.value_or(Storage::F32);
    std::vector<Buffer> bufs{raw ? rawBuffer(x, false, name) : input(x, name), input(scale, name)};
    bufs.push_back(bias ? input(*bias, name) : Buffer::none());
    const bool epsConstant = eps->isConstant;
    const float epsValue = static_cast<float>(eps->value);
    bufs.push_back(epsConstant ? Buffer::none() : input(*eps, name));
    bufs.push_back(raw ? rawBuffer(y, true, name) : output(y, name));
    bufs.push_back(inv ? output(*inv, name) : Buffer::none());
    const bool hasBias = bias != nullptr, hasInv = inv != nullptr;
    addKernel(std::move(bufs),
              [s, hasBias, hasInv, epsConstant, epsValue](void* const* at) {
                  const float e = epsConstant ? epsValue : *static_cast<const float*>(at[3]);
                  rmsNormForward(s, at[0], static_cast<const float*>(at[1]), hasBias ? static_cast<const float*>(at[2]) : nullptr,
                                 e, at[4], hasInv ? static_cast<float*>(at[5]) : nullptr);
              },
              std::string("rmsnorm_fwd") + (raw ? " (16-bit x, y)" : "") + " [" + std::to_string(s.a) + "," + std::to_string(s.n) + "," + std::to_string(s.b) + "]");
}

void PlanBuilder::rmsnormBackward(const fbs::Node& n, const std::string& name)
{
    const auto& a = *n.attributes_as_RMSNormBackwardAttributes();
    const Tensor& dy = tensor(a.dy_tensor_uid(), "dy", name);
    const Tensor& x = tensor(a.x_tensor_uid(), "x", name);
    const Tensor& scale = tensor(a.scale_tensor_uid(), "scale", name);
    const Tensor& inv = tensor(a.inv_rms_tensor_uid(), "inv_rms", name);
    const Tensor& dx = tensor(a.dx_tensor_uid(), "dx", name);
    const Tensor& dscale = tensor(a.dscale_tensor_uid(), "dscale", name);
    const Tensor* dbias = a.dbias_tensor_uid() ? &tensor(*a.dbias_tensor_uid(), "dbias", name) : nullptr;
    RmsNormShape s = rmsShape(x, scale, name);
    for(const auto& [t, role] : {std::pair{&dy, "dy"}, {&x, "x"}, {&dx, "dx"}})
        rmsData(*t, x, role, name);
    rmsVector(scale, x, s, "scale", name);
    if(rmsVector(dscale, x, s, "dscale", name) != s.scaleScalar)
        throw Unsupported(name + ": RMSNorm dscale " + dscale.label() + " must have scale's shape");
    if(dbias)
        s.biasScalar = rmsVector(*dbias, x, s, "dbias", name);
    rmsStats(inv, s, name);
    const Buffer work = temp(mdesc({static_cast<int64_t>(rmsNormBackwardWorkspace(s) / sizeof(float))}, dt::f32,
                                   dnnl::memory::dims{1}));
    const std::optional<Storage> raw = rawStorage({&dy, &x}, {&dx});
    s.data = raw.value_or(Storage::F32);
    std::vector<Buffer> bufs{raw ? rawBuffer(dy, false, name) : input(dy, name),
                             raw ? rawBuffer(x, false, name) : input(x, name),
                             input(scale, name),
                             input(inv, name),
                             raw ? rawBuffer(dx, true, name) : output(dx, name),
                             output(dscale, name)};
    bufs.push_back(dbias ? output(*dbias, name) : Buffer::none());
    bufs.push_back(work);
    const bool hasBias = dbias != nullptr;
    addKernel(std::move(bufs),
              [s, hasBias](void* const* at) {
                  rmsNormBackward(s, at[0], at[1], static_cast<const float*>(at[2]), static_cast<const float*>(at[3]), at[4],
                                  static_cast<float*>(at[5]), hasBias ? static_cast<float*>(at[6]) : nullptr,
                                  static_cast<float*>(at[7]));
              },
              std::string("rmsnorm_bwd") + (raw ? " (16-bit dy, x, dx)" : "") + " [" + std::to_string(s.a) + "," + std::to_string(s.n) + "," + std::to_string(s.b) + "]");
}

} // namespace hipdnngo::onednn
