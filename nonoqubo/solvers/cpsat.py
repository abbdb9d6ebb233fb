"""CP-SAT (Google OR-Tools) as a local sampler: the puzzle solved exactly, its solutions as QUBO samples.

This module owns the ``cpsat`` sampler (``solve PUZZLE --sampler cpsat``; the ``cp`` extra, ortools).
CP-SAT does not sample the QUBO: it solves the puzzle's constraint model, one Boolean per cell
(in colour an integer ``0..C`` per cell, one value per colour) and one ``AddAutomaton`` per row
and column, the clue's automaton (:func:`nonoqubo.model.automaton.line_automaton`, the table the
MiniZinc export writes).  Every solution found is encoded in the model's encoding (its geometry's
``encode``: grid -> block shifts -> the encoding's variables, fixed variables left out), so
``decode``, ``evaluate`` and ``-o`` treat its samples like any sampler's; each has energy 0.

* ``time_limit``: CP-SAT's ``max_time_in_seconds`` (the whole search);
* ``workers``: ``num_workers`` (default: CP-SAT's, all cores); enumeration runs on one;
* ``count=N``: enumerate up to ``N`` solutions; they are the samples, and ``batch.extra["count"]``
  says how many were found and whether that is all there are (``exact``: the search finished
  with fewer than ``N``; ``--count 2`` finding one proves the solution unique), and when not,
  what cut it (``cut``: ``"limit"``, the cap ``N``, or ``"time limit"``).
  Without ``count`` the first solution is the one sample.

A puzzle with no solution is :class:`~nonoqubo.errors.NoSolution` (``solve`` prints it and exits 1);
a search stopped by the time limit before any solution is a :class:`~nonoqubo.errors.TimeLimit`
(a :class:`~nonoqubo.errors.SolverError`).  CP-SAT's own time for the search (:data:`SOLVE_STATS`:
its wall and CPU seconds and its status) goes in the run record's ``sampler_reported`` and in
``solve --sampler cpsat --json`` as ``solve_seconds`` (the time a time-to-solution compares with;
the command's wall time adds Python's model building and decoding).

:func:`truth` is the ground truth of a puzzle (``info --truth``, ``suite --truth``): its solutions
counted up to a limit, each search within a time limit (:data:`TRUTH_TIME` seconds by default on
the command line, ``--truth-time``).  A count the time limit cut short is never "unique": with
fewer than two solutions found it reads ``unknown (time limit)`` (``timed_out``), with ``k >= 2``
found ``>= k`` (not unique, whatever the rest).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..errors import MissingDependency, NoSolution, SolverError, TimeLimit
from ..model.automaton import line_automaton
from ..model.puzzle import Puzzle
from ..model.qubo import Qubo
from ..samples import SampleBatch
from .base import SAMPLER_INFO, SampleOptions, Tick

__all__ = ["SOLVE_STATS", "TRUTH_TIME", "UNKNOWN", "Truth", "check_truth_options", "count_cut", "count_solutions", "require", "run",
           "solutions", "truth"]


#: seconds per CP-SAT search of ``--truth`` and of ``suite --unique``'s proofs unless ``--truth-time`` says otherwise
TRUTH_TIME = 60.0
#: the label of a count the time limit stopped before it could tell unique from not
UNKNOWN = "unknown (time limit)"
#: what :func:`solutions` reports of CP-SAT's search (``stats=``), and the ``cpsat`` sampler's run
#: record keeps under ``sampler_reported`` (``solve --json`` gives ``solve_seconds``)
SOLVE_STATS = ("solve_seconds", "user_seconds", "status")


def _ortools() -> Any:
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise MissingDependency("ortools", "cp", "the 'cpsat' sampler (CP-SAT)") from None
    return cp_model


def require(purpose: str = "the 'cpsat' sampler (CP-SAT)") -> None:
    """Check that ortools is installed, before any work.

    Raises:
        MissingDependency: it is not (the message names *purpose* and the install command).
    """
    try:
        from ortools.sat.python import cp_model  # noqa: F401
    except ImportError:
        raise MissingDependency("ortools", "cp", purpose) from None


def solutions(puzzle: Puzzle, *, limit: int = 1, time_limit: float | None = None, workers: int | None = None,
              tick: Tick | None = None, stats: dict[str, Any] | None = None) -> tuple[list[np.ndarray], bool]:
    """Up to *limit* solution grids of *puzzle* (colour indices) and whether they are all there are.

    *stats*, when given, is filled with CP-SAT's own account of the search (:data:`SOLVE_STATS`):
    ``solve_seconds`` (its wall time, model loading and presolve included, Python's model building
    not), ``user_seconds`` (its CPU time over its workers) and ``status`` (``OPTIMAL``: the search
    finished; ``FEASIBLE``: stopped early with a solution).

    Raises:
        MissingDependency: ortools is not installed.
        NoSolution: CP-SAT proved there is none.
        TimeLimit: the time limit came before any solution (a :class:`SolverError`).
        SolverError: CP-SAT refused the model.
    """
    cp_model = _ortools()
    h, w, top = puzzle.height, puzzle.width, puzzle.num_colours
    model = cp_model.CpModel()
    if top == 1:
        cells = [[model.NewBoolVar(f"x{i}_{j}") for j in range(w)] for i in range(h)]
    else:
        cells = [[model.NewIntVar(0, top, f"x{i}_{j}") for j in range(w)] for i in range(h)]
    lines = [(clue, cc, cells[i]) for i, (clue, cc) in enumerate(zip(puzzle.rows, puzzle.row_colours))]  # type: ignore[arg-type]
    lines += [(clue, cc, [cells[i][j] for i in range(h)])
              for j, (clue, cc) in enumerate(zip(puzzle.cols, puzzle.col_colours))]  # type: ignore[arg-type]
    for clue, cc, line in lines:
        auto = line_automaton(clue, cc, top)
        model.AddAutomaton(line, auto.start, list(auto.finals), list(auto.transitions))
    solver = cp_model.CpSolver()
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    found: list[np.ndarray] = []

    class Collect(cp_model.CpSolverSolutionCallback):  # type: ignore[misc, name-defined]
        def on_solution_callback(self) -> None:
            found.append(np.array([[self.Value(v) for v in row] for row in cells], np.int64))
            if tick is not None:
                tick(len(found), 0.0)
            if len(found) >= limit:
                self.StopSearch()

    if limit > 1:
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1  # CP-SAT enumerates on one worker
    elif workers is not None:
        solver.parameters.num_workers = int(workers)
    status = solver.Solve(model, Collect())
    if stats is not None:
        stats.update(solve_seconds=float(solver.WallTime()), user_seconds=float(solver.UserTime()),
                     status=str(solver.StatusName(status)))
    if status == cp_model.INFEASIBLE:
        raise NoSolution(f"{puzzle.name + ': ' if puzzle.name else ''}CP-SAT proved that the puzzle has no solution")
    if not found:
        if status == cp_model.UNKNOWN:
            within = "" if time_limit is None else f" ({time_limit:g} s)"
            raise TimeLimit(f"CP-SAT found no solution within the time limit{within}")
        raise SolverError(f"CP-SAT found no solution (status {solver.StatusName(status)})")
    return found[:limit], status == cp_model.OPTIMAL and len(found) < limit


def count_solutions(puzzle: Puzzle, limit: int, *, time_limit: float | None = None) -> tuple[int, bool]:
    """``(solutions found, exact)``: at most *limit*; exact when that is how many there are.

    Not exact with fewer than *limit* found: the time limit stopped the search.

    Raises:
        TimeLimit: the time limit came before the first solution.
    """
    try:
        found, complete = solutions(puzzle, limit=limit, time_limit=time_limit)
    except NoSolution:
        return 0, True
    return len(found), complete


@dataclass(frozen=True)
class Truth:
    """What is true of a puzzle: its number of solutions (up to a limit) and whether line logic solves it.

    Attributes:
        solutions: solutions found, at most the limit (0: none; 1 with ``exact``: unique).
        exact: the count is all there are (else "at least ``solutions``": the limit or the time stopped it).
        line_solvable: line logic alone settles every cell.
        solve_seconds: CP-SAT's time to the first solution (or to the proof there is none).
        proof_seconds: CP-SAT's time to finish the count (the proof of uniqueness when it is 1 and exact).
        limit: the count's limit.
        timed_out: the time limit stopped a search before the count was settled (never ``unique``).
    """

    solutions: int
    exact: bool
    line_solvable: bool
    solve_seconds: float
    proof_seconds: float
    limit: int = 2
    timed_out: bool = False

    @property
    def unique(self) -> bool:
        """Proven to have exactly one solution."""
        return self.solutions == 1 and self.exact

    def label(self) -> str:
        """``"0"``, ``"1"``, ``"3"`` when exact, ``">= 2"`` when the limit (or the time, after two) stopped the
        count, ``"unknown (time limit)"`` when the time stopped it before a second solution."""
        if self.exact:
            return str(self.solutions)
        if self.timed_out and self.solutions < 2:
            return UNKNOWN
        return f">= {self.solutions}"

    def to_dict(self) -> dict[str, Any]:
        """The figures under the names ``info --truth --json`` and a suite's index use."""
        d = asdict(self)
        d = {"solutions": d["solutions"], "solutions_exact": d["exact"], "solutions_label": self.label(),
             "solutions_limit": d["limit"], "unique": self.unique, "line_solvable": d["line_solvable"],
             "solve_seconds": round(d["solve_seconds"], 4), "proof_seconds": round(d["proof_seconds"], 4),
             "timed_out": d["timed_out"]}
        return d


