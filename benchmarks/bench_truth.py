"""Ground truth by exact solvers: Gecode, MiniZinc + Gecode, CP-SAT and HiGHS side by side (solve, prove unique).

Run: ``python benchmarks/bench_truth.py [--time-limit S] [--part table|share|both]
[--only NAME ...] [--random-rows K] [--unique-rows K] [--sample N] [--sizes 30,50] [--seed SEED]``.
Everything it reads is in the repository (``tests/data/puzzles/json``; random puzzles drawn as
``suite --random`` draws them), so it runs from a fresh clone.  Progress goes to stderr, the
markdown to stdout.

**The table** (``--part table``): one row per puzzle of :data:`PUZZLES`, ``--random-rows``
members each of the random families ``30x30:0.5:K:SEED`` and ``50x50:0.5:K:SEED`` (unfiltered:
not ``--unique``) and ``--unique-rows`` members of ``30x30:0.5:K:SEED`` with ``--unique`` (drawn
until CP-SAT proves the picture unique, as ``suite --unique`` draws; the drawing is not timed),
and per exact solver two times, each under ``--time-limit`` seconds:

* *solve*: the time to the first solution (checked against the clues), or ``-`` (not solved
  within the limit);
* *unique*: the time of a search for two solutions, with its verdict: ``1`` (the search finished
  with one: proven unique), ``>= 2`` (a second was found), ``?`` (the limit came first).

The solvers:

* **Gecode's own** ``examples/nonogram.cpp`` (the copy in ``tests/data/puzzles/originals/gecode``,
  Gecode 6.2's driver), compiled once with ``g++ -O2`` against ``libgecode-dev`` with a few lines
  appended that replace its spec 0 by the one in the file ``$NONOGRAM_SPEC`` (the flat array of
  its own format, written from the clues); run as ``nonogram -time MS -solutions 1`` (and ``2``),
  wall time of the process, its pictures checked against the clues.  Without ``g++`` or the
  Gecode headers the column reads ``n/a``;
* **MiniZinc + Gecode**: ``nonoqubo build PUZZLE -o x.mzn`` (not timed), then
  ``minizinc --solver gecode --time-limit MS --output-mode json x.mzn`` (wall time of the whole
  command: flattening included) and the same with ``-n 2`` for uniqueness (``==========`` after
  the solutions means the search space was exhausted);
* **CP-SAT** (``solve --sampler cpsat``): :func:`nonoqubo.solvers.cpsat.solutions` with
  ``limit=1`` (CP-SAT's default workers) and :func:`~nonoqubo.solvers.cpsat.count_solutions`
  with limit 2 (enumeration, one worker), model construction included;
* **HiGHS** on nonoqubo's 0-1 LP (``build --constrained -o x.lp``:
  :func:`~nonoqubo.model.constrained.build_constrained` + :func:`nonoqubo.exports.lp.dumps`, not
  timed), ``readModel`` + ``run`` with ``threads=1``; uniqueness: the LP again with one no-good
  row that excludes the solution found (a valid picture has one encoding, so "infeasible" proves
  it unique).

**The share** (``--part share``): ``--sample N`` members of each random family
``SxS:0.5:N:SEED`` (``--sizes``), each counted by CP-SAT up to 2 within ``--time-limit``
and solved by line logic (:func:`nonoqubo.logic.linesolve.line_solve`): the share that is
unique, line-solvable (a subset of unique), unique but not line-solvable, not unique, and
unknown (the time limit came first), each with its 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo import clues  # noqa: E402
from nonoqubo.generation.families import draw, make, parse_family  # noqa: E402
from nonoqubo.campaign.evaluate import wilson  # noqa: E402
from nonoqubo.errors import NonoquboError, NoSolution, SolverError  # noqa: E402
from nonoqubo.logic.linesolve import line_solve  # noqa: E402
from nonoqubo.model.puzzle import Puzzle  # noqa: E402

SHARED = ROOT / "tests" / "data" / "puzzles" / "json"
#: the shared puzzles of the table: sizes 15x15 to 512x512; line-solvable and not; unique and not
PUZZLES = ("qbpp-logo", "gecode-difficult", "gecode-non-unique", "gecode-p200", "dejoue-webpbn-06574-forever",
           "gecode-webpbn436", "mikix-webpbn-529", "gecode-webpbn65", "dejoue-raw-moss-60x60-bw-1",
           "dejoue-cauldron")


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


# -- the solvers: each returns (seconds, solved-or-verdict) ---------------------------------------
GECODE_CPP = ROOT / "tests" / "data" / "puzzles" / "originals" / "gecode" / "nonogram.cpp"
#: appended to nonogram.cpp: spec 0 becomes the flat array in the file $NONOGRAM_SPEC (when set)
SPEC_LOADER = r"""
#include <cstdlib>
#include <fstream>
#include <vector>
namespace {
  std::vector<int> loaded_spec;
  struct SpecLoader {
    SpecLoader() {
      const char* path = std::getenv("NONOGRAM_SPEC");
      if (path == nullptr) return;
      std::ifstream in(path);
      int v;
      while (in >> v) loaded_spec.push_back(v);
      specs[0] = loaded_spec.data();
    }
  } spec_loader;
}
"""
GECODE_LIBS = ["-lgecodedriver", "-lgecodegist", "-lgecodesearch", "-lgecodeminimodel", "-lgecodeint",
               "-lgecodekernel", "-lgecodesupport", "-lpthread"]


def compile_gecode(folder: str) -> str | None:
    """Gecode's example compiled into *folder* (its path), or None without g++ or the Gecode headers."""
    if shutil.which("g++") is None:
        return None
    source = os.path.join(folder, "nonogram.cpp")
    with open(source, "w") as fh:
        fh.write(GECODE_CPP.read_text() + SPEC_LOADER)
    binary = os.path.join(folder, "nonogram")
    done = subprocess.run(["g++", "-O2", "-o", binary, source, *GECODE_LIBS], capture_output=True, text=True)
    if done.returncode != 0:
        log(f"Gecode's nonogram.cpp does not compile here (libgecode-dev missing?): {done.stderr[-300:]}")
        return None
    return binary


