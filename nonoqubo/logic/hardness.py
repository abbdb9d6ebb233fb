"""How hard a puzzle is for a solver that reasons before it searches: its hardness label.

An annealing benchmark on an instance that a deduction settles measures nothing: a
presolve hands the annealer an empty model.  The label says how far deduction goes:

``line-solvable``
    line logic alone settles every cell (:func:`~nonoqubo.logic.linesolve.line_solve`);
``probe-solvable``
    line logic stalls, one-cell probing on top of it settles every cell
    (:func:`~nonoqubo.logic.probe.probe_solve`);
``needs-search``
    probing stalls too: the cells left open are a *hard core*, where a solver (or an
    annealer) has real work to do.  A puzzle with several solutions is always here;
    beside CP-SAT's count (``--truth``) the label says whether a unique puzzle is hard;
``no-solution``
    line logic or probing proves that the clues have no solution.

With the label go the model's variables (in the chosen encoding) before presolve, after
line logic's fixings and after probing's, the cells each settles and probing's rounds, and the
two counts that say how big the hard core is, each under its own name because they differ
(on one tournament 25x25, 171 cells against 69):

``cells_open_after_cell_probing``
    the cells one-cell probing leaves open: line logic, then every open cell tried in each
    colour with line logic, to a fixpoint (the lookahead the computer-tournament solvers make
    before they branch): the size of the hard core as the tournaments measure it, the figure
    ``suite --unique=hard --min-open N`` asks to be at least N;
``variables_after_probe`` (and ``cells_open_after_variable_probing``)
    the model's variables (cells) nonoqubo's probing leaves open: one-cell probing, then the
    domain wall's variables ("block b starts at or after cell j") probed both ways, repeated
    while either learns (:func:`~nonoqubo.logic.probe.probe_solve`); what ``--presolve probe``
    hands a sampler.  It settles at least as much as one-cell probing, often more.

A **hard core** (``suite --unique=hard``) is a puzzle with exactly one solution (CP-SAT's
proof) that one-cell probing does not settle (``cells_open_after_cell_probing`` above zero):
the tournament solvers must search it.  Its label may still be ``probe-solvable`` when probing
the model's variables settles it (``cells_open_after_variable_probing`` 0): ``--presolve probe``
then leaves a sampler nothing, so an annealing study reads both counts.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> h = hardness(Puzzle.from_picture([".##.", ".##.", "#..#"]))
    >>> h.label, h.variables, h.variables_after_line, h.variables_after_probe
    ('probe-solvable', 12, 10, 0)
    >>> h.cells_open_after_cell_probing, h.cells_open_after_variable_probing
    (0, 0)
    >>> hardness(Puzzle(rows=[[1], [1]], cols=[[1], [1]])).label
    'needs-search'
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..errors import PuzzleError
from ..model.encodings import DEFAULT, EncodingLike, geometry_of
from ..model.puzzle import Puzzle
from .linesolve import line_solve
from .probe import ProbeResult, probe_solve

__all__ = ["LABELS", "Hardness", "hardness"]

#: the labels, from the easiest
LABELS = ("line-solvable", "probe-solvable", "needs-search", "no-solution")


@dataclass(frozen=True)
class Hardness:
    """A puzzle's hardness label and the figures behind it (None where a contradiction stopped the work).

    Attributes:
        hardness: one of :data:`LABELS`.
        variables: the model's variables before presolve.
        variables_after_line, variables_after_probe: those left once line logic's (probing's)
            fixings are made.
        cells, settled_by_line, settled_by_probe: the grid's cells and those settled.
        probe_rounds: probing's rounds (0: line logic settled everything).
        hardness_seconds: the time line logic and probing took together.
        cells_open_after_cell_probing: the cells one-cell probing (on line logic, to its
            fixpoint) leaves open: the hard core's size in cells.
        cells_open_after_variable_probing: the cells nonoqubo's probing (cells, then the
            model's variables) leaves open (``cells - settled_by_probe``).
    """

    hardness: str
    variables: int
    variables_after_line: int | None
    variables_after_probe: int | None
    cells: int
    settled_by_line: int | None
    settled_by_probe: int | None
    probe_rounds: int | None
    hardness_seconds: float
    cells_open_after_cell_probing: int | None = None
    cells_open_after_variable_probing: int | None = None

    @property
    def label(self) -> str:
        """The hardness label (:attr:`hardness`)."""
        return self.hardness

    def to_dict(self) -> dict[str, Any]:
        """The figures as JSON-able values (``info --json``'s ``truth`` object, a suite's index)."""
        out = asdict(self)
        out["hardness_seconds"] = round(self.hardness_seconds, 4)
        return out


def hardness(puzzle: Puzzle, encoding: EncodingLike = DEFAULT, probed: ProbeResult | None = None) -> Hardness:
    """Line logic, then probing, on *puzzle*: the label and the variables of *encoding* left after each.

    *probed* is probing's result when it was made already (a presolve with probing): it is not
    made again (made with ``variables=False``, its "after variable probing" figures are cell
    probing's).  Never raises for a puzzle without a solution: that is the label ``no-solution``.
    """
    start = time.perf_counter()
    geo = geometry_of(puzzle, encoding=encoding)
    cells = puzzle.width * puzzle.height

    def left(result: Any) -> int:
        return int(np.count_nonzero(geo.fixed_by_bounds(result.shift_lo, result.shift_hi) < 0))

    try:
        line = line_solve(puzzle) if probed is None else probed.before
    except PuzzleError:
        return Hardness("no-solution", geo.num_vars, None, None, cells, None, None, None, time.perf_counter() - start)
    after_line = left(line)
    if line.solved:
        return Hardness("line-solvable", geo.num_vars, after_line, after_line, cells, line.settled, line.settled, 0,
                        time.perf_counter() - start, 0, 0)
    try:
        probed = probe_solve(puzzle, line) if probed is None else probed
    except PuzzleError:
        return Hardness("no-solution", geo.num_vars, after_line, None, cells, line.settled, None, None,
                        time.perf_counter() - start)
    by_cells = probed.settled if probed.cell_settled is None else probed.cell_settled
    return Hardness("probe-solvable" if probed.solved else "needs-search", geo.num_vars, after_line, left(probed),
                    cells, line.settled, probed.settled, probed.rounds, time.perf_counter() - start,
                    cells - by_cells, cells - probed.settled)
