// mha_cases.h - the driver's case table: every case in fp16 and in bf16 (the two types MHA.cpp
// builds graphs for). Dense tensors are PyTorch's BSHD storage seen as [b, h, s, d] (or packed
// BHSD); nested ones are THD with per-batch lengths. Sizes stay small: the CPU reference engine
// runs every case in a few seconds.
#pragma once

#include <vector>

#include "mha_case.h"

namespace mha {

inline std::vector<Case>
cases() {
    std::vector<Case> out;
    for (bool bf16 : {false, true}) {
        std::string const t = bf16 ? "bf16" : "fp16";
        auto add            = [&](std::string name, auto&& edit) {
            Case c;
            c.name = t + " " + name;
            c.bf16 = bf16;
            edit(c);
            out.push_back(c);
        };
        auto nested = [](Case& c) {
            c.nested = true, c.b = 3;
            c.seq_q = {5, 11, 8}, c.seq_kv = {7, 11, 3};
            c.sq = 11, c.skv = 11;
        };
        add("dense fwd stats bshd", [](Case& c) { c.bshd = true; });
        add("dense fwd inference causal", [](Case& c) { c.stats = false, c.causal = true; });
        add("dense fwd gqa causal sq!=skv", [](Case& c) { c.bshd = true, c.causal = true, c.hk = c.hv = 2, c.sq = 12, c.skv = 20; });
        add("dense fwd bias", [](Case& c) { c.bshd = true, c.bias = true; });
        add("dense fwd padding", [](Case& c) { c.padding = true, c.seq_q = {12, 7}, c.seq_kv = {16, 9}; });
        add("dense fwd dropout", [](Case& c) { c.bshd = true, c.dropout = 0.25; });
        add("dense bwd bshd", [](Case& c) { c.bshd = true, c.backward = true; });
        add("dense bwd causal gqa", [](Case& c) { c.bshd = true, c.backward = true, c.causal = true, c.hk = c.hv = 1, c.sq = 12, c.skv = 20; });
        add("dense bwd bias", [](Case& c) { c.backward = true, c.bias = true; });
        add("nested fwd stats", [&](Case& c) { nested(c); });
        add("nested fwd stats h1", [&](Case& c) { nested(c), c.hq = c.hk = c.hv = 1; });
        add("nested fwd inference causal gqa", [&](Case& c) { nested(c), c.stats = false, c.causal = true, c.hk = c.hv = 2; });
        add("nested bwd", [&](Case& c) { nested(c), c.backward = true; });
        add("nested bwd causal gqa", [&](Case& c) { nested(c), c.backward = true, c.causal = true, c.hk = c.hv = 2; });
    }
    return out;
}

}  // namespace mha
