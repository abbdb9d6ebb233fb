"""Line logic: the cells every placement of a line's clue agrees on, to a fixpoint.

A *placement* of a clue ``r_0 ... r_{m-1}`` in a line of ``n`` cells puts block
``k`` at a start ``s_k`` with ``s_{k+1} >= s_k + r_k + 1``; it *fits* the cells
known so far when every known black cell is covered and no known white one is.
The line solver finds, for every line, exactly the cells on which all fitting
placements agree, writes them into the grid, and repeats over rows and
columns, re-solving only the lines whose cells changed, until nothing changes.
Every cell it settles holds that value in every solution of the puzzle.

The dynamic programme runs over blocks, vectorised over positions and over a
whole batch of lines (all dirty rows, or all dirty columns, grouped by clue
length), so there is no Python loop per cell:

* ``A_k[s]``, block ``k`` may start at ``s`` as far as blocks ``0 .. k`` and the
  cells up to ``s + r_k`` are concerned: cells ``s .. s+r_k-1`` may be black,
  cell ``s + r_k`` (if any) may be white, and some ``A_{k-1}[s']`` with
  ``s' + r_{k-1} + 1 <= s`` leaves no known black cell uncovered in between.
  "Some such ``s'``" is the running maximum of the feasible ``s'``, read at
  ``s - r_{k-1} - 1``;
* the same table for the reversed line and reversed clue gives the blocks
  ``k .. m-1`` seen from the right; a start is *feasible* when both agree;
* a cell may be black when a feasible start of some block covers it, and may be
  white when, for some ``k``, blocks ``0 .. k-1`` fit strictly to its left and
  blocks ``k .. m-1`` strictly to its right with no known black cell left over.

The smallest and largest feasible start of every block, minus its left-aligned
start ``e_k``, bound its shift in every solution: the domain-wall variables
outside those bounds are fixed by :mod:`nonoqubo.presolve`.

Examples:
    >>> from nonoqubo.puzzle import Puzzle
    >>> res = line_solve(Puzzle.from_picture(["###.", "#..#", "#.##"]))
    >>> res.solved, res.settled
    (True, 12)
    >>> res.grid.tolist()
    [[1, 1, 1, 0], [1, 0, 0, 1], [1, 0, 1, 1]]
    >>> line_solve(Puzzle(rows=[[1], [1]], cols=[[1], [1]])).settled
    0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .encoding import Layout
from .errors import PuzzleError
from .puzzle import Puzzle

__all__ = ["LineSolveResult", "line_solve", "solve_lines"]

INT = np.int64
#: dtype of positions within a line (halves the memory traffic of int64)
POS = np.int32
UNKNOWN, WHITE, BLACK = -1, 0, 1


@dataclass(frozen=True, eq=False)
class LineSolveResult:
    """What line logic settles.

    Attributes:
        grid: ``(height, width)`` int8 array: -1 unknown, 0 white, 1 black.
        solved: every cell settled (the puzzle is line-solvable).
        settled: number of settled cells.
        iterations: passes over a batch of rows or of columns.
        line_solves: single-line solves done (a line is re-solved only when its cells changed).
        first_start: per block (Layout order: rows' blocks, then columns'), the
            smallest start cell of any placement that fits the final grid.
        last_start: per block, the largest such start cell.
        shift_lo, shift_hi: ``first_start - e_k`` and ``last_start - e_k``: every
            solution shifts block ``k`` by an amount in ``[shift_lo, shift_hi]``.
    """

    grid: np.ndarray
    solved: bool
    settled: int
    iterations: int
    line_solves: int
    first_start: np.ndarray
    last_start: np.ndarray
    shift_lo: np.ndarray
    shift_hi: np.ndarray

    @property
    def cells(self) -> int:
        """Cells in the grid."""
        return int(self.grid.size)

    @property
    def fraction(self) -> float:
        """Share of the grid settled, 0 .. 1."""
        return self.settled / self.cells if self.cells else 1.0


def _left_tables(black: np.ndarray, white: np.ndarray, clue: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Left-to-right tables of a batch of lines of equal length, indexed by block *end*.

    Args:
        black, white: ``(L, n)`` known black / known white cells.
        clue: ``(L, M)`` block lengths, padded with 1 beyond each line's clue.

    Returns:
        ``E`` ``(M, L, n+1)``: block ``k`` may end at ``e`` (cells ``e-r_k .. e-1``
        black, cell ``e`` white or past the end) with blocks ``0..k-1`` fitting
        before it; ``W`` ``(M+1, L, n)``: blocks ``0..k-1`` fit strictly left of
        cell ``j``, leaving cell ``j`` and every cell from their end up to ``j`` white.
    """
    n_lines, n = black.shape
    m_max = clue.shape[1]
    pos = np.arange(n + 1, dtype=POS)
    # last known black cell strictly before s (s = 0..n), -1 when none
    before = np.full((n_lines, n + 1), -1, POS)
    before[:, 1:] = np.maximum.accumulate(np.where(black, pos[:n], -1), axis=1)
    upto = before[:, 1:]  # at or before j
    # cells e-1, e-2, ... that may be black, counted back from e
    last_white = np.full((n_lines, n + 1), -1, POS)
    last_white[:, 1:] = np.maximum.accumulate(np.where(white, pos[:n], -1), axis=1)
    run = pos - 1 - last_white
    gap_ok = np.ones((n_lines, n + 1), bool)
    gap_ok[:, :n] = ~black
    # start condition P[s] (blocks before fit, no black left uncovered), left-padded
    # with n+1 False columns so that P[e - r] needs no clipping
    stride = 2 * n + 2
    start_ok = np.zeros((n_lines, stride), bool)
    flat_start = start_ok.reshape(-1)
    base = (np.arange(n_lines, dtype=INT) * stride + n + 1)[:, None] + pos
    none = POS(-(n + 5))
    ends = np.zeros((m_max, n_lines, n + 1), bool)
    white_left = np.zeros((m_max + 1, n_lines, n), bool)
    white_left[0] = upto == -1
    start_ok[:, n + 1 :] = before == -1
    for k in range(m_max):
        r = clue[:, k][:, None]
        ok = (run >= r) & gap_ok
        ok &= flat_start[base - r]
        ends[k] = ok
        latest = np.maximum.accumulate(np.where(ok, pos, none), axis=1)
        white_left[k + 1] = latest[:, :n] > upto
        # the next block may start at s >= 1 after an end e <= s-1 with no black in [e+1, s)
        start_ok[:, n + 1] = False
        np.greater(latest[:, :n] + 1, before[:, 1:], out=start_ok[:, n + 2 :])
    return ends, white_left


