"""Probing presolve beside line logic: what each leaves to the sampler, and how often random puzzles are hard cores.

Run: ``python benchmarks/bench_probe.py [--part shared|random|both] [--sizes 10,15,20,25]
[--densities 0.4,0.5,0.6] [--sample N] [--seed S] [--truth-time S]``.  Everything it reads is in
the repository (``tests/data/puzzles/json``; random puzzles drawn as ``suite --random`` draws them).
Progress goes to stderr, the markdown to stdout.

**shared** (``--part shared``): every black-and-white shared puzzle, its domain-wall variables in
full, after line logic (``build --presolve``), after probing cells alone (``probe_solve(...,
variables=False)``, what ``--presolve probe`` was before probing the model's variables) and after
``build --presolve probe`` (cells, then the domain wall's variables where cells stay open), the
hardness label (:func:`nonoqubo.logic.hardness.hardness`), the rounds (cells + variables) and the
time of line logic, of cell probing and of the whole probe, measured side by side in one run.

**random** (``--part random``): ``--sample N`` random pictures per size and density, each labelled
line-solvable, probe-solvable or needs-search, and counted by CP-SAT up to 2 (``--truth-time``
seconds each): a *hard core* is unique by proof and not settled by probing (what ``suite
--unique=hard`` keeps).  Shares come with their 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo import clues  # noqa: E402
from nonoqubo.campaign.evaluate import wilson  # noqa: E402
from nonoqubo.generation.families import make, parse_family  # noqa: E402
from nonoqubo.logic.hardness import hardness  # noqa: E402
from nonoqubo.logic.linesolve import line_solve  # noqa: E402
from nonoqubo.logic.probe import probe_solve  # noqa: E402


def shared() -> None:
    print("| puzzle | size | variables | after line logic | after cell probing | after probing (cells + variables) "
          "| label | rounds | line s | cell probing s | probing s | ratio |")
    print("|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for path in sorted((ROOT / "tests" / "data" / "puzzles" / "json").glob("*.json")):
        puzzle = clues.load(path)
        if puzzle.is_colour or puzzle.width * puzzle.height > 3600:
            continue
        print(f"{path.stem} ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        line = line_solve(puzzle)
        t_line = time.perf_counter() - t0
        t0 = time.perf_counter()
        cells = probe_solve(puzzle, line, variables=False)
        t_cells = time.perf_counter() - t0
        t0 = time.perf_counter()
        probed = probe_solve(puzzle, line)
        t_probe = time.perf_counter() - t0
        h = hardness(puzzle, probed=probed)
        after_cells = hardness(puzzle, probed=cells).variables_after_probe
        ratio = f"{t_probe / t_cells:.2f}" if cells.rounds else "-"  # nothing probed: no ratio
        print(f"| {path.stem} | {puzzle.width}x{puzzle.height} | {h.variables} | {h.variables_after_line} | "
              f"{after_cells} | {h.variables_after_probe} | {h.hardness} | {probed.rounds} + {probed.variable_rounds} | "
              f"{t_line:.3f} | {t_cells:.3f} | {t_probe:.3f} | {ratio} |")


def random_family(sizes: list[int], densities: list[float], sample: int, seed: int, truth_time: float) -> None:
    from nonoqubo.solvers.cpsat import count_solutions

    print("| size | density | puzzles | line-solvable | probe-solvable | needs search | hard cores (unique) | share hard [95 %] |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for size in sizes:
        for density in densities:
            family = parse_family(f"{size}x{size}:{density}:{sample}:{seed}")
            counts = {"line-solvable": 0, "probe-solvable": 0, "needs-search": 0, "no-solution": 0}
            hard = 0
            print(f"{size}x{size} d{density} ...", file=sys.stderr, flush=True)
            for member in family.members():
                puzzle = make(member)
                label = hardness(puzzle).hardness
                counts[label] = counts.get(label, 0) + 1
                if label == "needs-search":
                    found, exact = count_solutions(puzzle, 2, time_limit=truth_time)
                    hard += int(exact and found == 1)
            lo, hi = wilson(hard, sample)
            print(f"| {size}x{size} | {density} | {sample} | {counts['line-solvable']} | {counts['probe-solvable']} | "
                  f"{counts['needs-search']} | {hard} | {hard / sample:.3f} [{lo:.3f}, {hi:.3f}] |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("shared", "random", "both"), default="both")
    parser.add_argument("--sizes", default="10,15,20,25")
    parser.add_argument("--densities", default="0.4,0.5,0.6")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--truth-time", type=float, default=10.0)
    args = parser.parse_args(argv)
    if args.part in ("shared", "both"):
        shared()
        print()
    if args.part in ("random", "both"):
        random_family([int(s) for s in args.sizes.split(",")], [float(d) for d in args.densities.split(",")],
                      args.sample, args.seed, args.truth_time)
    return 0


if __name__ == "__main__":
    sys.exit(main())