def check_truth_options(limit: int, time_limit: float | None) -> None:
    """Refuse a solution limit below 1 or a time limit that is not positive (``--truth-limit``, ``--truth-time``).

    Raises:
        SolverError: either value is out of range (checked before any work).
    """
    if limit < 1 or (time_limit is not None and not time_limit > 0):
        raise SolverError(f"--truth-limit must be at least 1 and --truth-time positive (not {limit}, {time_limit})")


def truth(puzzle: Puzzle, limit: int = 2, *, time_limit: float | None = None) -> Truth:
    """Count *puzzle*'s solutions up to *limit* with CP-SAT and run line logic on it.

    ``solve_seconds`` is the time to the first solution (a search with ``limit=1``), ``proof_seconds``
    the time of the count up to *limit* (with 2: the proof that there is no second solution).

    Raises:
        MissingDependency: ortools is not installed.
    """
    from ..errors import PuzzleError
    from ..logic.linesolve import line_solve

    _ortools()
    limit = max(1, int(limit))
    try:
        line = bool(line_solve(puzzle).solved)
    except PuzzleError:  # line logic proves there is no solution
        line = False
    start = time.perf_counter()
    try:
        solutions(puzzle, limit=1, time_limit=time_limit)
        first_ok = True
    except NoSolution:
        first_ok = False
    except TimeLimit:  # the time limit came first
        return Truth(0, False, line, time.perf_counter() - start, 0.0, limit, timed_out=True)
    solve = time.perf_counter() - start
    if not first_ok:
        return Truth(0, True, line, solve, 0.0, limit)
    start = time.perf_counter()
    try:
        found, exact = count_solutions(puzzle, limit, time_limit=time_limit)
    except TimeLimit:  # the count's own search did not find the first solution again in time
        found, exact = 1, False
    timed_out = not exact and found < limit
    return Truth(max(found, 1), exact, line, solve, time.perf_counter() - start, limit, timed_out)


