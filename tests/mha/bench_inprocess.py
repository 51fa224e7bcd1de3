#!/usr/bin/env python3
"""bench_inprocess.py - issue 23's speed comparison in one process: our graphs (mha_bench.cpp built
as a shared library with MHA_BENCH_SHARED) and PyTorch's own cuDNN attention (bench_torch.py),
alternated in one Python process on one GPU context, then the device kernels of each side from
torch.profiler. Two processes differ in what a single figure cannot show (clocks at start,
allocation addresses); one process leaves only the two call paths.

  python3 bench_inprocess.py LIBMHABENCH.so [--only SUBSTRING] [--reps N] [--rounds R] [--no-profile]

run_inprocess.sh builds the library and sets the environment (the cuDNN engine on PyTorch's own
cuDNN). Prints BENCH lines (path=graph and path=torch; bench_compare.py reads them) and, per side,
a table of the kernels the profiler saw, so that a gap can be told apart as a slower kernel, an
extra kernel, or idle time between kernels.
"""
import argparse
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_torch  # noqa: E402  (the same shapes and timing as the two-process runs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("library")
    ap.add_argument("--only", default="b2_h16_s4096_d128_bf16")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--no-profile", action="store_true")
    args = ap.parse_args()
    torch.zeros(1, device="cuda")  # PyTorch owns the context first; our side joins it
    # RTLD_LOCAL and the library's hidden visibility keep the stand-in's at:: apart from PyTorch's.
    lib = ctypes.CDLL(os.path.abspath(args.library), mode=os.RTLD_LOCAL)

    def ours(rounds, iters):
        argv = [b"mha_bench", b"--only", args.only.encode(), b"--rounds", str(rounds).encode(), b"--iters",
                str(iters).encode()]
        arr = (ctypes.c_char_p * len(argv))(*argv)
        sys.stdout.flush()
        if lib.mha_bench_run(len(argv), arr) != 0:
            sys.exit("bench_inprocess.py: mha_bench_run failed")
        sys.stdout.flush()

    def theirs(rounds, iters):
        sys.argv = ["bench_torch", "--only", args.only, "--rounds", str(rounds), "--iters", str(iters)]
        bench_torch.main()
        sys.stdout.flush()

    for _ in range(args.reps):
        ours(args.rounds, 10)
        theirs(args.rounds, 10)
    if args.no_profile:
        return
    from torch.profiler import ProfilerActivity, profile
    for side, fn in (("graph", ours), ("torch", theirs)):
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fn(2, 5)
        print(f"== device kernels, path={side}")
        print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=12, max_name_column_width=100))


if __name__ == "__main__":
    main()
