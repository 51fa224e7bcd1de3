#!/usr/bin/env python3
"""Writes the GPU check graphs of this folder (AMD's JSON graph format, as the corpus).

The corpus has one small SDPA backward graph and one fp32 pooling graph; these cover what the
cuDNN engine translates beyond them: SDPA backward with causal / sliding-window / bias / GQA /
sequence lengths / s_q != s_kv, and NHWC pooling. Small enough for the CPU reference too.
Run: python3 tests/gpu/graphs/make_graphs.py (rewrites the .json files next to it).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def contiguous(dims):
    strides, acc = [], 1
    for d in reversed(dims):
        strides.insert(0, acc)
        acc *= d
    return strides


def tensor(uid, name, dims, dtype, strides=None):
    return {"uid": uid, "name": name, "dims": dims, "strides": strides or contiguous(dims),
            "data_type": dtype, "virtual": False}


def sdpa_bwd(name, dtype, b, hq, hk, sq, skv, d, causal=False, bias=False, left=None, right=None,
             seqlens=False, scale=None):
    q, k = [b, hq, sq, d], [b, hk, skv, d]
    ts = [tensor(1, "q", q, dtype), tensor(2, "k", k, dtype), tensor(3, "v", k, dtype),
          tensor(4, "o", q, dtype), tensor(5, "do", q, dtype),
          tensor(6, "stats", [b, hq, sq, 1], "float"),
          tensor(7, "dq", q, dtype), tensor(8, "dk", k, dtype), tensor(9, "dv", k, dtype)]
    inputs = {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3, "o_tensor_uid": 4,
              "do_tensor_uid": 5, "stats_tensor_uid": 6}
    if bias:
        ts.append(tensor(10, "bias", [1, hq, sq, skv], dtype))
        inputs["attn_mask_tensor_uid"] = 10
    if seqlens:
        ts += [tensor(11, "seq_len_q", [b], "int32"), tensor(12, "seq_len_kv", [b], "int32")]
        inputs["seq_len_q_tensor_uid"], inputs["seq_len_kv_tensor_uid"] = 11, 12
    params = {"causal_mask": causal, "padding_mask": seqlens, "diagonal_alignment": "TOP_LEFT",
              "left_bound": left, "right_bound": right, "attn_scale_value": scale}
    node = {"name": "sdpa_backward", "type": "SdpaBackwardAttributes", "compute_data_type": "float",
            "inputs": inputs, "outputs": {"dq_tensor_uid": 7, "dk_tensor_uid": 8, "dv_tensor_uid": 9},
            "parameters": params}
    return {"name": name, "compute_data_type": "float", "io_data_type": dtype,
            "intermediate_data_type": "float", "tensors": ts, "nodes": [node]}


def sdpa_fwd(name, dtype, b, hq, hk, sq, skv, d, params, extra_tensors=(), inputs=None, outputs=None):
    """A plain SDPA forward (Q 1, K 2, V 3, O 4, stats 5) that the cases below extend."""
    q, k = [b, hq, sq, d], [b, hk, skv, d]
    ts = [tensor(1, "q", q, dtype), tensor(2, "k", k, dtype), tensor(3, "v", k, dtype),
          tensor(4, "o", q, dtype), tensor(5, "stats", [b, hq, sq, 1], "float"), *extra_tensors]
    node = {"name": "sdpa", "type": "SdpaAttributes", "compute_data_type": "float",
            "inputs": {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3, **(inputs or {})},
            "outputs": {"o_tensor_uid": 4, "stats_tensor_uid": 5, **(outputs or {})},
            "parameters": {"diagonal_alignment": "TOP_LEFT", **params}}
    return {"name": name, "compute_data_type": "float", "io_data_type": dtype,
            "intermediate_data_type": "float", "tensors": ts, "nodes": [node]}


def lengths(g, uid_q=11, uid_kv=12):
    """seq_len_q / seq_len_kv [b] int32 on g's SDPA node, with the padding mask."""
    b = g["tensors"][0]["dims"][0]
    g["tensors"] += [tensor(uid_q, "seq_len_q", [b], "int32"), tensor(uid_kv, "seq_len_kv", [b], "int32")]
    node = g["nodes"][0]
    node["inputs"].update(seq_len_q_tensor_uid=uid_q, seq_len_kv_tensor_uid=uid_kv)
    node["parameters"]["padding_mask"] = True
    return g


