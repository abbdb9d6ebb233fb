"""Probing: try every open cell both ways with line logic, keep what no solution can avoid, to a fixpoint.

Line logic (:mod:`nonoqubo.logic.linesolve`) looks at one line at a time and stalls on
puzzles whose deductions need two lines at once.  *Probing* (one-cell lookahead, as the
computer-tournament solvers do before they branch) takes each cell that is still open and,
for every colour it may take, sets it to that colour and lets line logic propagate:

* a branch that reaches a contradiction (a line with no placement) is impossible, so the
  cell takes one of its other colours;
* every cell gets, at most, the colours some surviving branch leaves it: when both branches
  of a black-and-white cell settle another cell the same way, every solution has it.

Both rules are one operation on the colour masks: the new mask of the grid is the OR of
the surviving branches' masks, and since every probed cell gives such a bound, the AND of
those ORs over the probed cells.  After each batch of probes line logic runs again on what
was learnt, and rounds over every open cell repeat until a whole round learns nothing.
Everything settled holds in every solution, so it can be fixed before export exactly as line
logic's cells are (:func:`nonoqubo.logic.presolve.fixings` with ``method="probe"``).

The probes of a batch run side by side: each is a copy of the grid's masks, and every step
solves the dirty rows (then the dirty columns) of *all* copies in one vectorised call of
:func:`~nonoqubo.logic.linesolve.solve_masks`, so the Python loop runs over propagation steps,
never over cells or probes.  A batch holds as many copies as :data:`BATCH_BYTES` allows.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> p = Puzzle.from_picture([".##.", ".##.", "#..#"])   # line logic settles 4 of 12 cells...
    >>> line_solve(p).settled
    4
    >>> r = probe_solve(p)                                  # ...probing settles them all
    >>> r.solved, r.line_settled, r.settled, r.rounds, r.grid.tolist()
    (True, 4, 12, 1, [[0, 1, 1, 0], [0, 1, 1, 0], [1, 0, 0, 1]])
    >>> probe_solve(Puzzle(rows=[[1], [1]], cols=[[1], [1]])).settled   # two solutions: nothing to settle
    0
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..errors import PuzzleError
from ..model.encoding import Layout
from ..model.puzzle import Puzzle
from .linesolve import LineSolveResult, clue_tables, line_solve, solve_masks

__all__ = ["BATCH_BYTES", "ProbeResult", "probe_solve", "propagate"]

#: the working memory one batch of probes may take (its copies and line logic's tables), in bytes
BATCH_BYTES = 48 * 2**20


@dataclass(frozen=True, eq=False)
class ProbeResult:
    """What probing settles, on top of line logic.

    Attributes:
        line: line logic's result on the probed grid (its ``grid``, ``possible`` and the block
            bounds ``shift_lo``/``shift_hi`` that presolve turns into fixings).
        line_settled: the cells line logic alone settles (before any probe).
        rounds: passes over the open cells (the last one learnt nothing, unless every cell
            was settled first); 0 when line logic settles the puzzle.
        probes: branches tried (a cell set to one colour and propagated).
        contradictions: branches that ended in a contradiction.
        seconds: the time probing took (line logic's first pass included).
        before: line logic's result before any probe.
    """

    line: LineSolveResult
    line_settled: int
    rounds: int
    probes: int
    contradictions: int
    seconds: float
    before: LineSolveResult

    @property
    def grid(self) -> np.ndarray:
        """``(height, width)`` int8: -1 open, else the cell's colour."""
        return self.line.grid

    @property
    def possible(self) -> np.ndarray | None:
        """The colours each cell may still take, as bit masks."""
        return self.line.possible

    @property
    def settled(self) -> int:
        """Cells settled by line logic and probing together."""
        return self.line.settled

    @property
    def solved(self) -> bool:
        """Every cell settled: the puzzle is probe-solvable (and so has exactly one solution)."""
        return self.line.solved

    @property
    def cells(self) -> int:
        """Cells in the grid."""
        return self.line.cells

    @property
    def fraction(self) -> float:
        """Share of the grid settled, 0 .. 1."""
        return self.line.fraction

    @property
    def iterations(self) -> int:
        """Line logic's passes on the probed grid (as :attr:`LineSolveResult.iterations`)."""
        return self.line.iterations

    @property
    def shift_lo(self) -> np.ndarray:
        """Per block, the least shift any solution gives it."""
        return self.line.shift_lo

    @property
    def shift_hi(self) -> np.ndarray:
        """Per block, the largest shift any solution gives it."""
        return self.line.shift_hi


def _popcount(mask: np.ndarray) -> np.ndarray:
    """Set bits of every mask (the colours a cell may still take)."""
    m = mask.astype(np.uint64)
    count = np.zeros(m.shape, np.int64)
    while m.any():
        count += (m & np.uint64(1)).astype(np.int64)
        m >>= np.uint64(1)
    return count


def _distinct_rows(line: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first, back)``: one index per distinct pair of *line* number and *masks* row, and for every
    row the distinct one it equals (``rows[first][back] == rows``)."""
    raw = np.ascontiguousarray(masks).view(np.uint8).reshape(masks.shape[0], -1)
    keyed = np.ascontiguousarray(np.column_stack([line.astype("<u4").view(np.uint8).reshape(-1, 4), raw]))
    keys = keyed.view(np.dtype((np.void, keyed.shape[1]))).reshape(-1)
    _, first, back = np.unique(keys, return_index=True, return_inverse=True)
    return first, back.reshape(-1)


def propagate(mask: np.ndarray, dirty_rows: np.ndarray, dirty_cols: np.ndarray,
              tables: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """Line logic to a fixpoint on a stack of grids at once; *mask* is narrowed in place.

    Args:
        mask: ``(P, height, width)`` colour masks of P grids (copies of one puzzle).
        dirty_rows, dirty_cols: ``(P, height)`` and ``(P, width)`` bools, the lines to solve
            first (cleared as they are solved; a line whose cells change marks the crossing lines).
        tables: :func:`~nonoqubo.logic.linesolve.clue_tables` of the puzzle's layout.

    Returns:
        ``(P,)`` bools: the grids line logic found no contradiction in (a grid with one is
        left as it was when its line failed).

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> p = Puzzle.from_picture(["#.", ".#"])
        >>> masks = np.full((2, 2, 2), 3, np.uint8)
        >>> masks[0, 0, 0], masks[1, 0, 0] = 2, 1             # copy 0: cell black; copy 1: white
        >>> alive = propagate(masks, np.ones((2, 2), bool), np.ones((2, 2), bool), clue_tables(Layout.of(p)))
        >>> alive.tolist(), masks[0].tolist(), masks[1].tolist()
        ([True, True], [[2, 1], [1, 2]], [[1, 2], [2, 1]])
    """
    clue, colour, counts = tables
    copies, h, _ = mask.shape
    alive = np.ones(copies, bool)
    dirty = [dirty_rows, dirty_cols]
    side = 0
    while dirty[0].any() or dirty[1].any():
        if dirty[side].any():
            view = mask if side == 0 else mask.transpose(0, 2, 1)
            which, lines = np.nonzero(dirty[side])
            dirty[side][:] = False
            lines_at = lines + (0 if side == 0 else h)
            n_blocks = counts[lines_at]
            # lines grouped by clue length (at most 2x padding), as line_solve groups them
            bucket = np.where(n_blocks > 0, np.ceil(np.log2(np.maximum(n_blocks, 1))).astype(np.int64) + 1, 0)
            for b in np.unique(bucket):
                at = np.flatnonzero(bucket == b)
                cp, ln, ln_at = which[at], lines[at], lines_at[at]
                width = max(int(counts[ln_at].max()), 1)
                before = view[cp, ln]
                # copies share most of their lines: each distinct (line, masks) is solved once
                first, back = _distinct_rows(ln_at, before)
                u = ln_at[first]
                solved, fits, _, _ = solve_masks(before[first], clue[u, :width], colour[u, :width], counts[u])
                after, ok = solved[back], fits[back]
                alive[cp[~ok]] = False
                changed = (after != before) & ok[:, None]
                view[cp, ln] = after
                hit_line, hit_cell = np.nonzero(changed)
                dirty[1 - side][cp[hit_line], hit_cell] = True
            dirty[0][~alive] = False
            dirty[1][~alive] = False
        side = 1 - side
    return alive


def _cell_name(puzzle: Puzzle, cell: int) -> str:
    i, j = divmod(cell, puzzle.width)
    return f"row {i}, column {j}"


def _batch_cells(puzzle: Puzzle, tables: tuple[np.ndarray, np.ndarray, np.ndarray], colours: int) -> int:
    """How many cells' probes fit in one batch of :data:`BATCH_BYTES` (at least one)."""
    n = max(puzzle.width, puzzle.height)
    blocks = int(tables[2].max(initial=0)) + 1
    # per copy: its masks, and line logic's tables when every line of it is dirty at once
    per_copy = puzzle.height * puzzle.width * 8 + 6 * blocks * n * (n + 1)
    return max(1, BATCH_BYTES // (per_copy * (colours + 1)))


def probe_solve(puzzle: Puzzle, line: LineSolveResult | None = None, *, max_rounds: int | None = None) -> ProbeResult:
    """Settle every cell one-cell probing on top of line logic settles, to a fixpoint.

    Args:
        puzzle: the puzzle (black and white or colour).
        line: its :func:`~nonoqubo.logic.linesolve.line_solve` result, when already computed.
        max_rounds: stop after this many rounds (None: until a round learns nothing).

    Returns:
        The probed grid with line logic's block bounds on it, and the counts.

    Raises:
        PuzzleError: every colour of some cell leads to a contradiction, or line logic finds
            one: the puzzle has no solution.

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> r = probe_solve(Puzzle.from_picture(["#.", "##"]))   # line-solvable: no probe needed
        >>> r.solved, r.rounds, r.probes
        (True, 0, 0)
    """
    start = time.perf_counter()
    base = line if line is not None else line_solve(puzzle)
    assert base.possible is not None
    mask = base.possible.copy()
    h, w = puzzle.height, puzzle.width
    tables = clue_tables(Layout.of(puzzle))
    per_batch = _batch_cells(puzzle, tables, puzzle.num_colours)
    rounds = probes = contradictions = 0
    while max_rounds is None or rounds < max_rounds:
        open_cells = np.flatnonzero(_popcount(mask).reshape(-1) > 1)
        if open_cells.size == 0:
            break
        rounds += 1
        learnt = False
        for first in range(0, open_cells.size, per_batch):
            cells = open_cells[first:first + per_batch]
            flat = mask.reshape(-1)
            cells = cells[_popcount(flat[cells]) > 1]  # settled by an earlier batch of this round
            if cells.size == 0:
                continue
            # one branch per (cell, colour it may take), grouped by cell
            bits = (flat[cells][:, None].astype(np.uint64) >> np.arange(puzzle.num_colours + 1, dtype=np.uint64)) & 1
            cell_of, bit = np.nonzero(bits)
            n = cell_of.size
            copies = np.broadcast_to(mask, (n, h, w)).copy()
            i, j = np.divmod(cells[cell_of], w)
            copies[np.arange(n), i, j] = np.left_shift(1, bit).astype(mask.dtype)
            dirty_rows = np.zeros((n, h), bool)
            dirty_cols = np.zeros((n, w), bool)
            dirty_rows[np.arange(n), i] = True
            dirty_cols[np.arange(n), j] = True
            alive = propagate(copies, dirty_rows, dirty_cols, tables)
            probes += n
            contradictions += int(np.count_nonzero(~alive))
            copies[~alive] = 0
            group = np.flatnonzero(np.r_[True, cell_of[1:] != cell_of[:-1]])
            survivors = np.add.reduceat(alive.astype(np.int64), group)
            if (survivors == 0).any():
                cell = int(cells[cell_of[group[np.flatnonzero(survivors == 0)[0]]]])
                raise PuzzleError(f"probing: every colour of the cell at {_cell_name(puzzle, cell)} leads to a "
                                  "contradiction: the puzzle has no solution")
            bound = np.bitwise_and.reduce(np.bitwise_or.reduceat(copies, group, axis=0), axis=0)
            narrowed = mask & bound
            changed = narrowed != mask
            if changed.any():
                learnt = True
                state = narrowed[None].copy()
                if not propagate(state, changed.any(axis=1)[None], changed.any(axis=0)[None], tables)[0]:
                    raise PuzzleError("probing: line logic finds a contradiction in what probing settled: the "
                                      "puzzle has no solution")
                mask = state[0]
        if not learnt:
            break
    # the probed masks are at line logic's fixpoint: this pass only reads the block bounds off them
    final = line_solve(puzzle, possible=mask) if rounds else base
    return ProbeResult(final, base.settled, rounds, probes, contradictions, time.perf_counter() - start, base)
