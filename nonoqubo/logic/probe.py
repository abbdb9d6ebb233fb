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

import dataclasses
import time
from dataclasses import dataclass

import numpy as np

from ..errors import Contradiction
from ..model.encoding import Layout
from ..model.puzzle import Puzzle
from .linesolve import LINES, LineCache, LineSolveResult, clue_tables, compiled, line_solve, solve_masks

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
        variable_rounds: passes over the open domain-wall variables (0: cell probing settled
            the puzzle, or ``variables=False``).
        variable_probes: branches tried on variables (a block's start bounded one way and propagated).
        cell_settled: the cells settled at one-cell probing's fixpoint, before any variable was
            probed (what the tournament solvers' lookahead settles; :attr:`settled` when
            ``variables=False``, or when cell probing settled the puzzle).  The hard-core
            figure "cells open after one-cell probing" is ``cells - cell_settled``.
    """

    line: LineSolveResult
    line_settled: int
    rounds: int
    probes: int
    contradictions: int
    seconds: float
    before: LineSolveResult
    variable_rounds: int = 0
    variable_probes: int = 0
    cell_settled: int | None = None

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
              tables: tuple[np.ndarray, np.ndarray, np.ndarray],
              starts: tuple[np.ndarray, np.ndarray] | None = None, cache: LineCache | None = None) -> np.ndarray:
    """Line logic to a fixpoint on a stack of grids at once; *mask* is narrowed in place.

    Args:
        mask: ``(P, height, width)`` colour masks of P grids (copies of one puzzle).
        dirty_rows, dirty_cols: ``(P, height)`` and ``(P, width)`` bools, the lines to solve
            first (cleared as they are solved; a line whose cells change marks the crossing lines).
        tables: :func:`~nonoqubo.logic.linesolve.clue_tables` of the puzzle's layout.
        starts: ``(lo, hi)``, each ``(P, blocks)`` (Layout order): the cells each block may start
            at, in every copy; every line solve keeps to them and narrows them in place (what
            probing the model's variables works on).  None: the masks alone.
        cache: where the line solves without *starts* are remembered (None: :data:`~nonoqubo.logic.linesolve.LINES`,
            the process's); the answers are the same either way, only their cost differs.

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
    copies, h, w = mask.shape
    first_block = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
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
            # (compiled, one batch: padding costs it nothing)
            bucket = np.zeros(n_blocks.size, np.int64) if starts is None and compiled() else \
                np.where(n_blocks > 0, np.ceil(np.log2(np.maximum(n_blocks, 1))).astype(np.int64) + 1, 0)
            for b in np.unique(bucket):
                at = np.flatnonzero(bucket == b)
                cp, ln, ln_at = which[at], lines[at], lines_at[at]
                width = max(int(counts[ln_at].max()), 1)
                before = view[cp, ln]
                if starts is None:
                    # copies share most of their lines: each distinct (line, masks) is solved once
                    first, back = _distinct_rows(ln_at, before)
                    u = ln_at[first]
                    solved, fits, _, _ = (LINES if cache is None else cache).solve(before[first], clue[u, :width], colour[u, :width], counts[u])
                else:
                    real = np.arange(width)[None, :] < counts[ln_at][:, None]
                    blk = np.where(real, first_block[ln_at][:, None] + np.arange(width)[None, :], 0)
                    lo_b = np.where(real, starts[0][cp[:, None], blk], 0)
                    hi_b = np.where(real, starts[1][cp[:, None], blk], w if side == 0 else h)
                    first, back = _distinct_rows(ln_at, np.column_stack((before.astype(np.int64), lo_b, hi_b)))
                    u = ln_at[first]
                    solved, fits, s_lo, s_hi = solve_masks(before[first], clue[u, :width], colour[u, :width],
                                                           counts[u], starts=(lo_b[first], hi_b[first]))
                    keep = real & fits[back][:, None]
                    starts[0][cp[:, None].repeat(width, 1)[keep], blk[keep]] = s_lo[back][keep]
                    starts[1][cp[:, None].repeat(width, 1)[keep], blk[keep]] = s_hi[back][keep]
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


def _probe_variables(puzzle: Puzzle, mask: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                     tables: tuple[np.ndarray, np.ndarray, np.ndarray], per_batch: int) -> tuple[int, int, bool]:
    """One round over every open domain-wall variable, both ways; *mask*, *lo*, *hi* narrowed in place.

    The variable "block b starts at or after cell j" (the domain wall's ``y[b][j - e_b - 1]``) is
    open while ``lo[b] < j <= hi[b]``.  Its two branches are two copies of the state with
    ``hi[b] = j - 1`` or ``lo[b] = j``; line logic, keeping every copy's block bounds
    (:func:`propagate` with ``starts``), runs on all of a batch at once.  What the surviving
    branches of one variable share (the OR of their masks, the widest of their bounds) holds in
    every solution, and so does the meet of that over the batch's variables.

    Returns:
        ``(probes, contradictions, learnt)``.

    Raises:
        Contradiction: both branches of a variable end in a contradiction.
    """
    h, w = puzzle.height, puzzle.width
    counts = tables[2]
    line_of = np.repeat(np.arange(counts.size), counts)
    probes = contradictions = 0
    learnt = False
    block = np.repeat(np.arange(lo.size), np.maximum(hi - lo, 0))
    at = np.arange(block.size) - np.repeat(np.cumsum(np.maximum(hi - lo, 0)) - np.maximum(hi - lo, 0),
                                           np.maximum(hi - lo, 0))
    thresholds = lo[block] + 1 + at  # every open (block, j), taken in order
    for first in range(0, block.size, per_batch):
        b, j = block[first:first + per_batch], thresholds[first:first + per_batch]
        still = (lo[b] < j) & (j <= hi[b])  # an earlier batch of this round may have closed it
        b, j = b[still], j[still]
        if b.size == 0:
            continue
        n = 2 * b.size
        copies = np.broadcast_to(mask, (n, h, w)).copy()
        c_lo = np.broadcast_to(lo, (n, lo.size)).copy()
        c_hi = np.broadcast_to(hi, (n, hi.size)).copy()
        pair = np.arange(b.size)
        c_hi[2 * pair, b] = j - 1  # branch 0: the block starts before j (the variable is 0)
        c_lo[2 * pair + 1, b] = j  # branch 1: at or after j (the variable is 1)
        ln = np.repeat(line_of[b], 2)
        dirty_rows = np.zeros((n, h), bool)
        dirty_cols = np.zeros((n, w), bool)
        rows = ln < h
        dirty_rows[np.flatnonzero(rows), ln[rows]] = True
        dirty_cols[np.flatnonzero(~rows), ln[~rows] - h] = True
        alive = propagate(copies, dirty_rows, dirty_cols, tables, starts=(c_lo, c_hi))
        probes += n
        contradictions += int(np.count_nonzero(~alive))
        both = alive.reshape(-1, 2)
        if (~both.any(axis=1)).any():
            k = int(np.flatnonzero(~both.any(axis=1))[0])
            raise Contradiction(f"probing: block {int(b[k])} can start neither before nor at or after cell {int(j[k])}: "
                              "the puzzle has no solution")
        copies[~alive] = 0
        c_lo[~alive] = np.iinfo(c_lo.dtype).max
        c_hi[~alive] = np.iinfo(c_hi.dtype).min
        bound = np.bitwise_and.reduce(copies[0::2] | copies[1::2], axis=0)
        b_lo = np.minimum(c_lo[0::2], c_lo[1::2]).max(axis=0)
        b_hi = np.maximum(c_hi[0::2], c_hi[1::2]).min(axis=0)
        narrowed, new_lo, new_hi = mask & bound, np.maximum(lo, b_lo), np.minimum(hi, b_hi)
        cells = narrowed != mask
        moved = (new_lo != lo) | (new_hi != hi)
        if cells.any() or moved.any():
            learnt = True
            mask[...], lo[...], hi[...] = narrowed, new_lo, new_hi
            lines = np.zeros(h + w, bool)
            lines[line_of[moved]] = True
            lines[:h] |= cells.any(axis=1)
            lines[h:] |= cells.any(axis=0)
            state, s_lo, s_hi = mask[None].copy(), lo[None].copy(), hi[None].copy()
            if not propagate(state, lines[None, :h].copy(), lines[None, h:].copy(), tables, starts=(s_lo, s_hi))[0]:
                raise Contradiction("probing: line logic finds a contradiction in what probing the variables "
                                  "settled: the puzzle has no solution")
            mask[...], lo[...], hi[...] = state[0], s_lo[0], s_hi[0]
    return probes, contradictions, learnt


def _probe_cells(puzzle: Puzzle, mask: np.ndarray, tables: tuple[np.ndarray, np.ndarray, np.ndarray],
                 per_batch: int, stop_below: int = 0) -> tuple[int, int, bool]:
    """One round over every open cell, each colour it may take; *mask* narrowed in place; the round ends
    early once fewer than *stop_below* cells are open.

    Returns:
        ``(probes, contradictions, learnt)``.

    Raises:
        Contradiction: every colour of a cell ends in a contradiction.
    """
    h, w = puzzle.height, puzzle.width
    probes = contradictions = 0
    learnt = False
    open_cells = np.flatnonzero(_popcount(mask).reshape(-1) > 1)
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
            raise Contradiction(f"probing: every colour of the cell at {_cell_name(puzzle, cell)} leads to a "
                              "contradiction: the puzzle has no solution")
        bound = np.bitwise_and.reduce(np.bitwise_or.reduceat(copies, group, axis=0), axis=0)
        narrowed = mask & bound
        changed = narrowed != mask
        if changed.any():
            learnt = True
            state = narrowed[None].copy()
            if not propagate(state, changed.any(axis=1)[None], changed.any(axis=0)[None], tables)[0]:
                raise Contradiction("probing: line logic finds a contradiction in what probing settled: the "
                                  "puzzle has no solution")
            mask[...] = state[0]
            if stop_below and np.count_nonzero(_popcount(mask) > 1) < stop_below:
                break
    return probes, contradictions, learnt


def probe_solve(puzzle: Puzzle, line: LineSolveResult | None = None, *, max_rounds: int | None = None,
                variables: bool = True, stop_below: int = 0) -> ProbeResult:
    """Settle every cell one-cell probing on top of line logic settles, to a fixpoint; where that
    leaves cells open, probe the domain wall's variables too.

    Cell probing runs first, round after round, until a round learns nothing.  When cells are
    still open and *variables* is true, every open variable "block b starts at or after cell
    j" is probed both ways (:func:`_probe_variables`), line logic keeping each branch's block
    bounds, round after round; when that settles cells, cell probing runs again, and so on
    until neither learns.  The block bounds learnt this way are the result's ``shift_lo`` /
    ``shift_hi`` (tighter than the masks alone give), so presolve fixes those variables too.
    It pays on the hard cores cell probing leaves (``benchmarks/bench_probe.py --part
    variables``: webpbn 6574 "forever", 1,250 variables left by cell probing, is solved).

    Args:
        puzzle: the puzzle (black and white or colour).
        line: its :func:`~nonoqubo.logic.linesolve.line_solve` result, when already computed.
        max_rounds: stop after this many rounds of each kind (None: until a round learns nothing).
        variables: also probe the model's variables where cell probing leaves cells open.
        stop_below: stop as soon as fewer than this many cells are open (after line logic, or after a
            batch of probes): the result then leaves fewer open than that, but not necessarily as few as
            probing to the end would (a hard core's repair asks only whether at least so many stay open).

    Returns:
        The probed grid with the block bounds on it, and the counts.

    Raises:
        Contradiction: every colour of some cell (both values of some variable) leads to a
            contradiction, or line logic finds one: the puzzle has no solution.

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
    lay = Layout.of(puzzle)
    tables = clue_tables(lay)
    per_batch = _batch_cells(puzzle, tables, puzzle.num_colours)
    rounds = probes = contradictions = var_rounds = var_probes = 0
    lo = hi = None
    cell_settled: int | None = None

    def enough() -> bool:  # fewer than stop_below cells open: nothing more is asked
        return bool(stop_below) and bool(np.count_nonzero(_popcount(mask) > 1) < stop_below)

    while not enough():
        while (max_rounds is None or rounds < max_rounds) and (_popcount(mask) > 1).any() and not enough():
            rounds += 1
            p, c, learnt = _probe_cells(puzzle, mask, tables, per_batch, stop_below)
            probes, contradictions = probes + p, contradictions + c
            if not learnt:
                break
        if cell_settled is None:  # one-cell probing's fixpoint, before any variable is probed
            cell_settled = int(np.count_nonzero(_popcount(mask) == 1))
        if not variables or not (_popcount(mask) > 1).any():
            break
        bounds = line_solve(puzzle, possible=mask)
        lo = bounds.first_start.copy() if lo is None else np.maximum(lo, bounds.first_start)
        hi = bounds.last_start.copy() if hi is None else np.minimum(hi, bounds.last_start)
        before = mask.copy()
        done = 0
        while (max_rounds is None or done < max_rounds) and (_popcount(mask) > 1).any():
            done += 1
            p, c, learnt = _probe_variables(puzzle, mask, lo, hi, tables, max(1, per_batch // 2))
            var_probes, contradictions = var_probes + p, contradictions + c
            if not learnt:
                break
        var_rounds += done
        if np.array_equal(mask, before) or (max_rounds is not None and rounds >= max_rounds):
            break  # cell probing sees the masks only: unchanged masks, nothing new for it
    # the probed masks are at line logic's fixpoint: this pass only reads the block bounds off them
    final = line_solve(puzzle, possible=mask) if rounds or var_rounds else base
    if lo is not None and hi is not None:  # the bounds variable probing learnt, beyond the masks'
        first_start, last_start = np.maximum(final.first_start, lo), np.minimum(final.last_start, hi)
        final = dataclasses.replace(final, first_start=first_start, last_start=last_start,
                                    shift_lo=first_start - lay.block_start, shift_hi=last_start - lay.block_start)
    return ProbeResult(final, base.settled, rounds, probes, contradictions, time.perf_counter() - start, base,
                       var_rounds, var_probes, final.settled if cell_settled is None else cell_settled)
