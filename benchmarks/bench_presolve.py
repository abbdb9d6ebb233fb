"""Presolve figures: variables and terms before and after, line-logic coverage, timings.

Run: ``python benchmarks/bench_presolve.py [--skip-cauldron]``.  Prints a markdown
table over every ``tests/data/puzzles/json/*.json`` (smallest first): the full
model's variables and terms, the share of the grid line logic settles, the
reduced model's variables and terms, and the time of the line solver alone and
of the whole ``presolve_qubo`` (line solver + fixings + ``Qubo.fix``, the
model already built).  The 512x512 cauldron is timed too (target: presolved in
under 30 s).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from nonoqubo.build import build
from nonoqubo.clues import spec
from nonoqubo.linesolve import line_solve
from nonoqubo.presolve import fixings

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT / "tests" / "data" / "puzzles"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-cauldron", action="store_true", help="leave out the 512x512 puzzle")
    args = parser.parse_args()
    puzzles = []
    for path in sorted((SHARED / "json").glob("*.json")):
        if args.skip_cauldron and path.stem == "dejoue-cauldron":
            continue
        puzzles.append((path.stem, spec.from_dict(json.loads(path.read_text()), source=str(path))))
    puzzles.sort(key=lambda item: item[1].width * item[1].height)
    print("| puzzle | size | variables | terms | settled | line-solvable | variables after | terms after "
          "| line solve (s) | presolve (s) | build (s) |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    total_before = total_after = 0
    for name, puzzle in puzzles:
        t0 = time.perf_counter()
        qubo = build(puzzle)
        t1 = time.perf_counter()
        res = line_solve(puzzle)
        t2 = time.perf_counter()
        reduced = qubo.fix(fixings(puzzle, res))
        t3 = time.perf_counter()
        total_before += qubo.num_vars
        total_after += reduced.num_vars
        print(f"| {name} | {puzzle.width}x{puzzle.height} | {qubo.num_vars:,} | {qubo.num_terms:,} "
              f"| {100 * res.fraction:.1f} % | {'yes' if res.solved else 'no'} | {reduced.num_vars:,} "
              f"| {reduced.num_terms:,} | {t2 - t1:.3f} | {t3 - t1:.3f} | {t1 - t0:.3f} |", flush=True)
        del qubo, reduced
    print(f"\nAll puzzles: {total_before:,} variables before presolve, {total_after:,} after.")


if __name__ == "__main__":
    main()
