// mha_standin/tensor.h - the whole ATen/c10 stand-in PyTorch's MHA.cpp needs, in one header.
// The ATen/... and c10/... headers beside it only include this file, so MHA.cpp compiles with its
// own include lines. It is our own minimal code, not PyTorch's: a strided tensor over one buffer,
// the dozen methods MHA.cpp calls, the check macros, the graph-cache key helpers and the cuDNN
// handle. tests/mha/README.md lists what MHA.cpp uses and the macros a build sets.
//
// Memory: host memory (the CPU engines read it). Built with MHA_STANDIN_CUDA, every tensor lives
// in CUDA device memory (cudaMalloc), the workspace allocator hands out device memory, and the
// few elementwise helpers (mul, diff, to, contiguous) stage through the host: they run on tiny
// offset tensors or once per call, so speed does not matter here.
#pragma once

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#ifdef MHA_STANDIN_CUDA
#include <cuda_runtime.h>
#endif

namespace c10 {

using DeviceIndex = int8_t;

enum class ScalarType : int8_t { Int, Long, Float, Half, BFloat16 };
constexpr ScalarType kInt      = ScalarType::Int;
constexpr ScalarType kLong     = ScalarType::Long;
constexpr ScalarType kFloat    = ScalarType::Float;
constexpr ScalarType kHalf     = ScalarType::Half;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;

inline size_t
elementSize(ScalarType t) {
    switch (t) {
        case ScalarType::Long: return 8;
        case ScalarType::Half:
        case ScalarType::BFloat16: return 2;
        default: return 4;
    }
}

// Error is what TORCH_CHECK and TORCH_INTERNAL_ASSERT throw.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

namespace detail {
inline void
streamAll(std::ostringstream&) {}
template <typename A, typename... R>
void
streamAll(std::ostringstream& os, A const& a, R const&... r) {
    os << a;
    streamAll(os, r...);
}
template <typename... A>
std::string
str(A const&... a) {
    std::ostringstream os;
    os << std::boolalpha;
    streamAll(os, a...);
    return os.str();
}
// warn prints a TORCH_WARN message; MHA_STANDIN_QUIET_WARNINGS=1 in the environment hides them.
inline void
warn(const char* file, int line, std::string const& msg) {
    char const* q = std::getenv("MHA_STANDIN_QUIET_WARNINGS");
    if (q && *q == '1') return;
    std::fprintf(stderr, "[TORCH_WARN %s:%d] %s\n", file, line, msg.c_str());
}
}  // namespace detail

// ArrayRef: a non-owning view of contiguous elements (sizes, strides, shapes).
template <typename T>
class ArrayRef {
  public:
    ArrayRef() = default;
    ArrayRef(T const* d, size_t n) : data_(d), size_(n) {}
    ArrayRef(std::vector<T> const& v) : data_(v.data()), size_(v.size()) {}         // NOLINT
    // As ATen's: the list lives until the end of the full expression the view is used in.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
    ArrayRef(std::initializer_list<T> l) : data_(l.begin()), size_(l.size()) {}  // NOLINT
#pragma GCC diagnostic pop
    T const* begin() const { return data_; }
    T const* end() const { return data_ + size_; }
    T const* data() const { return data_; }
    size_t size() const { return size_; }
    T const& operator[](size_t i) const { return data_[i]; }
    std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

  private:
    T const* data_ = nullptr;
    size_t size_   = 0;
};
using IntArrayRef = ArrayRef<int64_t>;

}  // namespace c10

