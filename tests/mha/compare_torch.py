#!/usr/bin/env python3
"""compare_torch.py - check a `mha_driver --dump DIR` against PyTorch.

For every run in DIR/index.json it reloads the inputs the driver gave (q, k, v, bias, o, dO,
stats) and recomputes torch.nn.functional.scaled_dot_product_attention in float64 on the CPU:
forward O and the logsumexp, backward dQ, dK, dV through autograd; nested (THD) runs one
sequence at a time; GQA by repeating K/V heads. Each output is compared with what hipDNN produced,
with the driver's bounds (4 eps of the I/O type times max(1, max|ref|) forward, 8 eps backward,
1e-3 relative for the fp32 logsumexp). Dropout runs (V is one-hot there, so O[i, j] is 0 or
P[i, j] / (1 - p)) are checked statistically: every kept element equals P / (1 - p), the dropped
fraction is within 5 sigma of p, and the graph and aten runs of one case (same seed and offset)
are bit-identical.

    python3 tests/mha/compare_torch.py DIR

Needs only PyTorch (any device; the math runs in float64 on the CPU). Exit status 1 on a failure.
"""
import json
import math
import os
import sys

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # pragma: no cover - reported to the user
    sys.exit("compare_torch.py: PyTorch is not installed (pip install torch)")

EPS = {"float16": 1.0 / 1024, "bfloat16": 1.0 / 128}
TORCH_DTYPE = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
               "int32": torch.int32, "int64": torch.int64}


def load(dump, spec):
    """The tensor a dump entry describes, as float64 (row-major over its sizes)."""
    raw = open(os.path.join(dump, spec["file"]), "rb").read()
    t = torch.frombuffer(bytearray(raw), dtype=TORCH_DTYPE[spec["dtype"]]) if raw else torch.empty(0)
    return t.reshape(spec["sizes"]).to(torch.float64)


def sequences(run, t, query_rows):
    """Per-batch [h, s, d] slices: dense [b, h, s, d] cut to the lengths, nested [T, h, d] split."""
    lens = run["seq_q"] if query_rows else run["seq_kv"]
    if not run["nested"]:
        return [t[b, :, :lens[b]] for b in range(run["b"])]
    out, start = [], 0
    for n in lens:
        out.append(t[start:start + n].transpose(0, 1))
        start += n
    return out


def attention(run, q, k, v, bias):
    """float64 SDPA for one sequence ([h, s, d] each); returns O and the logsumexp [h, s]."""
    rep_k, rep_v = run["hq"] // run["hk"], run["hq"] // run["hv"]
    k = k.repeat_interleave(rep_k, dim=0)
    v = v.repeat_interleave(rep_v, dim=0)
    scores = run["scale"] * q @ k.transpose(-1, -2)
    mask = None if bias is None else bias.clone()
    if run["causal"]:  # top-left aligned, as PyTorch's is_causal and cuDNN's causal mask
        sq, skv = scores.shape[-2:]
        causal = torch.zeros(sq, skv, dtype=torch.float64).masked_fill(~torch.ones(sq, skv, dtype=torch.bool).tril(),
                                                                         float("-inf"))
        mask = causal if mask is None else mask + causal
    if mask is not None:
        scores = scores + mask
    lse = torch.logsumexp(scores, dim=-1)
    # SDPA refuses attn_mask together with is_causal, so the causal mask travels in attn_mask.
    o = F.scaled_dot_product_attention(q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0),
                                       attn_mask=None if mask is None else mask.unsqueeze(0),
                                       scale=run["scale"]).squeeze(0)
    return o, lse, torch.softmax(scores, dim=-1)


class Report:
    def __init__(self):
        self.failed = 0
        self.checks = 0

    def check(self, run, what, err, bound):
        self.checks += 1
        ok = err <= bound
        self.failed += not ok
        print(f"{run['case']:<34} {run['path']:<5} {what:<5} max_err {err:.3e} bound {bound:.3e} "
              f"{'PASS' if ok else 'FAIL'}")

    def verdict(self, run, ok, msg):
        self.checks += 1
        self.failed += not ok
        print(f"{run['case']:<34} {run['path']:<5} {'PASS' if ok else 'FAIL'} {msg}")


def max_err(got, want):
    return max([float((g - w).abs().max()) if g.numel() else 0.0 for g, w in zip(got, want)] + [0.0])