def ragged(g, q_uids, kv_uids):
    """Packed (THD) layouts: the tensors q_uids take offsets tensor 20, kv_uids tensor 21 (b + 1
    int32 each); strides [s*h*d, d, h*d, 1] (device_check.sh's attention step fills the offsets
    as b * s * h * d, so the packed and the padded layouts address the same elements)."""
    b = g["tensors"][0]["dims"][0]
    g["tensors"] += [tensor(20, "ragged_offsets_q", [b + 1], "int32"),
                     tensor(21, "ragged_offsets_kv", [b + 1], "int32")]
    for t in g["tensors"]:
        if t["uid"] in q_uids or t["uid"] in kv_uids:
            _, h, s, d = t["dims"]
            t["strides"] = [s * h * d, d, h * d, 1]
            t["ragged_offset_tensor_uid"] = 20 if t["uid"] in q_uids else 21
    return g


def paged(name, dtype, b, hq, hk, sq, skv, d, block, blocks):
    """Paged K and V caches [blocks, h_k, block, d] with page tables [b, skv / block]."""
    g = lengths(sdpa_fwd(name, dtype, b, hq, hk, sq, skv, d, {"causal_mask": True, "max_seq_len_kv": skv},
                         inputs={"page_table_k_tensor_uid": 13, "page_table_v_tensor_uid": 14}))
    for t in g["tensors"]:
        if t["uid"] in (2, 3):
            t["dims"], t["strides"] = [blocks, hk, block, d], contiguous([blocks, hk, block, d])
    g["tensors"] += [tensor(13, "page_table_k", [b, skv // block], "int32"),
                     tensor(14, "page_table_v", [b, skv // block], "int32")]
    return g


def with_dbias(g):
    """The bias gradient (uid 13, the bias's [1, h, s_q, s_kv]) as an output of the backward."""
    bias = next(t for t in g["tensors"] if t["uid"] == 10)
    g["tensors"].append(tensor(13, "dbias", bias["dims"], bias["data_type"]))
    g["nodes"][0]["outputs"]["dbias_tensor_uid"] = 13
    return g


def bottom_right(g):
    """Causal on the BOTTOM_RIGHT diagonal (right bound 0)."""
    g["nodes"][0]["parameters"].update(diagonal_alignment="BOTTOM_RIGHT", right_bound=0, causal_mask=False)
    return g


def max_sum_exp(g):
    """The max and sum-exp outputs (uids 21, 22) instead of stats, as cudnn-frontend's softmax
    writes them before cuDNN 9.21."""
    b, hq, sq = g["tensors"][0]["dims"][:3]
    g["tensors"] = [t for t in g["tensors"] if t["uid"] != 5]
    g["tensors"] += [tensor(21, "max", [b, hq, sq, 1], "float"), tensor(22, "sum_exp", [b, hq, sq, 1], "float")]
    outputs = g["nodes"][0]["outputs"]
    del outputs["stats_tensor_uid"]
    outputs.update(max_tensor_uid=21, sum_exp_tensor_uid=22)
    return g


def constant(uid, name, value):
    return {"uid": uid, "name": name, "dims": [1], "strides": [1], "data_type": "float", "virtual": False,
            "value_type": "Float32Value", "value": value}


def sdpa_fwd_dropout(name, dtype, b, h, s, d, p, mask_dtype=None):
    """SDPA forward with dropout: a seed/offset draw dumped to rng_dump (mask_dtype None), or a
    given mask of mask_dtype with scale 1 / (1 - p)."""
    q = [b, h, s, d]
    ts = [tensor(1, "q", q, dtype), tensor(2, "k", q, dtype), tensor(3, "v", q, dtype), tensor(4, "o", q, dtype),
          tensor(6, "stats", [b, h, s, 1], "float")]
    inputs = {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3}
    outputs = {"o_tensor_uid": 4, "stats_tensor_uid": 6}
    attrs = {"causal_mask": True, "diagonal_alignment": "TOP_LEFT"}
    if mask_dtype is None:
        ts += [tensor(13, "seed", [1], "int64"), tensor(14, "offset", [1], "int64"),
               tensor(20, "rng_dump", [b, h, s, s], "float")]
        inputs.update(seed_tensor_uid=13, offset_tensor_uid=14)
        outputs["rng_dump_tensor_uid"] = 20
        attrs["dropout_probability"] = p
    else:
        ts += [tensor(20, "dropout_mask", [b, h, s, s], mask_dtype), constant(15, "dropout_scale", 1 / (1 - p))]
        inputs.update(dropout_mask_tensor_uid=20, dropout_scale_tensor_uid=15)
    node = {"name": "sdpa", "type": "SdpaAttributes", "compute_data_type": "float", "inputs": inputs,
            "outputs": outputs, "attributes": attrs}
    return {"name": name, "compute_data_type": "float", "io_data_type": dtype,
            "intermediate_data_type": "float", "tensors": ts, "nodes": [node]}


def sdpa_fwd_fp8(name, b, h, s, d):
    """SDPA forward in fp8 e4m3 with per-tensor scaling (six scale tensors, filled with 1 by
    hipdnn-run) and both amax outputs."""
    q = [b, h, s, d]
    ts = [tensor(1, "q", q, "fp8_e4m3"), tensor(2, "k", q, "fp8_e4m3"), tensor(3, "v", q, "fp8_e4m3"),
          tensor(4, "o", q, "fp8_e4m3"), tensor(6, "stats", [b, h, s, 1], "float")]
    names = ["descale_q", "descale_k", "descale_v", "descale_s", "scale_s", "scale_o"]
    ts += [tensor(30 + i, n, [1], "float") for i, n in enumerate(names)]
    ts += [tensor(40, "amax_s", [1], "float"), tensor(41, "amax_o", [1], "float")]
    inputs = {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3}
    inputs.update({n + "_tensor_uid": 30 + i for i, n in enumerate(names)})
    node = {"name": "sdpa", "type": "SdpaAttributes", "compute_data_type": "float", "inputs": inputs,
            "outputs": {"o_tensor_uid": 4, "stats_tensor_uid": 6, "amax_s_tensor_uid": 40, "amax_o_tensor_uid": 41},
            "attributes": {"causal_mask": True, "diagonal_alignment": "TOP_LEFT", "mma_core_mode": "fp8_e4m3"}}
    return {"name": name, "compute_data_type": "float", "io_data_type": "fp8_e4m3",
            "intermediate_data_type": "float", "tensors": ts, "nodes": [node]}


def thd(h, s, w):
    """Strides of a THD-packed [B, H, S, W] tensor: tokens of all batches back to back."""
    return [s * h * w, w, h * w, 1]


def ragged_tensor(uid, name, dims, dtype, offsets):
    t = tensor(uid, name, dims, dtype, thd(dims[1], dims[2], dims[3]))
    t["ragged_offset_tensor_uid"] = offsets
    return t


def sdpa_ragged(name, dtype, backward, b, hq, hk, s, d):
    """SDPA on ragged (THD) tensors with sequence lengths: q-side tensors share int64 offsets 20,
    k-side int32 offsets 21, stats its own 22 (hipdnn-run fills them as cumulative sums of the
    lengths). Forward: bottom-right causal; backward: top-left causal."""
    q, k = [b, hq, s, d], [b, hk, s, d]
    lens = [tensor(11, "seq_len_q", [b, 1, 1, 1], "int32"), tensor(12, "seq_len_kv", [b, 1, 1, 1], "int32")]
    offs = [tensor(20, "ragged_q", [b + 1, 1, 1, 1], "int64"), tensor(21, "ragged_kv", [b + 1, 1, 1, 1], "int32"),
            tensor(22, "ragged_stats", [b + 1, 1, 1, 1], "int32")]
    ts = [ragged_tensor(1, "q", q, dtype, 20), ragged_tensor(2, "k", k, dtype, 21), ragged_tensor(3, "v", k, dtype, 21),
          ragged_tensor(4, "o", q, dtype, 20), ragged_tensor(6, "stats", [b, hq, s, 1], "float", 22)]
    inputs = {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3, "seq_len_q_tensor_uid": 11,
              "seq_len_kv_tensor_uid": 12}
    params = {"padding_mask": True, "attn_scale_value": 0.125}
    if backward:
        ts += [ragged_tensor(5, "do", q, dtype, 20), ragged_tensor(7, "dq", q, dtype, 20),
               ragged_tensor(8, "dk", k, dtype, 21), ragged_tensor(9, "dv", k, dtype, 21)]
        inputs.update({"o_tensor_uid": 4, "do_tensor_uid": 5, "stats_tensor_uid": 6})
        node = {"name": "sdpa_backward", "type": "SdpaBackwardAttributes", "compute_data_type": "float",
                "inputs": inputs, "outputs": {"dq_tensor_uid": 7, "dk_tensor_uid": 8, "dv_tensor_uid": 9},
                "parameters": dict(params, causal_mask=True)}
    else:
        node = {"name": "sdpa", "type": "SdpaAttributes", "compute_data_type": "float", "inputs": inputs,
                "outputs": {"o_tensor_uid": 4, "stats_tensor_uid": 6},
                "parameters": dict(params, causal_mask_bottom_right=True)}
    return {"name": name, "compute_data_type": "float", "io_data_type": dtype, "intermediate_data_type": "float",
            "tensors": ts + lens + offs, "nodes": [node]}


def sdpa_paged_sinks(name, dtype, b, hq, hk, sq, blocks, block, pages, d):
    """SDPA forward over paged K/V caches [blocks, hk, block, d] (cuDNN's container layout) with
    page tables [b, 1, pages, 1], sequence lengths, one sink logit per query head and a
    bottom-right causal mask; max_seq_len_kv = pages * block."""
    q = [b, hq, sq, d]
    ts = [tensor(1, "q", q, dtype, thd(hq, sq, d)), tensor(2, "k_cache", [blocks, hk, block, d], dtype),
          tensor(3, "v_cache", [blocks, hk, block, d], dtype), tensor(4, "o", q, dtype, thd(hq, sq, d)),
          tensor(6, "stats", [b, hq, sq, 1], "float"),
          tensor(11, "seq_len_q", [b, 1, 1, 1], "int32"), tensor(12, "seq_len_kv", [b, 1, 1, 1], "int32"),
          tensor(13, "page_table_k", [b, 1, pages, 1], "int32"), tensor(14, "page_table_v", [b, 1, pages, 1], "int32"),
          tensor(15, "sink", [1, hq, 1, 1], "float")]
    node = {"name": "sdpa", "type": "SdpaAttributes", "compute_data_type": "float",
            "inputs": {"q_tensor_uid": 1, "k_tensor_uid": 2, "v_tensor_uid": 3, "seq_len_q_tensor_uid": 11,
                       "seq_len_kv_tensor_uid": 12, "page_table_k_tensor_uid": 13, "page_table_v_tensor_uid": 14,
                       "sink_token_tensor_uid": 15},
            "outputs": {"o_tensor_uid": 4, "stats_tensor_uid": 6},
            "parameters": {"causal_mask_bottom_right": True, "padding_mask": True, "attn_scale_value": 0.125,
                           "max_seq_len_kv": pages * block}}
    return {"name": name, "compute_data_type": "float", "io_data_type": dtype, "intermediate_data_type": "float",
            "tensors": ts, "nodes": [node]}


def with_dropout(g, p, mask):
    """Adds dropout to an sdpa_bwd graph: the seed/offset draw of sdpa_fwd_dropout (mask False),
    or a given fp32 mask (uid 20, as the forward's rng_dump) with scale 1 / (1 - p) and its inverse."""
    node = g["nodes"][0]
    b, h, s = g["tensors"][0]["dims"][:3]
    if mask:
        g["tensors"] += [tensor(20, "dropout_mask", [b, h, s, s], "float"), constant(15, "dropout_scale", 1 / (1 - p)),
                         constant(16, "dropout_scale_inv", 1 - p)]
        node["inputs"].update(dropout_mask_tensor_uid=20, dropout_scale_tensor_uid=15, dropout_scale_inv_tensor_uid=16)
    else:
        g["tensors"] += [tensor(13, "seed", [1], "int64"), tensor(14, "offset", [1], "int64")]
        node["inputs"].update(seed_tensor_uid=13, offset_tensor_uid=14)
        node["parameters"]["dropout_probability"] = p
    return g


def matmul(name, a_type, b_type, c_type, m, n, k, a_batch=(1,), b_batch=(1,)):
    """C = A·B with batch dims a_batch / b_batch (broadcast where one is 1)."""
    c_batch = [max(x, y) for x, y in zip(a_batch, b_batch)]
    ts = [tensor(1, "a", [*a_batch, m, k], a_type), tensor(2, "b", [*b_batch, k, n], b_type),
          tensor(3, "c", [*c_batch, m, n], c_type)]
    node = {"name": "matmul", "type": "MatmulAttributes", "compute_data_type": "float",
            "inputs": {"a_tensor_uid": 1, "b_tensor_uid": 2}, "outputs": {"c_tensor_uid": 3}, "attributes": {}}
    return {"name": name, "compute_data_type": "float", "io_data_type": a_type,
            "intermediate_data_type": "float", "tensors": ts, "nodes": [node]}


def matmul_epilogue(name, io_type, out_type, mode, m, n, k):
    """Y = act(A·B): a matmul feeding one unary pointwise op directly (no bias between), the form
    cuDNN fuses into a GEMM epilogue. The checker compares with the exact function (erf GELU)."""
    g = matmul(name, io_type, io_type, "float", m, n, k)
    g["tensors"][2]["virtual"] = True
    g["tensors"].append(tensor(4, "y", [1, m, n], out_type))
    g["nodes"].append({"name": mode, "type": "PointwiseAttributes", "compute_data_type": "float",
                       "inputs": {"operation": mode, "in_0_tensor_uid": 3}, "outputs": {"out_0_tensor_uid": 4}})
    return g


EPILOGUES = ["gelu_fwd", "gelu_approx_tanh_fwd", "relu_fwd", "tanh_fwd", "sigmoid_fwd", "swish_fwd", "elu_fwd",
             "softplus_fwd"]


def conv(name, x_type, y_type, n, c, h, w, k):
    nhwc = lambda N, C, H, W: [H * W * C, 1, W * C, C]
    ts = [tensor(1, "x", [n, c, h, w], x_type, nhwc(n, c, h, w)), tensor(2, "w", [k, c, 3, 3], x_type, nhwc(k, c, 3, 3)),
          tensor(3, "y", [n, k, h, w], y_type, nhwc(n, k, h, w))]
    node = {"name": "conv", "type": "ConvolutionFwdAttributes", "compute_data_type": "float",
            "inputs": {"x_tensor_uid": 1, "w_tensor_uid": 2}, "outputs": {"y_tensor_uid": 3},
            "attributes": {"pre_padding": [1, 1], "post_padding": [1, 1], "stride": [1, 1], "dilation": [1, 1],
                           "conv_mode": "CROSS_CORRELATION"}}
    return {"name": name, "compute_data_type": "float", "io_data_type": x_type,
            "intermediate_data_type": "float", "tensors": ts, "nodes": [node]}


def pool(name, dtype, mode, n, c, h, w, window, stride, pad, padding_mode):
    oh = (h + 2 * pad - window) // stride + 1
    ow = (w + 2 * pad - window) // stride + 1
    nhwc = lambda N, C, H, W: [H * W * C, 1, W * C, C]
    ts = [tensor(1, "x", [n, c, h, w], dtype, nhwc(n, c, h, w)),
          tensor(2, "y", [n, c, oh, ow], dtype, nhwc(n, c, oh, ow))]
    node = {"name": "pool", "type": "ResampleFwdAttributes", "compute_data_type": "float",
            "inputs": {"x_tensor_uid": 1}, "outputs": {"y_tensor_uid": 2},
            "attributes": {"pre_padding": [pad, pad], "post_padding": [pad, pad], "stride": [stride, stride],
                           "window": [window, window], "resample_mode": mode, "padding_mode": padding_mode}}
    return {"name": name, "compute_data_type": "float", "io_data_type": dtype,
            "intermediate_data_type": "float", "tensors": ts, "nodes": [node]}


def pool_bwd(name, dtype, mode, n, c, h, w, window, stride, pad):
    g = pool(name, dtype, mode, n, c, h, w, window, stride, pad, "ZERO_PAD")
    x, y = g["tensors"]
    x["name"], y["name"] = "dx", "dy"
    node = g["nodes"][0]
    node.update(name="pool_bwd", type="ResampleBwdAttributes", inputs={"dy_tensor_uid": 2},
                outputs={"dx_tensor_uid": 1})
    return g


GRAPHS = [
    sdpa_bwd("sdpa_bwd_bf16_b2_h4_s128_d64", "bfloat16", 2, 4, 4, 128, 128, 64),
    sdpa_bwd("sdpa_bwd_causal_gqa_bf16_b2_hq8_hk2_s256_d64", "bfloat16", 2, 8, 2, 256, 256, 64, causal=True),
    sdpa_bwd("sdpa_bwd_causal_fp16_b1_h4_s128_d128", "half", 1, 4, 4, 128, 128, 128, causal=True),
    sdpa_bwd("sdpa_bwd_bias_fp16_b2_h2_s128_d64", "half", 2, 2, 2, 128, 128, 64, bias=True),
    sdpa_bwd("sdpa_bwd_window_fp16_b1_h2_s256_d64", "half", 1, 2, 2, 256, 256, 64, left=32, right=0),
    sdpa_bwd("sdpa_bwd_cross_bf16_b2_h2_sq64_skv192_d64_scale", "bfloat16", 2, 2, 2, 64, 192, 64, scale=0.1),
    sdpa_bwd("sdpa_bwd_varlen_fp16_b3_h2_s128_d64", "half", 3, 2, 2, 128, 128, 64, seqlens=True),
    sdpa_bwd("sdpa_bwd_varlen_causal_bf16_b3_h2_s128_d64", "bfloat16", 3, 2, 2, 128, 128, 64, causal=True, seqlens=True),
    # Dropout: p 0.2 on b2 h4 s128 d64 (device_check.sh's dropout step chains the two seed/offset
    # graphs). A given mask in the backward is declined on cuDNN 9.14 (wrong dQ, dK there).
    sdpa_fwd_dropout("sdpa_fwd_dropout_philox_bf16_b2_h4_s128_d64", "bfloat16", 2, 4, 128, 64, 0.2),
    sdpa_fwd_dropout("sdpa_fwd_dropout_mask_fp16_b2_h4_s128_d64", "half", 2, 4, 128, 64, 0.2, mask_dtype="half"),
    with_dropout(sdpa_bwd("sdpa_bwd_dropout_mask_bf16_b2_h4_s128_d64", "bfloat16", 2, 4, 4, 128, 128, 64, causal=True),
                 0.2, mask=True),
    with_dropout(sdpa_bwd("sdpa_bwd_dropout_philox_bf16_b2_h4_s128_d64", "bfloat16", 2, 4, 4, 128, 128, 64, causal=True),
                 0.2, mask=False),
    # Attention layouts (issue 23): ragged THD tensors forward and backward, paged K/V with sinks.
    sdpa_ragged("sdpa_fwd_ragged_thd_causal_br_gqa_fp16_b3_hq4_hk2_s64_d32", "half", False, 3, 4, 2, 64, 32),
    sdpa_ragged("sdpa_bwd_ragged_thd_causal_gqa_bf16_b3_hq4_hk2_s64_d32", "bfloat16", True, 3, 4, 2, 64, 32),
    sdpa_paged_sinks("sdpa_fwd_paged_kv_sinks_causal_br_gqa_fp16_b2_hq4_hk2_block16_d32", "half", 2, 4, 2, 16, 16, 16, 4,
                     32),
    # Attention features lowered as cudnn-frontend does (device_check.sh's attention step checks
    # them with hipdnn-run's reference, and with numpy, which also covers dbias).
    ragged(lengths(sdpa_fwd("sdpa_fwd_ragged_bf16_b2_h2_s64_d64", "bfloat16", 2, 2, 2, 64, 64, 64, {})),
           (1, 4), (2, 3)),
    ragged(lengths(sdpa_bwd("sdpa_bwd_ragged_bf16_b2_h2_s64_d64", "bfloat16", 2, 2, 2, 64, 64, 64)),
           (1, 4, 5, 7), (2, 3, 8, 9)),
    paged("sdpa_fwd_paged_fp16_b2_hq4_hk2_s64_skv128_d64_block16", "half", 2, 4, 2, 64, 128, 64, 16, 20),
    sdpa_fwd("sdpa_fwd_sink_bf16_b1_h4_s128_d64", "bfloat16", 1, 4, 4, 128, 128, 64, {"causal_mask": True},
             [tensor(20, "sink", [4], "float")], inputs={"sink_token_tensor_uid": 20}),
    with_dbias(sdpa_bwd("sdpa_bwd_dbias_fp16_b2_h2_s128_d64", "half", 2, 2, 2, 128, 128, 64, bias=True)),
    # Max and sum-exp outputs with sinks and lengths; ALiBi with a bias (hipdnn-run's reference
    # checks both; the cuDNN engine declines ALiBi).
    max_sum_exp(lengths(sdpa_fwd("sdpa_fwd_max_sumexp_sink_varlen_causal_bf16_b2_h4_s128_d64", "bfloat16", 2, 4, 4,
                                 128, 128, 64, {"causal_mask": True}, [tensor(20, "sink", [1, 4, 1, 1], "float")],
                                 inputs={"sink_token_tensor_uid": 20}))),
    sdpa_fwd("sdpa_fwd_alibi_bias_causal_fp16_b2_h6_s128_d64", "half", 2, 6, 6, 128, 128, 64,
             {"causal_mask": True, "alibi_mask": True}, [tensor(10, "bias", [1, 6, 128, 128], "half")],
             inputs={"attn_mask_tensor_uid": 10}),
    # BOTTOM_RIGHT with sequence lengths (per-batch diagonal): hipdnn-run's reference checks these.
    lengths(sdpa_fwd("sdpa_fwd_varlen_bottomright_fp16_b3_h2_sq64_skv128_d64", "half", 3, 2, 2, 64, 128, 64,
                     {"causal_mask_bottom_right": True})),
    bottom_right(sdpa_bwd("sdpa_bwd_varlen_bottomright_bf16_b3_h2_sq64_skv128_d64", "bfloat16", 3, 2, 2, 64, 128,
                          64, seqlens=True)),
    # fp8 (Hopper): e4m3 / e5m2 inputs, fp32 accumulation, wider outputs; attention with scaling.
    sdpa_fwd_fp8("sdpa_fwd_fp8_e4m3_causal_b2_h4_s128_d64", 2, 4, 128, 64),
    matmul("matmul_fp8_e4m3_bf16out_256x256x128", "fp8_e4m3", "fp8_e4m3", "bfloat16", 256, 256, 128),
    matmul("matmul_fp8_e5m2_e4m3_halfout_128x256x256", "fp8_e5m2", "fp8_e4m3", "half", 128, 256, 256),
    conv("conv_fp8_e4m3_bf16out_nhwc_n2_c64_16_k64", "fp8_e4m3", "bfloat16", 2, 64, 16, 16, 64),
    # Batch broadcast: B shared by every A, A shared by every B, both ways at rank 4.
    matmul("matmul_bcast_b_bf16_4x64x48x32", "bfloat16", "bfloat16", "bfloat16", 64, 48, 32, (4,), (1,)),
    matmul("matmul_bcast_a_fp16_4x64x48x32", "half", "half", "half", 64, 48, 32, (1,), (4,)),
    matmul("matmul_bcast_both_bf16_2x3x32x40x24", "bfloat16", "bfloat16", "float", 32, 40, 24, (2, 1), (1, 3)),
    # Matmul epilogues (issue 24): every unary activation right after a matmul, fp32 and bf16
    # inputs, K = 256 so the products reach about +-15 (GELU's and softplus's tiny tails).
    *[matmul_epilogue(f"matmul_{act[:-4]}_fp32_256x256x256", "float", "float", act, 256, 256, 256)
      for act in EPILOGUES],
    *[matmul_epilogue(f"matmul_{act[:-4]}_bf16in_fp32out_256x256x256", "bfloat16", "float", act, 256, 256, 256)
      for act in EPILOGUES],
    pool_bwd("avgpool_bwd_incl_nhwc_fp16_n2_c32_28_k3s2p1", "half", "AVGPOOL_INCLUDE_PADDING", 2, 32, 28, 28, 3, 2, 1),
    pool_bwd("avgpool_bwd_excl_nhwc_fp32_n2_c32_28_k2s2", "float", "AVGPOOL_EXCLUDE_PADDING", 2, 32, 28, 28, 2, 2, 0),
    pool("maxpool_nhwc_fp16_n4_c64_56_k3s2p1", "half", "MAXPOOL", 4, 64, 56, 56, 3, 2, 1, "NEG_INF_PAD"),
    pool("avgpool_incl_nhwc_fp16_n2_c32_28_k3s2p1", "half", "AVGPOOL_INCLUDE_PADDING", 2, 32, 28, 28, 3, 2, 1,
         "ZERO_PAD"),
    pool("avgpool_excl_nhwc_fp32_n2_c32_28_k3s2p1", "float", "AVGPOOL_EXCLUDE_PADDING", 2, 32, 28, 28, 3, 2, 1,
         "ZERO_PAD"),
]

if __name__ == "__main__":
    for g in GRAPHS:
        with open(os.path.join(HERE, g["name"] + ".json"), "w") as f:
            json.dump(g, f, indent=1)
            f.write("\n")
