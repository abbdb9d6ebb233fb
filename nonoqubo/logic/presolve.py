"""Presolve: fix the variables that line logic decides, before export (either encoding).

An annealer has a few thousand qubits; every variable fixed before export is
one the solver does not have to get right.  :func:`~nonoqubo.logic.linesolve.line_solve`
settles the cells that every solution shares and, for every block ``k``, the
smallest and largest start of any placement of its line that fits the settled
cells.  Every solution therefore shifts block ``k`` by an amount in
``[lo, hi]`` (its start minus its left-aligned start ``e_k``), and since
``w[k][p] = 1`` exactly when the shift exceeds ``p``::

    w[k][p] = 1   for p <  lo      (every solution shifts the block further)
    w[k][p] = 0   for p >= hi      (no solution shifts it that far)

and in the one-hot encoding (``x[k][s] = 1`` exactly when the shift is ``s``)::

    x[k][s] = 0   for s < lo or s > hi     (a shift no solution takes)
    x[k][s] = 1   for s = lo = hi          (the one shift every solution takes)

Only values shared by every solution are fixed, so the reduced QUBO
(:meth:`Qubo.fix <nonoqubo.model.qubo.Qubo.fix>`: terms with one fixed variable move
into the linear part, with two into the offset) still has minimum 0, reached
exactly at the solutions, one state per solution.  A line-solvable puzzle
reduces to zero variables: its offset is 0 and the empty sample, completed with
the fixed values, is the solution.  The reduced model records the fixed
variables (``qubo.fixed``), so a sample of it can be completed
(:func:`complete`) and decoded.

Two presolves (:data:`PRESOLVES`) make those bounds: ``"line"`` (the default) is line logic
alone; ``"probe"`` is one-cell probing on top of it (:func:`nonoqubo.logic.probe.probe_solve`),
whose bounds are line logic's on the probed grid, so it fixes every variable line logic fixes
and more where line logic stalls.  :func:`logic_result` runs the one named.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> p = Puzzle(rows=[[1], [1]], cols=[[1], [1]])       # two solutions
    >>> presolve_qubo(p).num_vars, fixings(p)
    (4, {})
    >>> q = presolve_qubo(Puzzle.from_picture(["#.", "##"]))  # line-solvable
    >>> q.num_vars, q.offset, q.fixed
    (0, 0, {'y0[0][0]': 0, 'z1[0][0]': 1})
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..model.encoding import Completion, Layout
from ..model.encodings import DEFAULT, EncodingLike, geometry_of
from ..errors import NonoquboError, SampleError
from .linesolve import LineSolveResult, line_solve
from .probe import ProbeResult, probe_solve
from ..model.puzzle import Puzzle

if TYPE_CHECKING:
    from ..model.qubo import Qubo

__all__ = ["DEFAULT_PRESOLVE", "PRESOLVES", "LogicResult", "check_presolve", "complete", "fixed_values", "fixings",
           "logic_result", "presolve_qubo", "shift_bounds"]

INT = np.int64

#: the presolves, by the name ``--presolve`` and the files' ``presolve`` metadata give them
PRESOLVES = ("line", "probe")
DEFAULT_PRESOLVE = "line"
#: what a presolve settles: line logic's result, or probing's (which carries line logic's on the probed grid)
LogicResult = LineSolveResult | ProbeResult


def check_presolve(method: str) -> str:
    """*method* when it names a presolve of :data:`PRESOLVES`.

    Raises:
        NonoquboError: any other name, in one line.

    Examples:
        >>> check_presolve("probe")
        'probe'
        >>> check_presolve("guess")
        Traceback (most recent call last):
        ...
        nonoqubo.errors.NonoquboError: unknown presolve 'guess' (known: line, probe)
    """
    if method not in PRESOLVES:
        raise NonoquboError(f"unknown presolve {method!r} (known: {', '.join(PRESOLVES)})")
    return method


def logic_result(puzzle: Puzzle, method: str = DEFAULT_PRESOLVE) -> LogicResult:
    """What presolve *method* settles of *puzzle*: :func:`line_solve`, or :func:`probe_solve` for ``"probe"``.

    Raises:
        PuzzleError: the presolve proves the puzzle has no solution.
        NonoquboError: an unknown *method*.
    """
    return probe_solve(puzzle) if check_presolve(method) == "probe" else line_solve(puzzle)


def shift_bounds(puzzle: Puzzle, result: LogicResult | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Bounds ``lo <= shift <= hi`` of every block in every solution (Layout block order).

    Args:
        puzzle: the puzzle.
        result: its :func:`line_solve` (or :func:`probe_solve`) result, when already computed.

    Returns:
        Two int64 arrays of length ``num_blocks``; ``0 <= lo <= hi <= d``.

    Raises:
        PuzzleError: line logic finds a contradiction (no solution).

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> lo, hi = shift_bounds(Puzzle(rows=[[3], [1]], cols=[[1], [2], [1]]))
        >>> lo.tolist(), hi.tolist()
        ([0, 1, 0, 0, 0], [0, 1, 0, 0, 0])
    """
    res = result if result is not None else line_solve(puzzle)
    return res.shift_lo.copy(), res.shift_hi.copy()


def fixed_values(puzzle: Puzzle, result: LogicResult | None = None,
                 layout: Layout | None = None, encoding: EncodingLike = DEFAULT,
                 method: str = DEFAULT_PRESOLVE) -> np.ndarray:
    """The value presolve fixes for every variable of *encoding* (-1 where it fixes none), in variable order.

    *result* is what the presolve settled (made by :func:`logic_result` with *method* when None).

    Vectorised: the domain wall's ``1`` where ``p < lo`` of the variable's block, ``0`` where
    ``p >= hi`` (:meth:`~nonoqubo.model.geometry.Geometry.fixed_by_bounds`; one-hot's rule above).
    """
    lo, hi = shift_bounds(puzzle, result if result is not None else logic_result(puzzle, method))
    return geometry_of(puzzle, layout, encoding).fixed_by_bounds(lo, hi)


