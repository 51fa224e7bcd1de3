// mha_tensors.h - moving the driver's logical arrays into stand-in tensors (host memory, or device
// memory with MHA_STANDIN_CUDA) in the layouts PyTorch passes, reading results back, comparing.
#pragma once

#include <ATen/ATen.h>

#include <cstdio>
#include <string>

#include "mha_case.h"

namespace mha {

// store: a tensor of the I/O type holding `t` in layout `l` (sizes and strides as PyTorch's).
inline at::Tensor
store(Logical const& t, Layout const& l, bool bf16, Case const& c, bool queryRows) {
    std::vector<uint16_t> raw(l.elements(), 0);
    for (int64_t bi = 0; bi < t.b; ++bi)
        for (int64_t h = 0; h < t.H; ++h)
            for (int64_t i = 0; i < t.S; ++i) {
                if (!rowExists(c, bi, i, queryRows) && l.kind == Layout::THD) continue;
                for (int64_t e = 0; e < t.D; ++e) raw[l.at(bi, h, i, e)] = toIo(static_cast<float>(t(bi, h, i, e)), bf16);
            }
    at::Tensor flat = at::empty({static_cast<int64_t>(raw.size())}, at::TensorOptions{bf16 ? at::kBFloat16 : at::kHalf});
    at::copyFromHost(flat.data_ptr(), raw.data(), raw.size() * 2);
    return flat.as_strided(l.sizes(), l.strides(), 0);
}

// load: the logical [b, H, S, D] values of a result tensor, whatever strides it was given:
// dense tensors are [b, H, S, D] views, nested ones [T, H, D] (rows follow the cumulative lengths).
inline Logical
load(at::Tensor const& t, Case const& c, int64_t H, int64_t S, int64_t D, bool queryRows) {
    Logical out{c.b, H, S, D, std::vector<double>(static_cast<size_t>(c.b * H * S * D), 0)};
    auto raw      = t.hostElements();  // row-major over t's sizes
    bool const io = t.scalar_type() == at::kHalf || t.scalar_type() == at::kBFloat16;
    auto value    = [&](size_t n) -> double {
        if (io) {
            uint16_t x;
            std::memcpy(&x, raw.data() + 2 * n, 2);
            return fromIo(x, t.scalar_type() == at::kBFloat16);
        }
        float f;
        std::memcpy(&f, raw.data() + 4 * n, 4);
        return f;
    };
    std::vector<int64_t> cum = cumulative(queryRows ? (c.seq_q.empty() ? std::vector<int64_t>(static_cast<size_t>(c.b), c.sq) : c.seq_q)
                                                    : (c.seq_kv.empty() ? std::vector<int64_t>(static_cast<size_t>(c.b), c.skv) : c.seq_kv));
    for (int64_t bi = 0; bi < c.b; ++bi)
        for (int64_t h = 0; h < H; ++h)
            for (int64_t i = 0; i < S; ++i) {
                if (c.nested && !rowExists(c, bi, i, queryRows)) continue;
                for (int64_t e = 0; e < D; ++e) {
                    size_t const n = c.nested ? static_cast<size_t>((cum[static_cast<size_t>(bi)] + i) * H * D + h * D + e)
                                              : static_cast<size_t>(((bi * H + h) * S + i) * D + e);
                    out(bi, h, i, e) = value(n);
                }
            }
    return out;
}

// int32 / int64 / fp32 tensors from host values.
inline at::Tensor
intTensor(std::vector<int64_t> const& v, std::vector<int64_t> const& sizes, at::ScalarType t) {
    return at::detail::fromInt64(v, sizes, t);
}
inline at::Tensor
floatTensor(std::vector<float> const& v, std::vector<int64_t> const& sizes) {
    at::Tensor out = at::empty(sizes, at::TensorOptions{at::kFloat});
    at::copyFromHost(out.data_ptr(), v.data(), v.size() * 4);
    return out;
}

// Compare: max |got - want| over the rows `keep` says exist, against bound = k * eps * max(1, max|want|).
struct Check {
    double err = 0, bound = 0;
    bool ok() const { return err <= bound; }
};

template <typename Keep>
Check
compare(Logical const& got, Logical const& want, double k, bool bf16, Keep keep) {
    Check r;
    double big = 1;
    for (int64_t bi = 0; bi < want.b; ++bi)
        for (int64_t h = 0; h < want.H; ++h)
            for (int64_t i = 0; i < want.S; ++i) {
                if (!keep(bi, h, i)) continue;
                for (int64_t e = 0; e < want.D; ++e) {
                    double const g = got(bi, h, i, e), w = want(bi, h, i, e);
                    r.err          = std::isfinite(g) ? std::max(r.err, std::fabs(g - w)) : std::numeric_limits<double>::infinity();
                    big            = std::max(big, std::fabs(w));
                }
            }
    r.bound = k * ioEps(bf16) * big;
    return r;
}

}  // namespace mha