namespace at {

using c10::DeviceIndex;
using c10::IntArrayRef;
using c10::kBFloat16;
using c10::kFloat;
using c10::kHalf;
using c10::kInt;
using c10::kLong;
using c10::ScalarType;

#ifdef MHA_STANDIN_CUDA
// Device memory is pooled by exact size, as PyTorch's caching allocator keeps freed blocks: a
// tensor or workspace made on every call (MHA.cpp does both) then costs no cudaMalloc/cudaFree,
// which would synchronize the device and swamp a timing (tests/mha/mha_bench.cpp).
// zeroNewTensors: every allocation starts zeroed (the driver's checks rely on it); the bench turns
// it off, since PyTorch's empty() does not clear memory either.
inline bool& zeroNewTensors() {
    static bool z = true;
    return z;
}
// The pool gives its blocks back at exit, so leak checkers see none; a Buffer that outlives it
// (another static) frees its block directly.
inline bool& devicePoolClosed() {
    static bool closed = false;  // trivially destructible: still readable during static teardown
    return closed;
}
struct DevicePool {
    std::unordered_multimap<size_t, void*> blocks;
    ~DevicePool() {
        for (auto& block : blocks) cudaFree(block.second);
        devicePoolClosed() = true;
    }
};
inline std::unordered_multimap<size_t, void*>& devicePool() {
    static DevicePool pool;
    return pool.blocks;
}
#endif

// Buffer owns one allocation: host (calloc) or, with MHA_STANDIN_CUDA, pooled device memory.
struct Buffer {
    void* ptr = nullptr;
    size_t size = 0;
    explicit Buffer(size_t bytes) : size(bytes ? bytes : 1) {
#ifdef MHA_STANDIN_CUDA
        auto& pool = devicePool();
        auto it    = pool.find(size);
        if (it != pool.end()) {
            ptr = it->second;
            pool.erase(it);
        } else if (cudaMalloc(&ptr, size) != cudaSuccess) {
            throw c10::Error("cudaMalloc failed");
        }
        if (zeroNewTensors()) cudaMemset(ptr, 0, size);
#else
        ptr = std::calloc(size, 1);
        if (!ptr) throw c10::Error("out of host memory");
#endif
    }
    ~Buffer() {
#ifdef MHA_STANDIN_CUDA
        if (devicePoolClosed())
            cudaFree(ptr);
        else
            devicePool().emplace(size, ptr);
#else
        std::free(ptr);
#endif
    }
    Buffer(Buffer const&)            = delete;
    Buffer& operator=(Buffer const&) = delete;
};

// copyToHost / copyFromHost move bytes between a tensor's memory and the host.
inline void
copyToHost(void* host, void const* mem, size_t bytes) {
#ifdef MHA_STANDIN_CUDA
    if (cudaMemcpy(host, mem, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) throw c10::Error("cudaMemcpy D2H failed");
#else
    std::memcpy(host, mem, bytes);
#endif
}
inline void
copyFromHost(void* mem, void const* host, size_t bytes) {
#ifdef MHA_STANDIN_CUDA
    if (cudaMemcpy(mem, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess) throw c10::Error("cudaMemcpy H2D failed");
#else
    std::memcpy(mem, host, bytes);
#endif
}

struct TensorOptions {
    ScalarType dtype_ = kFloat;
    TensorOptions dtype(ScalarType t) const {
        TensorOptions o = *this;
        o.dtype_ = t;
        return o;
    }
};

inline std::vector<int64_t>
contiguousStrides(IntArrayRef sizes) {
    std::vector<int64_t> st(sizes.size());
    int64_t s = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
        st[i] = s;
        s *= std::max<int64_t>(sizes[i], 1);
    }
    return st;
}

// Tensor: sizes and strides (in elements) over a shared buffer, plus an element offset.
class Tensor {
  public:
    Tensor() = default;
    Tensor(std::shared_ptr<Buffer> buf, std::vector<int64_t> sizes, std::vector<int64_t> strides, int64_t offset,
           ScalarType t)
        : buf_(std::move(buf)), sizes_(std::move(sizes)), strides_(std::move(strides)), offset_(offset), type_(t) {}

    bool defined() const { return buf_ != nullptr; }
    bool is_nested() const { return false; }
    IntArrayRef sizes() const { return sizes_; }
    IntArrayRef strides() const { return strides_; }
    int64_t size(int64_t d) const { return sizes_.at(static_cast<size_t>(d < 0 ? d + dim() : d)); }
    int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
    int64_t numel() const {
        int64_t n = 1;
        for (auto s : sizes_) n *= s;
        return n;
    }
    ScalarType scalar_type() const { return type_; }
    ScalarType dtype() const { return type_; }  // ATen returns a TypeMeta; MHA.cpp compares it to kInt
    TensorOptions options() const { return TensorOptions{type_}; }
    void* data_ptr() const {
        return defined() ? static_cast<char*>(buf_->ptr) + offset_ * static_cast<int64_t>(c10::elementSize(type_))
                         : nullptr;
    }

    Tensor as_strided(IntArrayRef sizes, IntArrayRef strides, int64_t offset) const {
        return Tensor(buf_, sizes.vec(), strides.vec(), offset, type_);
    }
    Tensor permute(IntArrayRef dims) const {
        std::vector<int64_t> sz, st;
        for (auto d : dims) {
            sz.push_back(sizes_.at(static_cast<size_t>(d)));
            st.push_back(strides_.at(static_cast<size_t>(d)));
        }
        return Tensor(buf_, sz, st, offset_, type_);
    }
    bool is_contiguous() const { return strides_ == contiguousStrides(sizes_) || numel() <= 1; }
    Tensor contiguous() const;
    Tensor to(ScalarType t) const;
    Tensor mul(int64_t k) const;

    // Host copies of the elements in logical (row-major) order, and the way back.
    std::vector<char> hostElements() const;
    void setHostElements(std::vector<char> const& packed);

  private:
    std::shared_ptr<Buffer> buf_;
    std::vector<int64_t> sizes_, strides_;
    int64_t offset_  = 0;
    ScalarType type_ = kFloat;
};

inline Tensor
empty(IntArrayRef sizes, TensorOptions o) {
    int64_t n = 1;
    for (auto s : sizes) n *= s;
    auto buf = std::make_shared<Buffer>(static_cast<size_t>(n) * c10::elementSize(o.dtype_));
    return Tensor(buf, sizes.vec(), contiguousStrides(sizes), 0, o.dtype_);
}

// empty_like keeps the layout of a dense, non-overlapping tensor (ATen's preserve_format does),
// else it is contiguous.
inline Tensor
empty_like(Tensor const& t) {
    std::vector<int64_t> order(t.sizes().size());
    std::iota(order.begin(), order.end(), 0);
    auto st = t.strides();
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return st[a] > st[b]; });
    bool dense = true;
    int64_t expect = 1;
    for (size_t i = order.size(); i-- > 0;) {
        auto d = static_cast<size_t>(order[i]);
        if (t.sizes()[d] != 1 && st[d] != expect) dense = false;
        expect *= t.sizes()[d];
    }
    Tensor e = empty(t.sizes(), t.options());
    return dense ? e.as_strided(t.sizes(), t.strides(), 0) : e;
}

