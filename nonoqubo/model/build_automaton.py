"""Puzzle -> Qubo in the line-automaton encoding: the sibling of :mod:`nonoqubo.model.build_onehot`.

The energy (variables ``a[j][q]``, 1 when a line's automaton is in state ``q``
after cell ``j``; see :mod:`nonoqubo.model.line_automaton`), with weights
``A, B, C`` (:class:`~nonoqubo.model.weights.Weights`)::

    A * sum_cells (1 - sum_q a[j][q])^2                       one state per cell
  + B * sum_{j, q -/-> q'} a[j][q] * a[j+1][q']                no forbidden transition
  + C * sum_slots (L + sum_row a - sum_column a)^2              cells (L: the fixed lines' picture)

expanded over binary variables (``x*x = x``), like terms merged, zeros
dropped, no auxiliary variables.  Term by term:

* offset: ``A`` per cell of a line with variables, ``C * sum_slots L^2``;
* linear: ``-A`` for every variable, and ``C (1 + 2 sign L[slot])`` for one
  whose state has a colour (``sign`` +1 for a row variable, -1 for a column one);
* a pair of one cell (``u < v``): ``2A``, plus ``2C`` when their states have one
  colour (not the background);
* a pair of consecutive cells: ``B`` when no transition leads from ``u``'s
  state to ``v``'s (never a pair of one cell, so nothing merges);
* a row variable and a column variable: ``-2C`` when they cover one slot (a
  variable covers at most one, so each such pair once).

The pairs are generated in their final ``(row, col)`` order, with no sort: a
variable's partners of higher index are the later variables of its own cell and
every variable of the next cell of its line (one contiguous run, from which the
at most three allowed successors are dropped), then, for a row variable, the
column variables that cover its slot, in column order (the column entries grouped
by slot once).  The work is done in chunks of variables, so that the temporary
arrays stay small.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> linear, row, col, quad, offset = build_automaton_arrays(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> linear.size, row.size, offset
    (16, 20, 8)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._families import EXACT_VARIABLES, pair_arrays, quad_dtype
from .encoding import Layout
from .line_automaton import AUTOMATON, LineAutomaton
from .puzzle import Puzzle
from .weights import DEFAULT_WEIGHTS, Weights

__all__ = ["build_automaton_arrays", "count_automaton_terms", "count_random", "count_terms", "count_variables"]

INT = np.int64
IDX = np.int32

#: candidate pairs handled at once
_CHUNK = 1 << 20


class _Plan:
    """What the builder and the exact count share: per variable, its in-line and cross partners."""

    def __init__(self, geo: LineAutomaton) -> None:
        self.geo = geo
        n, nrow = geo.num_vars, geo.num_row_vars
        lay = geo.layout
        #: one past the last variable of the next cell (the in-line candidates are u + 1 .. end - 1)
        self.inline_end = geo.next_cell_end()
        self.inline = self.inline_end - np.arange(n, dtype=INT) - 1 - geo.allowed_next(np.arange(n, dtype=INT))
        # column entries grouped by slot, in variable order
        col_owner, col_slot = geo.entries(np.arange(nrow, n, dtype=INT))
        order = np.argsort(col_slot, kind="stable")
        self.col_sorted = col_owner[order].astype(IDX)
        num_slots = lay.height * lay.width * lay.num_colours
        self.per_slot = np.bincount(col_slot, minlength=num_slots)
        self.slot_start = np.cumsum(self.per_slot) - self.per_slot
        #: the slot of every row variable (-1: background, no slot)
        self.row_slot = np.full(nrow, -1, INT)
        owner, slot = geo.entries(np.arange(nrow, dtype=INT))
        self.row_slot[owner] = slot
        self.cross = np.zeros(n, INT)
        self.cross[owner] = self.per_slot[slot]

    @property
    def count(self) -> np.ndarray:
        """Pairs of every variable as the first of the pair."""
        return self.inline + self.cross


def build_automaton_arrays(puzzle: Puzzle, layout: Layout | None = None, weights: Weights = DEFAULT_WEIGHTS,
                           geometry: LineAutomaton | None = None
                           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The expanded line-automaton model as ``(linear, row, col, quad, offset)`` arrays.

    ``linear`` int64, ``row``/``col`` int32, ``quad`` the smallest integer type that
    holds its biases (int8 at weights 1); ``row < col``, sorted by ``(row, col)``,
    each pair once and nonzero.
    """
    lay = layout or Layout.of(puzzle)
    geo = geometry or LineAutomaton(lay)
    a_w, b_w, c_w = (int(v) for v in weights)
    n = geo.num_vars
    if n >= 1 << 31:  # pragma: no cover
        raise ValueError(f"{n} variables is more than nonoqubo can index")
    offset = _offset(geo, weights)
    linear = _linear(geo, weights)
    bias_type = quad_dtype(max(2 * a_w + 2 * c_w, b_w))
    plan = _Plan(geo)
    count = plan.count
    start, row, col, quad = pair_arrays(count, bias_type)
    candidates = np.zeros(n + 1, INT)
    np.cumsum(plan.inline_end - np.arange(n, dtype=INT) - 1, out=candidates[1:])
    bounds = np.unique(np.concatenate((np.searchsorted(candidates, np.arange(0, int(candidates[-1]), _CHUNK),
                                                       side="right") - 1, [0, n])))
    colour = geo.var_colour
    nrow = geo.num_row_vars
    for u0, u1 in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        us = np.arange(u0, u1, dtype=INT)
        cnt = plan.inline_end[u0:u1] - us - 1
        u = np.repeat(us, cnt)
        v = np.arange(u.size, dtype=INT) + np.repeat(us + 1 - (np.cumsum(cnt) - cnt), cnt)
        same_cell = geo.var_cell[v] == geo.var_cell[u]
        step = geo.var_state[v] - geo.var_state[u]
        loop, forward, jump = (np.repeat(a, cnt) for a in geo.successors(geo.var_state[us]))
        keep = same_cell | ~(((step == 0) & loop) | ((step == 1) & forward) | ((step == 2) & jump))
        one_colour = (colour[u] == colour[v]) & (colour[u] > 0)
        bias = np.where(same_cell, 2 * a_w + 2 * c_w * one_colour, b_w)[keep].astype(bias_type)
        v_w = v[keep].astype(IDX)
        del u, v, same_cell, step, loop, forward, jump, keep, one_colour
        x1 = min(u1, nrow)
        count_x = np.zeros(u1 - u0, INT)
        if x1 > u0:
            count_x[: x1 - u0] = plan.cross[u0:x1]
            slot = plan.row_slot[u0:x1]
            cx = count_x[: x1 - u0]
            at = np.cumsum(cx) - cx
            src = np.arange(int(cx.sum()), dtype=INT) + np.repeat(plan.slot_start[np.maximum(slot, 0)] - at, cx)
            v_x = plan.col_sorted[src]
        else:
            v_x = np.zeros(0, IDX)
        inside = np.repeat(np.tile(np.array([True, False]), u1 - u0),
                           np.stack((plan.inline[u0:u1], count_x), axis=1).reshape(-1))
        lo, hi = int(start[u0]), int(start[u1])
        out_c, out_q = col[lo:hi], quad[lo:hi]
        out_c[inside], out_q[inside] = v_w, bias
        np.logical_not(inside, out=inside)
        out_c[inside] = v_x
        out_q[inside] = -2 * c_w
    return linear, row, col, quad, offset