def bound(run, want, k):
    big = max([float(w.abs().max()) if w.numel() else 0.0 for w in want] + [1.0])
    return k * EPS[run["dtype"]] * big


def compare_run(dump, run, rep, dropout_o):
    T = {name: load(dump, spec) for name, spec in run["tensors"].items()}
    qs, ks, vs = (sequences(run, T[n], n == "q") for n in ("q", "k", "v"))
    bias = T.get("bias")
    biases = [None if bias is None else bias[0, :, :run["seq_q"][b], :run["seq_kv"][b]] for b in range(run["b"])]
    if run["dropout"]:
        dropout_o.setdefault(run["case"], []).append((run, T["o"]))
        P = [attention(run, q, k, v, bb)[2] for q, k, v, bb in zip(qs, ks, vs, biases)]
        got = sequences(run, T["o"], True)
        p = run["dropout"]
        n = dropped = 0
        worst = 0.0
        for probs, o in zip(P, got):
            o = o[..., :probs.shape[-1]]
            live = probs > 0
            n += int(live.sum())
            dropped += int(((o == 0) & live).sum())
            kept = live & (o != 0)
            if kept.any():
                worst = max(worst, float((o[kept] - probs[kept] / (1 - p)).abs().max()))
        rep.check(run, "O", worst, 4 * EPS[run["dtype"]])
        frac, sigma = dropped / max(n, 1), math.sqrt(p * (1 - p) / max(n, 1))
        rep.verdict(run, abs(frac - p) <= 5 * sigma, f"dropped fraction {frac:.4f} (p {p}, 5 sigma {5 * sigma:.4f})")
        return
    if not run["backward"]:
        outs = [attention(run, q, k, v, bb) for q, k, v, bb in zip(qs, ks, vs, biases)]
        want_o = [o for o, _, _ in outs]
        got_o = sequences(run, T["o"], True)
        rep.check(run, "O", max_err(got_o, want_o), bound(run, want_o, 4))
        if "stats" in T:
            st = T["stats"]  # dense [b, hq, sq] or [b, hq, sq, 1]; nested [T, hq, 1]
            if not run["nested"]:
                st = st.reshape(run["b"], run["hq"], run["sq"], 1)
            got_s = [s[..., 0] for s in sequences(run, st, True)]
            want_s = [lse for _, lse, _ in outs]
            err = max_err(got_s, want_s)
            b = 1e-3 * max([float(w.abs().max()) for w in want_s] + [1.0])
            if run["nested"] and run["path"] == "aten" and run["hq"] > 1:
                print(f"{run['case']:<34} {run['path']:<5} Stats max_err {err:.3e} INFO (MHA.cpp binds "
                      "cum_seqlen_q, not cum_seqlen_q * h_q, as the stats' ragged offset)")
            else:
                rep.check(run, "Stats", err, b)
        return
    dos = sequences(run, T["dO"], True)
    want = {"dQ": [], "dK": [], "dV": []}
    for q, k, v, bb, do in zip(qs, ks, vs, biases, dos):
        q, k, v = (x.clone().requires_grad_(True) for x in (q, k, v))
        o, _, _ = attention(run, q, k, v, bb)
        o.backward(do)
        want["dQ"].append(q.grad)
        want["dK"].append(k.grad)
        want["dV"].append(v.grad)
    for name, src in (("dQ", "q"), ("dK", "k"), ("dV", "v")):
        got = sequences(run, T[name], src == "q")
        rep.check(run, name, max_err(got, want[name]), bound(run, want[name], 8))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    dump = sys.argv[1]
    index = json.load(open(os.path.join(dump, "index.json")))
    rep = Report()
    dropout_o = {}
    for run in index["runs"]:
        compare_run(dump, run, rep, dropout_o)
    for case, runs in dropout_o.items():  # same seed and offset: graph and aten must agree bit for bit
        if len(runs) > 1:
            a, b = runs[0][1], runs[1][1]
            rep.verdict(runs[1][0], a.shape == b.shape and torch.equal(a, b),
                        f"same seed/offset as the {runs[0][0]['path']} run: bit-identical O")
    print(f"compare_torch.py: {rep.failed} of {rep.checks} checks failed")
    sys.exit(1 if rep.failed else 0)


if __name__ == "__main__":
    main()