inline std::vector<char>
Tensor::hostElements() const {
    if (!defined()) throw c10::Error("stand-in: reading an undefined tensor");
    size_t const es = c10::elementSize(type_);
    int64_t lo = 0, hi = 0;  // element span the view touches, relative to offset_
    for (size_t d = 0; d < sizes_.size(); ++d) {
        if (sizes_[d] == 0) return {};
        (strides_[d] < 0 ? lo : hi) += (sizes_[d] - 1) * strides_[d];
    }
    std::vector<char> raw(static_cast<size_t>(hi - lo + 1) * es);
    copyToHost(raw.data(), static_cast<char*>(data_ptr()) + lo * static_cast<int64_t>(es), raw.size());
    std::vector<char> out(static_cast<size_t>(numel()) * es);
    std::vector<int64_t> idx(sizes_.size(), 0);
    for (int64_t n = 0; n < numel(); ++n) {
        int64_t off = -lo;
        for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * strides_[d];
        std::memcpy(out.data() + n * es, raw.data() + off * static_cast<int64_t>(es), es);
        for (size_t d = idx.size(); d-- > 0;) {
            if (++idx[d] < sizes_[d]) break;
            idx[d] = 0;
        }
    }
    return out;
}

inline void
Tensor::setHostElements(std::vector<char> const& packed) {
    if (is_contiguous()) {
        copyFromHost(data_ptr(), packed.data(), packed.size());
        return;
    }
    // Scatter element by element (tests only write packed tensors this way, so this is rare).
    size_t const es = c10::elementSize(type_);
    std::vector<int64_t> idx(sizes_.size(), 0);
    for (int64_t n = 0; n < numel(); ++n) {
        int64_t off = 0;
        for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * strides_[d];
        copyFromHost(static_cast<char*>(data_ptr()) + off * static_cast<int64_t>(es), packed.data() + n * es, es);
        for (size_t d = idx.size(); d-- > 0;) {
            if (++idx[d] < sizes_[d]) break;
            idx[d] = 0;
        }
    }
}

