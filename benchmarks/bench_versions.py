"""Two versions of nonoqubo side by side: build, write and decode timed in one run, as ratios.

Run from the repository root, naming the other version by a git revision::

    python benchmarks/bench_versions.py d289291          # that commit against the working tree
    python benchmarks/bench_versions.py d289291 --rounds 7

The revision is checked out into a temporary ``git worktree``; every case runs in
a fresh subprocess with ``PYTHONPATH`` set to one tree or the other, the two
trees alternating round by round so that a shared machine's load falls on both
alike.  Only the public API is used (``nonoqubo.load_puzzle``, ``nonoqubo.build``,
``nonoqubo.exports.dump``, ``nonoqubo.decode``), so any two versions that have it
can be compared.  Cases:

* *build*: the random 100x100 (density 0.5, seed 7; 3.6 M terms) and Gecode's
  castle, best of 3 builds in the child;
* *write*: the 100x100 as ``.qubo`` (qbsolv), ``.coo`` and ``.bqm``, best of 3;
* *decode*: 1,000 castle samples (half random, half solutions with 1 % flipped),
  the best report, best of 3.

Prints a markdown table: the median over rounds of each version's best time, and
new/old.  Ratios within about ±10 % are noise on these machines.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASTLE = ROOT / "tests" / "data" / "puzzles" / "json" / "gecode-castle.json"
CASES = ["build-100x100", "build-castle", "write-qbsolv", "write-coo", "write-bqm", "decode-castle"]

CHILD = r'''
import json, os, sys, tempfile, time
import numpy as np
import nonoqubo
from nonoqubo import exports

case, castle = sys.argv[1], sys.argv[2]

def random_puzzle():
    rng = np.random.default_rng(7)
    grid = rng.random((100, 100)) < 0.5
    return nonoqubo.Puzzle.from_picture(["".join("#" if v else "." for v in row) for row in grid])

def best(fn, n=3):
    times = []
    for _ in range(n):
        t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
    return min(times)

if case.startswith("build"):
    puzzle = random_puzzle() if case == "build-100x100" else nonoqubo.load_puzzle(castle)
    seconds = best(lambda: nonoqubo.build(puzzle))
elif case.startswith("write"):
    qubo = nonoqubo.build(random_puzzle())
    ext = {"write-qbsolv": "qubo", "write-coo": "coo", "write-bqm": "bqm"}[case]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "m." + ext)
        seconds = best(lambda: exports.dump(qubo, out))
else:
    puzzle = nonoqubo.load_puzzle(castle)
    qubo = nonoqubo.build(puzzle)
    rng = np.random.default_rng(3)
    n = qubo.num_vars
    grid = np.array([[ch == "#" for ch in row] for row in json.load(open(castle))["solution"]])
    sol = nonoqubo.Layout.of(puzzle).encode(grid)
    noisy = np.repeat(sol[None, :], 500, axis=0)
    noisy ^= (rng.random(noisy.shape) < 0.01).astype(np.int8)
    samples = np.concatenate((rng.integers(0, 2, (500, n), dtype=np.int8), noisy))
    seconds = best(lambda: nonoqubo.decode(qubo, samples, which="best"))
print(json.dumps({"seconds": seconds}))
'''


def run_case(tree: Path, case: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.run([sys.executable, "-c", CHILD, case, str(CASTLE)], env=env, capture_output=True,
                          text=True, cwd=tree)
    if proc.returncode != 0:
        raise SystemExit(f"{case} in {tree}: {proc.stderr.strip().splitlines()[-1] if proc.stderr else proc.returncode}")
    return float(json.loads(proc.stdout.strip().splitlines()[-1])["seconds"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revision", help="the other version: a git revision (commit, tag, branch)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every case for each version (default 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(old), args.revision], cwd=ROOT, check=True)
        try:
            times: dict[tuple[str, str], list[float]] = {}
            for r in range(args.rounds):
                for case in CASES:
                    order = [("old", old), ("new", ROOT)] if r % 2 == 0 else [("new", ROOT), ("old", old)]
                    for label, tree in order:
                        times.setdefault((label, case), []).append(run_case(tree, case))
                print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)
    print(f"| case | {args.revision} (s) | working tree (s) | new / old |")
    print("|---|---:|---:|---:|")
    for case in CASES:
        o, n = statistics.median(times[("old", case)]), statistics.median(times[("new", case)])
        print(f"| {case} | {o:.4f} | {n:.4f} | {n / o:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
