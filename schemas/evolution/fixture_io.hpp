// Shared by make_future.cpp and make_past.cpp: verify a finished Graph buffer with the
// flatc-generated Verifier of the variant it was built with, then write it to <dir>/<name>.
#ifndef HIPDNN_EVOLUTION_FIXTURE_IO_HPP
#define HIPDNN_EVOLUTION_FIXTURE_IO_HPP

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <flatbuffers/flatbuffers.h>

namespace evolution
{

// Every fixture graph is finished the way the frontend finishes one: no file identifier,
// no size prefix.
template <typename VerifyFn>
bool writeGraph(const std::string& dir, const char* name, flatbuffers::FlatBufferBuilder& b, VerifyFn verify)
{
    flatbuffers::Verifier v(b.GetBufferPointer(), b.GetSize());
    if(!verify(v))
    {
        std::fprintf(stderr, "%s: the variant's own Verifier rejects the buffer\n", name);
        return false;
    }
    const std::string path = dir + "/" + name;
    FILE* f = std::fopen(path.c_str(), "wb");
    if(f == nullptr)
    {
        std::perror(path.c_str());
        return false;
    }
    bool ok = std::fwrite(b.GetBufferPointer(), 1, b.GetSize(), f) == b.GetSize();
    ok = (std::fclose(f) == 0) && ok;
    if(ok)
        std::printf("wrote %s (%u bytes)\n", path.c_str(), unsigned(b.GetSize()));
    return ok;
}

// Packed (row-major) strides of dims.
inline std::vector<int64_t> packed(const std::vector<int64_t>& dims)
{
    std::vector<int64_t> s(dims.size());
    int64_t n = 1;
    for(size_t i = dims.size(); i-- > 0;)
    {
        s[i] = n;
        n *= dims[i];
    }
    return s;
}

} // namespace evolution

#endif
