"""Hard cores made by repair: a random picture changed, cell by cell, until its puzzle is a hard core.

A *hard core* is a puzzle with exactly one solution that one-cell probing does not settle
(:mod:`nonoqubo.logic.hardness`).  Random pictures almost never are one: the puzzles probing
leaves open are, at 10x10 to 25x25, the ones with several solutions (``benchmarks/README.md``),
so drawing until one passes (``suite --unique=hard`` before this module) waits in vain.  Repair
keeps the picture and removes its other solutions one at a time, keeping what probing cannot
settle:

1. draw a random picture (the member's seed, as every family member is drawn);
2. CP-SAT looks for two solutions of its puzzle (:func:`nonoqubo.solvers.cpsat.solutions`);
3. two found: the cells where they differ are where the clues are ambiguous.  Flip one of
   them in the picture (its row's and its column's clues change, and that second solution
   with them): of up to :data:`TRIES_PER_STEP` such cells in a random order (then as many
   anywhere), keep the first flip after which one-cell probing
   (:func:`nonoqubo.logic.probe.probe_solve` with ``variables=False``) still leaves at least
   ``min_open`` cells open, so every picture kept is still hard; when none does, start again
   from a new random picture (a *restart*); go to 2;
4. one found, and proven the only one: it leaves ``min_open`` cells open after one-cell
   probing (every picture kept does): it is the hard core, with its proof (a random start
   that is unique and too easy gets a random cell flipped: go to 2).  Probing the model's
   variables may settle more (its figures are the index's ``cells_open_after_variable_probing``
   and ``hardness``): measured on 20x20, it settles most such puzzles.

Each step is a CP-SAT count up to 2 and a few probings; :data:`MAX_STEPS` steps without a hard
core are an error that says how close the search came.  The result is the same on every machine
unless the time limit (``--truth-time``) stops a CP-SAT search (CP-SAT's enumeration runs on one
worker, deterministically).

Examples:
    >>> open_after_cell_probing(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))   # two solutions: all open
    4
    >>> open_after_cell_probing(Puzzle.from_picture([".##.", ".##.", "#..#"]))   # probing settles it
    0
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import NonoquboError, TimeLimit
from ..model.puzzle import Puzzle


__all__ = ["MAX_STEPS", "MAX_UNDECIDED", "TRIES_PER_STEP", "Repaired", "open_after_cell_probing", "repair",
           "repair_picture"]

#: CP-SAT counts (steps) before the repair of one member gives up
MAX_STEPS = 1500
#: cells tried per step where the two solutions differ, then as many anywhere, each followed by one-cell probing
TRIES_PER_STEP = 10
#: steps in a row whose CP-SAT count the time limit stopped before repair gives up
MAX_UNDECIDED = 10


@dataclass(frozen=True)
class Repaired:
    """A hard core made by :func:`repair`.

    Attributes:
        puzzle: the puzzle (its picture is its one solution).
        steps: CP-SAT counts made (the last one the proof).
        flips: cells of the first picture changed along the way (a cell may flip twice).
        open_cells: the cells one-cell probing leaves open (``cells_open_after_cell_probing``).
        proof: the uniqueness proof: CP-SAT's count up to ``limit`` 2 found ``count`` 1 with
            ``exact`` true (the search finished), in ``seconds``.
        undecided: steps whose CP-SAT count the time limit stopped (the picture was flipped at random).
        seconds: the whole repair's time.
        restarts: new random pictures started from, when no flip kept enough cells open.
    """

    puzzle: Puzzle
    steps: int
    flips: int
    open_cells: int
    proof: dict[str, Any] = field(default_factory=dict)
    undecided: int = 0
    seconds: float = 0.0
    restarts: int = 0

    def record(self) -> dict[str, Any]:
        """What a suite's index keeps of the repair (:data:`nonoqubo.campaign.suite.INDEX_REPAIR`)."""
        return {"uniqueness_proof": dict(self.proof), "repair_steps": self.steps, "repair_flips": self.flips,
                "repair_restarts": self.restarts, "repair_seconds": round(self.seconds, 3)}


def open_after_cell_probing(puzzle: Puzzle, at_least: int = 0) -> int:
    """The cells one-cell probing on line logic leaves open (the hardness label's
    ``cells_open_after_cell_probing``); a picture's puzzle is never contradictory.

    With *at_least*, probing stops as soon as fewer are open (and after line logic alone when it leaves
    fewer): the count is exact when it is at least *at_least*, and some number below it otherwise, which
    is all a repair step asks of a flip (profiled on member 0002 of the 20x20 family: nine tenths of a
    repair is this probing, and most flips tried leave too few open).
    """
    from ..logic.probe import probe_solve

    probed = probe_solve(puzzle, variables=False, stop_below=at_least)
    return probed.cells - probed.settled