def count_cut(found: int, exact: bool, limit: int) -> str | None:
    """What cut a count short: ``"limit"`` (the cap, ``--count``, was reached), ``"time limit"``, or None (exact).

    Examples:
        >>> count_cut(2, False, 2), count_cut(3, False, 5), count_cut(1, True, 2)
        ('limit', 'time limit', None)
    """
    if exact:
        return None
    return "limit" if found >= limit else "time limit"


def run(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """The solutions of *qubo*'s puzzle (one, or up to ``opts.count``) as samples of *qubo*."""
    puzzle = qubo.puzzle
    if puzzle is None:
        raise SolverError("the cpsat sampler solves the puzzle: this model carries no clues")
    limit = opts.count or 1
    stats: dict[str, Any] = {}
    grids, complete = solutions(puzzle, limit=limit, time_limit=opts.time_limit, workers=opts.workers, tick=tick,
                                stats=stats)
    geo = qubo.encoding.geometry_of(puzzle)  # the model's encoding: grid -> shifts -> its variables
    full = np.array([geo.encode(g) for g in grids], np.int8).reshape(len(grids), geo.num_vars)
    batch = _as_model(full, geo.labels(), qubo)
    batch.energies = np.zeros(len(grids), np.float64)
    batch.extra[SAMPLER_INFO] = {key: stats[key] for key in SOLVE_STATS}  # CP-SAT's own time (the run record's)
    if opts.count:
        batch.extra["count"] = {"solutions": len(grids), "exact": bool(complete), "limit": int(limit),
                                "cut": count_cut(len(grids), bool(complete), limit)}
    return batch


def _as_model(full: np.ndarray, labels: list[str], qubo: Qubo) -> SampleBatch:
    """Full-layout rows as samples of *qubo* (its variable order; fixed variables dropped)."""
    from ..samples import RawSamples, match

    raw = RawSamples(values=full, labels=labels, vartype="BINARY")
    return match(raw, list(qubo.labels), spin=False, fixed=dict(qubo.fixed), source="CP-SAT")
