// mha_dump.h - `mha_driver --dump DIR`: every tensor of every case run, as raw little-endian
// bytes in row-major order of the tensor's sizes (DIR/NNN_<path>_<tensor>.bin), and DIR/index.json
// describing each run (the case's parameters, and per tensor its file, dtype and sizes).
// compare_torch.py recomputes the cases with PyTorch from these files.
#pragma once

#include <ATen/ATen.h>

#include <cstdio>
#include <string>
#include <unordered_map>

#include "mha_case.h"

namespace mha {

class Dump {
  public:
    explicit Dump(std::string dir) : dir_(std::move(dir)) {
        index_ = std::fopen((dir_ + "/index.json").c_str(), "w");
        if (!index_) throw std::runtime_error("--dump: cannot write " + dir_ + "/index.json (does the folder exist?)");
        std::fprintf(index_, "{\"runs\": [\n");
    }
    ~Dump() { finish(); }

    // write records tensors keyed by the driver's UIDs (names below).
    void write(Case const& c, const char* path, std::unordered_map<int64_t, at::Tensor> const& t) {
        static const std::unordered_map<int64_t, const char*> names = {
            {1, "q"}, {2, "k"}, {3, "v"}, {4, "o"}, {5, "bias"}, {9, "stats"}, {10, "dO"}, {11, "dQ"}, {12, "dK"},
            {13, "dV"}};
        char id[16];
        std::snprintf(id, sizeof id, "%03d", runs_++);
        std::fprintf(index_, "%s{\"case\": \"%s\", \"path\": \"%s\", \"dtype\": \"%s\", \"b\": %lld, \"hq\": %lld, "
                             "\"hk\": %lld, \"hv\": %lld, \"sq\": %lld, \"skv\": %lld, \"d\": %lld, \"dv\": %lld, "
                             "\"scale\": %.9g, \"causal\": %s, \"nested\": %s, \"backward\": %s, \"stats\": %s, "
                             "\"dropout\": %g, \"seed\": 1234, \"offset\": 0, \"seq_q\": [%s], \"seq_kv\": [%s], \"tensors\": {",
                     runs_ > 1 ? ",\n" : "", c.name.c_str(), path, c.bf16 ? "bfloat16" : "float16", (long long)c.b,
                     (long long)c.hq, (long long)c.hk, (long long)c.hv, (long long)c.sq, (long long)c.skv, (long long)c.d,
                     (long long)c.dv, c.scale, c.causal ? "true" : "false", c.nested ? "true" : "false",
                     c.backward ? "true" : "false", c.stats ? "true" : "false", c.dropout, lengths(c, true).c_str(),
                     lengths(c, false).c_str());
        bool first = true;
        for (auto const& [uid, tensor] : t) {
            auto n = names.find(uid);
            if (n == names.end() || !tensor.defined()) continue;
            std::string const file = std::string(id) + "_" + path + "_" + n->second + ".bin";
            auto bytes             = tensor.hostElements();
            FILE* f                = std::fopen((dir_ + "/" + file).c_str(), "wb");
            if (!f) throw std::runtime_error("--dump: cannot write " + file);
            std::fwrite(bytes.data(), 1, bytes.size(), f);
            std::fclose(f);
            std::string sizes;
            for (auto s : tensor.sizes()) sizes += (sizes.empty() ? "" : ", ") + std::to_string(s);
            std::fprintf(index_, "%s\"%s\": {\"file\": \"%s\", \"dtype\": \"%s\", \"sizes\": [%s]}", first ? "" : ", ",
                         n->second, file.c_str(), dtypeName(tensor.scalar_type()), sizes.c_str());
            first = false;
        }
        std::fprintf(index_, "}}");
    }

    void finish() {
        if (!index_) return;
        std::fprintf(index_, "\n]}\n");
        std::fclose(index_);
        index_ = nullptr;
    }

  private:
    static std::string lengths(Case const& c, bool q) {
        std::string s;
        for (int64_t bi = 0; bi < c.b; ++bi) s += (bi ? ", " : "") + std::to_string(q ? c.lenQ(bi) : c.lenKv(bi));
        return s;
    }
    static const char* dtypeName(at::ScalarType t) {
        switch (t) {
            case at::kHalf: return "float16";
            case at::kBFloat16: return "bfloat16";
            case at::kInt: return "int32";
            case at::kLong: return "int64";
            default: return "float32";
        }
    }
    std::string dir_;
    FILE* index_ = nullptr;
    int runs_    = 0;
};

}  // namespace mha