def count_automaton_terms(puzzle: Puzzle, layout: Layout | None = None, weights: Weights = DEFAULT_WEIGHTS,
                          geometry: LineAutomaton | None = None) -> tuple[int, int, int]:
    """``(variables, linear terms, quadratic terms)`` of the line-automaton model, exactly, without building it.

    Counts every variable's partners (:class:`_Plan`, the builder's own count) in time and
    memory proportional to the variables, not to the terms.
    """
    lay = layout or Layout.of(puzzle)
    geo = geometry or LineAutomaton(lay)
    linear = _linear(geo, weights)
    return geo.num_vars, int(np.count_nonzero(linear)), int(_Plan(geo).count.sum())


def count_variables(layout: Layout) -> np.ndarray:
    """The variables of every line, from its blocks alone (int64 per line; 0 for a line with ``d = 0``).

    A line of margin ``d >= 1`` has ``d`` for state 1, ``d + 1`` for every cell of a block and
    ``d + g_k`` for the gap state after block ``k`` (``g_k`` the gap rule, 0 after the last).
    """
    lay = layout
    nb = lay.num_blocks
    gap = np.zeros(nb, INT)
    if nb:
        gap[:-1] = lay.has_next_block[:-1] & (lay.block_colour[1:] == lay.block_colour[:-1])
    d = lay.block_margin
    per_block = (d + 1) * lay.block_length + d + gap
    lines = np.bincount(lay.block_line, weights=per_block, minlength=lay.num_lines).astype(INT)
    return np.where(lay.line_margin > 0, lines + lay.line_margin, 0)


