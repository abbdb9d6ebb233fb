"""Export speed: every QUBO format (text, and binary: bqm, npz, ommx) on a random 100x100 puzzle,
beside dimod's coo.dump and numpy.savetxt.

Run ``python benchmarks/bench_exports.py`` (``--no-cauldron`` skips the 512x512 case,
``--repeat N`` takes the best of N runs).  Prints markdown tables:

1. the random 100x100 puzzle (density 0.5, seed 7, built with nonoqubo.build, about
   3.6 million terms) written in every format, with dimod's own
   ``dimod.serialization.coo.dump`` and ``numpy.savetxt(fmt="%d")`` of the same
   ``i j bias`` triples in the same run, in terms per second;
   dimod's writer visits every pair of variables (O(n^2)) and does not finish in
   minutes there, so it runs in a child with a time limit, and a 20x20 puzzle
   is timed too;
2. the cauldron (``tests/data/puzzles/json/dejoue-cauldron.json``, 48 M terms) built
   and written as ``.bqm`` and as ``.coo``, one subprocess per case, with its
   peak resident memory (``ru_maxrss`` of the child itself).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT / "tests" / "data" / "puzzles"
CAULDRON = SHARED / "json" / "dejoue-cauldron.json"


def random_puzzle(size: int = 100, density: float = 0.5, seed: int = 7):
    """The random grid of bench_build.py: Python's random.Random(seed), row by row.

    At 100x100 it has exactly 126,878 variables and 3,637,870 terms.
    """
    import random

    from nonoqubo.puzzle import Puzzle

    rnd = random.Random(seed)
    grid = np.array([[rnd.random() < density for _ in range(size)] for _ in range(size)])
    return Puzzle.from_picture(grid, name=f"random-{size}x{size}-{seed}")


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


DIMOD_CHILD = r"""
import sys, time, numpy as np, dimod
from dimod.serialization import coo
a = np.load(sys.argv[1])
bqm = dimod.BinaryQuadraticModel.from_numpy_vectors(a["linear"], (a["row"], a["col"], a["quad"]), 0, "BINARY")
t = time.perf_counter()
with open(sys.argv[2], "w") as fh:
    coo.dump(bqm, fh)
print(time.perf_counter() - t)
"""


def dimod_coo_dump(qubo, path: str, timeout: float) -> float | None:
    """Seconds dimod's coo.dump takes on *qubo* (index labels), or None past *timeout*."""
    arrays = path + ".npz"
    np.savez(arrays, linear=qubo.linear, row=qubo.row, col=qubo.col, quad=qubo.quad)
    try:
        proc = subprocess.run([sys.executable, "-c", DIMOD_CHILD, arrays, path], capture_output=True,
                              text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    return float(proc.stdout.strip().splitlines()[-1])


def bench_random(repeat: int, dimod_timeout: float, size: int = 100) -> None:
    from nonoqubo import exports
    from nonoqubo.build import build

    puzzle = random_puzzle(size)
    start = time.perf_counter()
    qubo = build(puzzle)
    built = time.perf_counter() - start
    terms = qubo.num_terms
    print(f"### Random {size}x{size} (density 0.5, seed 7): {qubo.num_vars:,} variables, {terms:,} terms, "
          f"built in {built:.2f} s\n")
    print("| writer | seconds | terms/s | file MB |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for mod in exports.formats("qubo"):
            path = os.path.join(tmp, "m." + mod.EXTENSIONS[0])
            secs = best_of(repeat, lambda: exports.dump(qubo, path, mod.NAME))
            rows.append((f"nonoqubo {mod.NAME}{' (binary)' if mod.BINARY else ''}", secs, os.path.getsize(path)))
        # peers, same run: dimod's COO writer (in a child with a time limit: it walks every
        # pair of variables, O(n^2), hours for 130k variables) and numpy.savetxt of the same triples
        path = os.path.join(tmp, "dimod.coo")
        secs = dimod_coo_dump(qubo, path, dimod_timeout)
        if secs is None:
            rows.append((f"dimod.serialization.coo.dump (stopped after {dimod_timeout:.0f} s)", None, 0))
        else:
            rows.append(("dimod.serialization.coo.dump", secs, os.path.getsize(path)))
        d = np.flatnonzero(qubo.linear)
        triples = np.column_stack([np.concatenate((d, qubo.row)), np.concatenate((d, qubo.col)),
                                   np.concatenate((qubo.linear[d], qubo.quad))])
        path = os.path.join(tmp, "savetxt.txt")
        rows.append(('numpy.savetxt(fmt="%d")', best_of(repeat, lambda: np.savetxt(path, triples, fmt="%d")),
                     os.path.getsize(path)))
        for name, secs, size in rows:
            if secs is None:
                print(f"| {name} | > {dimod_timeout:.0f} | < {terms / dimod_timeout / 1e6:.2f} M | - |")
            else:
                print(f"| {name} | {secs:.2f} | {terms / secs / 1e6:.2f} M | {size / 1e6:.1f} |")
    print()


CHILD = r"""
import json, resource, sys, time
from nonoqubo.clues import spec
from nonoqubo.build import build
from nonoqubo import exports
t0 = time.perf_counter()
puzzle = spec.from_dict(json.load(open(sys.argv[1])), source=sys.argv[1])
qubo = build(puzzle)
t1 = time.perf_counter()
exports.dump(qubo, sys.argv[2])
t2 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"terms": qubo.num_terms, "build": t1 - t0, "write": t2 - t1, "peak": peak}))
"""


def bench_cauldron() -> None:
    if not CAULDRON.exists():
        print(f"(cauldron skipped: {CAULDRON} not found)")
        return
    print("### Cauldron 512x512 (one subprocess per case; peak RSS of the child)\n")
    print("| format | terms | build s | write s | write terms/s | file MB | peak RSS GB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for ext in ("bqm", "coo"):
            path = os.path.join(tmp, f"cauldron.{ext}")
            proc = subprocess.run([sys.executable, "-c", CHILD, str(CAULDRON), path],
                                  capture_output=True, text=True, check=False)
            if proc.returncode:
                print(f"| {ext} | failed: {proc.stderr.strip().splitlines()[-1] if proc.stderr else proc.returncode} |")
                continue
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            size = os.path.getsize(path)
            os.unlink(path)
            print(f"| {ext} | {r['terms']:,} | {r['build']:.1f} | {r['write']:.1f} | "
                  f"{r['terms'] / r['write'] / 1e6:.2f} M | {size / 1e6:.0f} | {r['peak'] / 2**30:.2f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-cauldron", action="store_true", help="skip the 512x512 cauldron")
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs for the random puzzle")
    parser.add_argument("--dimod-timeout", type=float, default=60.0, help="stop dimod's coo.dump after this")
    args = parser.parse_args()
    bench_random(args.repeat, args.dimod_timeout)
    bench_random(args.repeat, args.dimod_timeout, size=20)  # small enough for dimod's writer
    if not args.no_cauldron:
        bench_cauldron()


if __name__ == "__main__":
    main()