def gecode_spec(puzzle: Puzzle) -> list[int]:
    """The flat array of nonogram.cpp: width, height, then each column's and each row's count and lengths."""
    spec = [puzzle.width, puzzle.height]
    for clue in list(puzzle.cols) + list(puzzle.rows):
        spec += [len(clue), *clue]
    return spec


def native_run(binary: str, spec: str, puzzle: Puzzle, limit: float, count: int) -> tuple[float, str]:
    """Gecode's example on one spec: as :func:`gecode_run`."""
    cmd = [binary, "-time", str(int(limit * 1000)), "-solutions", str(count), "0"]
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 60,
                              env={**os.environ, "NONOGRAM_SPEC": spec})
        out = done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        out = "Search engine stopped"
    seconds = time.perf_counter() - start
    rows = [ln[1:] for ln in out.splitlines() if re.fullmatch(r"\t[ #]{%d}" % puzzle.width, ln)]
    pictures = [rows[k:k + puzzle.height] for k in range(0, len(rows) - puzzle.height + 1, puzzle.height)]
    for pic in pictures:
        if not puzzle.is_solution(np.array([[c == "#" for c in r] for r in pic], np.int8)):
            raise SystemExit(f"Gecode's nonogram printed an invalid picture for {puzzle.name}")
    found = re.search(r"solutions:\s+(\d+)", out)
    n = int(found.group(1)) if found else 0
    stopped = "Search engine stopped" in out
    if count == 1:
        return seconds, "ok" if n else "timeout" if stopped else "none"
    if n >= count:
        return seconds, f">= {count}"
    return seconds, "?" if stopped else str(n)