inline Tensor
Tensor::contiguous() const {
    if (is_contiguous()) return *this;
    Tensor c = empty(sizes_, options());
    c.setHostElements(hostElements());
    return c;
}

namespace detail {
// asInt64 / fromInt64: the integer element types the offset helpers work on.
inline std::vector<int64_t>
asInt64(Tensor const& t) {
    auto raw = t.hostElements();
    std::vector<int64_t> v(static_cast<size_t>(t.numel()));
    for (size_t i = 0; i < v.size(); ++i) {
        if (t.scalar_type() == kInt) {
            int32_t x;
            std::memcpy(&x, raw.data() + 4 * i, 4);
            v[i] = x;
        } else if (t.scalar_type() == kLong) {
            std::memcpy(&v[i], raw.data() + 8 * i, 8);
        } else {
            throw c10::Error("stand-in: integer helpers take Int or Long tensors only");
        }
    }
    return v;
}
inline Tensor
fromInt64(std::vector<int64_t> const& v, IntArrayRef sizes, ScalarType t) {
    Tensor out = empty(sizes, TensorOptions{t});
    std::vector<char> raw(v.size() * c10::elementSize(t));
    for (size_t i = 0; i < v.size(); ++i) {
        if (t == kInt) {
            int32_t x = static_cast<int32_t>(v[i]);
            std::memcpy(raw.data() + 4 * i, &x, 4);
        } else {
            std::memcpy(raw.data() + 8 * i, &v[i], 8);
        }
    }
    out.setHostElements(raw);
    return out;
}
}  // namespace detail

inline Tensor
Tensor::to(ScalarType t) const {
    if (t == type_) return *this;
    return detail::fromInt64(detail::asInt64(*this), sizes_, t);
}

inline Tensor
Tensor::mul(int64_t k) const {
    auto v = detail::asInt64(*this);
    for (auto& x : v) x *= k;
    return detail::fromInt64(v, sizes_, type_);
}

// diff along dim 0 of a 1-D integer tensor (n = 1), as MHA.cpp calls it on cumulative lengths.
inline Tensor
diff(Tensor const& t, int64_t n, int64_t dim) {
    if (n != 1 || dim != 0 || t.dim() != 1) throw c10::Error("stand-in: at::diff supports n = 1, dim = 0, 1-D only");
    auto v = detail::asInt64(t);
    std::vector<int64_t> d(v.size() ? v.size() - 1 : 0);
    for (size_t i = 0; i < d.size(); ++i) d[i] = v[i + 1] - v[i];
    return detail::fromInt64(d, {static_cast<int64_t>(d.size())}, t.scalar_type());
}

}  // namespace at

#define TORCH_CHECK(cond, ...)                                                                     \
    do {                                                                                           \
        if (!(cond))                                                                               \
            throw ::c10::Error(::c10::detail::str("Expected " #cond " to be true: ", ##__VA_ARGS__, \
                                                  " (", __FILE__, ":", __LINE__, ")"));            \
    } while (0)
#define TORCH_INTERNAL_ASSERT(cond, ...)                                                                    \
    do {                                                                                                    \
        if (!(cond))                                                                                        \
            throw ::c10::Error(::c10::detail::str("INTERNAL ASSERT FAILED: " #cond " ", ##__VA_ARGS__));    \
    } while (0)
#define TORCH_WARN(...) ::c10::detail::warn(__FILE__, __LINE__, ::c10::detail::str(__VA_ARGS__))
#define TORCH_WARN_ONCE(...)                                                           \
    do {                                                                               \
        static bool mha_standin_warned_ = false;                                       \
        if (!mha_standin_warned_) {                                                    \
            mha_standin_warned_ = true;                                                \
            ::c10::detail::warn(__FILE__, __LINE__, ::c10::detail::str(__VA_ARGS__));  \
        }                                                                              \
    } while (0)
