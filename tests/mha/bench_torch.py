#!/usr/bin/env python3
"""bench_torch.py - PyTorch's own cuDNN attention on the shapes of mha_bench.cpp (keep the two
lists equal), timed the same way: CUDA events around a batch of calls, rounds, median round.

  python3 bench_torch.py [--rounds R] [--iters N] [--only SUBSTRING]

Prints BENCH lines with path=torch, the form mha_bench prints. Passes: fwd (no grad, so no
logsumexp), fwd_train (inputs require grad: PyTorch keeps the logsumexp), bwd
(torch.autograd.grad of the trained output, so no gradient accumulation kernels).
"""
import argparse
import statistics

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = [
    ("b2_h16_s4096_d128_bf16_causal", 2, 16, 4096, 128, True, torch.bfloat16),
    ("b2_h16_s4096_d128_bf16", 2, 16, 4096, 128, False, torch.bfloat16),
    ("b4_h32_s2048_d64_bf16_causal", 4, 32, 2048, 64, True, torch.bfloat16),
    ("b8_h16_s1024_d64_fp16", 8, 16, 1024, 64, False, torch.float16),
]


def bshd(b, h, s, d, dtype, grad):
    # PyTorch's usual layout: [b, s, h, d] storage seen as [b, h, s, d].
    t = (torch.rand(b, s, h, d, device="cuda", dtype=torch.float32) * 2 - 1).to(dtype)
    return t.transpose(1, 2).requires_grad_(grad)


def time_ms(fn, rounds, iters):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    out = []
    for _ in range(rounds):
        a.record()
        for _ in range(iters):
            fn()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b) / iters)
    return statistics.median(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    torch.manual_seed(7)
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        for name, b, h, s, d, causal, dtype in SHAPES:
            if args.only not in name:
                continue
            q, k, v = (bshd(b, h, s, d, dtype, False) for _ in range(3))
            qg, kg, vg = (t.detach().requires_grad_(True) for t in (q, k, v))
            do = bshd(b, h, s, d, dtype, False)

            def fwd():
                with torch.no_grad():
                    F.scaled_dot_product_attention(q, k, v, is_causal=causal)

            def fwd_train():
                F.scaled_dot_product_attention(qg, kg, vg, is_causal=causal)

            out = F.scaled_dot_product_attention(qg, kg, vg, is_causal=causal)

            def bwd():
                torch.autograd.grad(out, (qg, kg, vg), do, retain_graph=True)

            for fn in (fwd, fwd_train, bwd):  # warm-up (and cuDNN's plan builds)
                fn()
            torch.cuda.synchronize()
            for pname, fn in (("fwd", fwd), ("fwd_train", fwd_train), ("bwd", bwd)):
                ms = time_ms(fn, args.rounds, args.iters)
                print(f"BENCH shape={name} path=torch pass={pname} ms={ms:.5f}", flush=True)


if __name__ == "__main__":
    main()
