"""What preparing every setting first costs ``solve --sweep``: a sweep run the old way and the new way, side by side.

Run: ``python benchmarks/bench_sweep_prepare.py [--settings 6] [--repeat 3] [--puzzle PATH]``.  Prints a markdown table.

A sweep of ``--settings`` settings of ``sa`` (``--sweep beta-range=...``, 2 reads of 10 sweeps each, a
warm start from line logic), on one puzzle (default the Gecode castle, 10,600 variables), in one run:

* *before*: one :func:`nonoqubo.solvers.sampling.solve` per setting, as ``solve --sweep`` ran before
  (each setting builds its model and matches its warm start when it runs; a bad third setting is
  found after two settings have sampled and written);
* *now*: the model built once (:func:`~nonoqubo.solvers.sampling.models_of`), every setting prepared
  (:func:`~nonoqubo.solvers.sampling.prepare`: warm start matched, model checks) before the first
  runs, then each :meth:`~nonoqubo.solvers.sampling.Prepared.run`, as ``solve --sweep`` does now.

Both sample the same settings with the same seeds; the samples are compared, so the two ways are
shown to do the same work.  Best of ``--repeat`` rounds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo.clues import load  # noqa: E402
from nonoqubo.pipeline import Models  # noqa: E402
from nonoqubo.solvers.sampling import models_of, prepare, solve  # noqa: E402

CASTLE = ROOT / "tests" / "data" / "puzzles" / "json" / "gecode-castle.json"


def settings(count: int) -> list[dict]:
    """*count* beta ranges, each a setting of ``sa`` with a warm start from line logic."""
    return [{"reads": 2, "seed": 1, "sweeps": 10, "beta_range": (0.5 + i, 20.0), "initial_states": "line"}
            for i in range(count)]


def before(puzzle, grid: list[dict]) -> list[np.ndarray]:
    return [solve(puzzle, "sa", **kw).batch.bits for kw in grid]


def now(puzzle, grid: list[dict]) -> list[np.ndarray]:
    base = models_of(puzzle)
    shared = Models(base.puzzle, base.qubo)
    ready = []
    for kw in grid:
        earlier = ready[-1].decoder if ready else None
        ready.append(prepare(puzzle, "sa", models=shared, decoder=earlier, **kw))
    return [p.run().batch.bits for p in ready]


def best(fn, repeat: int) -> tuple[float, list[np.ndarray]]:
    times, out = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--settings", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--puzzle", default=str(CASTLE))
    args = ap.parse_args()
    puzzle = load(args.puzzle)
    grid = settings(args.settings)
    old, old_bits = best(lambda: before(puzzle, grid), args.repeat)
    new, new_bits = best(lambda: now(puzzle, grid), args.repeat)
    assert all(np.array_equal(a, b) for a, b in zip(old_bits, new_bits)), "the two ways sampled differently"
    print(f"{Path(args.puzzle).name}: {len(grid)} settings, best of {args.repeat}, the same samples both ways\n")
    print("| sweep | seconds | ratio to before |\n|---|---:|---:|")
    print(f"| before: solve per setting | {old:.2f} | 1.00 |")
    print(f"| now: built once, every setting prepared first | {new:.2f} | {new / old:.2f} |")


if __name__ == "__main__":
    main()
