"""Line logic: the cells every placement of a line's clue agrees on, to a fixpoint.

A *placement* of a clue ``r_0 ... r_{m-1}`` (colours ``c_0 ... c_{m-1}``) in a
line of ``n`` cells puts block ``k`` at a start ``s_k`` with ``s_{k+1} >= s_k
+ r_k + g_{k+1}``, the gap ``g`` being 1 between blocks of the same colour and
0 between different colours (black and white: always 1).  Every cell holds a
*set* of possible colours (a bit mask: bit 0 the background, bit ``c`` colour
``c``); a placement *fits* when every cell it paints may take the block's
colour and every cell it leaves may be background.
The line solver finds, for every line, exactly the cells on which all fitting
placements agree, writes them into the grid, and repeats over rows and
columns, re-solving only the lines whose cells changed, until nothing changes.
Every cell it settles holds that value in every solution of the puzzle.

The dynamic programme runs over blocks, vectorised over positions and over a
whole batch of lines (all dirty rows, or all dirty columns, grouped by clue
length), so there is no Python loop per cell:

* ``E_k[e]``, block ``k`` may end at ``e`` as far as blocks ``0 .. k`` and the
  cells before ``e`` are concerned: cells ``e-r_k .. e-1`` may take colour
  ``c_k``, and some ``E_{k-1}[e']`` with ``e' + g_k <= e - r_k`` leaves only
  cells that may be background in between.  "Some such ``e'``" is the running
  maximum of the feasible ends, read at ``e - r_k - g_k``;
* the same table for the reversed line and reversed clue gives the blocks
  ``k .. m-1`` seen from the right; a start is *feasible* when both agree;
* a cell may take colour ``c`` when a feasible start of a block of colour ``c``
  covers it, and may be background when, for some ``k``, blocks ``0 .. k-1``
  fit to its left and blocks ``k .. m-1`` to its right, leaving it and the
  cells between background.

The smallest and largest feasible start of every block, minus its left-aligned
start ``e_k``, bound its shift in every solution: the domain-wall variables
outside those bounds are fixed by :mod:`nonoqubo.logic.presolve`.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
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

from ..model.encoding import Layout
from ..errors import Contradiction, PuzzleError
from ..model.puzzle import Puzzle

__all__ = ["LINES", "LineCache", "LineSolveResult", "cells_of", "clue_tables", "compiled", "line_solve", "masks_of",
           "solve_lines", "solve_masks"]

INT = np.int64
UNKNOWN, WHITE, BLACK = -1, 0, 1


def _pos_type(n: int) -> type:
    """dtype of positions (and sentinels up to ``2n + 5``) within a line of *n* cells:
    int16 for lines up to 16,000 cells (a quarter of int64's memory traffic), else int32."""
    return np.int16 if 2 * n + 5 < (1 << 15) else np.int32


@dataclass(frozen=True, eq=False)
class LineSolveResult:
    """What line logic settles.

    Attributes:
        grid: ``(height, width)`` int8 array: -1 unknown, else the cell's colour
            (0 background / white, 1 black or colour 1, ...).
        possible: ``(height, width)`` bit masks of the colours each cell may
            still take (bit 0 the background).
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
    possible: np.ndarray | None = None

    @property
    def cells(self) -> int:
        """Cells in the grid."""
        return int(self.grid.size)

    @property
    def fraction(self) -> float:
        """Share of the grid settled, 0 .. 1."""
        return self.settled / self.cells if self.cells else 1.0


def _mask_dtype(colours: int) -> type:
    """The unsigned integer type whose bits hold the background and *colours* colours."""
    for dtype in (np.uint8, np.uint16, np.uint32, np.uint64):
        if colours < np.iinfo(dtype).bits:
            return dtype
    raise PuzzleError(f"line logic handles at most 63 colours, this puzzle has {colours}")


def _left_tables(mask: np.ndarray, clue: np.ndarray, colour: np.ndarray, gap: np.ndarray,
                 counts: np.ndarray | None = None,
                 end_range: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Left-to-right tables of a batch of lines of equal length, indexed by block *end*.

    Args:
        mask: ``(L, n)`` bit masks of the colours each cell may take (bit 0 background).
        clue: ``(L, M)`` block lengths, padded with 1 beyond each line's clue.
        colour: ``(L, M)`` block colours (padding: anything).
        gap: ``(L, M)`` least gap before each block (1 after a block of the same colour).
        counts: ``(L,)`` blocks of each line; when given, ends past a block's right-aligned
            end are left out (see below), else every end is computed.
        end_range: ``(lo, hi)``, each ``(L, M)``: block ``k`` may end only at ``lo .. hi``
            (probing's bounds on the blocks; None: anywhere).

    Returns:
        ``E`` ``(M, L, n+1)``: block ``k`` may end at ``e`` (cells ``e-r_k .. e-1``
        may take its colour) with blocks ``0..k-1`` fitting before it; ``W``
        ``(M+1, L, n)``: blocks ``0..k-1`` fit at or left of cell ``j``, leaving
        cell ``j`` and every cell from their end up to ``j`` background.
    """
    n_lines, n = mask.shape
    m_max = clue.shape[1]
    pos_t = _pos_type(n)
    pos = np.arange(n + 1, dtype=pos_t)
    nonbg = (mask & 1) == 0
    # last cell strictly before s (s = 0..n) that cannot be background, -1 when none
    before = np.full((n_lines, n + 1), -1, pos_t)
    before[:, 1:] = np.maximum.accumulate(np.where(nonbg, pos[:n], -1), axis=1)
    upto = before[:, 1:]  # at or before j
    rows = np.arange(n_lines)[:, None]
    none = pos_t(-(n + 5))
    runs: dict[int, np.ndarray] = {}

    def run_of(c: np.ndarray) -> np.ndarray:
        """Cells e-1, e-2, ... that may take colour c (per line), counted back from e."""
        uniform = bool((c == c[0]).all())
        if uniform and int(c[0]) in runs:
            return runs[int(c[0])]
        cannot = (np.right_shift(mask, (c[0] if uniform else c[:, None]).astype(mask.dtype)) & 1) == 0
        last_no = np.full((n_lines, n + 1), -1, pos_t)
        last_no[:, 1:] = np.maximum.accumulate(np.where(cannot, pos[:n], -1), axis=1)
        run = pos - 1 - last_no
        if uniform:
            runs[int(c[0])] = run
        return run

    ends = np.zeros((m_max, n_lines, n + 1), bool)
    white_left = np.zeros((m_max + 1, n_lines, n), bool)
    white_left[0] = upto == -1
    # start condition P[s] (blocks before fit, only background left before s), left-padded
    # with n+1 False columns so that P[e - r] needs no clipping
    stride = 2 * n + 2
    start_ok = np.zeros((n_lines, stride), bool)
    flat_start = start_ok.reshape(-1)
    base = (np.arange(n_lines, dtype=INT) * stride + n + 1)[:, None] + pos
    start_ok[:, n + 1:] = before == -1
    # Block k cannot end before its left-aligned end, and no placement of the whole line
    # ends it after its right-aligned end (the line's margin later).  Ends are computed only
    # between the batch's extremes c0 .. c1-1: the ends left out before c0 do not exist, and
    # those after c1 (blocks 0..k fit, the later ones cannot) only ever reach cells that the
    # later blocks' own tables rule out, so the running maximum simply stops at c1.
    aligned = _aligned_ends(clue, gap)
    earliest = np.minimum(aligned.min(axis=0), n + 1)
    if counts is None:
        stop = np.full(m_max, n + 1)
    else:
        need = np.where(counts > 0, aligned[rows[:, 0], np.maximum(counts - 1, 0)], 0)
        stop = np.clip((aligned + (n - need)[:, None]).max(axis=0) + 1, earliest, n + 1)
    latest = np.empty((n_lines, n + 1), pos_t)
    for k in range(m_max):
        r = clue[:, k][:, None]
        c0, c1 = int(earliest[k]), int(stop[k])
        ok = ends[k][:, c0:c1]  # ends outside c0 .. c1-1 stay False
        np.greater_equal(run_of(colour[:, k])[:, c0:c1], r.astype(pos_t), out=ok)  # in pos_t, not int64
        ok &= flat_start[base[:, c0:c1] - r]
        if end_range is not None:
            ok &= (pos[c0:c1] >= end_range[0][:, k:k + 1]) & (pos[c0:c1] <= end_range[1][:, k:k + 1])
        latest[:, :c0] = none
        np.maximum.accumulate(np.where(ok, pos[c0:c1], none), axis=1, out=latest[:, c0:c1])
        latest[:, c1:] = latest[:, c1 - 1:c1] if c1 > c0 else none
        white_left[k + 1] = latest[:, :n] > upto
        if k + 1 < m_max:
            # the next block may start at s after an end e <= s - g with nothing coloured in [e, s)
            g = gap[:, k + 1]
            if (g == g[0]).all():
                g0 = int(g[0])
                start_ok[:, n + 1:n + 1 + g0] = False
                np.greater(latest[:, :n + 1 - g0], before[:, g0:], out=start_ok[:, n + 1 + g0:])
            else:
                at = pos - g[:, None]
                start_ok[:, n + 1:] = np.where(at >= 0, latest[rows, np.maximum(at, 0)], none) > before
    return ends, white_left


def _aligned_ends(clue: np.ndarray, gap: np.ndarray) -> np.ndarray:
    """``(L, M)`` left-aligned end of every block: its length and the least gaps before it,
    from the left (``gap[:, 0]`` is 0).  No placement ends block ``k`` earlier."""
    return np.cumsum(clue + gap, axis=1)


def solve_masks(mask: np.ndarray, clue: np.ndarray, colour: np.ndarray, counts: np.ndarray,
                starts: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One exact line solve of a batch of lines of equal length, in colour, vectorised.

    Args:
        mask: ``(L, n)`` bit masks: the colours each cell may take (bit 0 background).
        clue: ``(L, M)`` block lengths, each row padded (with anything >= 1) past its clue.
        colour: ``(L, M)`` block colours (1-based), padded with anything.
        counts: ``(L,)`` number of blocks of each line.
        starts: ``(lo, hi)``, each ``(L, M)``: block ``k`` starts only at cells ``lo .. hi``
            (what probing the model's variables learnt; padding: ``0`` and ``n``).  None: anywhere.

    Returns:
        ``(mask, feasible, first, last)``: the narrowed masks ``(L, n)`` (only
        colours some fitting placement gives the cell); whether any placement
        fits ``(L,)``; the first and last feasible start of every block
        ``(L, M)`` (-1 past a line's clue or for an infeasible line).

    Examples:
        >>> m, ok, first, last = solve_masks(np.array([[7, 7, 7]], np.uint8), np.array([[1, 1]]),
        ...                                  np.array([[1, 2]]), np.array([2]))
        >>> m.tolist(), first.tolist(), last.tolist()
        ([[3, 7, 5]], [[0, 1]], [[1, 2]])
        >>> solve_masks(np.array([[3, 3, 3]], np.uint8), np.array([[1]]), np.array([[1]]), np.array([1]),
        ...             starts=(np.array([[1]]), np.array([[2]])))[0].tolist()   # the block starts at 1 or 2
        [[1, 3, 3]]
    """
    mask = np.asarray(mask)
    clue = np.asarray(clue, dtype=INT)
    colour = np.asarray(colour, dtype=INT)
    counts = np.asarray(counts, dtype=INT)
    n_lines, n = mask.shape
    m_max = clue.shape[1]
    rows = np.arange(n_lines, dtype=INT)
    rows2 = rows[:, None]
    pos_t = _pos_type(n)
    pos = np.arange(n + 1, dtype=pos_t)
    k_idx = np.arange(m_max, dtype=INT)[None, :]
    real = k_idx < counts[:, None]
    gap = np.zeros((n_lines, m_max), INT)
    # past a line's clue the gap is 1 (unused there; in black and white every gap is then 1,
    # and _left_tables takes its fast path for a gap shared by the whole batch)
    gap[:, 1:] = np.where(real[:, 1:], colour[:, 1:] == colour[:, :-1], 1)
    # reversed clue: block k of the reversed line is block m-1-k of the line
    src = np.maximum(counts[:, None] - 1 - k_idx, 0)
    rev_clue = np.where(real, clue[rows2, src], 1)
    rev_colour = np.where(real, colour[rows2, src], 0)
    rev_gap = np.zeros((n_lines, m_max), INT)
    rev_gap[:, 1:] = np.where(real[:, 1:], rev_colour[:, 1:] == rev_colour[:, :-1], 1)
    left_range = right_range = None
    if starts is not None:  # block k ends at lo + r .. hi + r; reversed, its end n - e' is its start
        lo, hi = (np.asarray(b, dtype=INT) for b in starts)
        left_range = (lo + clue, hi + clue)
        right_range = (n - np.where(real, hi[rows2, src], n), n - np.where(real, lo[rows2, src], 0))
    ends_left, white_left = _left_tables(mask, clue, colour, gap, counts, left_range)
    # an end e' in the reversed line is the start n - e' in the line
    ends_right, white_right = _left_tables(mask[:, ::-1], rev_clue, rev_colour, rev_gap, counts, right_range)

    can = np.zeros((n_lines, n), mask.dtype)
    first = np.full((n_lines, m_max), -1, INT)
    last = np.full((n_lines, m_max), -1, INT)
    far = pos_t(2 * n + 5)
    # every feasible end of block k lies between its left-aligned end and its right-aligned
    # end (the margin d later): the batch's extremes bound the scan for the next feasible end
    aligned = _aligned_ends(clue, gap)
    need = np.where(counts > 0, aligned[rows, np.maximum(counts - 1, 0)], 0)
    lo_end = np.minimum(aligned.min(axis=0), n)
    hi_end = np.clip((aligned + (n - need)[:, None]).max(axis=0), lo_end, n)
    nxt = np.empty((n_lines, n + 1), pos_t)
    flat_right = ends_right.reshape(-1)
    for k in range(m_max):
        r = clue[:, k][:, None]
        kr = counts - 1 - k
        # feasible ends: left tables agree with the right ones (end e is start n - e + r of the
        # reversed block kr), computed only between the batch's aligned ends c0 .. c1-1
        c0, c1 = int(lo_end[k]), int(hi_end[k]) + 1
        feasible = ends_left[k][:, c0:c1] & (kr >= 0)[:, None]
        right_row = ((np.maximum(kr, 0) * n_lines + rows) * (n + 1))[:, None]
        at = right_row + (n + r) - pos[c0:c1]
        feasible &= flat_right[np.minimum(at, right_row + n)]  # an end e < r has no start
        has = feasible.any(axis=1)
        first[:, k] = np.where(has, c0 + np.argmax(feasible, axis=1) - r[:, 0], -1)
        last[:, k] = np.where(has, c1 - 1 - np.argmax(feasible[:, ::-1], axis=1) - r[:, 0], -1)
        # cell j is covered by a feasible block ending in j+1 .. j+r
        nxt[:, c1:] = far
        nxt[:, c0:c1] = np.minimum.accumulate(np.where(feasible, pos[c0:c1], far)[:, ::-1], axis=1)[:, ::-1]
        nxt[:, :c0] = nxt[:, c0:c0 + 1]
        covered = (nxt[:, 1:] <= pos[:n] + r.astype(pos_t)).view(np.uint8).astype(mask.dtype)
        c = colour[:, k]
        bit = np.left_shift(mask.dtype.type(1), (c[0] if (c == c[0]).all() else c[:, None]).astype(mask.dtype))
        can |= covered * bit
    for k in range(m_max + 1):
        kr = counts - k
        bg = white_left[k] & (kr >= 0)[:, None] & white_right[np.maximum(kr, 0), rows][:, ::-1]
        can |= bg.astype(mask.dtype)
    # a line fits when its first block has a feasible end (counted above into
    # first[:, 0]); an empty line fits when every cell may be background
    ok = np.where(counts > 0, first[:, 0] >= 0, white_left[0][:, n - 1])
    first[~ok] = -1
    last[~ok] = -1
    return np.where(ok[:, None], can & mask, mask), ok, first, last


def compiled() -> bool:
    """Whether the compiled line solver (:mod:`nonoqubo.logic.linekernel`, numba) is there: then a batch
    of lines costs no set-up, and callers hand over every dirty line at once instead of grouping them by
    clue length for NumPy."""
    try:
        from . import linekernel  # noqa: F401
    except ImportError:
        return False
    return True


def _solve_fresh(mask: np.ndarray, clue: np.ndarray, colour: np.ndarray,
                 counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`solve_masks` without block bounds: by the compiled kernel
    (:mod:`nonoqubo.logic.linekernel`) when numba is installed, else by NumPy; the same answers."""
    try:
        from .linekernel import solve_lines_compiled
    except ImportError:  # numba missing: the NumPy solver
        return solve_masks(mask, clue, colour, counts)
    n_lines, n = mask.shape
    out = np.empty((n_lines, n), np.uint64)
    ok = np.empty(n_lines, bool)
    first = np.empty(clue.shape, INT)
    last = np.empty(clue.shape, INT)
    solve_lines_compiled(mask.astype(np.uint64), np.ascontiguousarray(clue, dtype=INT),
                         np.ascontiguousarray(colour, dtype=INT), np.ascontiguousarray(counts, dtype=INT),
                         out, ok, first, last)
    return out.astype(mask.dtype), ok, first, last


class LineCache:
    """Line solves remembered by what they depend on: the clue, its colours and the line's masks.

    :func:`solve_masks` without block bounds is a function of one line's clue and cell masks, and
    probing asks the same questions again and again (every probe of a grid re-solves lines in the
    states the other probes met, and a repair's next flipped picture keeps all but two clues), so
    each answer is kept once: :meth:`solve` looks every line up and solves only the ones never
    seen, in one vectorised call.  The answers are those of :func:`solve_masks` (the narrowed masks
    whether the line fits, the first and last start of every block), bit for bit.  The cache forgets everything when it holds
    :attr:`limit` lines (a bounded memory, a few hundred bytes a line).

    Examples:
        >>> cache = LineCache()
        >>> masks = np.array([[3, 3, 3], [3, 3, 3]], np.uint8)
        >>> clue, colour, counts = np.array([[2], [2]]), np.array([[1], [1]]), np.array([1, 1])
        >>> out, ok, first, last = cache.solve(masks, clue, colour, counts)
        >>> out.tolist(), ok.tolist(), first.tolist(), cache.hits, cache.misses
        ([[3, 2, 3], [3, 2, 3]], [True, True], [[0], [0]], 0, 2)
        >>> cache.solve(masks, clue, colour, counts)[0].tolist(), cache.hits, len(cache)   # asked again: from memory
        ([[3, 2, 3], [3, 2, 3]], 2, 1)
    """

    def __init__(self, limit: int = 1 << 18) -> None:
        self.limit = limit
        self.hits = 0
        self.misses = 0
        self._known: dict[tuple[bytes, bytes], tuple[bytes, bytes, bytes]] = {}

    def __len__(self) -> int:
        return len(self._known)

    def solve(self, mask: np.ndarray, clue: np.ndarray, colour: np.ndarray,
              counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:func:`solve_masks` ``(mask, feasible, first, last)`` of a batch of lines of equal length, from
        memory where the same (clue, colours, masks) was solved before; the arguments are
        :func:`solve_masks`'s (without block bounds)."""
        mask = np.ascontiguousarray(mask)
        clue = np.asarray(clue, dtype=INT)
        colour = np.asarray(colour, dtype=INT)
        counts = np.asarray(counts, dtype=INT)
        n_lines, n = mask.shape
        if n_lines == 0:
            empty = np.full((0, clue.shape[1]), -1, INT)
            return mask.copy(), np.ones(0, bool), empty, empty.copy()
        real = np.arange(clue.shape[1])[None, :] < counts[:, None]
        # one key per line: its length and mask width, its blocks (lengths and colours, padding zeroed), its masks
        shape = np.broadcast_to(np.array([n, mask.itemsize], INT), (n_lines, 2))
        clue_key = np.ascontiguousarray(np.column_stack([shape, counts, np.where(real, clue, 0),
                                                         np.where(real, colour, 0)]))
        ck, raw = clue_key.tobytes(), mask.tobytes()
        cw, mw = clue_key.shape[1] * 8, n * mask.itemsize
        keys = [(ck[i * cw:(i + 1) * cw], raw[i * mw:(i + 1) * mw]) for i in range(n_lines)]
        known = self._known
        found = [known.get(key) for key in keys]
        missing = [i for i, v in enumerate(found) if v is None]
        self.misses += len(missing)
        self.hits += n_lines - len(missing)
        m_max = clue.shape[1]
        if missing:
            at = np.array(missing)
            out, ok, first, last = _solve_fresh(mask[at], clue[at], colour[at], counts[at])
            # a line that does not fit keeps its masks (solve_masks's convention); the last byte says whether it fits
            solved = np.ascontiguousarray(np.column_stack([out.view(np.uint8).reshape(len(missing), -1),
                                                           ok.astype(np.uint8)])).tobytes()
            starts = np.ascontiguousarray(np.column_stack([first, last]), dtype=INT).tobytes()
            width, sw = mw + 1, 2 * m_max * 8
            if len(known) + len(missing) > self.limit:
                known.clear()
            for r, i in enumerate(missing):
                c = int(counts[i]) * 8  # each line keeps the starts of its own blocks
                row = starts[r * sw:(r + 1) * sw]
                value = (solved[r * width:(r + 1) * width], row[:c], row[m_max * 8:m_max * 8 + c])
                found[i] = value
                known[keys[i]] = value
        done = [v for v in found if v is not None]
        table = np.frombuffer(b"".join(v[0] for v in done), np.uint8).reshape(n_lines, mw + 1)
        out_all = np.ascontiguousarray(table[:, :mw]).view(mask.dtype).reshape(n_lines, n)
        pad = b"\xff" * (m_max * 8)  # -1 past a line's clue
        first_all = np.frombuffer(b"".join(v[1] + pad[len(v[1]):] for v in done), INT).reshape(n_lines, m_max)
        last_all = np.frombuffer(b"".join(v[2] + pad[len(v[2]):] for v in done), INT).reshape(n_lines, m_max)
        return out_all, table[:, mw].astype(bool), first_all.copy(), last_all.copy()


#: the line solves remembered in this process, shared by line logic and probing on every puzzle (probing
#: re-solves lines in states other probes met; a repair's flipped pictures keep all but two clues)
LINES = LineCache()


def solve_lines(known: np.ndarray, clue: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One exact line solve of a batch of black-and-white lines of equal length.

    :func:`solve_masks` with one colour: ``known`` cells -1 unknown / 0 white /
    1 black in and out.

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
    mask = masks_of(known)
    out, ok, first, last = solve_masks(mask, clue, np.ones_like(np.asarray(clue)), counts)
    cells = np.where(ok[:, None], cells_of(out), known).astype(np.int8)
    return cells, ok, first, last


def masks_of(known: np.ndarray, colours: int = 1) -> np.ndarray:
    """Bit masks of a grid of -1 (unknown: every colour) / colour index cells."""
    dtype = _mask_dtype(colours)
    full = dtype((1 << (colours + 1)) - 1)
    k = np.asarray(known)
    return np.where(k < 0, full, np.left_shift(dtype(1), np.maximum(k, 0).astype(dtype))).astype(dtype)


def cells_of(mask: np.ndarray) -> np.ndarray:
    """-1 where a mask allows several colours, else the one colour (int8)."""
    m = np.asarray(mask).astype(np.uint64)
    single = (m & (m - np.uint64(1))) == 0
    # log2 of a power of two: the index of its one bit
    colour = np.zeros(m.shape, np.int8)
    for bit in range(1, 64):
        hit = m == np.uint64(1 << bit)
        if not hit.any() and (m >> np.uint64(bit)).max(initial=0) == 0:
            break
        colour[hit] = bit
    return np.where(single & (m > 0), colour, -1).astype(np.int8)


def _clue_text(clue: tuple[int, ...]) -> str:
    return " ".join(str(v) for v in clue) if clue else "0"


def _batches(counts: np.ndarray, lines: np.ndarray) -> list[np.ndarray]:
    """Split *lines* into groups of similar clue length (at most 2x padding)."""
    c = counts[lines]
    bucket = np.where(c > 0, np.ceil(np.log2(np.maximum(c, 1))).astype(INT) + 1, 0)
    return [lines[bucket == b] for b in np.unique(bucket)]


def clue_tables(lay: Layout) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(clue, colour, counts)`` of every line (rows, then columns) of *lay*, as :func:`solve_masks` takes them.

    ``clue`` and ``colour`` are ``(lines, max blocks)`` int64 tables padded with 1; ``counts`` the
    blocks of each line.

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> clue, colour, counts = clue_tables(Layout.of(Puzzle(rows=[[1, 1], []], cols=[[1], [], [1]])))
        >>> clue.tolist(), counts.tolist()
        ([[1, 1], [1, 1], [1, 1], [1, 1], [1, 1]], [2, 0, 1, 0, 1])
    """
    counts = np.diff(lay.line_first_block)
    m_max = int(counts.max()) if counts.size else 0
    clue = np.ones((counts.size, max(m_max, 1)), INT)
    clue[lay.block_line, lay.block_k] = lay.block_length
    colour = np.ones((counts.size, max(m_max, 1)), INT)
    colour[lay.block_line, lay.block_k] = lay.block_colour
    return clue, colour, counts


def line_solve(puzzle: Puzzle, known: np.ndarray | None = None, *, possible: np.ndarray | None = None) -> LineSolveResult:
    """Settle every cell line logic can settle, iterating rows and columns to a fixpoint.

    Args:
        puzzle: the puzzle.
        known: optional ``(height, width)`` grid of -1/0/1 cells already known
            (for instance a guess to test); line logic starts from it.
        possible: instead of *known*, the ``(height, width)`` bit masks of the colours each
            cell may still take (bit 0 the background), as ``LineSolveResult.possible``
            gives them (probing hands over what it narrowed this way).

    Returns:
        The settled grid, whether it is complete, counts, and the per-block
        start and shift bounds over every placement that fits the final grid.

    Raises:
        Contradiction: a line has no placement that fits the cells settled so far
            (the puzzle, with *known*, has no solution); or *known* has the
            wrong shape or values.

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> p = Puzzle(rows=[[2], [1]], cols=[[2], [1]])
        >>> r = line_solve(p)
        >>> r.solved, r.grid.tolist(), r.shift_lo.tolist(), r.shift_hi.tolist()
        (True, [[1, 1], [1, 0]], [0, 0, 0, 0], [0, 0, 0, 0])
        >>> line_solve(p, known=np.array([[-1, -1], [-1, 1]]))
        Traceback (most recent call last):
        ...
        nonoqubo.errors.Contradiction: column 1: no placement of clue 2 fits the cells settled so far
    """
    lay = Layout.of(puzzle)
    h, w = puzzle.height, puzzle.width
    nc = puzzle.num_colours
    if possible is not None:
        if known is not None or np.shape(possible) != (h, w):
            raise PuzzleError(f"possible colours: expected a {h} x {w} grid of masks and no known cells")
        grid = cells_of(possible)
    elif known is None:
        grid = np.full((h, w), UNKNOWN, np.int8)
    else:
        grid = np.array(known, dtype=np.int8, copy=True)
        if grid.shape != (h, w):
            raise PuzzleError(f"known cells: expected a {h} x {w} grid, got shape {grid.shape}")
        if not ((grid >= UNKNOWN) & (grid <= nc)).all():
            raise PuzzleError("known cells must be -1 (unknown), 0 (white) or 1 (black)"
                              + (f" .. {nc} (a colour)" if nc > 1 else ""))
    mask = masks_of(grid, nc) if possible is None else np.array(possible, dtype=masks_of(grid, nc).dtype, copy=True)
    clue, colour, counts = clue_tables(lay)
    first_start = np.full(lay.num_blocks, -1, INT)
    last_start = np.full(lay.num_blocks, -1, INT)

    dirty = [np.ones(h, bool), np.ones(w, bool)]
    iterations = solves = 0
    side = 0
    while dirty[0].any() or dirty[1].any():
        if dirty[side].any():
            view = mask if side == 0 else mask.T
            todo = np.flatnonzero(dirty[side])
            dirty[side][:] = False
            base = 0 if side == 0 else h
            for part in [todo] if compiled() else _batches(counts[base:], todo):
                lines = part + base
                width = max(int(counts[lines].max()), 1)
                cells, ok, first, last = LINES.solve(view[part], clue[lines, :width], colour[lines, :width],
                                                     counts[lines])
                if not ok.all():
                    bad = int(lines[np.flatnonzero(~ok)[0]])
                    raise Contradiction(
                        f"{lay.line_name(bad)}: no placement of clue {puzzle.clue_text(bad)} fits the cells "
                        "settled so far"
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
    grid = cells_of(mask)
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
        possible=mask,
    )