def repair(height: int, width: int, density: float, seed: tuple[int, ...], *, min_open: int = 0,
           time_limit: float | None = None, name: str = "", source: str = "",
           step: Callable[[str], None] | None = None) -> Repaired:
    """Make a hard core by repair (the module docstring), from the random picture of *seed*: a
    family member's (:func:`nonoqubo.generation.families.draw` passes ``(seed, width, height, number)``),
    each cell black with probability *density*; at least *min_open* cells (1 when 0) open after
    one-cell probing.

    Args:
        time_limit: seconds for each CP-SAT count (None: no limit).
        name, source: the puzzle's.
        step: called after every step with one line of where the repair stands (``NAME: repair step
            K of 1500, R restarts, C cells open``): a suite shows it while a member is being repaired.

    Raises:
        NonoquboError: no hard core within :data:`MAX_STEPS` steps (the message says the most cells
            open in a unique puzzle it met, and what to change).
        TimeLimit: :data:`MAX_UNDECIDED` counts in a row stopped by *time_limit*.
        MissingDependency: ortools is not installed.
    """
    rng = np.random.default_rng(seed)
    grid = rng.random((height, width)) < density
    return repair_picture(grid, rng, min_open=min_open, time_limit=time_limit, name=name, source=source, step=step)


def repair_picture(grid: np.ndarray, rng: np.random.Generator, *, min_open: int = 0,
                   time_limit: float | None = None, name: str = "", source: str = "",
                   step: Callable[[str], None] | None = None) -> Repaired:
    """Repair the 0/1 picture *grid* (``(height, width)``, True black) into a hard core, drawing the
    cells to flip from *rng*; the puzzle is named *name* with *source*.  :func:`repair` without the
    family: the same steps, errors, result (``flips`` counted from *grid*) and *step* reports."""
    from ..solvers.cpsat import UNKNOWN, solutions

    start = time.perf_counter()
    target = max(1, int(min_open))
    height, width = grid.shape
    grid = np.asarray(grid, bool).copy()
    first = grid.copy()
    density = float(grid.mean()) if grid.size else 0.5
    restarts = 0

    def _fresh() -> np.ndarray:
        return rng.random((height, width)) < density

    open_now = None
    best_unique = 0
    undecided = in_a_row = 0

    def picture(g: np.ndarray) -> Puzzle:
        return Puzzle.from_picture(g, name=name or None, source=source or None)

    def flip_random(g: np.ndarray) -> np.ndarray:
        g = g.copy()
        i, j = int(rng.integers(height)), int(rng.integers(width))
        g[i, j] = ~g[i, j]
        return g

    def tell(k: int) -> None:
        if step is not None:
            where = f"{open_now} cells open" if open_now is not None else "a new picture"
            step(f"{name or 'the picture'}: repair step {k} of {MAX_STEPS}, {restarts} restarts, {where}")

    for k in range(1, MAX_STEPS + 1):
        tell(k)
        puzzle = picture(grid)
        stats: dict[str, Any] = {}
        try:
            found, exact = solutions(puzzle, limit=2, time_limit=time_limit, stats=stats)
        except TimeLimit:
            found, exact = [], False
        if len(found) < 2 and not exact:  # the time limit stopped the count: neither proven nor refuted
            undecided += 1
            in_a_row += 1
            if in_a_row >= MAX_UNDECIDED:
                raise TimeLimit(f"{name or 'the picture'}: uniqueness {UNKNOWN}: CP-SAT did not finish the count of "
                                f"{in_a_row} repaired pictures in a row within {time_limit:g} s each "
                                "(raise --truth-time)")
            grid, open_now = flip_random(grid), None
            continue
        in_a_row = 0
        if len(found) == 1:  # proven unique: a hard core when probing leaves enough open
            open_now = open_after_cell_probing(puzzle) if open_now is None else open_now
            best_unique = max(best_unique, open_now)
            if open_now >= target:
                proof = {"solver": "CP-SAT", "limit": 2, "count": 1, "exact": True,
                         "seconds": round(float(stats.get("solve_seconds", 0.0)), 4)}
                if step is not None:
                    step(f"{name or 'the picture'}: made in {k} repair steps")
                return Repaired(puzzle, k, int(np.count_nonzero(grid != first)), open_now, proof, undecided,
                                time.perf_counter() - start, restarts)
            grid, open_now = flip_random(grid), None  # too easy (a random start): move away
            continue
        differ = np.argwhere(found[0] != found[1])
        rng.shuffle(differ)
        anywhere = np.argwhere(np.ones_like(grid))
        rng.shuffle(anywhere)
        for i, j in [*differ[:TRIES_PER_STEP], *anywhere[:TRIES_PER_STEP]]:  # where they differ first
            trial = grid.copy()
            trial[i, j] = ~trial[i, j]
            left = open_after_cell_probing(picture(trial), target)
            if left >= target:  # the invariant: every picture kept leaves >= target cells open
                grid, open_now = trial, left
                break
        else:  # no flip keeps enough open: start again from a new random picture
            restarts += 1
            grid, open_now = _fresh(), None
    raise NonoquboError(
        f"{name or 'the picture'}: no hard core (unique by CP-SAT, >= {target} cells open after one-cell probing) "
        f"after {MAX_STEPS} repair steps; the unique puzzles met had at most {best_unique} "
        "cells open: hard cores are rarer at small sizes, so try a larger size, a lower --min-open or another "
        "seed")