def gecode_run(mzn: str, puzzle: Puzzle, limit: float, count: int) -> tuple[float, str]:
    """``minizinc --solver gecode``: 'ok' / 'none' / 'timeout' (count 1), '1' / '>= 2' / '?' (count 2)."""
    cmd = ["minizinc", "--solver", "gecode", "--time-limit", str(int(limit * 1000)), "--output-mode", "json", mzn]
    if count > 1:
        cmd[1:1] = ["-n", str(count)]
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 60)
        out = done.stdout
    except subprocess.TimeoutExpired:
        out = ""
    seconds = time.perf_counter() - start
    sols = [json.loads(chunk) for chunk in out.split("----------")[:-1] if chunk.strip()]
    for sol in sols:  # every answer Gecode prints must satisfy the clues
        if not puzzle.is_solution(np.array(sol["grid"], np.int8)):
            raise SystemExit(f"Gecode printed an invalid picture for {puzzle.name}")
    complete = "==========" in out
    if "=====UNSATISFIABLE=====" in out:
        return seconds, "none" if count == 1 else "0"
    if count == 1:
        return seconds, "ok" if sols else "timeout"
    if len(sols) >= count:
        return seconds, f">= {count}"
    return seconds, str(len(sols)) if complete else "?"


def cpsat_run(puzzle: Puzzle, limit: float, count: int) -> tuple[float, str]:
    from nonoqubo.solvers.cpsat import count_solutions, solutions

    start = time.perf_counter()
    if count == 1:
        try:
            grids, _ = solutions(puzzle, limit=1, time_limit=limit)
        except NoSolution:
            return time.perf_counter() - start, "none"
        except SolverError:
            return time.perf_counter() - start, "timeout"
        seconds = time.perf_counter() - start
        if not puzzle.is_solution(grids[0]):
            raise SystemExit(f"CP-SAT returned an invalid picture for {puzzle.name}")
        return seconds, "ok"
    try:
        found, exact = count_solutions(puzzle, count, time_limit=limit)
    except SolverError:
        found, exact = 0, False
    seconds = time.perf_counter() - start
    if found >= count:
        return seconds, f">= {count}"
    return seconds, str(found) if exact else "?"


def highs_lp(puzzle: Puzzle, folder: str):
    """Write the constrained model as LP (not timed); the model and the file's path."""
    from nonoqubo.exports import lp
    from nonoqubo.model.constrained import build_constrained

    model = build_constrained(puzzle)
    path = os.path.join(folder, "model.lp")
    with open(path, "w") as fh:
        lp.dump(model, fh)
    return model, path


def highs_run(puzzle: Puzzle, model, path: str, limit: float) -> tuple[tuple[float, str], tuple[float, str]]:
    """HiGHS on the LP: (solve seconds, verdict) and (uniqueness seconds, verdict)."""
    import highspy

    from nonoqubo.model.encoding import flat_name

    def fresh():
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("threads", 1)
        h.setOptionValue("time_limit", float(limit))
        h.readModel(path)
        return h

    start = time.perf_counter()
    h = fresh()
    h.run()
    seconds = time.perf_counter() - start
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return (seconds, "none"), (seconds, "0")
    if h.getInfo().primal_solution_status != 2:
        return (seconds, "timeout"), (float("nan"), "-")
    names = list(h.getLp().col_names_)
    x = np.rint(np.array(h.getSolution().col_value)).astype(np.int8)
    lay = model.layout
    position = {name: k for k, name in enumerate(names)}
    full = np.array([[x[position[n]] for n in map(flat_name, lay.labels())]], np.int8)
    if not puzzle.is_solution(lay.grids(lay.shifts(full))[0][0]):
        raise SystemExit(f"HiGHS returned an invalid picture for {puzzle.name}")
    # no-good: sum over x_v=0 of x_v + sum over x_v=1 of (1 - x_v) >= 1
    coef = np.where(x == 1, -1.0, 1.0)
    start = time.perf_counter()
    h2 = fresh()
    h2.addRow(1.0 - float(x.sum()), highspy.kHighsInf, len(names), np.arange(len(names), dtype=np.int32), coef)
    h2.run()
    proof = time.perf_counter() - start
    status2 = h2.getModelStatus()
    if status2 == highspy.HighsModelStatus.kInfeasible:
        verdict = "1"
    elif h2.getInfo().primal_solution_status == 2:
        verdict = ">= 2"
    else:
        verdict = "?"
    return (seconds, "ok"), (proof, verdict)