def fixings(puzzle: Puzzle, result: LogicResult | None = None, encoding: EncodingLike = DEFAULT,
            method: str = DEFAULT_PRESOLVE) -> dict[str, int]:
    """``{label: value}`` of every variable of *encoding* (default the domain wall) presolve decides.

    Args:
        puzzle: the puzzle.
        result: its :func:`line_solve` (or :func:`probe_solve`) result, when already computed.
        encoding: the encoding whose variables are fixed.
        method: the presolve that makes *result* when it is None (:data:`PRESOLVES`).

    Raises:
        PuzzleError: line logic finds a contradiction (no solution).

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> fixings(Puzzle.from_picture(["#.", "##"]))
        {'y0[0][0]': 0, 'z1[0][0]': 1}
    """
    geo = geometry_of(puzzle, encoding=encoding)
    values = fixed_values(puzzle, result, geo.layout, encoding, method)
    idx = np.flatnonzero(values >= 0)
    if idx.size == 0:
        return {}
    labels = geo.labels()
    return dict(zip(map(labels.__getitem__, idx.tolist()), values[idx].tolist()))


def presolve_qubo(puzzle: Puzzle, qubo: Qubo | None = None, method: str = DEFAULT_PRESOLVE) -> Qubo:
    """The QUBO of *puzzle* with every variable presolve *method* decides substituted and removed.

    Args:
        puzzle: the puzzle.
        qubo: its full QUBO (``build(puzzle)``), or a model already partly fixed
            from it; built when None.
        method: ``"line"`` (line logic) or ``"probe"`` (probing on top of it).

    Returns:
        ``qubo.fix(fixings)``: fewer variables, the same minimum 0 at exactly the
        solutions, labels kept, ``.fixed`` holding every fixed label and value.

    Raises:
        PuzzleError: line logic finds a contradiction (the puzzle has no solution).
        SampleError: *qubo* is not a model of *puzzle* (a label it lacks, or a
            variable it already fixed to the other value).

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> q = presolve_qubo(Puzzle.from_picture(["#.", "##"]))
        >>> q.num_vars, q.num_terms, q.offset, int(q.energy([[]])[0])
        (0, 0, 0, 0)
    """
    if qubo is None:
        from ..model.build import build

        qubo = build(puzzle)
    encoding = getattr(qubo, "encoding", DEFAULT)
    if (not qubo.fixed and qubo.puzzle is not None and qubo.num_vars == _num_vars(puzzle, encoding)
            and qubo.puzzle == puzzle):
        # the full model of this puzzle (variables in layout order): fix by index, no label look-up
        values = fixed_values(puzzle, encoding=encoding, method=method)
        at = np.flatnonzero(values >= 0)
        return qubo._fix_arrays(at, values[at].astype(INT))
    fix = fixings(puzzle, encoding=encoding, method=method)
    if qubo.fixed:
        for label, value in qubo.fixed.items():
            if label in fix and fix[label] != int(value):
                raise SampleError(
                    f"the model fixes {label} to {value} but {'probing' if method == 'probe' else 'line logic'} proves it "
                    f"is {fix[label]}"
                )
        fix = {label: v for label, v in fix.items() if label not in qubo.fixed}
    return qubo.fix(fix)


def _num_vars(puzzle: Puzzle, encoding: EncodingLike = DEFAULT) -> int:
    return geometry_of(puzzle, encoding=encoding).num_vars


def complete(reduced: Qubo, samples: np.ndarray, layout: Layout | None = None) -> np.ndarray:
    """Full assignments (the puzzle's variable order) from samples of a reduced model.

    Args:
        reduced: a model whose ``labels`` and ``fixed`` together cover every
            variable of its puzzle (``reduced.puzzle`` or *layout* must be given).
        samples: ``(S, reduced.num_vars)`` 0/1 in ``reduced.labels`` order.
        layout: the puzzle's layout (taken from ``reduced.puzzle`` when None).

    Returns:
        ``(S, num_vars)`` int8 array.

    Raises:
        SampleError: a sample of the wrong length, or a variable neither in the
            model nor fixed.

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> q = presolve_qubo(Puzzle.from_picture(["#.", "##"]))
        >>> q.labels, complete(q, [[]]).tolist()
        ([], [[0, 1]])
    """
    if layout is None:
        if reduced.puzzle is None:
            raise SampleError("cannot complete samples of a model that does not carry its puzzle")
        layout = Layout.of(reduced.puzzle)
    full_labels = geometry_of(layout=layout, puzzle=reduced.puzzle,
                              encoding=getattr(reduced, "encoding", DEFAULT)).labels()
    x = np.asarray(samples, dtype=np.int8)
    if x.ndim == 1:
        x = x[None, :] if reduced.num_vars or x.size else x.reshape(1, 0)
    if x.shape[1] != reduced.num_vars:
        raise SampleError(f"a sample must have {reduced.num_vars} values, got {x.shape[1]}")
    completion = Completion.of(full_labels, list(reduced.labels), reduced.fixed)
    completion.check(unknown="{label!r} is not a variable of the model's puzzle",
                     unknown_fixed="{label!r} is not a variable of the model's puzzle",
                     missing="the model has neither a variable nor a fixed value for {label!r}")
    return completion.fill(x, copy=True)
