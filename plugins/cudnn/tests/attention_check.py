#!/usr/bin/env python3
"""A second, independent check (numpy, float64) of the ragged, paged, sink and dbias SDPA graphs.

device_check.sh's attention step runs, per graph of tests/gpu/graphs:
  attention_check.py GRAPH DIR inputs   writes DIR/in/t<uid>.npy: every input (float64, logical
                                        order, already rounded to its type), chosen so that
                                        lengths, offsets and page tables are consistent, and for
                                        the backward an O and stats that match Q, K, V
  hipdnn-run GRAPH --engine HIPDNNGO_CUDNN --load DIR/in --dump DIR/out
  attention_check.py GRAPH DIR verify   recomputes the outputs in float64 from DIR/out's inputs
                                        and compares the rows inside the sequence lengths
"""
import json
import sys

import numpy as np

SEED = 7


def rounded(x, dtype):
    """x rounded to the graph's type (bf16 by rounding the fp32 bits to the nearest even)."""
    if dtype == "half":
        return x.astype(np.float16).astype(np.float64)
    if dtype == "bfloat16":
        b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
        b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
        return b.astype(np.uint32).view(np.float32).astype(np.float64)
    return x.astype(np.float64)


class Graph:
    def __init__(self, path):
        g = json.load(open(path))
        self.t = {t["uid"]: t for t in g["tensors"]}
        n = g["nodes"][0]
        self.bwd = n["type"] == "SdpaBackwardAttributes"
        self.uid = {**n["inputs"], **n["outputs"]}
        self.p = n.get("parameters") or n.get("attributes") or {}

    def has(self, key):
        return self.uid.get(key) is not None

    def dims(self, key):
        return self.t[self.uid[key]]["dims"]

    def dtype(self, key):
        return self.t[self.uid[key]]["data_type"]


def geometry(g):
    b, hq, sq, d = g.dims("q_tensor_uid")
    if g.has("page_table_k_tensor_uid"):
        skv = g.p["max_seq_len_kv"]
    else:
        skv = g.dims("k_tensor_uid")[2]
    return b, hq, sq, skv, d


def keys_and_values(g, x):
    """K and V [b, h, s_kv, d], gathered through the page tables when paged."""
    b, _, _, skv, _ = geometry(g)
    out = []
    for name, table in (("k", "page_table_k_tensor_uid"), ("v", "page_table_v_tensor_uid")):
        c = x[name]
        if g.has(table):
            bs = c.shape[2]
            pt = x["pt_" + name].astype(np.int64).reshape(b, -1)
            c = np.concatenate([c[pt[:, p]] for p in range(pt.shape[1])], axis=2)[:, :, :skv]
        out.append(c)
    return out


def masks(g, x):
    """keep[b, 1, i, j] and the valid rows [b, 1, i, 1], hipDNN's band and padding rules."""
    b, _, sq, skv, _ = geometry(g)
    lq = x["seq_q"].astype(np.int64).reshape(b) if g.has("seq_len_q_tensor_uid") else np.full(b, sq)
    lkv = x["seq_kv"].astype(np.int64).reshape(b) if g.has("seq_len_kv_tensor_uid") else np.full(b, skv)
    i = np.arange(sq)[None, None, :, None]
    j = np.arange(skv)[None, None, None, :]
    rows = i < lq[:, None, None, None]
    keep = rows & (j < lkv[:, None, None, None])
    bottom = g.p.get("causal_mask_bottom_right") or g.p.get("diagonal_alignment") == "BOTTOM_RIGHT"
    off = (lkv - lq)[:, None, None, None] if bottom else 0
    causal = g.p.get("causal_mask") or g.p.get("causal_mask_bottom_right") or g.p.get("right_bound") == 0
    if causal:
        keep = keep & (j <= i + off)
    return keep, rows[..., :1]


