"""Colour puzzles: model sizes and build times beside the black-and-white puzzle of the same picture.

Run from the repository root::

    python benchmarks/bench_colour.py            # the 7 colour puzzles and a random 100x100
    python benchmarks/bench_colour.py --quick    # the 7 colour puzzles only

For every colour puzzle of ``tests/data/puzzles/colour`` (and a random
100x100 picture in 4 colours), the black-and-white twin is the same picture
with every colour painted black: same size, same cells painted.  The table
gives, for both, the variables and terms, the best build time (``build``,
repeated while under 2 s in all, at most 7 runs, as ``timeit`` does), the
line solver's verdict and time, and the variables left after presolve.
Colour puzzles have more variables than their twins (blocks of different
colours may touch, so a line has more blocks and a wider margin), and one
square per colour and cell in place of one per cell.  The figures go in
``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from nonoqubo import clues
from nonoqubo.model.build import build
from nonoqubo.logic.linesolve import line_solve
from nonoqubo.logic.presolve import presolve_qubo
from nonoqubo.model.puzzle import Palette, Puzzle

ROOT = Path(__file__).resolve().parents[1]
COLOUR = ROOT / "tests" / "data" / "puzzles" / "colour"


def best_time(fn, budget: float = 2.0, runs: int = 7) -> float:
    """The fastest of repeated runs of *fn* (repeated while the total stays under *budget*)."""
    best, total, n = float("inf"), 0.0, 0
    while n < runs and (n == 0 or total < budget):
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        best, total, n = min(best, dt), total + dt, n + 1
    return best


def cases(quick: bool) -> list[tuple[str, Puzzle]]:
    out = [(path.stem, clues.load(path)) for path in sorted(COLOUR.glob("*.json"))]
    if not quick:
        rng = np.random.default_rng(14)
        grid = rng.choice(5, size=(100, 100), p=[0.4, 0.15, 0.15, 0.15, 0.15])
        out.append(("random-100x100-4c", Puzzle.from_picture(grid, palette=Palette.of(["r", "g", "b", "y"]))))
    return out


def row(name: str, puzzle: Puzzle) -> str:
    q = build(puzzle)
    t_build = best_time(lambda: build(puzzle))
    t = time.perf_counter()
    res = line_solve(puzzle)
    t_line = time.perf_counter() - t
    after = presolve_qubo(puzzle, q).num_vars if res.settled else q.num_vars
    colours = puzzle.num_colours
    return (f"| {name} | {puzzle.width}x{puzzle.height} | {colours} | {q.num_vars:,} | {q.num_terms:,} | "
            f"{t_build:.4f} | {'yes' if res.solved else f'{100 * res.fraction:.0f} %'} | {t_line:.3f} | {after:,} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the repository's colour puzzles only")
    args = parser.parse_args()
    print("| puzzle | size | colours | variables | terms | build s (best) | line-solvable | line solve s "
          "| variables after presolve |")
    print("|---|---|---:|---:|---:|---:|---|---:|---:|")
    solved = 0
    for name, puzzle in cases(args.quick):
        print(row(name, puzzle), flush=True)
        twin = Puzzle.from_picture(puzzle.solution_grid() > 0)
        print(row(f"{name} (black and white)", twin), flush=True)
        solved += line_solve(puzzle).solved
    print(f"\nline logic solves {solved} of the colour puzzles")


if __name__ == "__main__":
    main()