def solve_lines(known: np.ndarray, clue: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One exact line solve of a batch of lines of equal length, vectorised.

    Args:
        known: ``(L, n)`` int8 cells, -1 unknown / 0 white / 1 black.
        clue: ``(L, M)`` block lengths, each row padded (with anything >= 1) past its clue.
        counts: ``(L,)`` number of blocks of each line.

    Returns:
        ``(cells, feasible, first, last)``: the settled cells ``(L, n)`` int8
        (known cells kept, -1 where placements disagree); whether any placement
        fits ``(L,)``; the first and last feasible start of every block
        ``(L, M)`` (-1 past a line's clue or for an infeasible line).

    Examples:
        >>> cells, ok, first, last = solve_lines(
        ...     np.array([[-1, -1, -1, -1, -1]], np.int8), np.array([[3]]), np.array([1]))
        >>> cells.tolist(), ok.tolist(), first.tolist(), last.tolist()
        ([[-1, -1, 1, -1, -1]], [True], [[0]], [[2]])
    """
    known = np.asarray(known, dtype=np.int8)
    clue = np.asarray(clue, dtype=INT)
    counts = np.asarray(counts, dtype=INT)
    n_lines, n = known.shape
    m_max = clue.shape[1]
    rows = np.arange(n_lines, dtype=INT)
    rows2 = rows[:, None]
    pos = np.arange(n + 1, dtype=POS)
    black, white = known == BLACK, known == WHITE
    # reversed clue: block k of the reversed line is block m-1-k of the line
    src = counts[:, None] - 1 - np.arange(m_max, dtype=INT)[None, :]
    rev_clue = np.where(src >= 0, clue[rows2, np.maximum(src, 0)], 1)
    ends_left, white_left = _left_tables(black, white, clue)
    # an end e' in the reversed line is the start n - e' in the line
    ends_right, white_right = _left_tables(black[:, ::-1], white[:, ::-1], rev_clue)

    can_black = np.zeros((n_lines, n), bool)
    first = np.full((n_lines, m_max), -1, INT)
    last = np.full((n_lines, m_max), -1, INT)
    far = POS(2 * n + 5)
    flat_base = (rows * (n + 1))[:, None] + pos
    for k in range(m_max):
        r = clue[:, k][:, None]
        kr = counts - 1 - k
        start_right = ends_right[np.maximum(kr, 0), rows][:, ::-1]  # (L, n+1), by start
        feasible = ends_left[k] & (kr >= 0)[:, None]
        feasible &= start_right.reshape(-1)[np.maximum(flat_base - r, flat_base - pos)]
        has = feasible.any(axis=1)
        first[:, k] = np.where(has, np.argmax(feasible, axis=1) - r[:, 0], -1)
        last[:, k] = np.where(has, n - np.argmax(feasible[:, ::-1], axis=1) - r[:, 0], -1)
        # cell j is covered by a feasible block ending in j+1 .. j+r
        nxt = np.minimum.accumulate(np.where(feasible, pos, far)[:, ::-1], axis=1)[:, ::-1]
        can_black |= nxt[:, 1:] <= pos[:n] + r
    can_white = np.zeros((n_lines, n), bool)
    for k in range(m_max + 1):
        kr = counts - k
        can_white |= white_left[k] & (kr >= 0)[:, None] & white_right[np.maximum(kr, 0), rows][:, ::-1]
    # a line fits when its first block has a feasible end (counted above into
    # first[:, 0]); an empty line fits when it holds no known black cell
    ok = np.where(counts > 0, first[:, 0] >= 0, white_left[0][:, n - 1])
    cells = np.where(can_black & ~can_white, BLACK, np.where(can_white & ~can_black, WHITE, known))
    cells = cells.astype(np.int8)
    first[~ok] = -1
    last[~ok] = -1
    return cells, ok, first, last


def _clue_text(clue: tuple[int, ...]) -> str:
    return " ".join(str(v) for v in clue) if clue else "0"


def _batches(counts: np.ndarray, lines: np.ndarray) -> list[np.ndarray]:
    """Split *lines* into groups of similar clue length (at most 2x padding)."""
    c = counts[lines]
    bucket = np.where(c > 0, np.ceil(np.log2(np.maximum(c, 1))).astype(INT) + 1, 0)
    return [lines[bucket == b] for b in np.unique(bucket)]


def line_solve(puzzle: Puzzle, known: np.ndarray | None = None) -> LineSolveResult:
    """Settle every cell line logic can settle, iterating rows and columns to a fixpoint.

    Args:
        puzzle: the puzzle.
        known: optional ``(height, width)`` grid of -1/0/1 cells already known
            (for instance a guess to test); line logic starts from it.

    Returns:
        The settled grid, whether it is complete, counts, and the per-block
        start and shift bounds over every placement that fits the final grid.

    Raises:
        PuzzleError: a line has no placement that fits the cells settled so far
            (the puzzle, with *known*, has no solution); or *known* has the
            wrong shape or values.

    Examples:
        >>> from nonoqubo.puzzle import Puzzle
        >>> p = Puzzle(rows=[[2], [1]], cols=[[2], [1]])
        >>> r = line_solve(p)
        >>> r.solved, r.grid.tolist(), r.shift_lo.tolist(), r.shift_hi.tolist()
        (True, [[1, 1], [1, 0]], [0, 0, 0, 0], [0, 0, 0, 0])
        >>> line_solve(p, known=np.array([[-1, -1], [-1, 1]]))
        Traceback (most recent call last):
        ...
        nonoqubo.errors.PuzzleError: column 1: no placement of clue 2 fits the cells settled so far
    """
    lay = Layout.of(puzzle)
    h, w = puzzle.height, puzzle.width
    if known is None:
        grid = np.full((h, w), UNKNOWN, np.int8)
    else:
        grid = np.array(known, dtype=np.int8, copy=True)
        if grid.shape != (h, w):
            raise PuzzleError(f"known cells: expected a {h} x {w} grid, got shape {grid.shape}")
        if not np.isin(grid, (UNKNOWN, WHITE, BLACK)).all():
            raise PuzzleError("known cells must be -1 (unknown), 0 (white) or 1 (black)")
    n_lines = h + w
    counts = np.diff(lay.line_first_block)
    m_max = int(counts.max()) if n_lines else 0
    # clue table (lines x max blocks), padded with 1
    clue = np.ones((n_lines, max(m_max, 1)), INT)
    clue[lay.block_line, lay.block_k] = lay.block_length
    first_start = np.full(lay.num_blocks, -1, INT)
    last_start = np.full(lay.num_blocks, -1, INT)

    dirty = [np.ones(h, bool), np.ones(w, bool)]
    iterations = solves = 0
    side = 0
    while dirty[0].any() or dirty[1].any():
        if dirty[side].any():
            view = grid if side == 0 else grid.T
            todo = np.flatnonzero(dirty[side])
            dirty[side][:] = False
            base = 0 if side == 0 else h
            for part in _batches(counts[base:], todo):
                lines = part + base
                width = max(int(counts[lines].max()), 1)
                cells, ok, first, last = solve_lines(view[part], clue[lines, :width], counts[lines])
                if not ok.all():
                    bad = int(lines[np.flatnonzero(~ok)[0]])
                    c = (puzzle.rows + puzzle.cols)[bad]
                    raise PuzzleError(
                        f"{lay.line_name(bad)}: no placement of clue {_clue_text(c)} fits the cells settled so far"
                    )
                changed = cells != view[part]
                view[part] = cells
                dirty[1 - side][np.flatnonzero(changed.any(axis=0))] = True
                # record the bounds of every block of these lines
                has = counts[lines] > 0
                ln = lines[has]
                kk = np.arange(width)[None, :] < counts[ln][:, None]
                blocks = (lay.line_first_block[ln][:, None] + np.arange(width)[None, :])[kk]
                first_start[blocks] = first[has][kk]
                last_start[blocks] = last[has][kk]
                solves += part.size
            iterations += 1
        side = 1 - side
    settled = int(np.count_nonzero(grid != UNKNOWN))
    return LineSolveResult(
        grid=grid,
        solved=settled == grid.size,
        settled=settled,
        iterations=iterations,
        line_solves=solves,
        first_start=first_start,
        last_start=last_start,
        shift_lo=first_start - lay.block_start,
        shift_hi=last_start - lay.block_start,
    )