# -- the table ------------------------------------------------------------------------------------
def cell(result: tuple[float, str], limit: float) -> str:
    seconds, verdict = result
    if verdict == "-":
        return "-"
    if verdict in ("timeout", "?"):
        return f"not in {limit:g} s"
    if verdict == "ok":
        return f"{seconds:.2f} s"
    if verdict == "none":
        return f"{seconds:.2f} s (no solution)"
    return f"{seconds:.2f} s ({verdict})"


def table_puzzles(only: list[str], rows: int, seed: int, unique_rows: int = 0,
                  limit: float | None = None) -> list[tuple[str, Puzzle]]:
    """(name, puzzle): the shared puzzles under their file names, the random members, then the first
    *unique_rows* members of ``30x30:0.5:K:SEED --unique`` (proven unique by CP-SAT; named ``...-unique``)."""
    out = []
    for name in PUZZLES:
        if not only or name in only:
            out.append((name, clues.load(str(SHARED / f"{name}.json"))))
    for size in (30, 50):
        fam = parse_family(f"{size}x{size}:0.5:{rows}:{seed}") if rows else None
        for member in fam.members() if fam else ():
            if not only or member.name in only:
                out.append((member.name, make(member)))
    fam = parse_family(f"30x30:0.5:{unique_rows}:{seed}", unique="cpsat") if unique_rows else None
    for member in fam.members() if fam else ():
        if not only or f"{member.name}-unique" in only:
            log(f"{member.name}: drawing until CP-SAT proves a picture unique (as suite --unique)")
            try:
                drawn = draw(member, limit)
                log(f"{member.name}: {drawn.draws} draws, {drawn.undecided} of them undecided (time limit)")
                out.append((f"{member.name}-unique", drawn.puzzle))
            except NonoquboError as exc:  # no proven-unique picture (or too many proofs the limit stopped)
                log(f"{member.name}: skipped: {exc}")
    return out


def warm_up() -> None:
    """Import ortools and HiGHS (and let HiGHS print its banner) before anything is timed."""
    import highspy

    from nonoqubo.solvers.cpsat import solutions

    highspy.Highs()
    solutions(Puzzle(rows=[[1], [1]], cols=[[1], [1]]), limit=2)


def run_table(args: argparse.Namespace) -> None:
    limit = args.time_limit
    warm_up()
    print(f"time limit {limit:g} s per run; MiniZinc + Gecode: the whole minizinc command; CP-SAT and "
          "HiGHS: model construction and search\n")
    print("| puzzle | size | line-solvable | Gecode nonogram.cpp solve | unique | MiniZinc+Gecode solve | unique | "
          "CP-SAT solve | unique | HiGHS (LP) solve | unique |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|", flush=True)
    binary = compile_gecode(args.work)
    for name, puzzle in table_puzzles(args.only, args.random_rows, args.seed, args.unique_rows, limit):
        try:
            line = "yes" if line_solve(puzzle).solved else "no"
        except Exception:  # noqa: BLE001 - line logic proves no solution
            line = "no (contradiction)"
        cells = []
        with tempfile.TemporaryDirectory() as tmp:
            if binary is None:
                cells += [(0.0, "-"), (0.0, "-")]
            else:
                spec = os.path.join(tmp, "spec.txt")
                with open(spec, "w") as fh:
                    fh.write(" ".join(map(str, gecode_spec(puzzle))))
                log(f"{name}: gecode nonogram.cpp")
                cells += [native_run(binary, spec, puzzle, limit, 1), native_run(binary, spec, puzzle, limit, 2)]
            mzn = os.path.join(tmp, "model.mzn")
            with open(os.path.join(tmp, "p.json"), "w") as fh:
                json.dump(puzzle.to_dict(), fh)
            subprocess.run([sys.executable, "-m", "nonoqubo", "build", os.path.join(tmp, "p.json"), "-o", mzn,
                            "-q", "--force"], check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                           capture_output=True)
            log(f"{name}: gecode")
            cells += [gecode_run(mzn, puzzle, limit, 1), gecode_run(mzn, puzzle, limit, 2)]
            os.remove(mzn)
            log(f"{name}: cp-sat")
            cells += [cpsat_run(puzzle, limit, 1), cpsat_run(puzzle, limit, 2)]
            log(f"{name}: highs")
            model, path = highs_lp(puzzle, tmp)
            cells += list(highs_run(puzzle, model, path, limit))
            del model
        log(f"{name}: {cells}")
        print(f"| {name} | {puzzle.height}x{puzzle.width} | {line} | "
              + " | ".join(cell(c, limit) if binary or k > 1 else "n/a" for k, c in enumerate(cells)) + " |",
              flush=True)


