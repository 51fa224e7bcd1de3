// ContextPayload.hpp: a round trip of every field kind, and each way a payload can be wrong
// (empty, foreign magic, other format, truncated anywhere, trailing bytes) failing with
// BAD_PARAM and the message the engines pass on. Exit status 1 on any failure (printed).
#include <hipdnn_plugin_sdk/helpers/ContextPayload.hpp>

#include <cstdio>
#include <functional>

namespace
{

int failures = 0;

void check(bool ok, const char* what)
{
    if(!ok && ++failures)
        std::printf("FAIL: %s\n", what);
}

// failsWith runs f and expects PluginError(BAD_PARAM) whose message equals want.
void failsWith(const std::function<void()>& f, const std::string& want, const char* what)
{
    try
    {
        f();
        std::printf("FAIL: %s: no error\n", what);
        ++failures;
    }
    catch(const hipdnn_plugin_sdk::PluginError& e)
    {
        if(e.status() != HIPDNN_PLUGIN_STATUS_BAD_PARAM || want != e.what())
        {
            std::printf("FAIL: %s: status %d, message '%s', want '%s'\n", what, static_cast<int>(e.status()), e.what(),
                        want.c_str());
            ++failures;
        }
    }
}

std::vector<uint8_t> sample()
{
    hipdnn_plugin_sdk::ContextPayloadWriter w("TEST", 3);
    w.blob({1, 2, 3});
    w.i64(-5);
    w.u32(0xA1B2C3D4u);
    w.u64(uint64_t{1} << 40);
    w.blob({});
    return w.take();
}

void read(const std::vector<uint8_t>& bytes)
{
    const hipdnnPluginConstData_t in{bytes.data(), bytes.size()};
    hipdnn_plugin_sdk::ContextPayloadReader r(&in, "TEST", 3, "TEST_ENGINE");
    check(r.blob() == std::vector<uint8_t>{1, 2, 3}, "blob");
    check(r.i64() == -5, "i64");
    check(r.u32() == 0xA1B2C3D4u, "u32");
    check(r.u64() == uint64_t{1} << 40, "u64");
    check(r.blob().empty(), "empty blob");
    r.finish();
}

} // namespace

int main()
{
    const std::vector<uint8_t> good = sample();
    // Layout: magic, u32 format, u64 size + 3 bytes, i64, u32, u64, u64 size 0.
    check(good.size() == 4 + 4 + 8 + 3 + 8 + 4 + 8 + 8, "size");
    check(good[4] == 3 && good[8] == 3 && good[16] == 1, "little-endian fields");
    read(good);

    failsWith([] { read({}); }, "serialized context buffer is NULL or empty", "empty");
    std::vector<uint8_t> foreign = good;
    foreign[0] = 'X';
    failsWith([&] { read(foreign); }, "serialized context was not made by TEST_ENGINE", "magic");
    std::vector<uint8_t> other = good;
    other[4] = 4;
    failsWith([&] { read(other); }, "serialized context format 4 of TEST_ENGINE is not supported (this build reads 3)",
              "format");
    for(size_t n = 8; n < good.size(); ++n)
        failsWith([&] { read(std::vector<uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n))); },
                  "serialized context of TEST_ENGINE is truncated", "truncated");
    std::vector<uint8_t> huge = good;
    huge[15] = 0x80; // the first blob claims 2^63 bytes
    failsWith([&] { read(huge); }, "serialized context of TEST_ENGINE is truncated", "oversized blob");
    std::vector<uint8_t> trailing = good;
    trailing.push_back(0);
    failsWith([&] { read(trailing); }, "serialized context of TEST_ENGINE has 1 unexpected trailing bytes", "trailing");

    if(failures == 0)
        std::printf("context payload: all checks passed\n");
    return failures == 0 ? 0 : 1;
}
