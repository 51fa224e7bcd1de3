#!/usr/bin/env python3
"""PyTorch anchors measured on the same GPU as our engines' figures. Prints markdown tables.

  torch_anchors.py            SDPA forward and backward, causal, B8 H16 S2048 D128 bf16, on
                              PyTorch's cuDNN attention backend (plugins/cudnn/tests/device_check.sh
                              step `anchors`); TFLOP/s counted as bench/cudnn_bench.cpp counts them
                              (causal half of the score matrix; the backward is 2.5x the forward).
  torch_anchors.py memory     the problems of bench/gpu_memory_bench.cpp, eager and torch.compile,
                              and a device copy (plugins/cuda_rtc/tests/device_check.sh step
                              `bench`); TB/s counted the same way (each tensor read or written once).
"""
import sys

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


def rms_norm(x, w, eps=1e-5):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * w.float()).to(x.dtype)


def memory():
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}\n")
    print("| problem | eager ms | eager TB/s | torch.compile ms | torch.compile TB/s | copy TB/s |\n|---|---|---|---|---|---|")
    torch._dynamo.config.cache_size_limit = 64
    bf = torch.bfloat16

    def row(name, fn, traffic, copy_elems):
        eager = median_ms(fn)
        compiled_fn = torch.compile(fn)
        compiled_fn()
        compiled = median_ms(compiled_fn)
        src = torch.empty(copy_elems, device="cuda", dtype=bf)
        dst = torch.empty_like(src)
        copy = median_ms(lambda: dst.copy_(src))
        copy_tbs = 2 * copy_elems * 2 / copy / 1e9
        print(f"| {name} | {eager:.4f} | {traffic / eager / 1e9:.2f} | {compiled:.4f} | {traffic / compiled / 1e9:.2f} | {copy_tbs:.2f} |")
        sys.stdout.flush()

    for layer in (True, False):
        for rows, cols in ((8192, 8192), (32768, 4096)):
            for sdt in (torch.float32, bf):
                x = torch.randn(rows, cols, device="cuda", dtype=bf)
                w = torch.randn(cols, device="cuda", dtype=sdt)
                b = torch.randn(cols, device="cuda", dtype=sdt)
                if layer:
                    # F.layer_norm takes weight and bias in the input's type; fp32 ones go through
                    # the mixed-type path as a bf16 model with fp32 norm parameters does.
                    fn = (lambda x=x, w=w, b=b: torch.nn.functional.layer_norm(x, (cols,), w.to(bf), b.to(bf))) \
                        if sdt == bf else (lambda x=x, w=w, b=b: torch.nn.functional.layer_norm(x.float(), (cols,), w, b).to(bf))
                else:
                    fn = lambda x=x, w=w: rms_norm(x, w)
                name = f"{'layernorm' if layer else 'RMSNorm'} fwd {rows}x{cols} bf16, {'fp32' if sdt == torch.float32 else 'bf16'} scale"
                row(name, fn, 2 * rows * cols * 2, rows * cols)
    for layer in (True, False):
        rows = cols = 8192
        x = torch.randn(rows, cols, device="cuda", dtype=bf, requires_grad=True)
        w = torch.randn(cols, device="cuda", dtype=torch.float32, requires_grad=True)
        b = torch.randn(cols, device="cuda", dtype=torch.float32, requires_grad=True)
        dy = torch.randn(rows, cols, device="cuda", dtype=bf)
        if layer:
            fwd = lambda: torch.nn.functional.layer_norm(x.float(), (cols,), w, b).to(bf)
        else:
            fwd = lambda: rms_norm(x, w)

        def bwd(fwd=fwd):
            return torch.autograd.grad(fwd(), (x, w), dy)

        # autograd includes the forward it differentiates; time the forward alone and subtract.
        f_eager = median_ms(fwd)
        b_eager = median_ms(bwd) - f_eager
        cf, cb = torch.compile(fwd), torch.compile(bwd)
        cf(), cb()
        f_comp = median_ms(cf)
        b_comp = median_ms(cb) - f_comp
        traffic = 3 * rows * cols * 2
        name = f"{'layernorm' if layer else 'RMSNorm'} bwd {rows}x{cols} bf16 (autograd minus its forward)"
        print(f"| {name} | {b_eager:.4f} | {traffic / b_eager / 1e9:.2f} | {b_comp:.4f} | {traffic / b_comp / 1e9:.2f} | — |")
        sys.stdout.flush()
    n, c, h, w_ = 32, 64, 512, 512
    x = torch.randn(n, c, h, w_, device="cuda", dtype=bf)
    bias = torch.randn(1, c, 1, 1, device="cuda", dtype=bf)
    scale = torch.randn(1, c, 1, 1, device="cuda", dtype=bf)
    fn = lambda: torch.nn.functional.gelu((x.float() + bias.float()) * scale.float()).to(bf)
    row(f"add -> mul -> GELU [{n},{c},{h},{w_}] bf16 (1 GiB)", fn, 2 * x.numel() * 2, x.numel())


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "memory":
        memory()
    else:
        main()
