"""Puzzle -> Qubo in the one-hot encoding: the sibling of :mod:`nonoqubo.model.build`.

The energy (variables ``x[k][s]``, 1 when block ``k`` is shifted by ``s``; see
:mod:`nonoqubo.model.onehot`), with weights ``A, B, C``
(:class:`~nonoqubo.model.weights.Weights`)::

    A * sum_blocks (1 - sum_s x[k][s])^2                         one position per block
  + B * sum_{k, s' < s} x[k][s] * x[k+1][s']                      block order (gap rule in e_k)
  + C * sum_slots (L + sum_row x - sum_column x)^2                cells (L: the fixed lines' picture)

expanded over binary variables (``x*x = x``), like terms merged, zeros
dropped, no auxiliary variables.  Term by term:

* offset: ``A`` per block with variables, ``C * sum_slots L^2``;
* linear: ``-A`` for every variable, and ``C (1 + 2 sign L[slot])`` for every
  cell it covers (``sign`` +1 for a row variable, -1 for a column one);
* a pair of one line (``u = x[k][s] < v = x[k'][s']``): ``2A`` when ``k' = k``,
  ``B`` when ``k' = k + 1`` and ``s' < s``, and ``2C`` times the cells the two
  cover in common when their blocks have one colour;
* a row variable and a column variable: ``-2C`` when they cover one slot (a
  row and a column meet in one cell, so at most one).

The pairs are generated in their final ``(row, col)`` order, with no sort: a
variable's partners of higher index are first those of its own line, read off a
grid of (its shift) x (the variables of the blocks it can meet) in row-major
order, then, for a row variable, the column variables that cover one of its
cells, in column order (the column entries grouped by slot once).  The work is
done in chunks of blocks, so that the temporary arrays stay small.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> linear, row, col, quad, offset = build_onehot_arrays(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> linear.size, row.size, offset
    (8, 8, 4)
"""

from __future__ import annotations

import numpy as np

from ._families import EXACT_VARIABLES, quad_dtype
from .encoding import Layout
from .onehot import OneHot
from .puzzle import Puzzle
from .weights import DEFAULT_WEIGHTS, Weights

__all__ = ["build_onehot_arrays", "count_onehot_terms", "count_random", "count_terms"]

INT = np.int64
IDX = np.int32
#: segments (a variable and one block it meets) handled at once
_CHUNK = 1 << 15


