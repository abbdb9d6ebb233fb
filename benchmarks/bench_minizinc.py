"""The MiniZinc model in Gecode: nonoqubo's export beside the formulation it replaced and a plain one.

Run: ``python benchmarks/bench_minizinc.py [--time-limit S] [--only NAME ...] [--random K]``.
Everything it reads is in the repository (``tests/data/puzzles/json``, and ``--random K`` unique
random 25x25 puzzles drawn as ``suite --random 25x25:0.5:K:1 --unique`` draws them).  Progress goes
to stderr, the markdown table to stdout.

Three models of each puzzle, each solved by ``minizinc --solver gecode -s --time-limit MS`` (the
first solution; Gecode's default branching), with Gecode's own statistics read from the
``%%%mzn-stat`` lines:

* **export**: ``nonoqubo build PUZZLE -o x.mzn``, today's writer: one ``var 1..C+1`` per cell, the
  ``regular`` constraints over those variables, the picture's ``grid`` (``symbol - 1``) computed in
  the output model only;
* **before**: the formulation the writer had until this benchmark was added, cells ``var 0..C``
  read through ``grid[i, j] + 1`` (MiniZinc flattens each ``+ 1`` into a second integer variable
  and an ``int_lin_eq``, so Gecode branches on twice the variables);
* **plain**: the textbook model, ``var 1..C+1`` cells, one ``regular`` per line, no output item:
  the reference the export must equal (same FlatZinc variables, same nodes).

The two reference models are ``tests/support/minizinc_models.py``'s, written independently of the
export (the test suite compares with the same ones).

Columns: FlatZinc integer variables, Gecode's nodes, and the wall time of the whole ``minizinc``
command (flattening included), ``-`` when the limit came first (``UNKNOWN``).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo import clues  # noqa: E402
from nonoqubo.exports import minizinc  # noqa: E402
from nonoqubo.model.build import build  # noqa: E402
from nonoqubo.model.puzzle import Puzzle  # noqa: E402
from tests.support.minizinc_models import offset_model, plain_model  # noqa: E402

PUZZLES = ["qbpp-logo", "gecode-difficult", "gecode-dragonfly", "gecode-p200", "gecode-webpbn21",
           "gecode-webpbn27", "gecode-webpbn436", "gecode-webpbn529", "gecode-webpbn65", "jwilk-data142",
           "mikix-webpbn-26167", "olsak-kondor", "sgt-pattern-25x25", "sgt-pattern-40x40", "sgt-pattern-50x50",
           "dejoue-webpbn-06574-forever", "dejoue-raw-moss-60x60-bw-1"]
_STAT = re.compile(r"^%%%mzn-stat: (\w+)=(.*)$", re.MULTILINE)


def gecode(text: str, limit: float) -> dict[str, object]:
    """Solve *text* with minizinc + Gecode under *limit* seconds: variables, nodes, seconds, solved."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.mzn"
        path.write_text(text)
        t0 = time.perf_counter()
        proc = subprocess.run(["minizinc", "--solver", "gecode", "-s", "--time-limit", str(int(limit * 1000)),
                               str(path)], capture_output=True, text=True, timeout=limit + 120)
        wall = time.perf_counter() - t0
    stats = dict(_STAT.findall(proc.stdout))
    solved = "----------" in proc.stdout
    return {"variables": int(stats.get("flatIntVars", -1)), "nodes": int(stats.get("nodes", -1)),
            "seconds": wall if solved else None, "solved": solved}


def _puzzles(names: list[str], random: int) -> list[tuple[str, Puzzle]]:
    found = [(n, clues.load(ROOT / "tests" / "data" / "puzzles" / "json" / f"{n}.json")) for n in names]
    if random:
        from nonoqubo.generation.families import draw, parse_family

        family = parse_family(f"25x25:0.5:{random}:1", unique="cpsat")
        found += [(m.name, draw(m).puzzle) for m in family.members()]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=30.0, metavar="S")
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME")
    parser.add_argument("--random", type=int, default=0, metavar="K")
    args = parser.parse_args(argv)
    rows = []
    for name, puzzle in _puzzles(args.only or PUZZLES, args.random):
        print(f"{name} ...", file=sys.stderr, flush=True)
        export = gecode(minizinc.dumps(build(puzzle)), args.time_limit)
        before = gecode(offset_model(puzzle), args.time_limit)
        plain = gecode(plain_model(puzzle), args.time_limit)
        rows.append((name, f"{puzzle.height}x{puzzle.width}", export, before, plain))

    def cell(r: dict[str, object]) -> str:
        secs = "-" if r["seconds"] is None else f"{r['seconds']:.2f} s"
        return f"{r['variables']} | {r['nodes']} | {secs}"

    print(f"Gecode 6.2 through MiniZinc 2.6, default branching, first solution, limit {args.time_limit:g} s.\n")
    print("| puzzle | size | export: vars | nodes | time | before: vars | nodes | time | plain: vars | nodes | time |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, size, export, before, plain in rows:
        print(f"| {name} | {size} | {cell(export)} | {cell(before)} | {cell(plain)} |")
    solved = {k: sum(r[i]["solved"] for r in rows) for k, i in (("export", 2), ("before", 3), ("plain", 4))}
    print(f"\nsolved within the limit: {json.dumps(solved)} of {len(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
