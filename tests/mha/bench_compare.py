#!/usr/bin/env python3
"""bench_compare.py - the speed table of issue 23 from BENCH lines (mha_bench, bench_torch.py).

  python3 bench_compare.py LOG [LOG ...]

Each (shape, path, pass) may appear in several logs (the runs alternate our process and
PyTorch's); its figure is the median over them. Speed ratio = PyTorch ms / our ms: 1.0 is the
same speed, above 1 is faster than PyTorch. Exit status 1 if a ratio is under --goal (0.98).
"""
import argparse
import collections
import re
import statistics
import sys

LINE = re.compile(r"^BENCH shape=(\S+) path=(\S+) pass=(\S+) ms=([0-9.]+)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--goal", type=float, default=0.98)
    args = ap.parse_args()
    ms = collections.defaultdict(list)
    for log in args.logs:
        with open(log) as f:
            for line in f:
                m = LINE.match(line.strip())
                if m:
                    ms[(m[1], m[2], m[3])].append(float(m[4]))
    shapes = list(dict.fromkeys(k[0] for k in ms))
    ours = [p for p in ("aten", "graph") if any(k[1] == p for k in ms)]
    print("| shape | pass | PyTorch cuDNN ms | " + " | ".join(f"{p} ms | {p} speed vs PyTorch" for p in ours) + " |")
    print("|---|---|---|" + "---|---|" * len(ours))
    worst = None
    for s in shapes:
        for p in ("fwd", "fwd_train", "bwd"):
            t = ms.get((s, "torch", p))
            if not t:
                continue
            tm = statistics.median(t)
            cells = []
            for o in ours:
                v = ms.get((s, o, p))
                if not v:
                    cells.append("— | —")
                    continue
                r = tm / statistics.median(v)
                worst = r if worst is None else min(worst, r)
                cells.append(f"{statistics.median(v):.4f} | {r:.3f}")
            print(f"| {s} | {p} | {tm:.4f} | " + " | ".join(cells) + " |")
    if worst is None:
        print("bench_compare: no pairs to compare")
        return 1
    print(f"worst speed ratio {worst:.3f} (goal {args.goal})")
    return 0 if worst >= args.goal else 1


if __name__ == "__main__":
    sys.exit(main())
