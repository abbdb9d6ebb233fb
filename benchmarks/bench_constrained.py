"""Which route suits which puzzle: HiGHS on the LP (constrained form) beside simulated annealing on the QUBO.

Run: ``python benchmarks/bench_constrained.py [--max-vars N] [--time-limit S]
[--reads R] [--sweeps W] [--only NAME ...]``.  Prints a markdown table, one
row per shared puzzle (``tests/data/puzzles/json``, smallest first).

Columns:

* *vars / rows*: variables and constraints of the constrained model;
* *LP write*: :func:`build_constrained` plus :func:`nonoqubo.exports.lp.dumps`;
* *HiGHS*: ``readModel`` + ``run`` on the written LP file (one thread of
  branch and bound, the HiGHS defaults, ``--time-limit`` seconds at most),
  its status, and whether its solution decodes to a valid picture;
* *SA*: ``dwave.samplers.SimulatedAnnealingSampler`` on the expanded QUBO
  (``--reads`` reads of ``--sweeps`` sweeps, seed 1): wall time, the lowest
  energy found (0 = a solution) and how many reads reached 0.

The last column says which route solved the puzzle (faster first when both did).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo.model.build import build  # noqa: E402
from nonoqubo.clues import spec  # noqa: E402
from nonoqubo.model.constrained import build_constrained  # noqa: E402
from nonoqubo.model.encoding import Layout, flat_name  # noqa: E402
from nonoqubo.exports import lp  # noqa: E402

SHARED = ROOT / "tests" / "data" / "puzzles"


def puzzles(max_vars: int, only: list[str]) -> list[tuple[str, object]]:
    out = []
    for path in sorted((SHARED / "json").glob("*.json")):
        if only and path.stem not in only:
            continue
        puzzle = spec.from_dict(json.loads(path.read_text()), source=str(path))
        if Layout.of(puzzle).num_vars <= max_vars:
            out.append((path.stem, puzzle))
    out.sort(key=lambda item: Layout.of(item[1]).num_vars)
    return out


def run_highs(puzzle, time_limit: float) -> dict:
    import highspy

    t0 = time.perf_counter()
    model = build_constrained(puzzle)
    text = lp.dumps(model)
    t_write = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.lp")
        with open(path, "w") as fh:
            fh.write(text)
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("time_limit", float(time_limit))
        t0 = time.perf_counter()
        h.readModel(path)
        h.run()
        t_solve = time.perf_counter() - t0
    status = h.modelStatusToString(h.getModelStatus())
    valid = False
    if h.getInfo().primal_solution_status == 2:  # feasible
        values = dict(zip(h.getLp().col_names_, h.getSolution().col_value))
        lay = model.layout
        full = np.array([[round(values[name]) for name in map(flat_name, lay.labels())]], np.int8)
        valid = model.constraint_violations(full) == [[]] and puzzle.is_solution(lay.grids(lay.shifts(full))[0][0])
    return {"rows": model.num_constraints, "vars": model.num_vars, "write": t_write, "solve": t_solve,
            "status": status, "valid": valid}


def run_sa(puzzle, reads: int, sweeps: int) -> dict:
    from dwave.samplers import SimulatedAnnealingSampler

    bqm = build(puzzle).to_bqm("BINARY")
    t0 = time.perf_counter()
    result = SimulatedAnnealingSampler().sample(bqm, num_reads=reads, num_sweeps=sweeps, seed=1)
    t = time.perf_counter() - t0
    energies = np.rint(result.record.energy).astype(np.int64)
    return {"time": t, "best": int(energies.min()), "hits": int((energies == 0).sum())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-vars", type=int, default=20000, help="skip larger puzzles (default 20000)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="HiGHS time limit in seconds")
    parser.add_argument("--reads", type=int, default=10, help="simulated-annealing reads")
    parser.add_argument("--sweeps", type=int, default=1000, help="sweeps per read")
    parser.add_argument("--only", nargs="*", default=[], help="puzzle file stems to run")
    args = parser.parse_args(argv)
    import highspy

    highspy.Highs()  # HiGHS prints its banner once, at the first instance: before the table
    print(f"HiGHS time limit {args.time_limit:g} s; SA {args.reads} reads x {args.sweeps} sweeps\n")
    print("| puzzle | size | vars | rows | LP write s | HiGHS s | HiGHS | SA s | SA best E | SA hits | solved by |")
    print("|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|")
    for name, puzzle in puzzles(args.max_vars, args.only):
        hi = run_highs(puzzle, args.time_limit)
        sa = run_sa(puzzle, args.reads, args.sweeps)
        routes = []
        if hi["valid"]:
            routes.append(("LP/HiGHS", hi["solve"]))
        if sa["hits"]:
            routes.append(("QUBO/SA", sa["time"]))
        verdict = ", ".join(r for r, _ in sorted(routes, key=lambda r: r[1])) or "neither"
        status = hi["status"] + ("" if hi["valid"] or hi["status"] != "Optimal" else " (invalid!)")
        print(f"| {name} | {puzzle.height}x{puzzle.width} | {hi['vars']} | {hi['rows']} | {hi['write']:.3f} | "
              f"{hi['solve']:.2f} | {status} | {sa['time']:.2f} | {sa['best']} | {sa['hits']}/{args.reads} | "
              f"{verdict} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
