#!/usr/bin/env python3
"""Writes the oneDNN engine's test graphs (hipDNN JSON) into graphs/.

Each graph name starts with pass_ (must run on HIPDNNGO_ONEDNN and match hipdnn-run's double
reference) or decline_ (must be declined at applicability with a log line naming the feature).
Run it again after editing; the JSON files are committed so the tests need no Python.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "graphs")


def dense(dims, order):
    """Strides for dims laid out in `order` (outermost first)."""
    strides = [0] * len(dims)
    acc = 1
    for d in reversed(order):
        strides[d] = acc
        acc *= dims[d]
    return strides


def nchw(dims):
    return dense(dims, list(range(len(dims))))


def nhwc(dims):
    return dense(dims, [0] + list(range(2, len(dims))) + [1])


class G:
    def __init__(self, name, io="float"):
        self.name, self.io = name, io
        self.tensors, self.nodes, self.uid = [], [], 0

    def t(self, name, dims, strides=None, dtype=None, virtual=False, by_value=False):
        self.uid += 1
        self.tensors.append({"uid": self.uid, "name": name, "data_type": dtype or self.io, "dims": dims,
                             "strides": strides or nchw(dims), "virtual": virtual})
        if by_value:
            self.tensors[-1]["is_runtime_pass_by_value"] = True
        return self.uid

    def ragged(self, uids, offsets):
        """Marks tensors uids as ragged (THD / nested) with the offsets tensor uid."""
        for t in self.tensors:
            if t["uid"] in uids:
                t["ragged_offset_tensor_uid"] = offsets

    def node(self, kind, name, inputs, outputs, params=None):
        n = {"type": kind, "name": name, "compute_data_type": "float", "inputs": inputs, "outputs": outputs}
        if params is not None:
            n["parameters"] = params
        self.nodes.append(n)

    def write(self):
        g = {"name": self.name, "compute_data_type": "float", "intermediate_data_type": "float",
             "io_data_type": self.io, "is_override_shape_enabled": False,
             "tensors": self.tensors, "nodes": self.nodes}
        with open(os.path.join(OUT, self.name + ".json"), "w") as f:
            json.dump(g, f, indent=1)
            f.write("\n")


def conv_params(pre, post, stride, dil, mode="CROSS_CORRELATION"):
    return {"conv_mode": mode, "pre_padding": pre, "post_padding": post, "stride": stride, "dilation": dil}


def out_dim(i, k, pre, post, s, d):
    return (i + pre + post - ((k - 1) * d + 1)) // s + 1


def conv_fwd(name, n, c, spatial, k, ksz, groups=1, pre=None, post=None, stride=None, dil=None, layout=nchw,
             io="float", bias=False, act=None, xstrides=None, mode="CROSS_CORRELATION"):
    sd = len(spatial)
    pre, post = pre or [0] * sd, post or [0] * sd
    stride, dil = stride or [1] * sd, dil or [1] * sd
    g = G(name, io)
    xd = [n, c] + spatial
    wd = [k, c // groups] + ksz
    yd = [n, k] + [out_dim(spatial[i], ksz[i], pre[i], post[i], stride[i], dil[i]) for i in range(sd)]
    x = g.t("x", xd, xstrides or layout(xd))
    w = g.t("w", wd, layout(wd))
    fused = bias or act
    y = g.t("y", yd, layout(yd), dtype="float" if fused else None, virtual=bool(fused))
    g.node("ConvolutionFwdAttributes", "conv", {"x_tensor_uid": x, "w_tensor_uid": w}, {"y_tensor_uid": y},
           conv_params(pre, post, stride, dil, mode))
    cur = y
    if bias:
        b = g.t("b", [1, k] + [1] * sd, nchw([1, k] + [1] * sd))
        last = not act
        o = g.t("yb", yd, layout(yd), dtype=None if last else "float", virtual=not last)
        g.node("PointwiseAttributes", "bias", {"in_0_tensor_uid": cur, "in_1_tensor_uid": b, "operation": "add"},
               {"out_0_tensor_uid": o})
        cur = o
    if act:
        o = g.t("out", yd, layout(yd))
        inputs = {"in_0_tensor_uid": cur, "operation": act}
        g.node("PointwiseAttributes", "act", inputs, {"out_0_tensor_uid": o})
    g.write()


def conv_bwd(name, kind, n, c, spatial, k, ksz, groups=1, pre=None, post=None, stride=None, dil=None, layout=nchw,
             io="float"):
    sd = len(spatial)
    pre, post = pre or [0] * sd, post or [0] * sd
    stride, dil = stride or [1] * sd, dil or [1] * sd
    g = G(name, io)
    xd = [n, c] + spatial
    wd = [k, c // groups] + ksz
    yd = [n, k] + [out_dim(spatial[i], ksz[i], pre[i], post[i], stride[i], dil[i]) for i in range(sd)]
    p = conv_params(pre, post, stride, dil)
    if kind == "data":
        dy, w = g.t("dy", yd, layout(yd)), g.t("w", wd, layout(wd))
        dx = g.t("dx", xd, layout(xd))
        g.node("ConvolutionBwdAttributes", "dgrad", {"dy_tensor_uid": dy, "w_tensor_uid": w}, {"dx_tensor_uid": dx}, p)
    else:
        x, dy = g.t("x", xd, layout(xd)), g.t("dy", yd, layout(yd))
        dw = g.t("dw", wd, layout(wd))
        g.node("ConvolutionWrwAttributes", "wgrad", {"x_tensor_uid": x, "dy_tensor_uid": dy}, {"dw_tensor_uid": dw}, p)
    g.write()


def matmul(name, ad, bd, io="float", bstrides=None, bias=False, act=None, ragged_a=False):
    """ragged_a: A carries ragged offsets (only SDPA takes ragged tensors)."""
    g = G(name, io)
    cd = [max(x, y) for x, y in zip([1] * (len(bd) - len(ad)) + ad[:-2], [1] * (len(ad) - len(bd)) + bd[:-2])]
    cd = cd + [ad[-2], bd[-1]]
    a = g.t("a", ad)
    b = g.t("b", bd, bstrides)
    fused = bias or act
    c = g.t("c", cd, dtype="float" if fused else None, virtual=bool(fused))
    g.node("MatmulAttributes", "mm", {"a_tensor_uid": a, "b_tensor_uid": b}, {"c_tensor_uid": c})
    if ragged_a:
        g.ragged([a], g.t("ragged_offsets_a", [ad[0] + 1], dtype="int32"))
    cur = c
    if bias:
        bb = g.t("bias", [1] * (len(cd) - 1) + [cd[-1]])
        last = not act
        o = g.t("cb", cd, dtype=None if last else "float", virtual=not last)
        g.node("PointwiseAttributes", "bias", {"in_0_tensor_uid": cur, "in_1_tensor_uid": bb, "operation": "add"},
               {"out_0_tensor_uid": o})
        cur = o
    if act:
        o = g.t("out", cd)
        g.node("PointwiseAttributes", "act", {"in_0_tensor_uid": cur, "operation": act}, {"out_0_tensor_uid": o})
    g.write()


def pointwise(name, op, d0, d1=None, io="float", extra=None, chain=None, out_strides=None, in_strides=None):
    g = G(name, io)
    a = g.t("in0", d0, in_strides)
    inputs = {"in_0_tensor_uid": a, "operation": op}
    if d1 is not None:
        inputs["in_1_tensor_uid"] = g.t("in1", d1)
    inputs.update(extra or {})
    od = d0 if d1 is None else [max(x, y) for x, y in zip(d0, d1)]
    o = g.t("out", od, dtype="float" if chain else None, virtual=bool(chain))
    if not chain:
        if out_strides:
            g.tensors[-1]["strides"] = out_strides
    g.node("PointwiseAttributes", "pw", inputs, {"out_0_tensor_uid": o})
    if chain:
        o2 = g.t("out2", od)
        g.node("PointwiseAttributes", "pw2", {"in_0_tensor_uid": o, "operation": chain}, {"out_0_tensor_uid": o2})
    g.write()


def bwd_pointwise(name, op, dims):
    g = G(name)
    dy, x = g.t("dy", dims), g.t("x", dims)
    dx = g.t("dx", dims)
    g.node("PointwiseAttributes", "bwd", {"in_0_tensor_uid": dy, "in_1_tensor_uid": x, "operation": op},
           {"out_0_tensor_uid": dx})
    g.write()


def layernorm(name, xd, count, io="float", stats=True, ydtype=None):
    g = G(name, io)
    x = g.t("x", xd)
    nd = xd[len(xd) - count:]
    scale, bias = g.t("scale", nd, dtype="float"), g.t("bias", nd, dtype="float")
    g.uid += 1
    eps = g.uid
    g.tensors.append({"uid": eps, "name": "epsilon", "dims": [1], "strides": [1], "data_type": "double",
                      "virtual": False, "value_type": "Float64Value", "value": 1e-5})
    y = g.t("y", xd, dtype=ydtype)
    outputs = {"y_tensor_uid": y}
    sd = xd[:len(xd) - count] + [1] * count
    if stats:
        outputs["mean_tensor_uid"] = g.t("mean", sd, dtype="float")
        outputs["inv_variance_tensor_uid"] = g.t("inv_variance", sd, dtype="float")
    g.node("LayernormAttributes", "ln", {"x_tensor_uid": x, "scale_tensor_uid": scale, "bias_tensor_uid": bias,
                                         "epsilon_tensor_uid": eps}, outputs)
    g.nodes[-1]["attributes"] = {"normalized_dim_count": count, "forward_phase": "TRAINING" if stats else "INFERENCE"}
    g.write()


def reduction(name, xd, od, mode, io="float"):
    g = G(name, io)
    x, o = g.t("x", xd), g.t("out", od)
    g.node("ReductionAttributes", "red", {"in_tensor_uid": x}, {"out_tensor_uid": o})
    g.nodes[-1]["attributes"] = {"mode": mode, "is_deterministic": True}
    g.write()


def pooling(name, xd, window, stride, pre, post, mode, pad_mode, layout=nchw, io="float", index=None):
    g = G(name, io)
    sd = len(window)
    yd = xd[:2] + [(xd[2 + i] + pre[i] + post[i] - window[i]) // stride[i] + 1 for i in range(sd)]
    x, y = g.t("x", xd, layout(xd)), g.t("y", yd, layout(yd))
    outputs = {"y_tensor_uid": y}
    if index:
        outputs["index_tensor_uid"] = g.t("index", yd, layout(yd), dtype=index)
    g.node("ResampleFwdAttributes", "pool", {"x_tensor_uid": x}, outputs)
    g.nodes[-1]["attributes"] = {"pre_padding": pre, "post_padding": post, "stride": stride, "window": window,
                                 "resample_mode": mode, "padding_mode": pad_mode}
    g.write()


def const(g, name, value):
    g.uid += 1
    g.tensors.append({"uid": g.uid, "name": name, "dims": [1], "strides": [1], "data_type": "double",
                      "virtual": False, "value_type": "Float64Value", "value": value})
    return g.uid


def bn_training(name, xd, layout=nchw, io="float", stat="float", running=True):
    g = G(name, io)
    cd = [1, xd[1]] + [1] * (len(xd) - 2)
    x = g.t("x", xd, layout(xd))
    scale, bias = g.t("scale", cd, dtype=stat), g.t("bias", cd, dtype=stat)
    inputs = {"x_tensor_uid": x, "scale_tensor_uid": scale, "bias_tensor_uid": bias,
              "epsilon_tensor_uid": const(g, "epsilon", 1e-5), "peer_stats_tensor_uid": []}
    outputs = {}
    if running:
        inputs["prev_running_mean_tensor_uid"] = g.t("prev_mean", cd, dtype=stat)
        inputs["prev_running_variance_tensor_uid"] = g.t("prev_var", cd, dtype=stat)
        inputs["momentum_tensor_uid"] = const(g, "momentum", 0.1)
    outputs["y_tensor_uid"] = g.t("y", xd, layout(xd))
    outputs["mean_tensor_uid"] = g.t("mean", cd, dtype=stat)
    outputs["inv_variance_tensor_uid"] = g.t("inv_variance", cd, dtype=stat)
    if running:
        outputs["next_running_mean_tensor_uid"] = g.t("next_mean", cd, dtype=stat)
        outputs["next_running_variance_tensor_uid"] = g.t("next_var", cd, dtype=stat)
    g.node("BatchnormAttributes", "bn", inputs, outputs)
    g.write()


def bn_backward(name, xd, layout=nchw, io="float", stat="float"):
    g = G(name, io)
    cd = [1, xd[1]] + [1] * (len(xd) - 2)
    dy, x = g.t("dy", xd, layout(xd)), g.t("x", xd, layout(xd))
    mean, inv, scale = g.t("mean", cd, dtype=stat), g.t("inv_variance", cd, dtype=stat), g.t("scale", cd, dtype=stat)
    dx = g.t("dx", xd, layout(xd))
    dscale, dbias = g.t("dscale", cd, dtype=stat), g.t("dbias", cd, dtype=stat)
    g.node("BatchnormBackwardAttributes", "bnb",
           {"dy_tensor_uid": dy, "x_tensor_uid": x, "mean_tensor_uid": mean, "inv_variance_tensor_uid": inv,
            "scale_tensor_uid": scale, "peer_stats_tensor_uid": []},
           {"dx_tensor_uid": dx, "dscale_tensor_uid": dscale, "dbias_tensor_uid": dbias})
    g.write()


def ln_backward(name, xd, count, io="float"):
    g = G(name, io)
    nd = xd[len(xd) - count:]
    sd = xd[:len(xd) - count] + [1] * count
    dy, x = g.t("dy", xd), g.t("x", xd)
    scale = g.t("scale", nd, dtype="float")
    mean, inv = g.t("mean", sd, dtype="float"), g.t("inv_variance", sd, dtype="float")
    dx = g.t("dx", xd)
    dscale, dbias = g.t("dscale", nd, dtype="float"), g.t("dbias", nd, dtype="float")
    g.node("LayernormBackwardAttributes", "lnb",
           {"dy_tensor_uid": dy, "x_tensor_uid": x, "scale_tensor_uid": scale, "mean_tensor_uid": mean,
            "inv_variance_tensor_uid": inv},
           {"dx_tensor_uid": dx, "dscale_tensor_uid": dscale, "dbias_tensor_uid": dbias})
    g.nodes[-1]["attributes"] = {"normalized_dim_count": count}
    g.write()


def rmsnorm(name, xd, scale_dims, io="float", bias=True, inv=True, eps=1e-5):
    """RMSNorm forward; the normalized axes are where scale_dims differ from 1."""
    g = G(name, io)
    x = g.t("x", xd)
    sc = g.t("scale", scale_dims)
    e = const(g, "epsilon", eps)
    inputs = {"x_tensor_uid": x, "scale_tensor_uid": sc, "epsilon_tensor_uid": e}
    if bias:
        inputs["bias_tensor_uid"] = g.t("bias", scale_dims)
    outputs = {"y_tensor_uid": g.t("y", xd)}
    if inv:
        sd = [1 if scale_dims[i] != 1 else xd[i] for i in range(len(xd))]
        outputs["inv_rms_tensor_uid"] = g.t("inv_rms", sd, dtype="float")
    g.node("RMSNormAttributes", "rmsnorm", inputs, outputs)
    g.nodes[-1]["attributes"] = {"forward_phase": "TRAINING" if inv else "INFERENCE"}
    g.write()


def rmsnorm_bwd(name, xd, scale_dims, io="float", dbias=True):
    g = G(name, io)
    dy, x = g.t("dy", xd), g.t("x", xd)
    sc = g.t("scale", scale_dims)
    sd = [1 if scale_dims[i] != 1 else xd[i] for i in range(len(xd))]
    inv = g.t("inv_rms", sd, dtype="float")
    outputs = {"dx_tensor_uid": g.t("dx", xd), "dscale_tensor_uid": g.t("dscale", scale_dims)}
    if dbias:
        outputs["dbias_tensor_uid"] = g.t("dbias", scale_dims)
    g.node("RMSNormBackwardAttributes", "rmsnorm_bwd",
           {"dy_tensor_uid": dy, "x_tensor_uid": x, "scale_tensor_uid": sc, "inv_rms_tensor_uid": inv}, outputs)
    g.write()


def pooling_bwd(name, xd, window, stride, pre, post, mode, layout=nchw, io="float", index=None,
                pad_mode="ZERO_PAD", index_strides=None):
    """index: the index tensor's data type (max pooling), or None for no index tensor."""
    g = G(name, io)
    sd = len(window)
    yd = xd[:2] + [(xd[2 + i] + pre[i] + post[i] - window[i]) // stride[i] + 1 for i in range(sd)]
    dy, dx = g.t("dy", yd, layout(yd)), g.t("dx", xd, layout(xd))
    inputs = {"dy_tensor_uid": dy}
    if index:
        inputs["index_tensor_uid"] = g.t("index", yd, index_strides or layout(yd), dtype=index)
    g.node("ResampleBwdAttributes", "poolb", inputs, {"dx_tensor_uid": dx})
    g.nodes[-1]["attributes"] = {"pre_padding": pre, "post_padding": post, "stride": stride, "window": window,
                                 "resample_mode": mode, "padding_mode": pad_mode}
    g.write()


def sdpa(name, b, h, hk, sq, skv, d, io="float", attrs=None, stats=False, bhsd=True, bias_dims=None, extra_out=None,
         runtime_scale=False, sink=False, seq_len=False, paged=None, ragged=False):
    """paged: (blocks, block, pages, which, table_rank): K and / or V (which: "kv", "k" or "v")
    are caches [blocks, Hk, block, D] in bhsd / bshd order with INT32 page tables [B, 1, P, 1]
    (table_rank 4) or [B, P] (2); skv is then the problem's Skv, given as max_seq_len_kv only
    when attrs say so. ragged: q, o and stats (int64 offsets), k and v (int32, unless paged) are
    ragged; with seq_len."""
    g = G(name, io)
    def dims_strides(n, heads, seq, dim):
        dims = [n, heads, seq, dim]
        # bhsd: [B, H, S, D] row-major; bshd: the same dims with S outside H in memory.
        strides = nchw(dims) if bhsd else [seq * heads * dim, dim, heads * dim, 1]
        return dims, strides
    q = g.t("q", *dims_strides(b, h, sq, d))
    blocks, block, pages, which, table_rank = paged or (0, 0, 0, "", 0)
    k = g.t("k", *(dims_strides(blocks, hk, block, d) if "k" in which else dims_strides(b, hk, skv, d)))
    v = g.t("v", *(dims_strides(blocks, hk, block, d) if "v" in which else dims_strides(b, hk, skv, d)))
    o = g.t("o", *dims_strides(b, h, sq, d))
    outputs = {"o_tensor_uid": o}
    if stats:
        outputs["stats_tensor_uid"] = g.t("stats", [b, h, sq, 1], dtype="float")
    for extra in ([extra_out] if isinstance(extra_out, str) else extra_out or []):
        outputs[extra + "_tensor_uid"] = g.t(extra, [b, h, sq, 1], dtype="float")
    inputs = {"q_tensor_uid": q, "k_tensor_uid": k, "v_tensor_uid": v}
    if bias_dims:
        inputs["attn_mask_tensor_uid"] = g.t("attn_mask", bias_dims)
    if runtime_scale:
        inputs["scale_tensor_uid"] = g.t("scale", [1], dtype="float", by_value=True)
    if sink:
        inputs["sink_token_tensor_uid"] = g.t("sink", [1, h, 1, 1], dtype="float")
    if seq_len:
        inputs["seq_len_q_tensor_uid"] = g.t("seq_len_q", [b, 1, 1, 1], dtype="int32")
        inputs["seq_len_kv_tensor_uid"] = g.t("seq_len_kv", [b, 1, 1, 1], dtype="int32")
    for c in which:
        inputs["page_table_%s_tensor_uid" % c] = g.t("page_table_" + c, [b, 1, pages, 1] if table_rank == 4 else [b, pages],
                                                     dtype="int32")
    if ragged:
        # A paged cache is a container, not rows of batches: only the unpaged side is ragged, unless
        # ragged == "caches too" (a graph the engine must decline).
        kv = [u for c, u in (("k", k), ("v", v)) if c not in which or ragged == "caches too"]
        mark_ragged(g, b, [q, o], kv, outputs.get("stats_tensor_uid"))
    g.node("SdpaAttributes", "sdpa", inputs, outputs)
    a = {"alibi_mask": False, "padding_mask": False, "causal_mask": False, "causal_mask_bottom_right": False,
         "diagonal_alignment": "TOP_LEFT"}
    a.update(attrs or {})
    g.nodes[-1]["attributes"] = a
    g.write()


def mark_ragged(g, b, q_side, kv_side, stats):
    """THD layouts: the q-side tensors take int64 offsets, the kv-side int32, the stats (rows of
    one element) their own (hipdnn-run packs the batches back to back by their lengths)."""
    oq = g.t("ragged_offsets_q", [b + 1, 1, 1, 1], dtype="int64")
    okv = g.t("ragged_offsets_kv", [b + 1, 1, 1, 1], dtype="int32")
    g.ragged(q_side, oq)
    g.ragged(kv_side, okv)
    if stats:
        g.ragged([stats], g.t("ragged_offsets_stats", [b + 1, 1, 1, 1], dtype="int32"))


def sdpa_bwd(name, b, h, hk, sq, skv, d, io="float", attrs=None, bhsd=True, bias_dims=None, dbias=False,
             dropout=False, seq_len=False, stats_type="float", runtime_scale=False, ragged=False):
    """SDPA backward: q, k, v, o, dO and the forward's stats in; dQ, dK, dV out; dbias: True (the
    bias's dims) or its dims."""
    g = G(name, io)
    def dims_strides(heads, seq, dim):
        dims = [b, heads, seq, dim]
        strides = nchw(dims) if bhsd else [seq * heads * dim, dim, heads * dim, 1]
        return dims, strides
    inputs = {"q_tensor_uid": g.t("q", *dims_strides(h, sq, d)), "k_tensor_uid": g.t("k", *dims_strides(hk, skv, d)),
              "v_tensor_uid": g.t("v", *dims_strides(hk, skv, d)), "o_tensor_uid": g.t("o", *dims_strides(h, sq, d)),
              "do_tensor_uid": g.t("do", *dims_strides(h, sq, d)),
              "stats_tensor_uid": g.t("stats", [b, h, sq, 1], dtype=stats_type)}
    if runtime_scale:
        inputs["scale_tensor_uid"] = g.t("scale", [1], dtype="float", by_value=True)
    if seq_len:
        inputs["seq_len_q_tensor_uid"] = g.t("seq_len_q", [b, 1, 1, 1], dtype="int32")
        inputs["seq_len_kv_tensor_uid"] = g.t("seq_len_kv", [b, 1, 1, 1], dtype="int32")
    outputs = {"dq_tensor_uid": g.t("dq", *dims_strides(h, sq, d)), "dk_tensor_uid": g.t("dk", *dims_strides(hk, skv, d)),
               "dv_tensor_uid": g.t("dv", *dims_strides(hk, skv, d))}
    if bias_dims:
        inputs["attn_mask_tensor_uid"] = g.t("attn_mask", bias_dims)
    if dbias:
        outputs["dbias_tensor_uid"] = g.t("dbias", bias_dims if dbias is True else dbias)
    if dropout:
        inputs["dropout_mask_tensor_uid"] = g.t("dropout_mask", [b, h, sq, skv])
    if ragged:
        mark_ragged(g, b, [inputs[k] for k in ("q_tensor_uid", "o_tensor_uid", "do_tensor_uid")] + [outputs["dq_tensor_uid"]],
                    [inputs["k_tensor_uid"], inputs["v_tensor_uid"], outputs["dk_tensor_uid"], outputs["dv_tensor_uid"]],
                    inputs["stats_tensor_uid"])
    g.node("SdpaBackwardAttributes", "sdpa_bwd", inputs, outputs)
    a = {"alibi_mask": False, "padding_mask": False, "causal_mask": False, "causal_mask_bottom_right": False,
         "diagonal_alignment": "TOP_LEFT"}
    a.update(attrs or {})
    g.nodes[-1]["attributes"] = a
    g.write()


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith(".json"):
            os.remove(os.path.join(OUT, f))
    # Convolution forward.
    conv_fwd("pass_conv2d_nchw_groups_dilation_asympad", 2, 8, [13, 11], 6, [3, 3], groups=2, pre=[1, 0],
             post=[0, 2], stride=[2, 1], dil=[2, 1])
    conv_fwd("pass_conv2d_nhwc_bias_relu", 2, 16, [12, 12], 32, [3, 3], pre=[1, 1], post=[1, 1], layout=nhwc,
             bias=True, act="relu_fwd")
    conv_fwd("pass_conv2d_nchw_bias_swish", 1, 8, [9, 9], 8, [3, 3], pre=[1, 1], post=[1, 1], bias=True,
             act="swish_fwd")
    conv_fwd("pass_conv2d_nhwc_bias_sigmoid", 1, 16, [9, 9], 8, [3, 3], pre=[1, 1], post=[1, 1], bias=True,
             act="sigmoid_fwd", layout=nhwc)
    conv_fwd("decline_conv2d_bias_gelu_erf", 1, 8, [9, 9], 8, [3, 3], pre=[1, 1], post=[1, 1], bias=True,
             act="gelu_fwd")
    conv_fwd("pass_conv2d_nhwc_depthwise", 2, 16, [10, 10], 16, [3, 3], groups=16, pre=[1, 1], post=[1, 1],
             layout=nhwc)
    conv_fwd("pass_conv1d_ncw_stride2", 3, 6, [31], 10, [5], pre=[2], post=[1], stride=[2])
    conv_fwd("pass_conv3d_ndhwc", 1, 4, [6, 7, 5], 8, [3, 3, 3], pre=[1, 1, 1], post=[1, 1, 1], layout=nhwc)
    conv_fwd("pass_conv2d_nhwc_bf16_bias_relu", 2, 16, [8, 8], 16, [3, 3], pre=[1, 1], post=[1, 1], layout=nhwc,
             io="bfloat16", bias=True, act="relu_fwd")
    xd = [2, 8, 7, 7]
    conv_fwd("pass_conv2d_padded_strides_x", 2, 8, [7, 7], 4, [3, 3], xstrides=[8 * 9 * 9, 81, 9, 1])
    conv_fwd("pass_conv2d_1x1_convolution_mode", 2, 8, [5, 5], 4, [1, 1], mode="CONVOLUTION")
    conv_fwd("decline_conv2d_3x3_convolution_mode", 1, 4, [6, 6], 4, [3, 3], mode="CONVOLUTION")
    # Convolution backward.
    conv_bwd("pass_conv_bwd_data_groups_stride", "data", 2, 8, [11, 9], 6, [3, 3], groups=2, pre=[1, 0],
             post=[1, 1], stride=[2, 2])
    conv_bwd("pass_conv_bwd_data_nhwc_dilation", "data", 2, 16, [10, 10], 16, [3, 3], pre=[2, 2], post=[2, 2],
             dil=[2, 2], layout=nhwc)
    conv_bwd("pass_conv_bwd_data_nhwc_bf16", "data", 2, 16, [8, 8], 16, [3, 3], pre=[1, 1], post=[1, 1],
             layout=nhwc, io="bfloat16")
    conv_bwd("pass_conv_bwd_weights_groups_asympad", "weights", 2, 8, [9, 9], 4, [3, 3], groups=2, pre=[1, 0],
             post=[0, 1])
    conv_bwd("pass_conv_bwd_weights_nhwc_stride", "weights", 2, 16, [12, 12], 16, [3, 3], pre=[1, 1], post=[1, 1],
             stride=[2, 2], layout=nhwc)
    conv_bwd("pass_conv_bwd_weights_1d", "weights", 2, 4, [20], 6, [3], pre=[1], post=[1])
    # Matmul.
    matmul("pass_matmul_2d", [33, 47], [47, 29])
    matmul("decline_matmul_ragged", [2, 8, 16], [2, 16, 8], ragged_a=True)
    matmul("pass_matmul_batched_broadcast", [2, 3, 16, 24], [1, 24, 20])
    matmul("pass_matmul_transposed_b", [4, 32, 16], [4, 16, 24], bstrides=[16 * 24, 1, 16])
    matmul("pass_matmul_bf16", [64, 128], [128, 96], io="bfloat16")
    matmul("pass_matmul_bias_relu", [3, 40, 32], [3, 32, 24], bias=True, act="relu_fwd")
    matmul("pass_matmul_bias_tanh_bf16", [48, 64], [64, 32], io="bfloat16", bias=True, act="tanh_fwd")
    # Pointwise.
    pointwise("pass_pw_add_broadcast", "add", [2, 8, 5, 5], [1, 8, 1, 1])
    pointwise("pass_pw_mul_broadcast_first_swapped", "mul", [1, 8, 1, 1], [2, 8, 5, 5])
    pointwise("pass_pw_sub", "sub", [4, 33], [4, 33])
    pointwise("pass_pw_div", "div", [4, 33], [1, 33])
    pointwise("pass_pw_max", "max_op", [3, 17], [3, 17])
    pointwise("pass_pw_cmp_gt", "cmp_gt", [3, 17], [3, 17])
    pointwise("pass_pw_relu_clipped", "relu_fwd", [5, 19], extra={"relu_lower_clip": -0.25, "relu_upper_clip": 0.5})
    pointwise("pass_pw_leaky_relu", "relu_fwd", [5, 19], extra={"relu_lower_clip_slope": 0.1})
    pointwise("pass_pw_sigmoid", "sigmoid_fwd", [7, 13])
    pointwise("pass_pw_tanh_bf16", "tanh_fwd", [7, 13], io="bfloat16")
    pointwise("pass_pw_swish", "swish_fwd", [7, 13], extra={"swish_beta": 1.5})
    pointwise("decline_pw_elu", "elu_fwd", [7, 13], extra={"elu_alpha": 0.7})
    pointwise("decline_pw_log", "log", [7, 13])
    pointwise("decline_pw_gelu_tanh", "gelu_approx_tanh_fwd", [7, 13])
    for op in ["exp", "sqrt", "rsqrt", "reciprocal", "neg", "softplus_fwd", "identity"]:
        pointwise("pass_pw_" + op, op, [16, 64])
    pointwise("pass_pw_cmp_eq", "cmp_eq", [16, 64], [16, 64])
    pointwise("pass_pw_min", "min_op", [16, 64], [1, 64])
    pointwise("pass_pw_abs_transposed_out", "abs", [6, 10], out_strides=[1, 6])
    pointwise("pass_pw_add_then_relu_chain", "add", [2, 8, 6, 6], [1, 8, 1, 1], chain="relu_fwd")
    pointwise("pass_pw_mul_then_sigmoid_chain", "mul", [4, 20], [4, 20], chain="sigmoid_fwd")
    bwd_pointwise("pass_pw_relu_bwd", "relu_bwd", [4, 21])
    bwd_pointwise("pass_pw_tanh_bwd", "tanh_bwd", [4, 21])
    bwd_pointwise("pass_pw_sigmoid_bwd", "sigmoid_bwd", [4, 21])
    bwd_pointwise("pass_pw_swish_bwd", "swish_bwd", [4, 21])
    bwd_pointwise("pass_pw_elu_bwd", "elu_bwd", [4, 21])
    bwd_pointwise("decline_pw_gelu_bwd", "gelu_bwd", [4, 21])
    pointwise("decline_pw_sin", "sin", [4, 5])
    # SDPA forward.
    sdpa("pass_sdpa_mha_fp32", 2, 4, 4, 33, 47, 32)
    sdpa("pass_sdpa_gqa_bf16_causal", 1, 8, 2, 40, 40, 64, io="bfloat16", attrs={"causal_mask": True})
    sdpa("pass_sdpa_bottom_right_causal_bshd", 2, 4, 1, 17, 45, 16, attrs={"causal_mask_bottom_right": True},
         bhsd=False)
    sdpa("pass_sdpa_sliding_window_scale", 1, 2, 2, 64, 64, 32,
         attrs={"left_bound": 8, "right_bound": 0, "attn_scale_value": 0.3})
    sdpa("pass_sdpa_gqa_bias_per_head", 2, 4, 2, 24, 40, 16, bias_dims=[1, 4, 24, 40])
    sdpa("pass_sdpa_bias_2d_bf16_causal", 1, 2, 2, 32, 32, 32, io="bfloat16", bias_dims=[32, 32],
         attrs={"causal_mask": True})
    sdpa("decline_sdpa_rng_dump_output", 1, 2, 2, 16, 16, 16, stats=True, extra_out="rng_dump")
    # The row max and sum of exponentials instead of (or beside) the stats.
    sdpa("pass_sdpa_fwd_max_sumexp_fp32_causal", 2, 4, 2, 33, 47, 32, attrs={"causal_mask": True},
         extra_out=["max", "sum_exp"])
    sdpa("pass_sdpa_fwd_stats_max_sumexp_bf16_bias", 1, 4, 4, 24, 40, 16, io="bfloat16", bias_dims=[1, 4, 24, 40],
         stats=True, extra_out=["max", "sum_exp"])
    # ALiBi (the engine's kernel on the scores), 6 heads: slopes past the power of two.
    sdpa("pass_sdpa_fwd_stats_alibi_gqa_causal", 2, 6, 2, 33, 47, 32, attrs={"causal_mask": True, "alibi_mask": True},
         stats=True)
    sdpa_bwd("pass_sdpa_bwd_alibi_causal_bf16", 1, 6, 3, 40, 40, 32, io="bfloat16",
             attrs={"causal_mask": True, "alibi_mask": True})
    # Sink tokens: one logit per query head in the softmax's max and sum.
    sdpa("pass_sdpa_fwd_sink_gqa_causal", 2, 4, 2, 24, 40, 16, attrs={"causal_mask": True}, sink=True)
    sdpa("pass_sdpa_fwd_stats_max_sumexp_sink_bf16", 1, 4, 4, 33, 47, 32, io="bfloat16", stats=True,
         extra_out=["max", "sum_exp"], sink=True)
    # Sequence lengths (padding): keys past seq_len_kv masked, rows past seq_len_q written as 0.
    sdpa("pass_sdpa_fwd_varlen_causal_stats_half", 3, 4, 2, 24, 40, 16, io="half", attrs={"causal_mask": True},
         stats=True, extra_out=["max", "sum_exp"], seq_len=True)
    sdpa("pass_sdpa_fwd_varlen_bias_fp32", 2, 4, 4, 33, 47, 32, bias_dims=[2, 4, 33, 47], seq_len=True,
         attrs={"padding_mask": True})
    # BOTTOM_RIGHT with lengths: one diagonal per batch at seq_len_kv[b] - seq_len_q[b] (rows above
    # it see no key when seq_len_q[b] > seq_len_kv[b]); a window of left-bound keys, stats in half.
    sdpa("pass_sdpa_fwd_varlen_bottom_right", 2, 4, 4, 16, 24, 16, attrs={"causal_mask_bottom_right": True}, seq_len=True)
    sdpa("pass_sdpa_fwd_varlen_bottom_right_window_gqa_half", 3, 4, 2, 40, 24, 16, io="half",
         attrs={"diagonal_alignment": "BOTTOM_RIGHT", "right_bound": 0, "left_bound": 5}, stats=True,
         extra_out=["max", "sum_exp"], seq_len=True)
    # Lengths with sinks: a real row with no visible key (seq_len_q[b] > seq_len_kv[b] above the
    # bottom-right diagonal) has the sink alone: O = 0, stats = max = sink, sum_exp = 1.
    sdpa("pass_sdpa_fwd_varlen_sink_bottom_right_bf16", 3, 4, 2, 40, 24, 16, io="bfloat16",
         attrs={"causal_mask_bottom_right": True}, stats=True, extra_out=["max", "sum_exp"], sink=True, seq_len=True)
    # Paged K / V caches (cuDNN's paged attention): gathered into dense copies by the engine.
    # Skv from max_seq_len_kv; from the dense V when only K is paged; from P * block otherwise.
    sdpa("pass_sdpa_fwd_paged_gqa_half_causal_stats", 3, 4, 2, 24, 37, 16, io="half", attrs={"causal_mask": True,
         "max_seq_len_kv": 37}, stats=True, seq_len=True, paged=(12, 8, 5, "kv", 4))
    sdpa("pass_sdpa_fwd_paged_k_bf16_sink_bottom_right", 3, 4, 2, 40, 40, 16, io="bfloat16",
         attrs={"causal_mask_bottom_right": True}, stats=True, sink=True, seq_len=True, paged=(7, 16, 3, "k", 2))
    sdpa("pass_sdpa_fwd_paged_fp32_bshd_inferred", 2, 4, 4, 33, 40, 32, bhsd=False, seq_len=True, paged=(9, 8, 5, "kv", 2))
    sdpa("decline_sdpa_paged_without_seq_len", 2, 4, 4, 16, 32, 16, paged=(8, 8, 4, "kv", 4))
    # Ragged (THD / nested) tensors: computed on dense copies, rows past the lengths not written.
    sdpa("pass_sdpa_fwd_ragged_thd_gqa_fp32_causal_stats", 3, 4, 2, 24, 40, 16, bhsd=False, attrs={"causal_mask": True},
         stats=True, seq_len=True, ragged=True)
    sdpa("pass_sdpa_fwd_ragged_bhsd_half_bottom_right", 2, 4, 4, 33, 47, 32, io="half",
         attrs={"causal_mask_bottom_right": True}, seq_len=True, ragged=True)
    sdpa_bwd("pass_sdpa_bwd_ragged_thd_gqa_fp32_causal", 3, 4, 2, 24, 40, 16, bhsd=False, attrs={"causal_mask": True},
             seq_len=True, ragged=True)
    sdpa_bwd("pass_sdpa_bwd_ragged_thd_bf16", 2, 4, 4, 33, 47, 32, io="bfloat16", bhsd=False, seq_len=True, ragged=True)
    sdpa("decline_sdpa_ragged_without_seq_len", 2, 4, 4, 16, 32, 16, bhsd=False, ragged=True)
    sdpa("decline_sdpa_paged_cache_ragged", 2, 4, 4, 16, 32, 16, bhsd=False, seq_len=True, ragged="caches too",
         paged=(8, 8, 4, "kv", 4))
    sdpa("pass_sdpa_fwd_ragged_q_paged_kv_half_causal", 3, 4, 2, 24, 40, 16, io="half", bhsd=False,
         attrs={"causal_mask": True}, stats=True, seq_len=True, ragged=True, paged=(12, 8, 5, "kv", 4))
    # SDPA forward with stats (training) and backward.
    sdpa("pass_sdpa_fwd_stats_fp32", 2, 4, 4, 33, 47, 32, stats=True)
    sdpa("pass_sdpa_fwd_stats_gqa_bf16_causal", 1, 8, 2, 40, 40, 64, io="bfloat16", attrs={"causal_mask": True},
         stats=True)
    sdpa("pass_sdpa_fwd_stats_half_bias_bshd", 2, 4, 2, 24, 40, 16, io="half", bias_dims=[1, 4, 24, 40], bhsd=False,
         stats=True)
    sdpa_bwd("pass_sdpa_bwd_fp32", 2, 4, 4, 33, 47, 32)
    sdpa_bwd("pass_sdpa_bwd_gqa_causal", 1, 8, 2, 40, 40, 64, attrs={"causal_mask": True})
    sdpa_bwd("pass_sdpa_bwd_gqa_bias_bshd", 2, 4, 2, 24, 40, 16, bias_dims=[1, 4, 24, 40], bhsd=False)
    sdpa_bwd("pass_sdpa_bwd_bf16_bottom_right", 2, 4, 1, 17, 45, 16, io="bfloat16",
             attrs={"causal_mask_bottom_right": True})
    sdpa_bwd("pass_sdpa_bwd_half_window_scale_bias", 1, 2, 2, 64, 64, 32, io="half", bias_dims=[64, 64],
             attrs={"left_bound": 8, "right_bound": 0, "attn_scale_value": 0.3})
    sdpa("pass_sdpa_fwd_stats_runtime_scale_causal", 2, 4, 2, 24, 40, 16, attrs={"causal_mask": True}, stats=True,
         runtime_scale=True)
    sdpa_bwd("pass_sdpa_bwd_runtime_scale_gqa_causal", 2, 4, 2, 24, 40, 16, attrs={"causal_mask": True},
             runtime_scale=True)
    # dbias: dS summed over the batches / heads the bias broadcasts over (cuDNN's shapes only).
    sdpa_bwd("pass_sdpa_bwd_dbias_gqa_causal_fp32", 2, 4, 2, 24, 40, 16, bias_dims=[1, 4, 24, 40], dbias=True,
             attrs={"causal_mask": True})
    sdpa_bwd("pass_sdpa_bwd_dbias_varlen_bshd_bf16", 3, 4, 2, 33, 47, 32, io="bfloat16", seq_len=True, bhsd=False,
             bias_dims=[3, 1, 33, 47], dbias=True, attrs={"padding_mask": True})
    sdpa_bwd("pass_sdpa_bwd_dbias_full_window_half", 2, 2, 2, 40, 40, 32, io="half", bias_dims=[2, 2, 40, 40],
             dbias=True, attrs={"left_bound": 6, "right_bound": 0})
    sdpa_bwd("pass_sdpa_bwd_dbias_no_bias_ragged_thd_fp32", 2, 4, 2, 24, 40, 16, bhsd=False, seq_len=True, ragged=True,
             dbias=[1, 1, 24, 40], attrs={"causal_mask": True})
    sdpa_bwd("decline_sdpa_bwd_dbias_per_row", 1, 2, 2, 16, 16, 16, bias_dims=[1, 2, 16, 1], dbias=True)
    sdpa_bwd("decline_sdpa_bwd_dropout", 1, 2, 2, 16, 16, 16, dropout=True)
    # The backward with sequence lengths: the forward's masking, dead rows contribute nothing.
    sdpa_bwd("pass_sdpa_bwd_varlen_causal_fp32", 3, 4, 2, 24, 40, 16, seq_len=True,
             attrs={"causal_mask": True, "padding_mask": True})
    sdpa_bwd("pass_sdpa_bwd_varlen_bottom_right_window_bf16", 3, 4, 4, 40, 24, 32, io="bfloat16", seq_len=True,
             attrs={"diagonal_alignment": "BOTTOM_RIGHT", "right_bound": 0, "left_bound": 5})
    sdpa_bwd("pass_sdpa_bwd_varlen_bias_bshd_half", 2, 4, 2, 33, 47, 32, io="half", seq_len=True, bhsd=False,
             bias_dims=[2, 4, 33, 47])
    sdpa_bwd("pass_sdpa_bwd_half_stats_staged", 1, 2, 2, 16, 16, 16, stats_type="half")
    # Bias broadcasts oneDNN 2.6's binary has only a reference kernel for (over the batch alone,
    # one value per row, one row per head): the engine adds them with its own kernel.
    sdpa("pass_sdpa_bias_batch_broadcast_fp32", 2, 4, 4, 24, 40, 16, bias_dims=[1, 4, 24, 40])
    sdpa("pass_sdpa_fwd_stats_bias_per_key_bf16", 2, 4, 4, 24, 40, 16, io="bfloat16", bias_dims=[2, 4, 1, 40], stats=True)
    sdpa_bwd("pass_sdpa_bwd_gqa_bias_per_row", 2, 4, 2, 24, 40, 16, bias_dims=[2, 4, 24, 1])
    sdpa_bwd("pass_sdpa_bwd_bias_batch_broadcast_causal", 2, 4, 4, 33, 47, 32, bias_dims=[1, 4, 33, 47],
             attrs={"causal_mask": True})
    # Batch normalization inference (inv_variance and variance forms).
    for variant in ("inv", "var"):
        g = G("pass_bn_inference_%s_nhwc" % variant)
        xd, cd = [2, 16, 5, 5], [1, 16, 1, 1]
        x = g.t("x", xd, nhwc(xd))
        mean, stat = g.t("mean", cd), g.t("stat", cd)
        scale, bias = g.t("scale", cd), g.t("bias", cd)
        y = g.t("y", xd, nhwc(xd))
        if variant == "inv":
            g.node("BatchnormInferenceAttributes", "bni",
                   {"x_tensor_uid": x, "mean_tensor_uid": mean, "inv_variance_tensor_uid": stat,
                    "scale_tensor_uid": scale, "bias_tensor_uid": bias}, {"y_tensor_uid": y})
        else:
            g.node("BatchnormInferenceAttributesVarianceExt", "bnv",
                   {"x_tensor_uid": x, "mean_tensor_uid": mean, "variance_tensor_uid": stat,
                    "scale_tensor_uid": scale, "bias_tensor_uid": bias, "epsilon_tensor_uid": const(g, "eps", 1e-5)},
                   {"y_tensor_uid": y})
        g.write()
    # Batch normalization training / backward, layernorm backward.
    bn_training("pass_bn_training_running_stats", [4, 8, 6, 6])
    bn_training("pass_bn_training_nhwc_no_running", [2, 16, 5, 5], layout=nhwc, running=False)
    bn_training("pass_bn_training_bf16", [4, 8, 6, 6], layout=nhwc, io="bfloat16", stat="bfloat16")
    bn_backward("pass_bn_backward_nchw", [4, 8, 6, 6])
    bn_backward("pass_bn_backward_nhwc_bf16", [2, 16, 5, 5], layout=nhwc, io="bfloat16", stat="bfloat16")
    ln_backward("pass_layernorm_backward", [16, 64], 1)
    ln_backward("pass_layernorm_backward_two_dims", [4, 6, 8], 2)
    # Layer normalization, reduction, pooling.
    layernorm("pass_layernorm_training_2d", [64, 256], 1)
    layernorm("pass_layernorm_inference_two_dims", [4, 8, 16], 2, stats=False)
    layernorm("pass_layernorm_bf16", [32, 128], 1, io="bfloat16")
    # bf16 x with f32 y: oneDNN 2.x's layer normalization writes dst in src's type, so the native
    # plan is declined and the plan is staged through f32.
    layernorm("pass_layernorm_mixed_types", [8, 32], 1, io="bfloat16", ydtype="float")
    # fp16 (staged through f32 everywhere: oneDNN 2.6 has no CPU fp16 kernels).
    conv_fwd("pass_conv2d_nhwc_fp16_bias_relu", 2, 16, [8, 8], 16, [3, 3], pre=[1, 1], post=[1, 1], layout=nhwc,
             io="half", bias=True, act="relu_fwd")
    matmul("pass_matmul_fp16", [64, 128], [128, 96], io="half")
    matmul("pass_matmul_bias_tanh_fp16", [48, 64], [64, 32], io="half", bias=True, act="tanh_fwd")
    layernorm("pass_layernorm_fp16", [32, 128], 1, io="half")
    pointwise("pass_pw_sigmoid_fp16", "sigmoid_fwd", [7, 13], io="half")
    # Staging with gaps: the input is widened span and all (its gaps are the caller's memory),
    # the output narrowed element by element through a reorder (its gaps are left alone).
    pointwise("pass_pw_add_fp16_strided_in_out", "add", [7, 13], [1, 13], io="half", in_strides=[16, 1],
              out_strides=[20, 1])
    bn_training("pass_bn_training_fp16", [4, 8, 6, 6], layout=nhwc, io="half", stat="float")
    # RMSNorm: the engine's kernel (rows contiguous, and normalized axes with axes after them).
    rmsnorm("pass_rmsnorm_training_last", [4, 6, 64], [1, 1, 64])
    rmsnorm("pass_rmsnorm_inference_no_bias", [8, 96], [1, 96], bias=False, inv=False)
    rmsnorm("pass_rmsnorm_channels", [2, 8, 5, 5], [1, 8, 1, 1])
    rmsnorm("pass_rmsnorm_fp16", [16, 128], [1, 128], io="half")
    rmsnorm("pass_rmsnorm_bf16", [16, 128], [1, 128], io="bfloat16")
    rmsnorm_bwd("pass_rmsnorm_backward_last", [4, 6, 64], [1, 1, 64])
    rmsnorm_bwd("pass_rmsnorm_backward_channels_no_dbias", [3, 8, 4, 4], [1, 8, 1, 1], dbias=False)
    rmsnorm_bwd("pass_rmsnorm_backward_fp16", [16, 128], [1, 128], io="half")
    reduction("pass_reduction_sum_last", [4, 6, 32], [4, 6, 1], "ADD")
    reduction("pass_reduction_max_middle", [4, 6, 32], [4, 1, 32], "MAX_OP")
    reduction("pass_reduction_avg_all_but_first", [4, 6, 32], [4, 1, 1], "AVG")
    reduction("pass_reduction_norm2", [8, 64], [8, 1], "NORM2")
    reduction("decline_reduction_amax", [8, 64], [1, 64], "AMAX")
    reduction("decline_reduction_mul_no_zeros", [8, 64], [8, 1], "MUL_NO_ZEROS")
    pooling("pass_pool_max_3x3_s2_nhwc", [2, 16, 13, 13], [3, 3], [2, 2], [1, 1], [1, 1], "MAXPOOL", "NEG_INF_PAD",
            layout=nhwc)
    pooling("pass_pool_avg_include_pad", [2, 8, 9, 9], [3, 3], [2, 2], [1, 1], [1, 1], "AVGPOOL_INCLUDE_PADDING",
            "ZERO_PAD")
    pooling("pass_pool_avg_exclude_pad_asym", [1, 4, 10, 7], [2, 2], [2, 2], [1, 0], [0, 1], "AVGPOOL_EXCLUDE_PADDING",
            "ZERO_PAD")
    pooling_bwd("pass_pool_bwd_avg_include_pad", [2, 8, 9, 9], [3, 3], [2, 2], [1, 1], [1, 1],
                "AVGPOOL_INCLUDE_PADDING")
    pooling_bwd("pass_pool_bwd_avg_exclude_pad_nhwc", [2, 16, 10, 10], [2, 2], [2, 2], [0, 0], [0, 0],
                "AVGPOOL_EXCLUDE_PADDING", layout=nhwc)
    pooling_bwd("decline_pool_bwd_max", [2, 8, 9, 9], [3, 3], [2, 2], [1, 1], [1, 1], "MAXPOOL")
    # Max pooling backward through the index tensor: overlapping windows (stride < window) so
    # that one input collects several gradients; int32, int64, uint8 and strided indices; 1-D,
    # 2-D and 3-D; a window of 256+ elements (oneDNN's s32 workspace). Their indices are random
    # positions inside each window (hipdnn-run's fill), not only maxima.
    pooling_bwd("pass_pool_bwd_max_3x3_s2_index_i32", [2, 8, 9, 9], [3, 3], [2, 2], [1, 1], [1, 1], "MAXPOOL",
                index="int32", pad_mode="NEG_INF_PAD")
    pooling_bwd("pass_pool_bwd_max_nhwc_index_i64", [2, 16, 10, 11], [3, 2], [1, 2], [1, 0], [0, 1], "MAXPOOL",
                layout=nhwc, index="int64", pad_mode="NEG_INF_PAD")
    pooling_bwd("pass_pool_bwd_max_1d_index_u8", [2, 4, 20], [3], [1], [0], [0], "MAXPOOL", index="uint8",
                pad_mode="ZERO_PAD")
    pooling_bwd("pass_pool_bwd_max_3d_index_strided", [1, 3, 5, 6, 7], [2, 3, 2], [1, 2, 2], [1, 1, 0], [0, 1, 1],
                "MAXPOOL", index="int32", pad_mode="NEG_INF_PAD",
                index_strides=nhwc([1, 3, 5, 3, 4]))
    pooling_bwd("pass_pool_bwd_max_window_17x17", [1, 2, 40, 40], [17, 17], [5, 5], [2, 2], [2, 2], "MAXPOOL",
                index="int32", pad_mode="NEG_INF_PAD")
    # A window wider than the input (padding on both sides): offsets from the window origin are
    # ambiguous, the conversion divides instead of looking them up.
    pooling_bwd("pass_pool_bwd_max_window_wider_than_input", [2, 3, 2, 3], [3, 4], [1, 1], [1, 1], [1, 1], "MAXPOOL",
                index="int32", pad_mode="NEG_INF_PAD")
    # ZERO_PAD: an index of -1 (a padding maximum) where the window reaches into the padding.
    pooling_bwd("pass_pool_bwd_max_zero_pad", [2, 8, 9, 9], [3, 3], [2, 2], [1, 1], [1, 1], "MAXPOOL",
                index="int32")
    # Max-pool forward with ZERO_PAD (the padding, 0, can be the maximum: the engine's fix-up of
    # oneDNN's -inf padding). With an index output: onednn_pool_argmax (hipdnn-run has no
    # reference for the index).
    pooling("pass_pool_max_zero_pad_no_index", [2, 8, 9, 9], [3, 3], [2, 2], [1, 1], [1, 1], "MAXPOOL", "ZERO_PAD")
    pooling("pass_pool_max_1d", [2, 4, 20], [3], [1], [0], [0], "MAXPOOL", "NEG_INF_PAD")
    pointwise("decline_pw_sub_broadcast_first", "sub", [1, 5], [4, 5])


if __name__ == "__main__":
    main()