def build_onehot_arrays(puzzle: Puzzle, layout: Layout | None = None, weights: Weights = DEFAULT_WEIGHTS,
                        geometry: OneHot | None = None
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The expanded one-hot model as ``(linear, row, col, quad, offset)`` arrays.

    ``linear`` int64, ``row``/``col`` int32, ``quad`` the smallest integer type
    that holds its biases (int8 at weights 1 for blocks up to 61 cells);
    ``row < col``, sorted by ``(row, col)``, each pair once and nonzero.
    """
    lay = layout or Layout.of(puzzle)
    geo = geometry or OneHot(lay)
    a_w, b_w, c_w = (int(v) for v in weights)
    n = geo.num_vars
    nrow = geo.num_row_vars
    if n >= 1 << 31:  # pragma: no cover
        raise ValueError(f"{n} variables is more than nonoqubo can index")
    c0 = geo.left_aligned(rows=True).astype(INT) - geo.left_aligned(rows=False)
    with_vars = geo.block_vars > 0
    offset = c_w * int(np.dot(c0, c0)) + a_w * int(np.count_nonzero(with_vars))

    linear = _linear(lay, geo, weights)

    r_max = int(lay.block_length.max(initial=0))
    bias_type = quad_dtype(2 * a_w + b_w + 2 * c_w * max(r_max, 1))

    # the blocks each block meets in its line: [b, b + partners[b])
    nb = lay.num_blocks
    e, r, colour = lay.block_start, lay.block_length, lay.block_colour
    nv = geo.block_vars
    first = geo.block_first_var
    partners = _reach(lay, geo)
    segs = nv * partners  # one segment per (variable, partner block)
    seg_start = np.zeros(nb + 1, INT)
    np.cumsum(segs, out=seg_start[1:])

    # column entries grouped by slot, in variable order
    col_owner, col_slot = geo.entries(np.arange(nrow, n, dtype=INT))
    order = np.argsort(col_slot, kind="stable")
    col_sorted = col_owner[order].astype(IDX)
    num_slots = lay.height * lay.width * lay.num_colours
    per_slot = np.bincount(col_slot, minlength=num_slots)
    slot_start = np.cumsum(per_slot) - per_slot
    del col_owner, col_slot, order

    bounds = np.unique(np.concatenate((np.searchsorted(seg_start, np.arange(0, int(seg_start[-1]), _CHUNK),
                                                       side="right") - 1, [0, nb])))
    rows_out, cols_out, quads_out = [], [], []
    for b0, b1 in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        u0, u1 = int(first[b0]), int(first[b1])
        if u1 == u0:
            continue
        # the bias tables of the chunk's block pairs (b, b'), over o = s' - s in -d .. d
        pb = np.repeat(np.arange(b0, b1, dtype=INT), partners[b0:b1])
        pq = np.arange(pb.size, dtype=INT) - np.repeat(np.cumsum(partners[b0:b1]) - partners[b0:b1], partners[b0:b1])
        pb2 = pb + pq
        d = lay.block_margin[pb]
        span = 2 * d + 1
        tstart = np.cumsum(span) - span
        tp = np.repeat(np.arange(pb.size, dtype=INT), span)
        o = np.arange(int(span.sum()), dtype=INT) - np.repeat(tstart, span) - d[tp]
        shift = (e[pb2] - e[pb])[tp] + o  # where the partner starts, from the block's start
        ov = np.minimum(r[pb][tp], shift + r[pb2][tp]) - np.maximum(shift, 0)
        np.maximum(ov, 0, out=ov)
        table = (2 * c_w) * ov * (colour[pb] == colour[pb2])[tp]
        table += (2 * a_w) * (pq == 0)[tp] + b_w * (pq == 1)[tp]
        table = table.astype(bias_type)
        del tp, o, shift, ov
        # the segments: every variable of the chunk times each partner block, in order
        blk, s, q, lo, cnt = _segments(lay, geo, partners, seg_start, b0, b1)
        pair = (np.cumsum(partners[b0:b1]) - partners[b0:b1])[blk - b0] + q  # index into pb
        dd = lay.block_margin[blk]
        b2 = blk + q
        at = np.cumsum(cnt) - cnt
        total = int(cnt.sum())
        v_w = np.arange(total, dtype=IDX)
        v_w += np.repeat((first[b2] + lo - at).astype(IDX), cnt)
        idx = np.arange(total, dtype=IDX)  # int32: the chunk's tables are small
        idx += np.repeat((tstart[pair] + lo - s + dd - at).astype(IDX), cnt)
        q_w = table[idx]
        u_seg = first[blk] + s
        del q, pair, dd, b2, lo, at, idx, pb, pq, pb2, d, span, tstart
        count_w = np.bincount(u_seg - u0, weights=cnt, minlength=u1 - u0).astype(INT)
        del u_seg, blk, s, cnt
        # cross pairs of the chunk's row variables
        x1 = min(u1, nrow)
        count_x = np.zeros(u1 - u0, INT)
        if x1 > u0:
            owner, slot = geo.entries(np.arange(u0, x1, dtype=INT))
            cnt = per_slot[slot]
            at = np.cumsum(cnt) - cnt
            src = np.arange(int(cnt.sum()), dtype=INT)
            src += np.repeat(slot_start[slot] - at, cnt)
            v_x = col_sorted[src]
            count_x[: x1 - u0] = np.bincount(owner - u0, weights=cnt, minlength=x1 - u0).astype(INT)
            del owner, slot, cnt, at, src
        else:
            v_x = np.zeros(0, IDX)
        inside = np.repeat(np.tile(np.array([True, False]), u1 - u0),
                           np.stack((count_w, count_x), axis=1).reshape(-1))
        m = inside.size
        out_c = np.empty(m, IDX)
        out_q: np.ndarray = np.empty(m, bias_type)
        out_c[inside], out_q[inside] = v_w, q_w
        np.logical_not(inside, out=inside)
        out_c[inside] = v_x
        out_q[inside] = -2 * c_w
        rows_out.append(np.repeat(np.arange(u0, u1, dtype=IDX), count_w + count_x))
        cols_out.append(out_c)
        quads_out.append(out_q)
    if not rows_out:
        return linear, np.zeros(0, IDX), np.zeros(0, IDX), np.zeros(0, bias_type), offset
    return linear, np.concatenate(rows_out), np.concatenate(cols_out), np.concatenate(quads_out), offset


def _reach(lay: Layout, geo: OneHot) -> np.ndarray:
    """The partner blocks of every block, ``[b, reach[b])``: those of its line it can meet (itself first)."""
    nb = lay.num_blocks
    key = lay.block_line * (int(lay.line_length.max(initial=0)) + 1) + lay.block_start
    reach = np.searchsorted(key, key + lay.block_length + lay.block_margin, side="left")
    reach = np.maximum(reach, np.arange(nb) + 1 + geo.has_next_block)
    return np.where(geo.block_vars > 0, reach - np.arange(nb), 0)


def _segments(lay: Layout, geo: OneHot, partners: np.ndarray, seg_start: np.ndarray, b0: int, b1: int
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The in-line partners of the variables of blocks ``b0 .. b1-1``, as segments.

    One segment per (variable ``x[k][s]``, partner block ``k' = k + q``), in variable
    order then ``q``: the partners are ``x[k'][lo .. lo + cnt - 1]``, every bias nonzero
    (``k' = k``: the later shifts; ``k' = k + 1``: the shifts ``s' < s``, the order
    pairs, which hold every overlap too; further blocks of one colour: the overlaps).

    Returns:
        ``(block, s, q, lo, cnt)`` per segment (int64).
    """
    e, r, colour = lay.block_start, lay.block_length, lay.block_colour
    blk = np.repeat(np.arange(b0, b1, dtype=INT), (geo.block_vars * partners)[b0:b1])
    local = np.arange(blk.size, dtype=INT) - (seg_start[blk] - seg_start[b0])
    npart = partners[blk]
    s = local // npart
    q = local - s * npart
    del local, npart
    dd = lay.block_margin[blk]
    b2 = blk + q
    lo = np.where(q == 0, s + 1, np.where(q == 1, 0, np.maximum(0, s + e[blk] - e[b2] - r[b2] + 1)))
    hi = np.where(q == 0, dd, np.where(q == 1, s - 1, np.minimum(dd, s + e[blk] - e[b2] + r[blk] - 1)))
    hi = np.where((q > 1) & (colour[blk] != colour[b2]), -1, hi)
    return blk, s, q, lo, np.maximum(hi - lo + 1, 0)


def count_onehot_terms(puzzle: Puzzle, layout: Layout | None = None, weights: Weights = DEFAULT_WEIGHTS,
                       geometry: OneHot | None = None) -> tuple[int, int, int]:
    """``(variables, linear terms, quadratic terms)`` of the one-hot model, exactly, without building it.

    Counts the segments of :func:`_segments` and the column entries of every row
    variable's cells: time and memory proportional to the variables times the
    blocks they meet, not to the terms.
    """
    lay = layout or Layout.of(puzzle)
    geo = geometry or OneHot(lay)
    n, nrow = geo.num_vars, geo.num_row_vars
    linear = _linear(lay, geo, weights)
    partners = _reach(lay, geo)
    seg_start = np.zeros(lay.num_blocks + 1, INT)
    np.cumsum(geo.block_vars * partners, out=seg_start[1:])
    bounds = np.unique(np.concatenate((np.searchsorted(seg_start, np.arange(0, int(seg_start[-1]), _CHUNK),
                                                       side="right") - 1, [0, lay.num_blocks])))
    quadratic = 0
    for b0, b1 in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        quadratic += int(_segments(lay, geo, partners, seg_start, b0, b1)[4].sum())
    _, col_slot = geo.entries(np.arange(nrow, n, dtype=INT))
    per_slot = np.bincount(col_slot, minlength=lay.height * lay.width * lay.num_colours)
    for v0 in range(0, nrow, _CHUNK):
        _, slot = geo.entries(np.arange(v0, min(nrow, v0 + _CHUNK), dtype=INT))
        quadratic += int(per_slot[slot].sum())
    return n, int(np.count_nonzero(linear)), quadratic


def _linear(lay: Layout, geo: OneHot, weights: Weights) -> np.ndarray:
    """``-A``, and ``C (1 + 2 sign L[slot])`` for every cell a variable covers (int64 per variable)."""
    a_w, _, c_w = (int(v) for v in weights)
    n = geo.num_vars
    c0 = geo.left_aligned(rows=True).astype(INT) - geo.left_aligned(rows=False)
    owner, slot = geo.entries(np.arange(n, dtype=INT))
    r_var = lay.block_length[geo.var_block]
    sums = np.bincount(owner, weights=c0[slot], minlength=n).astype(INT)
    return -a_w + c_w * (r_var + 2 * geo.qubo_sign.astype(INT) * sums)


# -- the size before building (model/estimate) ---------------------------------------------------
def count_terms(puzzle: Puzzle, layout: Layout, weights: Weights | None = None) -> tuple[int, int]:
    """``(variables, terms)`` of the one-hot model, exactly (:func:`count_onehot_terms`).

    Past :data:`~nonoqubo.model._families.EXACT_VARIABLES`, a per-line bound: a variable meets
    at most every shift of its line's blocks, and in each of the cells it covers (at most the
    line's length) every variable of the crossing line.
    """
    lay = layout
    m = np.diff(lay.line_first_block).astype(np.float64)
    d1 = np.where(lay.line_margin > 0, lay.line_margin + 1, 0).astype(np.float64)
    variables = int((m * d1).sum())
    if variables > EXACT_VARIABLES:
        length = lay.line_length.astype(np.float64)
        per_line = m * d1
        most_cross = float(per_line.max(initial=0.0))
        return variables, int((per_line * (1 + m * d1 + length * most_cross)).sum())
    n, linear, quadratic = count_onehot_terms(puzzle, lay, Weights.of(weights), OneHot(lay))
    return n, linear + quadratic


def count_random(width: int, height: int, density: float) -> tuple[float, float]:
    """``(variables, terms)`` expected of a random picture's one-hot model: ``m (d + 1)`` variables a
    line, each meeting about ``1.3 (d + 1)`` of its line's (its own block's other shifts, the next
    block's earlier ones, overlaps) and, in each of the ``r`` cells it covers, the column variables
    that cover that cell."""
    p = float(density)
    variables = 0.0
    views = []  # (variables, d + 1, block length, variables covering a cell) of the rows, then the columns
    for length, lines in ((width, height), (height, width)):
        m = p + (length - 1) * p * (1 - p)
        d = max(0.0, length - length * p - (m - 1))
        r = length * p / max(m, 1e-9)
        per_line = m * (d + 1) if d > 0 else 0.0
        variables += per_line * lines
        views.append((per_line * lines, d + 1, r, per_line * r / max(1, length)))
    in_line = sum(n * (1.3 * d1 + 1) for n, d1, _, _ in views)  # 1.3: the farther overlaps
    cross = views[0][0] * views[0][2] * views[1][3]
    return variables, in_line + cross
