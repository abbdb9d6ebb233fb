"""Presolve figures: variables and terms before and after, line-logic coverage, timings.

Run: ``python benchmarks/bench_presolve.py [--skip-cauldron]``.  Prints a markdown
table over every ``tests/data/puzzles/json/*.json`` (smallest first): the full
model's variables and terms, the share of the grid line logic settles, the
reduced model's variables and terms, and the time of the line solver alone and
of the whole ``presolve_qubo`` (line solver + fixed values + ``Qubo.fix``, the
model already built), wall-clock and CPU seconds (CPU is what a loaded machine
inflates least).  The 512x512 cauldron is timed too (target: presolved in
under 2 s, issue 16).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's nonoqubo

from nonoqubo.model.build import build  # noqa: E402
from nonoqubo.clues import spec  # noqa: E402
from nonoqubo.logic.linesolve import line_solve  # noqa: E402
from nonoqubo.logic.presolve import presolve_qubo  # noqa: E402

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
          "| line solve s (CPU s) | presolve s (CPU s) | build (s) |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    total_before = total_after = 0
    for name, puzzle in puzzles:
        t0 = time.perf_counter()
        qubo = build(puzzle)
        t1, c1 = time.perf_counter(), time.process_time()
        res = line_solve(puzzle)
        t2, c2 = time.perf_counter(), time.process_time()
        reduced = presolve_qubo(puzzle, qubo)
        t3, c3 = time.perf_counter(), time.process_time()
        total_before += qubo.num_vars
        total_after += reduced.num_vars
        print(f"| {name} | {puzzle.width}x{puzzle.height} | {qubo.num_vars:,} | {qubo.num_terms:,} "
              f"| {100 * res.fraction:.1f} % | {'yes' if res.solved else 'no'} | {reduced.num_vars:,} "
              f"| {reduced.num_terms:,} | {t2 - t1:.3f} ({c2 - c1:.3f}) | {t3 - t2:.3f} ({c3 - c2:.3f}) "
              f"| {t1 - t0:.3f} |", flush=True)
        del qubo, reduced
    print(f"\nAll puzzles: {total_before:,} variables before presolve, {total_after:,} after.")


if __name__ == "__main__":
    main()
