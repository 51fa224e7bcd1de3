#!/usr/bin/env python3
"""PyTorch anchors for the cuDNN engine's figures, measured on the same GPU (device_check.sh
step `anchors`): SDPA forward and backward, causal, B8 H16 S2048 D128 bf16, on PyTorch's cuDNN
attention backend. Prints a markdown table; TFLOP/s counted as bench/cudnn_bench.cpp counts them
(causal half of the score matrix; the backward is 2.5x the forward's matmul work).
"""
import torch
from torch.nn.attention import SDPBackend, sdpa_kernel


def median_ms(fn, iters=20, rounds=7):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        for _ in range(iters):
            fn()
        e1.record()
        e1.synchronize()
        times.append(e0.elapsed_time(e1) / iters)
    return sorted(times)[len(times) // 2]


def main():
    b, h, s, d = 8, 16, 2048, 128
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
    fwd_flops = 4.0 * b * h * s * s * d / 2
    print(f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {torch.cuda.get_device_name()}\n")
    print("| PyTorch (cuDNN attention) | ms | TFLOP/s |\n|---|---|---|")
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        fwd = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        ms = median_ms(fwd)
        print(f"| SDPA fwd causal B{b} H{h} S{s} D{d} bf16 | {ms:.4f} | {fwd_flops / ms / 1e9:.1f} |")
        o = fwd()
        do = torch.randn_like(o)
        bwd = lambda: torch.autograd.grad(o, (q, k, v), do, retain_graph=True)
        ms = median_ms(bwd)
        print(f"| SDPA bwd causal B{b} H{h} S{s} D{d} bf16 | {ms:.4f} | {2.5 * fwd_flops / ms / 1e9:.1f} |")


if __name__ == "__main__":
    main()
