"""The line-automaton encoding's geometry: one one-hot automaton state per cell of every line.

The encoding of the Gecode chapter's ``regular`` constraint, made a QUBO.  Each
line's clue is a deterministic automaton (:func:`~nonoqubo.model.automaton.line_automaton`,
the one MiniZinc's ``regular`` and CP-SAT's ``AddAutomaton`` take): states
``1 .. S``, state 1 the background before the first block, then for block ``k``
one state per cell of the block followed by its *gap state* (the background
after it; the last gap state is the line's end).  Every state is entered on one
symbol only, its *colour*: the block's colour (1-based) for a block cell, 0 for
state 1 and the gap states.  A line of ``n`` cells is accepted exactly when its
colours drive the automaton from state 1 to an accepting state.

**Variables.**  ``a[j][q] = 1`` when the automaton is in state ``q`` after reading
cell ``j``.  As Gecode's propagator does, only the *possible* states of the
layered graph get a variable: ``q`` at cell ``j`` when it is reachable from state
1 in ``j + 1`` symbols and can still reach an accepting state in the remaining
``n - j - 1``.  With ``e_k`` the left-aligned start, ``r_k`` the length and ``d``
the line's margin (:class:`~nonoqubo.model.encoding.Layout`), state ``q`` is
possible on the interval of cells::

    state 1                      0           .. d - 1
    cell t of block k            e_k + t     .. e_k + t + d
    gap state after block k      e_k + r_k   .. e_k + r_k + d - 1 + g_k

(``g_k`` the gap rule: 1 when block ``k + 1`` has the block's colour, 0 when it
has another or there is none).  Both ends grow with ``q``, so the states of a
cell are a run ``q_lo .. q_hi``.

**Start and accept states are structural.**  Cell 0 holds exactly the states one
symbol from state 1 (state 1 itself and block 0's first cell) and the last cell
exactly the accepting states (block ``m - 1``'s last cell and the last gap): so
an assignment with one state per cell and no forbidden transition is an accepted
word, and no start or accept penalty is needed
(``tests/model/test_line_automaton.py`` checks both against the automaton).

**Constant lines.**  A line with margin ``d = 0`` (or an empty clue) has one
possible state per cell: it gets no variable, and its picture is a constant of
the cell terms (the *left-aligned* picture, as a domain-wall or one-hot line
with ``d = 0``).  A line with ``d >= 1`` has at least two states at every cell
(the state at cell ``j`` when every block is shifted by ``d`` is the state at
``j - d`` when none is, an earlier one), so no cell of a variable line is
constant.

**Families** (the energy, :mod:`nonoqubo.model.build_automaton`)::

    shape:  (1 - sum_q a[j][q])^2                    one state per cell (weight A)
    order:  a[j][q] * a[j+1][q']                     no transition q -> q' (weight B, pattern (1, 1))
    cells:  sum_slots (R - C)^2                      R, C: the row's and the column's coverage (weight C)

A transition ``q -> q'`` exists (on ``q'``'s colour) for ``q' = q`` when ``q`` is
state 1 or a gap state (they read background again), ``q' = q + 1`` unless ``q``
is the last state, and ``q' = q + 2`` when ``q`` is a block's last cell and the
next block has another colour (blocks of different colours may touch).  A slot
(a cell and a block colour, numbered as in :mod:`nonoqubo.model.geometry`) is
covered by ``a[j][q]`` with coefficient ``+1`` when ``q``'s colour is the slot's:
at most one state of a cell is 1, so a line's coverage of a cell is 1 for its
state's colour and 0 for the others.

**Variable order and labels.**  Rows first, then columns; within a line by cell,
then state: ``a{i}[j][q]`` for row ``i``, cell (column) ``j``, state ``q``, and
``b{j}[i][q]`` for column ``j``, cell (row) ``i`` (flat forms ``a3_1_2``).  The
letters differ from the domain wall's ``y``/``z`` and one-hot's ``r``/``c``.

**Registration.**  The encoding is :data:`AUTOMATON` in
:data:`nonoqubo.model.encodings.REGISTRY`, entered there by one line from
:data:`nonoqubo.model.build_automaton.REGISTRATION` (its builder, size counters, label
letters and report words); ``nonoqubo build --encoding automaton`` and every command that
takes an encoding reach it through the registry.  It has no 0-1 constrained form.

**Shifts.**  Block ``k`` is shifted by ``s`` exactly when its first cell's state is
at cell ``e_k + s``; a block's shift in a sample is the first ``s`` whose
variable is 1 (0 when none is: a broken sample's defined fallback).

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> g = LineAutomaton.of(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> g.labels()[:4]
    ['a0[0][1]', 'a0[0][2]', 'a0[1][2]', 'a0[1][3]']
    >>> g.num_vars, len(g.shape), len(g.order)
    (16, 8, 8)
    >>> g.encode(np.array([[1, 0], [0, 1]])).reshape(-1, 2).tolist()[:2]
    [[0, 1], [0, 1]]
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ._families import COLUMN_SIGN, ROW_SIGN, PairFamily, SlotEntries
from .encoding import Layout
from .onehot import OneHot, PositionFamily
from .puzzle import Puzzle

__all__ = ["AUTOMATON", "LineAutomaton"]

INT = np.int64
#: the name of the line-automaton encoding
AUTOMATON = "automaton"


class LineAutomaton:
    """The line-automaton encoding's geometry over a :class:`Layout` (see the module docstring).

    Satisfies :class:`~nonoqubo.model.geometry.Geometry`.  Three tables, all NumPy
    arrays made at once in ``O(variables)``:

    * *states* of the lines with variables, by line then state: ``state_line``,
      ``state_q`` (the automaton's number, from 1), ``state_colour``,
      ``state_block`` and ``state_t`` (the block a state belongs to and its cell
      in it: ``-1`` for state 1, whose block is the line's first, ``r_k`` for the
      gap state after block ``k``), ``state_lo``/``state_hi`` (its cells);
    * *cells* of those lines: ``cell_line``, ``cell_pos``, ``cell_first_state``,
      ``cell_first_var`` (length cells + 1);
    * *variables*: ``var_cell``, ``var_state``.
    """

    def __init__(self, layout: Layout) -> None:
        self.layout = lay = layout
        nb = lay.num_blocks
        active_line = lay.line_margin > 0
        active_block = lay.block_margin > 0
        # states: per active line its state 1, then r_k + 1 states per block
        per_block = np.where(active_block, lay.block_length + 1, 0)
        line_states = np.where(active_line, 1, 0) + np.bincount(lay.block_line, weights=per_block,
                                                                minlength=lay.num_lines).astype(INT)
        self.line_first_state = np.zeros(lay.num_lines + 1, INT)
        np.cumsum(line_states, out=self.line_first_state[1:])
        block_before = np.cumsum(per_block) - per_block  # block states of earlier blocks (earlier lines too)
        starts_upto = np.cumsum(active_line)  # state 1 of every active line up to and including this one
        block_first_state = block_before + starts_upto[lay.block_line]
        num_states = int(self.line_first_state[-1])
        first_block = lay.line_first_block[:-1]

        blk = np.repeat(np.arange(nb, dtype=INT), per_block)
        t = np.arange(blk.size, dtype=INT) - np.repeat(block_before, per_block)
        d, e, r = lay.block_margin[blk], lay.block_start[blk], lay.block_length[blk]
        gap_rule = np.zeros(nb, INT)  # g_k: 1 when the next block of the line has this colour
        same = lay.has_next_block[:-1] & (lay.block_colour[1:] == lay.block_colour[:-1]) if nb else np.zeros(0, bool)
        gap_rule[:-1] = same
        is_gap = t == r
        where = block_first_state[blk] + t
        lines = np.flatnonzero(active_line)
        at_start = self.line_first_state[lines]

        self.state_line = np.empty(num_states, INT)
        self.state_block = np.empty(num_states, INT)
        self.state_t = np.empty(num_states, INT)
        self.state_colour = np.empty(num_states, INT)
        self.state_lo = np.empty(num_states, INT)
        self.state_hi = np.empty(num_states, INT)
        self.state_line[where], self.state_line[at_start] = lay.block_line[blk], lines
        self.state_block[where], self.state_block[at_start] = blk, first_block[lines]
        self.state_t[where], self.state_t[at_start] = t, -1
        self.state_colour[where], self.state_colour[at_start] = np.where(is_gap, 0, lay.block_colour[blk]), 0
        self.state_lo[where], self.state_lo[at_start] = e + t, 0
        self.state_hi[where] = e + t + d - is_gap + is_gap * gap_rule[blk]
        self.state_hi[at_start] = lay.line_margin[lines] - 1
        self.state_q = np.arange(num_states, dtype=INT) - self.line_first_state[self.state_line] + 1

        # cells of the active lines: the run of states whose interval holds the cell
        length = np.where(active_line, lay.line_length, 0)
        self.cell_line = np.repeat(np.arange(lay.num_lines, dtype=INT), length)
        self.cell_pos = np.arange(self.cell_line.size, dtype=INT) - np.repeat(np.cumsum(length) - length, length)
        big = int(lay.line_length.max(initial=0)) + 1
        key = self.cell_line * big + self.cell_pos
        self.cell_first_state = np.searchsorted(self.state_line * big + self.state_hi, key, side="left")
        cell_states = np.searchsorted(self.state_line * big + self.state_lo, key, side="right") - self.cell_first_state
        self.cell_first_var = np.zeros(self.cell_line.size + 1, INT)
        np.cumsum(cell_states, out=self.cell_first_var[1:])
        self.var_cell = np.repeat(np.arange(self.cell_line.size, dtype=INT), cell_states)
        self.var_state = (np.arange(self.num_vars, dtype=INT) - self.cell_first_var[self.var_cell]
                          + self.cell_first_state[self.var_cell])
        #: the row variables come first: those of the cells of lines below ``height``
        self.num_row_vars = int(self.cell_first_var[np.searchsorted(self.cell_line, lay.height, side="left")])

    @classmethod
    def of(cls, puzzle: Puzzle) -> LineAutomaton:
        return cls(Layout.of(puzzle))

    @property
    def num_vars(self) -> int:
        return int(self.cell_first_var[-1])

    @cached_property
    def var_line(self) -> np.ndarray:
        """The line of each variable."""
        return self.cell_line[self.var_cell]

    @cached_property
    def var_pos(self) -> np.ndarray:
        """The cell ``j`` (along its line) of each variable."""
        return self.cell_pos[self.var_cell]

    @cached_property
    def var_colour(self) -> np.ndarray:
        """The colour of each variable's state (0: background)."""
        return self.state_colour[self.var_state]

    @cached_property
    def is_row(self) -> np.ndarray:
        return np.arange(self.num_vars) < self.num_row_vars

    @cached_property
    def qubo_sign(self) -> np.ndarray:
        """:data:`ROW_SIGN` for a row variable, :data:`COLUMN_SIGN` for a column one (int8)."""
        return np.where(self.is_row, ROW_SIGN, COLUMN_SIGN).astype(np.int8)

    def labels(self) -> list[str]:
        """``a{i}[j][q]`` (rows) and ``b{j}[i][q]`` (columns), in variable order."""
        h = self.layout.height
        tails = [f"{q}]" for q in range(int(self.state_q.max(initial=0)) + 1)]
        out: list[str] = []
        q_first = self.state_q[self.cell_first_state].tolist()
        counts = np.diff(self.cell_first_var).tolist()
        for line, pos, q, n in zip(self.cell_line.tolist(), self.cell_pos.tolist(), q_first, counts):
            head = f"a{line}[{pos}][" if line < h else f"b{line - h}[{pos}]["
            out.extend(map(head.__add__, tails[q:q + n]))
        return out

    # -- the automaton ------------------------------------------------------------------------
    def successors(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Which of ``q``, ``q + 1``, ``q + 2`` the automaton may go to from each of *state* (global states).

        Returns:
            Three bool arrays: a self-loop (state 1 and the gap states), a step to the next
            state (all but the line's last), a jump over the gap (a block's last cell when the
            next block has another colour).
        """
        lay = self.layout
        blk, t = self.state_block[state], self.state_t[state]
        loop = self.state_colour[state] == 0
        last = state + 1 == self.line_first_state[self.state_line[state] + 1]
        next_other = lay.has_next_block[blk] & (lay.block_colour[np.minimum(blk + 1, lay.num_blocks - 1)]
                                                != lay.block_colour[blk])
        jump = (t == lay.block_length[blk] - 1) & next_other
        return loop, ~last, jump

    def next_cell_end(self) -> np.ndarray:
        """One past the last variable of the next cell of each variable's line (its own cell's end at the last cell)."""
        cell = self.var_cell
        last_cell = self.cell_pos[cell] == self.layout.line_length[self.cell_line[cell]] - 1
        return self.cell_first_var[np.where(last_cell, cell + 1, cell + 2)]

    def allowed_next(self, var: np.ndarray) -> np.ndarray:
        """How many variables of the next cell each of *var* may be followed by (0 at a line's last cell)."""
        cell = self.var_cell[var]
        state = self.var_state[var]
        last_cell = self.cell_pos[cell] == self.layout.line_length[self.cell_line[cell]] - 1
        nxt = np.minimum(cell + 1, self.cell_line.size - 1)
        lo = self.cell_first_state[nxt]
        hi = lo + (self.cell_first_var[nxt + 1] - self.cell_first_var[nxt])
        count = np.zeros(var.size, INT)
        for step, ok in enumerate(self.successors(state)):
            target = state + step
            count += ok & (target >= lo) & (target < hi)
        return np.where(last_cell, 0, count)

    # -- where a variable lands -----------------------------------------------------------------
    def var_slots(self, var: np.ndarray) -> np.ndarray:
        """The slot of each of *var* (which must have a colour) in its view, int64."""
        lay = self.layout
        line, pos = self.var_line[var], self.var_pos[var]
        h, w = lay.height, lay.width
        cell = np.where(line < h, line * w + pos, pos * w + (line - h))
        return cell * lay.num_colours + (self.var_colour[var] - 1)

    def entries(self, var: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(variable, slot)`` of those of *var* whose state has a colour (the others cover no slot)."""
        owner = var[self.var_colour[var] > 0]
        return owner, self.var_slots(owner)

    def slot_entries(self, rows: bool) -> SlotEntries:
        """The view's coloured variables, each covering its cell in its colour (``+1``), in variable order."""
        view = np.arange(self.num_row_vars, dtype=INT) if rows else np.arange(self.num_row_vars, self.num_vars,
                                                                              dtype=INT)
        var, slot = self.entries(view)
        return SlotEntries(var, slot, np.ones(var.size, np.int8))

    def left_aligned(self, rows: bool) -> np.ndarray:
        """The picture of the lines without variables (``d = 0``: they cannot move), per slot.

        The same constant as one-hot's: the blocks of those lines, at their only place.
        """
        return OneHot(self.layout).left_aligned(rows)

    # -- the rules --------------------------------------------------------------------------------
    @cached_property
    def shape(self) -> PositionFamily:
        """``(1 - sum_q a[j][q])^2`` for every cell of a line with variables (``position``: the cell)."""
        first = self.cell_first_var[:-1]
        return PositionFamily(first, self.cell_first_var[1:] - 1, self.state_block[self.cell_first_state],
                              self.cell_pos.copy())

    @cached_property
    def order(self) -> PairFamily:
        """``a[j][q] * a[j+1][q']`` for every pair of possible states with no transition ``q -> q'``.

        In variable order of ``a[j][q]``, then of ``a[j+1][q']``; ``block`` is ``q``'s block,
        ``position`` the cell ``j``.
        """
        u, v = self.forbidden_pairs(np.arange(self.num_vars, dtype=INT))
        return PairFamily(u, v, self.state_block[self.var_state[u]], self.var_pos[u], (1, 1))

    def forbidden_pairs(self, var: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(u, v)``: every variable ``v`` of the next cell that may not follow ``u``, for ``u`` in *var* (ascending)."""
        cell = self.var_cell[var]
        last_cell = self.cell_pos[cell] == self.layout.line_length[self.cell_line[cell]] - 1
        nxt = np.minimum(cell + 1, self.cell_line.size - 1)
        lo = np.where(last_cell, 0, self.cell_first_var[nxt])
        cnt = np.where(last_cell, 0, self.cell_first_var[nxt + 1] - lo)
        u = np.repeat(var, cnt)
        v = np.arange(u.size, dtype=INT) + np.repeat(lo - (np.cumsum(cnt) - cnt), cnt)
        step = self.var_state[v] - self.var_state[u]
        loop, forward, jump = (np.repeat(a, cnt) for a in self.successors(self.var_state[var]))
        keep = ~(((step == 0) & loop) | ((step == 1) & forward) | ((step == 2) & jump))
        return u[keep], v[keep]

    # -- samples and bounds -----------------------------------------------------------------------
    @cached_property
    def _block_starts(self) -> tuple[np.ndarray, np.ndarray]:
        """``(blocks, vars)``: the blocks with variables and, ``d + 1`` per block, the variable of its first
        cell's state at cell ``e_k + s`` for ``s = 0 .. d``."""
        lay = self.layout
        blocks = np.flatnonzero(lay.block_margin > 0)
        firsts = np.flatnonzero(self.state_t == 0)  # the first-cell state of every active block
        d1 = lay.block_margin[blocks] + 1
        state = np.repeat(firsts, d1)
        s = np.arange(state.size, dtype=INT) - np.repeat(np.cumsum(d1) - d1, d1)
        line = self.state_line[state]
        pos = lay.block_start[self.state_block[state]] + s
        cell = self.line_cell_first[line] + pos
        return blocks, self.cell_first_var[cell] + state - self.cell_first_state[cell]

    @cached_property
    def line_cell_first(self) -> np.ndarray:
        """The first cell record of each line (lines without variables have none)."""
        length = np.where(self.layout.line_margin > 0, self.layout.line_length, 0)
        return np.cumsum(length) - length

    def shifts_of_columns(self, xt: np.ndarray) -> np.ndarray:
        """A block's shift is the first ``s`` whose first-cell state at ``e_k + s`` is 1 (0 when none is)."""
        out = np.zeros((xt.shape[1], self.layout.num_blocks), INT)
        blocks, var = self._block_starts
        if blocks.size == 0:
            return out
        d1 = self.layout.block_margin[blocks] + 1
        s = np.arange(var.size, dtype=INT) - np.repeat(np.cumsum(d1) - d1, d1)
        big = np.iinfo(np.int32).max
        val = np.where(xt[var] != 0, s.astype(np.int32)[:, None], big)
        first = np.minimum.reduceat(val, np.cumsum(d1) - d1, axis=0)
        first[first == big] = 0
        out[:, blocks] = first.T
        return out

    def fixed_by_bounds(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """The value of every variable when each block's shift lies in ``[lo, hi]`` (-1 where it is not decided).

        With ``s`` block ``k``'s shift and ``j`` the variable's cell:

        * state 1 (before block 0): ``j < e_0 + s_0``;
        * cell ``t`` of block ``k``: ``j = e_k + s_k + t``;
        * the gap state after block ``k``: ``j >= e_k + s_k + r_k`` and, when a block follows,
          ``j < e_{k+1} + s_{k+1}``.

        A condition that no shift in the bounds meets gives 0, one that every shift meets gives 1.
        """
        lay = self.layout
        lo, hi = np.asarray(lo, INT), np.asarray(hi, INT)
        state = self.var_state
        blk, t = self.state_block[state], self.state_t[state]
        j = self.var_pos
        e, r = lay.block_start[blk], lay.block_length[blk]
        start, cell, gap = t < 0, (t >= 0) & (t < r), t == r
        at = j - e - t  # a block cell: the shift that puts it here
        can = np.where(start, j < e + hi[blk], (lo[blk] <= at) & (at <= hi[blk]))
        must = np.where(start, j < e + lo[blk], (lo[blk] == at) & (hi[blk] == at))
        # gap: s_k <= j - e_k - r_k, and s_{k+1} > j - e_{k+1} when block k + 1 exists
        room = j - e - r
        nxt = np.minimum(blk + 1, max(lay.num_blocks - 1, 0))
        has_next = lay.has_next_block[blk]
        before = j - lay.block_start[nxt]
        can_gap = (lo[blk] <= room) & (~has_next | (hi[nxt] > before))
        must_gap = (hi[blk] <= room) & (~has_next | (lo[nxt] > before))
        can = np.where(gap, can_gap, can)
        must = np.where(gap, must_gap, must & (start | cell))
        values = np.full(self.num_vars, -1, np.int8)
        values[~can] = 0
        values[must] = 1
        return values

    def encode(self, grid: np.ndarray) -> np.ndarray:
        """The assignment of a grid that satisfies every clue (``ValueError`` when one does not hold)."""
        walls = self.layout.encode(grid)  # the domain wall's: a block's shift is its number of leading ones
        return self.encode_shifts(self.layout.shifts_of_columns(walls[:, None].astype(np.int8))[0])

    def encode_shifts(self, shifts: np.ndarray) -> np.ndarray:
        """The assignment of the block shifts *shifts*: each line's automaton run over the picture they paint."""
        shifts = np.asarray(shifts, INT)
        return (self.fixed_by_bounds(shifts, shifts) == 1).astype(np.int8)
