"""Puzzle -> Qubo: the expanded domain-wall model of the QUBO++ "Nonogram" case study.

The penalty (energy) is::

    sum over lines:  sum_{k,p} (1 - w[k][p]) * w[k][p+1]      wall shape: no 1 after a 0
                   + sum_{k,p} w[k][p] * (1 - w[k+1][p])      block order: later block moves as far
    + sum over cells, sum over block colours c:  (R_c - C_c)^2

expanded over binary variables (``x*x = x``), like terms merged, zeros dropped;
no auxiliary variables.  ``R_c`` is the row's coverage of the cell by its
blocks of colour ``c``, ``C_c`` the column's; in black and white there is one
colour and this is ``(row colour - column colour)^2``, term for term the
QUBO++ model.  The coverage of cell ``j`` by colour ``c`` seen from its line is
linear in the variables::

    R_c(j) = L_c(j) + sum_{k : c_k = c} ( w[k][j - e_k - r_k] - w[k][j - e_k] )

where ``L_c`` is the line's left-aligned picture in colour ``c`` and a ``w``
whose index falls outside ``0 .. d-1`` is left out (it is a constant already
counted in ``L_c``).  So every variable ``w[k][p]`` appears in exactly two
*slots* (a slot is a cell and a colour) of its line, both in its block's
colour: with ``-1`` at ``e_k + p`` and with ``+1`` at ``e_k + r_k + p``.  The
builder below works on slots ``cell * C + (c - 1)``; with ``C = 1`` a slot is
a cell.

Expanding a slot's square ``(c0 + sum_i c_i x_i)^2`` gives ``c0^2`` to the
offset, ``c_i^2 + 2 c0 c_i`` to each linear bias and ``2 c_i c_j`` to each pair.
All of it is computed on NumPy arrays, entry by entry, with no Python loop per
term or per cell.  A pair of one row variable and one column variable meets in
at most one slot, so only pairs within one line can need merging; they are
merged with one sort.

Examples:
    >>> from nonoqubo.puzzle import Puzzle
    >>> q = build(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> q.num_vars, q.num_terms, q.offset
    (4, 4, 2)
"""

from __future__ import annotations

import numpy as np

from .encoding import Layout
from .puzzle import Puzzle
from .qubo import Qubo, merge_pairs

__all__ = ["build", "build_arrays"]

INT = np.int64
#: index dtype for per-pair arrays (halves the builder's peak memory)
IDX = np.int32


def _left_aligned(layout: Layout, rows: bool) -> np.ndarray:
    """The left-aligned (top-aligned for columns) picture of every row or column, per slot.

    Returns:
        ``H * W * C`` int8: 1 at slot ``(i * W + j) * C + (c - 1)`` when the
        aligned blocks paint cell ``(i, j)`` in colour ``c``.
    """
    h, w, nc = layout.height, layout.width, layout.num_colours
    grid = np.zeros(h * w * nc, np.int8)
    blocks = np.flatnonzero((layout.block_line < h) if rows else (layout.block_line >= h))
    lengths = layout.block_length[blocks]
    cell_block = np.repeat(blocks, lengths)
    within = np.arange(int(lengths.sum()), dtype=INT) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    pos = layout.block_start[cell_block] + within
    line = layout.block_line[cell_block]
    cell = line * w + pos if rows else pos * w + (line - h)
    grid[cell * nc + layout.block_colour[cell_block] - 1] = 1
    return grid