# -- the share ------------------------------------------------------------------------------------
def run_share(args: argparse.Namespace) -> None:
    from nonoqubo.solvers.cpsat import count_solutions

    limit = args.time_limit
    warm_up()
    print(f"CP-SAT counts up to 2 within {limit:g} s per puzzle; density 0.5; seed {args.seed}\n")
    print("| family | sample | unique | line-solvable | unique, not line-solvable | not unique | unknown (time limit) | "
          "CP-SAT count s (median, max) |")
    print("|---|---:|---|---|---|---|---|---|", flush=True)
    for size in args.sizes:
        text = f"{size}x{size}:0.5:{args.sample}:{args.seed}"
        tally = {"unique": 0, "line": 0, "hard": 0, "multiple": 0, "unknown": 0}
        times = []
        for member in parse_family(text).members():
            puzzle = make(member)
            line = bool(line_solve(puzzle).solved)
            start = time.perf_counter()
            try:
                found, exact = count_solutions(puzzle, 2, time_limit=limit)
            except SolverError:
                found, exact = 0, False
            times.append(time.perf_counter() - start)
            if found == 1 and exact:
                tally["unique"] += 1
                tally["line" if line else "hard"] += 1
            elif found >= 2:
                tally["multiple"] += 1
            else:
                tally["unknown"] += 1
            log(f"{member.name}: solutions {found} exact {exact} line {line} {times[-1]:.2f} s")
        n = args.sample

        def share(k: int) -> str:
            lo, hi = wilson(k, n)
            return f"{k}/{n} = {100 * k / n:.0f} % [{100 * lo:.0f}, {100 * hi:.0f}]"

        print(f"| `{text}` | {n} | {share(tally['unique'])} | {share(tally['line'])} | {share(tally['hard'])} | "
              f"{share(tally['multiple'])} | {share(tally['unknown'])} | "
              f"{statistics.median(times):.2f}, {max(times):.2f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per solver run (default 60)")
    parser.add_argument("--part", choices=("table", "share", "both"), default="both", help="what to run (default both)")
    parser.add_argument("--only", nargs="*", default=[], help="table: only these puzzle names")
    parser.add_argument("--random-rows", type=int, default=2, help="table: members per random family (default 2)")
    parser.add_argument("--unique-rows", type=int, default=3,
                        help="table: members of the family 30x30:0.5:K:SEED --unique (default 3)")
    parser.add_argument("--sample", type=int, default=30, help="share: puzzles per random family (default 30)")
    parser.add_argument("--sizes", type=lambda s: [int(v) for v in s.split(",")], default=[30, 50],
                        help="share: square sizes, comma-separated (default 30,50)")
    parser.add_argument("--seed", type=int, default=0, help="the random families' seed (default 0)")
    args = parser.parse_args(argv)
    log(f"load: {os.getloadavg()}")
    if args.part in ("table", "both"):
        with tempfile.TemporaryDirectory() as work:
            args.work = work
            run_table(args)
        print()
    if args.part in ("share", "both"):
        run_share(args)
    log(f"load: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
