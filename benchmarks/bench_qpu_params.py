"""The mock QPU route: success probability p against annealing time and spin-reversal transforms.

Runs ``solve --sampler mock-dwave`` (through the library) on small random puzzles on one topology,
each setting with the same seeds, and prints p (valid reads / reads) per setting as a markdown table,
with the mock's estimated qpu_access_time per read.  The mock is classical simulated annealing on the
qubits (:mod:`nonoqubo.qpu.mock`): 50 sweeps per µs of annealing time, and spin-reversal transforms
that SA, being gauge-symmetric, should not feel.  What this predicts and what it does not: see
benchmarks/README.md.

    python benchmarks/bench_qpu_params.py [--size 5] [--puzzles 3] [--reads 40] [--topology pegasus:4]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--puzzles", type=int, default=3)
    parser.add_argument("--reads", type=int, default=40)
    parser.add_argument("--topology", default="pegasus:4")
    args = parser.parse_args()
    os.environ.setdefault("NONOQUBO_CACHE", tempfile.mkdtemp(prefix="nonoqubo-bench-"))
    from nonoqubo.model.puzzle import Puzzle
    from nonoqubo.solvers.sampling import solve

    rng = np.random.default_rng(7)
    puzzles = [Puzzle.from_picture(["".join("#" if v else "." for v in row)
                                    for row in rng.random((args.size, args.size)) < 0.5])
               for _ in range(args.puzzles)]
    settings = [("annealing_time", t, 0) for t in (0.5, 1.0, 2.0, 5.0, 20.0)] + \
               [("num_spin_reversal_transforms", 0, k) for k in (1, 4, 10)]
    print(f"mock-dwave on {args.topology}, {args.puzzles} random {args.size}x{args.size} puzzles, "
          f"{args.reads} reads each, seeds 1..{args.puzzles}\n")
    print("| annealing time (µs) | SRTs | SA sweeps | p (valid reads / reads) | per puzzle | est. qpu_access_time per read (µs) | wall s |")
    print("|---|---|---|---|---|---|---|")
    for kind, value, srt in settings:
        anneal = value if kind == "annealing_time" else 20.0
        qpu = {"topology": args.topology, "annealing_time": anneal}
        if srt:
            qpu["num_spin_reversal_transforms"] = srt
        valid, per, access = 0, [], 0.0
        start = time.perf_counter()
        for seed, puzzle in enumerate(puzzles, 1):
            result = solve(puzzle, "mock-dwave", reads=args.reads, seed=seed, qpu=qpu)
            ok = int(result.analysis.valid.sum())
            valid += ok
            per.append(f"{ok / args.reads:.2f}")
            rec = result.batch.extra["sampler_info"]["qpu"]
            access += rec["timing"]["qpu_access_time"] / args.reads
            sweeps = rec["mock_annealer"]["num_sweeps"]
        wall = time.perf_counter() - start
        print(f"| {anneal:g} | {srt} | {sweeps} | {valid / (args.reads * len(puzzles)):.3f} | {' '.join(per)} | "
              f"{access / len(puzzles):,.0f} | {wall:.1f} |")


if __name__ == "__main__":
    main()