def build_arrays(puzzle: Puzzle, layout: Layout | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The expanded model as ``(linear, row, col, quad, offset)`` int64 arrays.

    ``row < col``, pairs sorted by ``(row, col)``, merged and nonzero.
    """
    lay = layout or Layout.of(puzzle)
    h, w = lay.height, lay.width
    n = lay.num_vars

    # constant part of every slot: row coverage minus column coverage at zero shifts
    c0 = _left_aligned(lay, rows=True) - _left_aligned(lay, rows=False)
    offset = int(np.dot(c0.astype(INT), c0.astype(INT)))

    vb = lay.var_block
    p = lay.var_p
    line = lay.block_line[vb]
    start = lay.block_start[vb]
    is_row = line < h
    # the two slots of each variable, along its line: A = e + p (coef -1), B = e + r + p (+1),
    # both in the colour of its block
    pos_a = start + p
    pos_b = pos_a + lay.block_length[vb]
    col_of_line = line - h
    nc = lay.num_colours
    colour = lay.block_colour[vb] - 1

    def cell_id(pos: np.ndarray) -> np.ndarray:
        return np.where(is_row, line * w + pos, pos * w + col_of_line) * nc + colour

    cell_a, cell_b = cell_id(pos_a), cell_id(pos_b)
    sign = np.where(is_row, 1, -1).astype(INT)  # (row colour - column colour)
    coef_a, coef_b = -sign, sign

    # linear: c^2 + 2 c0 c for each of the two entries of every variable
    linear = 2 + 2 * (c0[cell_a] * coef_a + c0[cell_b] * coef_b)

    # wall shape (1 - w_p) w_{p+1} = w_{p+1} - w_p w_{p+1}
    has_next = p < lay.block_margin[vb] - 1
    shape_first = np.flatnonzero(has_next)
    linear[shape_first + 1] += 1
    # block order w[k][p] (1 - w[k+1][p]) = w[k][p] - w[k][p] w[k+1][p]
    nb = lay.num_blocks
    next_same_line = np.zeros(nb, bool)
    next_same_line[:-1] = lay.block_line[1:] == lay.block_line[:-1]
    order_first = np.flatnonzero(next_same_line[vb])
    linear[order_first] += 1
    order_second = order_first + lay.block_margin[vb[order_first]]

    # cell pairs: group the 2n entries by cell, then every pair within a group
    ent_cell = np.concatenate((cell_a, cell_b))
    order = np.argsort(ent_cell, kind="stable")
    ent_var = np.concatenate((np.arange(n, dtype=IDX), np.arange(n, dtype=IDX)))[order]
    ent_coef = np.concatenate((coef_a, coef_b)).astype(np.int8)[order]
    ent_cell = ent_cell[order]
    del order, cell_a, cell_b
    first, second = _pairs_within_groups(ent_cell)
    del ent_cell
    va, vb2 = ent_var[first], ent_var[second]
    cell_bias = (2 * ent_coef[first] * ent_coef[second]).astype(np.int8)
    del first, second
    lo, hi = np.minimum(va, vb2), np.maximum(va, vb2)
    del va, vb2
    row = np.concatenate((lo, shape_first.astype(IDX), order_first.astype(IDX)))
    del lo
    col = np.concatenate((hi, (shape_first + 1).astype(IDX), order_second.astype(IDX)))
    del hi
    bias = np.concatenate((cell_bias, np.full(shape_first.size + order_first.size, -1, np.int8)))
    del cell_bias
    row, col, quad = merge_pairs(row, col, bias, n)
    return linear, row, col, quad, offset


def _pairs_within_groups(group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Positions ``(a, b)``, ``a < b``, of every pair of entries with equal *group*.

    *group* must be sorted.  Fully vectorised: entry ``t`` pairs with every later
    entry of its group, so it starts ``end(t) - t - 1`` pairs.
    """
    size = group.size
    bounds = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1], [True])))
    partners = np.repeat(bounds[1:], np.diff(bounds)) - np.arange(size, dtype=INT) - 1
    first = np.repeat(np.arange(size, dtype=IDX), partners)
    run_start = np.cumsum(partners) - partners
    # pair q of entry t (q counted over all pairs) has b = t + 1 + (q - run_start[t])
    second = np.arange(first.size, dtype=INT)
    second += np.repeat(np.arange(size, dtype=INT) + 1 - run_start, partners)
    return first, second.astype(IDX)


def build(puzzle: Puzzle) -> Qubo:
    """The expanded domain-wall QUBO of *puzzle*, labels and puzzle attached.

    Examples:
        >>> from nonoqubo.puzzle import Puzzle
        >>> q = build(Puzzle.from_picture(["#.", ".#"]))
        >>> q.labels
        ['y0[0][0]', 'y1[0][0]', 'z0[0][0]', 'z1[0][0]']
        >>> int(q.energy([0, 1, 0, 1])[0])
        0
    """
    layout = Layout.of(puzzle)
    linear, row, col, quad, offset = build_arrays(puzzle, layout)
    return Qubo(layout.labels(), linear, row, col, quad, offset, puzzle=puzzle)