def count_terms(puzzle: Puzzle, layout: Layout, weights: Weights | None = None) -> tuple[int, int]:
    """``(variables, terms)`` of the line-automaton model before building it: exact up to
    :data:`EXACT_VARIABLES` (:func:`count_automaton_terms`); past it, a per-line bound (a cell has at
    most ``d + 1`` states, so a variable meets at most ``2 d + 1`` of its line's and, at its slot, at
    most ``d + 1`` of any crossing column's)."""
    per_line = count_variables(layout)
    variables = int(per_line.sum())
    if variables > EXACT_VARIABLES:
        d = layout.line_margin.astype(np.float64)
        most_cross = float(d[layout.height:].max(initial=0.0)) + 1
        return variables, int((per_line * (2 * d + 2 + most_cross)).sum())
    n, linear, quadratic = count_automaton_terms(puzzle, layout, Weights.of(weights))
    return n, linear + quadratic


def count_random(width: int, height: int, density: float) -> tuple[float, float]:
    """``(variables, terms)`` expected of a random *width* x *height* picture's model (cells black with *density*).

    A line of ``L`` cells has on average ``m = p + (L - 1) p (1 - p)`` blocks and margin
    ``d = L - L p - (m - 1)``; a cell then has about ``min(j, L - 1 - j) + 2`` possible states,
    at most ``d + 1`` (fewer near the ends), a fraction ``p`` of them coloured.  Its pairs are the
    cell's own ``s (s - 1) / 2``, about ``s^2`` with the next cell (all but the allowed
    successors), and the coloured row states times the coloured column states of the cell.
    """
    p = float(density)
    variables = 0.0
    views = []  # (variables, in-line pairs, coloured states per cell) of the rows, then the columns
    for length, lines in ((width, height), (height, width)):
        m = p + (length - 1) * p * (1 - p)
        d = max(0.0, length - length * p - (m - 1))
        if d <= 0:
            views.append((0.0, 0.0, 0.0))
            continue
        j = np.arange(length, dtype=np.float64)
        states = np.minimum(np.minimum(j, length - 1 - j) + 2, d + 1)
        per_line = float(states.sum())
        inline = float((states * (states - 1) / 2).sum() + (states[:-1] * states[1:]).sum() - 2 * per_line)
        variables += per_line * lines
        views.append((per_line * lines, max(inline, 0.0) * lines, per_line * p / length))
    cross = float(width) * float(height) * views[0][2] * views[1][2]
    return variables, views[0][0] + views[1][0] + views[0][1] + views[1][1] + cross


def _offset(geo: LineAutomaton, weights: Weights) -> int:
    """``A`` per cell with variables, ``C * sum_slots L^2``."""
    a_w, _, c_w = (int(v) for v in weights)
    c0 = geo.left_aligned(rows=True).astype(INT) - geo.left_aligned(rows=False)
    return a_w * int(geo.cell_line.size) + c_w * int(np.dot(c0, c0))


def _linear(geo: LineAutomaton, weights: Weights) -> np.ndarray:
    """``-A``, and ``C (1 + 2 sign L[slot])`` for a variable with a colour (int64 per variable)."""
    a_w, _, c_w = (int(v) for v in weights)
    n = geo.num_vars
    c0 = geo.left_aligned(rows=True).astype(INT) - geo.left_aligned(rows=False)
    linear = np.full(n, -a_w, INT)
    owner, slot = geo.entries(np.arange(n, dtype=INT))
    linear[owner] += c_w * (1 + 2 * geo.qubo_sign[owner].astype(INT) * c0[slot])
    return linear


#: the encoding's entry in :data:`nonoqubo.model.encodings.REGISTRY` (the fields of an
#: :class:`~nonoqubo.model.encodings.Encoding`): everything about it is here and in its geometry
REGISTRATION: dict[str, Any] = {
    "name": AUTOMATON,
    "title": "the Gecode chapter's regular constraint: one automaton state per cell of every line, labels a/b",
    "geometry": LineAutomaton,
    "builder": build_automaton_arrays,
    "counter": count_terms,
    "random_counter": count_random,
    "row_letter": "a",
    "column_letter": "b",
    "labels_note": ("variable name a (rows) or b (columns) with subscripts [i, j, q] is the line-automaton label "
                    "a{i}[j][q]: line i, cell j (0-based) and state q (1-based) of the line's automaton; 1 = the "
                    "automaton is in state q after cell j; ids are nonoqubo's variable order"),
    "shape_words": "one state per cell",
    "shape_section": "cells not in exactly one automaton state",
    "description": "line-automaton encoding (the regular constraint of Gecode's nonogram chapter)",
    "colour": True,
    "constrained": False,
    "order_words": "forbidden transitions",
    "order_section": "forbidden automaton transitions",
    "shape_item": ("{line}, cell {position} (0-based): {chosen} of its states {first} .. {second} are 1, "
                   "not exactly one (penalty {penalty})"),
    "order_item": ("{line}, cells {position} and {next} (0-based): {first} = 1 and {second} = 1, a transition "
                   "the clue's automaton does not make (penalty {penalty})"),
}