def forward(g, x):
    q = x["q"]
    k, v = keys_and_values(g, x)
    hq, hk = q.shape[1], k.shape[1]
    k, v = np.repeat(k, hq // hk, axis=1), np.repeat(v, hq // v.shape[1], axis=1)
    scale = g.p.get("attn_scale_value") or 1 / np.sqrt(q.shape[3])
    s = scale * np.einsum("bhid,bhjd->bhij", q, k)
    if "bias" in x:
        s = s + x["bias"]
    keep, rows = masks(g, x)
    s = np.where(keep, s, -np.inf)
    m = s.max(-1, keepdims=True)
    sink = x["sink"].reshape(1, -1, 1, 1) if "sink" in x else None
    if sink is not None:
        m = np.maximum(m, sink)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(s - m)
    total = e.sum(-1, keepdims=True) + (np.exp(sink - m) if sink is not None else 0)
    p = e / np.where(total > 0, total, 1)
    return p @ v, m + np.log(np.where(total > 0, total, 1)), rows, (q, k, v, s, scale, keep)


def names(g):
    """graph key -> short name for the inputs this check fills."""
    n = {"q_tensor_uid": "q", "k_tensor_uid": "k", "v_tensor_uid": "v", "attn_mask_tensor_uid": "bias",
         "seq_len_q_tensor_uid": "seq_q", "seq_len_kv_tensor_uid": "seq_kv", "sink_token_tensor_uid": "sink",
         "page_table_k_tensor_uid": "pt_k", "page_table_v_tensor_uid": "pt_v"}
    if g.bwd:
        n.update(o_tensor_uid="o", do_tensor_uid="do", stats_tensor_uid="stats")
    return {k: v for k, v in n.items() if g.has(k)}


def make_inputs(g):
    rng = np.random.default_rng(SEED)
    b, hq, sq, skv, d = geometry(g)
    x = {}
    for key, name in names(g).items():
        dims, dtype = g.dims(key), g.dtype(key)
        if name in ("q", "k", "v", "do"):
            x[name] = rounded(rng.uniform(-1, 1, dims), dtype)
        elif name == "bias":
            x[name] = rounded(rng.uniform(-0.5, 0.5, dims), dtype)
        elif name == "sink":
            x[name] = rounded(rng.uniform(0.5, 2.0, dims), dtype)
        elif name == "seq_q":
            x[name] = np.array([sq - 3 * i for i in range(b)], np.float64)
        elif name == "seq_kv":
            x[name] = np.array([skv - 5 * i - 1 for i in range(b)], np.float64)
        elif name in ("pt_k", "pt_v"):
            blocks = g.dims("k_tensor_uid" if name == "pt_k" else "v_tensor_uid")[0]
            x[name] = rng.permutation(blocks)[: int(np.prod(dims))].reshape(dims).astype(np.float64)
    if g.bwd:
        o, stats, _, _ = forward(g, x)
        x["o"], x["stats"] = rounded(o, g.dtype("o_tensor_uid")), stats.reshape(g.dims("stats_tensor_uid"))
    for t in g.t.values():  # offsets b * s * h * d: the packed layout addresses the padded elements
        uid = t.get("ragged_offset_tensor_uid")
        if uid is not None:
            _, h, s, dd = t["dims"]
            x["off%d" % uid] = np.arange(b + 1, dtype=np.float64) * s * h * dd
    return x


def uid_of(g, name):
    if name.startswith("off"):
        return int(name[3:])
    return next(g.uid[k] for k, v in names(g).items() if v == name)


def main():
    path, d, phase = sys.argv[1:4]
    g = Graph(path)
    if phase == "inputs":
        for name, a in make_inputs(g).items():
            np.save(f"{d}/in/t{uid_of(g, name)}.npy", a)
        return 0
    x = {name: np.load(f"{d}/out/t{g.uid[key]}.npy") for key, name in names(g).items()}
    got = lambda key: np.load(f"{d}/out/t{g.uid[key]}.npy")
    tol = 2.0**-6  # of the largest magnitude: bf16 / fp16 outputs and P in that type inside
    ok = True

    def compare(what, value, want, rows):
        nonlocal ok
        err = float(np.abs(np.where(rows, value - want, 0)).max())
        top = float(np.abs(np.where(rows, want, 0)).max())
        good = err <= tol * top
        ok = ok and good
        print(f"{'PASS' if good else 'FAIL'} {path.split('/')[-1]} {what}: max |err| {err:.3g} of max |value| {top:.3g}")

    if not g.bwd:
        o, stats, rows, _ = forward(g, x)
        compare("O", got("o_tensor_uid"), o, rows)
        if g.has("stats_tensor_uid"):
            compare("stats", got("stats_tensor_uid").reshape(stats.shape), stats, rows)
        return 0 if ok else 1
    _, _, rows, (q, k, v, s, scale, keep) = forward(g, x)
    p = np.where(keep, np.exp(s - x["stats"].reshape(s.shape[:3] + (1,))), 0)
    ds = p * (np.einsum("bhid,bhjd->bhij", x["do"], v) - (x["do"] * x["o"]).sum(-1, keepdims=True))
    hq, hk = q.shape[1], g.dims("k_tensor_uid")[1]
    fold = lambda t: t.reshape(t.shape[0], hk, hq // hk, *t.shape[2:]).sum(2)
    cols = keep.any(2)[..., None]  # keys some row sees
    compare("dQ", got("dq_tensor_uid"), scale * ds @ k, rows)
    compare("dK", got("dk_tensor_uid"), fold(scale * np.einsum("bhij,bhid->bhjd", ds, q)), cols)
    compare("dV", got("dv_tensor_uid"), fold(np.einsum("bhij,bhid->bhjd", p, x["do"])), cols)
    if g.has("dbias_tensor_uid"):
        compare("dbias", got("dbias_tensor_uid"), ds.sum(0, keepdims=True), np.ones((1, 1, 1, 1), bool))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
