// hipdnn_plugin_sdk/helpers/ContextPayload.hpp
//
// The byte format of a serialized execution context (hipdnnEnginePluginSerializeExecutionContext),
// shared by this project's engines: a 4-byte magic naming the engine, a u32 format version, then
// fields in order: little-endian u32 / u64 / i64 scalars and blobs (u64 size, then the bytes).
// The reader checks every size against what is left, so a truncated or foreign payload fails with
// BAD_PARAM and a message naming the engine, never reads past the buffer.
//
//   ContextPayloadWriter w("HGCR", 1);          ContextPayloadReader r(payload, "HGCR", 1, "MY_ENGINE");
//   w.blob(graph);                               std::vector<uint8_t> graph = r.blob();
//   w.i64(rank);                                 int64_t rank = r.i64();
//   return w.take();                             r.finish();
#ifndef HIPDNN_PLUGIN_SDK_HELPERS_CONTEXT_PAYLOAD_HPP
#define HIPDNN_PLUGIN_SDK_HELPERS_CONTEXT_PAYLOAD_HPP

#include <hipdnn_plugin_sdk/helpers/PluginHelpers.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace hipdnn_plugin_sdk
{

class ContextPayloadWriter
{
public:
    ContextPayloadWriter(const char (&magic)[5], uint32_t format) : out_(magic, magic + 4) { u32(format); }

    void u32(uint32_t v) { put(v, 4); }
    void u64(uint64_t v) { put(v, 8); }
    void i64(int64_t v) { put(static_cast<uint64_t>(v), 8); }
    void blob(const std::vector<uint8_t>& b)
    {
        u64(b.size());
        out_.insert(out_.end(), b.begin(), b.end());
    }

    std::vector<uint8_t> take() { return std::move(out_); }

private:
    std::vector<uint8_t> out_;

    void put(uint64_t v, int bytes)
    {
        for(int i = 0; i < bytes; ++i)
            out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
};

class ContextPayloadReader
{
public:
    // Copies the borrowed payload, checks the magic (else "not made by <engine>") and the
    // format version (else "format N is not supported").
    ContextPayloadReader(const hipdnnPluginConstData_t* payload, const char (&magic)[5], uint32_t format,
                         const char* engine)
        : in_(copyBuffer(payload, "serialized context")), engine_(engine)
    {
        if(in_.size() < 8 || std::memcmp(in_.data(), magic, 4) != 0)
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context was not made by " + engine_);
        pos_ = 4;
        const uint32_t v = u32();
        if(v != format)
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context format " + std::to_string(v) + " of " + engine_
                                                     + " is not supported (this build reads " + std::to_string(format)
                                                     + ")");
    }

    uint32_t u32() { return static_cast<uint32_t>(get(4)); }
    uint64_t u64() { return get(8); }
    int64_t i64() { return static_cast<int64_t>(get(8)); }
    std::vector<uint8_t> blob()
    {
        const uint64_t n = u64();
        need(n);
        std::vector<uint8_t> b(in_.begin() + static_cast<std::ptrdiff_t>(pos_),
                               in_.begin() + static_cast<std::ptrdiff_t>(pos_ + n));
        pos_ += n;
        return b;
    }

    // finish refuses trailing bytes: a payload of another format version that kept the magic.
    void finish() const
    {
        if(pos_ != in_.size())
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context of " + engine_ + " has "
                                                     + std::to_string(in_.size() - pos_) + " unexpected trailing bytes");
    }

private:
    std::vector<uint8_t> in_;
    std::string engine_;
    size_t pos_ = 0;

    void need(uint64_t n) const
    {
        if(n > in_.size() - pos_)
            fail(HIPDNN_PLUGIN_STATUS_BAD_PARAM, "serialized context of " + engine_ + " is truncated");
    }

    uint64_t get(int bytes)
    {
        need(static_cast<uint64_t>(bytes));
        uint64_t v = 0;
        for(int i = 0; i < bytes; ++i)
            v |= static_cast<uint64_t>(in_[pos_ + static_cast<size_t>(i)]) << (8 * i);
        pos_ += static_cast<size_t>(bytes);
        return v;
    }
};

} // namespace hipdnn_plugin_sdk

#endif
