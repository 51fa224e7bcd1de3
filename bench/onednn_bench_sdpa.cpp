// onednn_bench_sdpa.cpp: hipdnn-onednn-bench's SDPA training problems, the backend's SDPA nodes
// against the same attention written with oneDNN primitives.
#include "onednn_bench_harness.hpp"

namespace onednn_bench
{

// ---- SDPA (training): forward with stats, backward ---------------------------------------------
// [B, H, S, D] dense, scale 1/sqrt(D), no mask. The direct side is a plain primitive sequence of
// its own (not the engine's): the forward normalises O instead of P (O = (E V) / Z with
// E = exp(S - rowmax), Z = rowsum(E), stats = rowmax + log Z); the backward follows the textbook
// order with Delta from a binary mul and a sum reduction. Per-row operands go through a
// [1, rows, n] view, where they are oneDNN's per-channel broadcast (vectorised in 2.6).

constexpr float kSdpaScale = 0.125f; // 1 / sqrt(64)

std::string sdpaAttrs()
{
    return "\"attributes\": {\"alibi_mask\": false, \"padding_mask\": false, \"causal_mask\": false, "
           "\"causal_mask_bottom_right\": false, \"diagonal_alignment\": \"TOP_LEFT\", \"attn_scale_value\": 0.125}";
}

std::vector<int64_t> bhsd(int64_t, int64_t H, int64_t S, int64_t D) { return {H * S * D, S * D, D, 1}; }

// The direct side's helpers: a primitive over user buffers with a user scratchpad.
template <typename Prim, typename PD>
void addPrim(Direct& d, const PD& pd, std::unordered_map<int, memory> args)
{
    if(pd.scratchpad_desc().get_size() > 0)
        args[DNNL_ARG_SCRATCHPAD] = d.scratch(pd.scratchpad_desc());
    d.add({Prim(pd), std::move(args)});
}

dnnl::primitive_attr withOps(std::initializer_list<std::pair<dnnl::algorithm, float>> elt)
{
    dnnl::post_ops ops;
    for(const auto& e : elt)
        ops.append_eltwise(1.f, e.first, e.second, 0.f);
    return userScratch(ops);
}

// sdpaCase: an fp32 SDPA problem of `pass` ("fwd+stats", "bwd") on dense BHSD tensors, with its
// work in multiples of B·H·S²·D FLOP and the direct side's description; tensors and nodes to add.
Case sdpaCase(const std::string& pass, double flopPerBHSSD, const char* directName, int64_t B, int64_t H, int64_t S, int64_t D)
{
    Case c;
    c.name = "sdpa " + pass + " fp32 B" + std::to_string(B) + " H" + std::to_string(H) + " S" + std::to_string(S) + " D"
             + std::to_string(D);
    c.directName = directName;
    c.gflop = flopPerBHSSD * B * H * S * S * D * 1e-9;
    c.io = "float";
    return c;
}

Case sdpaFwdStats(int64_t B, int64_t H, int64_t S, int64_t D)
{
    Case c = sdpaCase("fwd+stats", 4.0, "oneDNN primitives, O normalised after PV", B, H, S, D);
    const std::vector<int64_t> qd{B, H, S, D};
    const std::vector<int64_t> st = bhsd(B, H, S, D);
    c.tensors = {{1, "q", "float", qd, st}, {2, "k", "float", qd, st}, {3, "v", "float", qd, st}, {4, "o", "float", qd, st},
                 {5, "stats", "float", {B, H, S, 1}, {H * S, S, 1, 1}}};
    c.nodes.push_back("{\"type\": \"SdpaAttributes\", \"name\": \"sdpa\", \"compute_data_type\": \"float\", "
                      "\"inputs\": {\"q_tensor_uid\": 1, \"k_tensor_uid\": 2, \"v_tensor_uid\": 3}, "
                      "\"outputs\": {\"o_tensor_uid\": 4, \"stats_tensor_uid\": 5}, "
                      + sdpaAttrs() + "}");
    c.direct = [B, H, S, D](Direct& d, Buffers& bufs) {
        using namespace dnnl;
        const int64_t rows = B * H * S;
        const memory::desc q({B, H, S, D}, dt::f32, tag::abcd), kT({B, H, D, S}, dt::f32, tag::abdc),
            s4({B, H, S, S}, dt::f32, tag::abcd), s3({1, rows, S}, dt::f32, tag::abc), r3({1, rows, 1}, dt::f32, tag::abc),
            r4({B, H, S, 1}, dt::f32, tag::abcd), o3({1, rows, D}, dt::f32, tag::abc);
        const memory Q(q, eng(), bufs.ptr(1)), K(kT, eng(), bufs.ptr(2)), V(q, eng(), bufs.ptr(3)), O(q, eng(), bufs.ptr(4));
        const memory O3(o3, eng(), bufs.ptr(4)), St(r3, eng(), bufs.ptr(5));
        const memory Sm = d.temp(s4), M = d.temp(r4), Z = d.temp(r4);
        const memory S3(s3, eng(), Sm.get_data_handle()), M3(r3, eng(), M.get_data_handle());
        const memory Z3(r3, eng(), Z.get_data_handle());
        using mm = dnnl::matmul;
        const primitive_attr scaled = withOps({{algorithm::eltwise_linear, kSdpaScale}});
        const primitive_attr expAfter = withOps({{algorithm::eltwise_exp, 0.f}});
        const reduction::desc rowMax(algorithm::reduction_max, s4, r4, 0.f, 0.f);
        const reduction::desc rowSum(algorithm::reduction_sum, s4, r4, 0.f, 0.f);
        const eltwise_forward::desc logZ(prop_kind::forward_inference, algorithm::eltwise_log, r3, 0.f, 0.f);
        addPrim<mm>(d, mm::primitive_desc(mm::desc(q, kT, s4), scaled, eng()),
                    {{DNNL_ARG_SRC, Q}, {DNNL_ARG_WEIGHTS, K}, {DNNL_ARG_DST, Sm}});
        addPrim<reduction>(d, reduction::primitive_desc(rowMax, userScratch(), eng()), {{DNNL_ARG_SRC, Sm}, {DNNL_ARG_DST, M}});
        addPrim<binary>(d, binary::primitive_desc(binary::desc(algorithm::binary_sub, s3, r3, s3), expAfter, eng()),
                        {{DNNL_ARG_SRC_0, S3}, {DNNL_ARG_SRC_1, M3}, {DNNL_ARG_DST, S3}});
        addPrim<reduction>(d, reduction::primitive_desc(rowSum, userScratch(), eng()), {{DNNL_ARG_SRC, Sm}, {DNNL_ARG_DST, Z}});
        addPrim<mm>(d, mm::primitive_desc(mm::desc(s4, q, q), userScratch(), eng()),
                    {{DNNL_ARG_SRC, Sm}, {DNNL_ARG_WEIGHTS, V}, {DNNL_ARG_DST, O}});
        addPrim<binary>(d, binary::primitive_desc(binary::desc(algorithm::binary_div, o3, r3, o3), userScratch(), eng()),
                        {{DNNL_ARG_SRC_0, O3}, {DNNL_ARG_SRC_1, Z3}, {DNNL_ARG_DST, O3}});
        addPrim<eltwise_forward>(d, eltwise_forward::primitive_desc(logZ, userScratch(), eng()),
                                 {{DNNL_ARG_SRC, Z3}, {DNNL_ARG_DST, Z3}});
        addPrim<binary>(d, binary::primitive_desc(binary::desc(algorithm::binary_add, r3, r3, r3), userScratch(), eng()),
                        {{DNNL_ARG_SRC_0, M3}, {DNNL_ARG_SRC_1, Z3}, {DNNL_ARG_DST, St}});
    };
    return c;
}

Case sdpaBwd(int64_t B, int64_t H, int64_t S, int64_t D)
{
    Case c = sdpaCase("bwd", 10.0, "oneDNN primitives, textbook order", B, H, S, D);
    const std::vector<int64_t> qd{B, H, S, D};
    const std::vector<int64_t> st = bhsd(B, H, S, D);
    c.tensors = {{1, "q", "float", qd, st},  {2, "k", "float", qd, st},  {3, "v", "float", qd, st},
                 {4, "o", "float", qd, st},  {5, "do", "float", qd, st}, {6, "stats", "float", {B, H, S, 1}, {H * S, S, 1, 1}},
                 {7, "dq", "float", qd, st}, {8, "dk", "float", qd, st}, {9, "dv", "float", qd, st}};
    c.nodes.push_back("{\"type\": \"SdpaBackwardAttributes\", \"name\": \"sdpa_bwd\", \"compute_data_type\": \"float\", "
                      "\"inputs\": {\"q_tensor_uid\": 1, \"k_tensor_uid\": 2, \"v_tensor_uid\": 3, \"o_tensor_uid\": 4, "
                      "\"do_tensor_uid\": 5, \"stats_tensor_uid\": 6}, "
                      "\"outputs\": {\"dq_tensor_uid\": 7, \"dk_tensor_uid\": 8, \"dv_tensor_uid\": 9}, "
                      + sdpaAttrs() + "}");
    c.direct = [B, H, S, D](Direct& d, Buffers& bufs) {
        using namespace dnnl;
        const int64_t rows = B * H * S;
        const memory::desc q({B, H, S, D}, dt::f32, tag::abcd), qT({B, H, D, S}, dt::f32, tag::abdc),
            s4({B, H, S, S}, dt::f32, tag::abcd), sT({B, H, S, S}, dt::f32, tag::abdc), s3({1, rows, S}, dt::f32, tag::abc),
            r3({1, rows, 1}, dt::f32, tag::abc), o3({1, rows, D}, dt::f32, tag::abc);
        auto user = [&](int uid, const memory::desc& md) { return memory(md, eng(), bufs.ptr(uid)); };
        const memory Pm = d.temp(s4), dPm = d.temp(s4), X = d.temp(o3), Delta = d.temp(r3);
        const memory P3(s3, eng(), Pm.get_data_handle()), dP3(s3, eng(), dPm.get_data_handle());
        const memory PT(sT, eng(), Pm.get_data_handle()), dST(sT, eng(), dPm.get_data_handle());
        const primitive_attr scaled = withOps({{algorithm::eltwise_linear, kSdpaScale}});
        const primitive_attr expAfter = withOps({{algorithm::eltwise_exp, 0.f}});
        const reduction::desc rowSum(algorithm::reduction_sum, o3, r3, 0.f, 0.f);
        using mm = dnnl::matmul;
        auto bin = [&](algorithm alg, const memory::desc& src0, const memory::desc& src1, const primitive_attr& attr) {
            return binary::primitive_desc(binary::desc(alg, src0, src1, src0), attr, eng());
        };
        addPrim<mm>(d, mm::primitive_desc(mm::desc(q, qT, s4), scaled, eng()),
                    {{DNNL_ARG_SRC, user(1, q)}, {DNNL_ARG_WEIGHTS, user(2, qT)}, {DNNL_ARG_DST, Pm}});
        addPrim<binary>(d, bin(algorithm::binary_sub, s3, r3, expAfter), // P = exp(S - stats)
                        {{DNNL_ARG_SRC_0, P3}, {DNNL_ARG_SRC_1, user(6, r3)}, {DNNL_ARG_DST, P3}});
        addPrim<mm>(d, mm::primitive_desc(mm::desc(sT, q, q), userScratch(), eng()),
                    {{DNNL_ARG_SRC, PT}, {DNNL_ARG_WEIGHTS, user(5, q)}, {DNNL_ARG_DST, user(9, q)}});
        addPrim<mm>(d, mm::primitive_desc(mm::desc(q, qT, s4), userScratch(), eng()),
                    {{DNNL_ARG_SRC, user(5, q)}, {DNNL_ARG_WEIGHTS, user(3, qT)}, {DNNL_ARG_DST, dPm}});
        addPrim<binary>(d, bin(algorithm::binary_mul, o3, o3, userScratch()),
                        {{DNNL_ARG_SRC_0, user(5, o3)}, {DNNL_ARG_SRC_1, user(4, o3)}, {DNNL_ARG_DST, X}});
        addPrim<reduction>(d, reduction::primitive_desc(rowSum, userScratch(), eng()),
                           {{DNNL_ARG_SRC, X}, {DNNL_ARG_DST, Delta}});
        addPrim<binary>(d, bin(algorithm::binary_sub, s3, r3, userScratch()),
                        {{DNNL_ARG_SRC_0, dP3}, {DNNL_ARG_SRC_1, Delta}, {DNNL_ARG_DST, dP3}});
        addPrim<binary>(d, bin(algorithm::binary_mul, s3, s3, userScratch()),
                        {{DNNL_ARG_SRC_0, dP3}, {DNNL_ARG_SRC_1, P3}, {DNNL_ARG_DST, dP3}});
        addPrim<mm>(d, mm::primitive_desc(mm::desc(s4, q, q), scaled, eng()),
                    {{DNNL_ARG_SRC, dPm}, {DNNL_ARG_WEIGHTS, user(2, q)}, {DNNL_ARG_DST, user(7, q)}});
        addPrim<mm>(d, mm::primitive_desc(mm::desc(sT, q, q), scaled, eng()),
                    {{DNNL_ARG_SRC, dST}, {DNNL_ARG_WEIGHTS, user(1, q)}, {DNNL_ARG_DST, user(8, q)}});
    };
    return c;
}

} // namespace onednn_bench
