"""Simulated annealing's beta range and sweeps against p and TTS99 on a hard family (issue 31 item 3).

Run: ``python benchmarks/bench_schedules.py [--size 15] [--puzzles 3] [--reads 40] [--seed 1]
[--ranges default,0.1:10,0.5:10,1:10] [--sweeps 1000,10000] [--max-vars 400]``.

The family: random ``SIZE x SIZE`` pictures of density 0.5 (drawn from ``--seed``), kept when
CP-SAT proves them unique and line logic does *not* solve them (:func:`nonoqubo.solvers.cpsat.truth`),
the hard ones of issue 31; each is presolved (line logic's fixings out, as ``solve --presolve``),
and one with more than ``--max-vars`` variables left is passed over, to keep the run to minutes.
The drawing is not timed.

For every puzzle, beta range and number of sweeps, ``--reads`` reads of ``solve``'s ``sa``
(:func:`nonoqubo.solvers.sampling.sample`, read ``r`` seeded ``seed + r``) give

* ``p``: the share of reads that solve the puzzle (energy 0), with its 95 % Wilson interval;
* ``TTS99``: ``t * ln(0.01) / ln(1 - p)``, ``t`` the mean seconds per read that dwave-samplers
  measured (``sampling_ns``): as ``evaluate`` computes it;
* the ratio of TTS99 to the default range's at the same sweeps (``default`` is dwave-samplers'
  own range from the model's biases, ``solve`` without ``--beta-range``; all in one run, so
  the ratio does not depend on the machine's load as much as the seconds do).

Everything is printed as markdown on stdout, progress on stderr.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from nonoqubo.campaign.evaluate import runs_to_solution, wilson
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.pipeline import Models
from nonoqubo.solvers.cpsat import truth
from nonoqubo.solvers.sampling import RUN, sample


def hard_family(size: int, count: int, seed: int, max_vars: int) -> list[tuple[str, Models, object]]:
    """*count* random pictures, unique and not line-solvable, with at most *max_vars* left after presolve."""
    rng = np.random.default_rng(seed)
    found: list[tuple[str, Models, object]] = []
    drawn = 0
    while len(found) < count and drawn < 2000:
        drawn += 1
        grid = rng.random((size, size)) < 0.5
        puzzle = Puzzle.from_picture(["".join("#" if c else "." for c in row) for row in grid],
                                     name=f"random-{size}x{size}-{drawn}")
        fact = truth(puzzle, 2, time_limit=20)
        if not (fact.unique and not fact.line_solvable):
            continue
        models = Models.build(puzzle)
        reduced = models.presolve()
        if reduced.num_vars > max_vars:
            continue
        found.append((puzzle.name, models, reduced))
        print(f"  {puzzle.name}: {models.qubo.num_vars} variables, {reduced.num_vars} after presolve "
              f"(draw {drawn})", file=sys.stderr)
    return found


def measure(reduced, beta_range, sweeps: int, reads: int, seed: int) -> dict[str, float]:
    """p, its interval, seconds per read and TTS99 of one setting."""
    batch = sample(reduced, "sa", reads=reads, seed=seed, sweeps=sweeps, beta_range=beta_range)
    valid = int(np.count_nonzero(reduced.energy(batch.bits) == 0))
    t = batch.extra[RUN]["timing"]["seconds_per_run"]
    p = valid / reads
    lo, hi = wilson(valid, reads)
    return {"p": p, "lo": lo, "hi": hi, "t": t, "tts": t * runs_to_solution(p)}


def fmt_tts(value: float) -> str:
    return "inf" if math.isinf(value) else f"{value:.3g}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--puzzles", type=int, default=3)
    ap.add_argument("--reads", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ranges", default="default,0.1:10,0.5:10,1:10",
                    help="beta ranges LO:HI, comma separated; 'default': dwave-samplers' own")
    ap.add_argument("--sweeps", default="1000,10000")
    ap.add_argument("--max-vars", type=int, default=400)
    args = ap.parse_args()
    ranges = [None if r == "default" else tuple(float(v) for v in r.split(":")) for r in args.ranges.split(",")]
    sweeps_list = [int(s) for s in args.sweeps.split(",")]
    print(f"drawing {args.puzzles} unique, not line-solvable {args.size}x{args.size} puzzles", file=sys.stderr)
    family = hard_family(args.size, args.puzzles, args.seed, args.max_vars)
    start = time.perf_counter()
    print(f"SA (`solve --presolve --sampler sa`), {args.reads} reads per setting, seed {args.seed}; "
          "TTS99 in seconds (ratio: TTS99 / TTS99 of the default range at the same sweeps)\n")
    header = "| puzzle | vars | beta range | " + " | ".join(
        f"p @ {s} sweeps [95% CI] | TTS99 @ {s} | ratio @ {s}" for s in sweeps_list) + " |"
    print(header)
    print("|" + "---|" * (3 + 3 * len(sweeps_list)))
    for name, _models, reduced in family:
        defaults: dict[int, float] = {}
        for beta_range in ranges:
            cells = []
            for sweeps in sweeps_list:
                print(f"  {name} beta range {beta_range or 'default'} sweeps {sweeps}", file=sys.stderr)
                m = measure(reduced, beta_range, sweeps, args.reads, args.seed)
                if beta_range is None:
                    defaults[sweeps] = m["tts"]
                base = defaults.get(sweeps)
                ratio = ("-" if base is None or math.isinf(base) or math.isinf(m["tts"])
                         else f"{m['tts'] / base:.2f}")
                cells.append(f"{m['p']:.3f} [{m['lo']:.2f}, {m['hi']:.2f}] | {fmt_tts(m['tts'])} | {ratio}")
            shown = "default" if beta_range is None else f"{beta_range[0]:g},{beta_range[1]:g}"
            print(f"| {name} | {reduced.num_vars} | {shown} | " + " | ".join(cells) + " |", flush=True)
    print(f"\n{time.perf_counter() - start:.0f} s of sampling.", file=sys.stderr)


if __name__ == "__main__":
    main()
