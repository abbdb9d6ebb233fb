"""The domain wall's builder: the expanded model of the QUBO++ "Nonogram" case study, as arrays.

The encoding's builder and exact size counter, registered in
:mod:`nonoqubo.model.encodings` (:data:`~nonoqubo.model.encodings.DOMAIN_WALL`);
:func:`nonoqubo.model.build.build` is the front that picks it.

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
a cell.  The slots, the left-aligned pictures and the next-block test come
from :class:`~nonoqubo.model.geometry.DomainWall`, which the decoder and the
constrained form share; what stays here is the expansion.

Expanding a slot's square ``(c0 + sum_i c_i x_i)^2`` gives ``c0^2`` to the
offset, ``c_i^2 + 2 c0 c_i`` to each linear bias and ``2 c_i c_j`` to each pair.
All of it is computed on NumPy arrays, entry by entry, with no Python loop per
term or per cell.

The pairs are generated in their final ``(row, col)`` order, without a sort,
from the model's structure.  A variable's partners of higher index are first
those of its own line (they meet it at offsets fixed by the two blocks alone:
see :class:`_Segments`), then, for a row variable, the column variables that
share one of its two slots, in column order (:class:`_Cross`: a row and a
column variable share at most one slot).  Counting both per variable gives
every pair's place; the arrays are filled in chunks of variables, so the
temporary arrays stay small beside the result (int32 indices, int8 biases).

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> linear, row, col, quad, offset = build_arrays(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> linear.size, row.size, offset
    (4, 4, 2)
"""

from __future__ import annotations

import numpy as np

from ._families import EXACT_VARIABLES, pair_arrays, quad_dtype
from .encoding import Layout
from .geometry import DomainWall
from .puzzle import Puzzle
from .weights import DEFAULT_WEIGHTS, Weights

__all__ = ["build_arrays", "count_terms", "count_random"]

INT = np.int64
#: index dtype for per-pair arrays (halves the builder's peak memory)
IDX = np.int32


def build_arrays(puzzle: Puzzle, layout: Layout | None = None, weights: Weights = DEFAULT_WEIGHTS,
                 geometry: DomainWall | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The expanded model as ``(linear, row, col, quad, offset)`` arrays.

    ``linear`` is int64, ``row`` and ``col`` int32, ``quad`` int8 (every bias
    of this model lies in -3 .. 4 at weights 1; wider weights may need a wider
    type); ``row < col``, pairs sorted by ``(row, col)``, each once and nonzero,
    generated in that order (no sort).  *weights* ``(A, B, C)`` multiply the
    wall-shape, block-order and cell terms.
    """
    lay = layout or (geometry.layout if geometry is not None else Layout.of(puzzle))
    geo = geometry or DomainWall(lay)
    a_w, b_w, c_w = (int(v) for v in weights)
    bias_type = quad_dtype(max(a_w + 2 * c_w, 4 * c_w, b_w))
    n = lay.num_vars
    if n >= 1 << 31:  # pragma: no cover - far beyond any puzzle that fits in memory
        raise ValueError(f"{n} variables is more than nonoqubo can index")

    # constant part of every slot: row coverage minus column coverage at zero shifts
    c0 = geo.left_aligned(rows=True) - geo.left_aligned(rows=False)
    offset = c_w * int(np.dot(c0.astype(INT), c0.astype(INT)))

    vb = lay.var_block
    p = lay.var_p
    slot_a, slot_b = geo.slots
    sign = geo.qubo_sign  # (row colour - column colour)
    # linear: c^2 + 2 c0 c for each of the two entries of every variable (coefficients -s at A, +s at B)
    linear = 2 + 2 * sign * (c0[slot_b].astype(INT) - c0[slot_a])
    if c_w != 1:
        linear *= c_w
    # wall shape (1 - w_p) w_{p+1} = w_{p+1} - w_p w_{p+1}: +1 to every w_{p+1}
    linear[1:] += a_w * (p[1:] > 0) if a_w != 1 else (p[1:] > 0)
    # block order w[k][p] (1 - w[k+1][p]) = w[k][p] - w[k][p] w[k+1][p]: +1 to every w[k][p] with a next block
    linear += b_w * geo.has_next_block[vb] if b_w != 1 else geo.has_next_block[vb]

    seg = _Segments(geo, (a_w, b_w, c_w), bias_type)
    nrow = lay.num_row_vars
    cross = _Cross(lay, slot_a[:nrow], slot_b[:nrow], slot_a[nrow:], slot_b[nrow:], nrow, c_w, bias_type)
    # pairs of variable u: its in-line partners (all of its own line, so below every
    # column variable), then for a row variable its column partners
    wcount = seg.count
    xcount = np.zeros(n, INT)
    xcount[:nrow] = cross.count
    count = wcount + xcount
    start, row, col, quad = pair_arrays(count, bias_type)
    # fill in chunks of variables, bounding the temporary arrays (the grid of candidate pairs)
    cells = seg.per_var
    p32 = p.astype(np.int32)
    cell_start = np.zeros(n + 1, INT)
    np.cumsum(cells, out=cell_start[1:])
    bounds = _distinct(np.concatenate((
        np.searchsorted(cell_start, np.arange(0, int(cell_start[-1]), _CHUNK), side="right") - 1,
        np.searchsorted(start, np.arange(0, int(start[-1]), _CHUNK), side="right") - 1, [n])))
    for u0, u1 in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        v_w, q_w = seg.pairs(u0, u1, p32, cells, cell_start)
        lo, hi = int(start[u0]), int(start[u1])
        if u0 >= nrow:  # column variables: in-line partners only
            col[lo:hi], quad[lo:hi] = v_w, q_w
            continue
        x1 = min(u1, nrow)
        v_x, b_x = cross.pairs(u0, x1)
        if u1 > nrow:  # a chunk across the row/column boundary: column variables' pairs go last
            tail = int(start[nrow])
            k = int(np.sum(wcount[nrow:u1]))
            col[tail:hi], quad[tail:hi] = v_w[v_w.size - k:], q_w[q_w.size - k:]
            v_w, q_w, hi = v_w[:v_w.size - k], q_w[:q_w.size - k], tail
        inside = np.repeat(np.tile(np.array([True, False]), x1 - u0),
                           np.stack((wcount[u0:x1], xcount[u0:x1]), axis=1).reshape(-1))
        out_c, out_q = col[lo:hi], quad[lo:hi]
        out_c[inside], out_q[inside] = v_w, q_w
        np.logical_not(inside, out=inside)
        out_c[inside], out_q[inside] = v_x, b_x
    return linear, row, col, quad, offset


#: candidate pairs (or output pairs) handled at once by build_arrays: small enough for the
#: temporary arrays to stay in the CPU caches (1 << 22 ran 20-40 % slower than this)
_CHUNK = 1 << 17
#: bias dtype of the built model: every bias lies in -3 .. 4
BIAS = np.int8


class _Segments:
    """The in-line pairs of every variable, as diagonal segments of block pairs.

    Two variables ``w[k][p]`` and ``w[k'][q]`` (``k <= k'``) of one line meet
    in a slot, in the wall shape (``k' = k``, ``q = p + 1``) or in the block
    order (``k' = k + 1``, ``q = p``) only at a fixed offset ``o = q - p`` that
    depends on the blocks alone (``e``: left-aligned start, ``r``: length)::

        k' = k:     o = 1 (shape, bias -1),  o = r (B of p = A of q, -2)
        k' > k, same colour, with base = e_k - e_k':
                    o = base - r'   (A = B', -2)      o = base         (A = A', +2)
                    o = base + r - r' (B = B', +2)    o = base + r     (B = A', -2)
        k' = k + 1: o = 0 (order, bias -1), after every offset above (they are < 0)

    Offsets listed in this order increase, and equal ones (``r = 1`` for the
    first pair, ``r = r'`` for the middle two) are merged into one segment; no
    merged bias is zero.  So a variable's in-line partners, in increasing
    order, are the segments of its block, in order, whose range of ``p``
    (``0 <= p < d`` and ``0 <= p + o < d``) holds its ``p``.  Only blocks
    ``k'`` that start before ``e_k + r_k + d`` can meet block ``k``.
    """

    def __init__(self, geo: DomainWall, weights: tuple[int, int, int] = (1, 1, 1), bias_type: type = np.int8) -> None:
        a_w, b_w, c_w = weights
        lay = geo.layout
        d_all = lay.block_margin
        e, r, colour = lay.block_start, lay.block_length, lay.block_colour
        nb = lay.num_blocks
        key = lay.block_line * (int(lay.line_length.max(initial=0)) + 1) + e  # sorted
        reach = np.searchsorted(key, key + r + d_all, side="left")  # first block no slot of b meets
        reach = np.maximum(reach, np.arange(nb) + 1 + geo.has_next_block)  # the block order pair
        reach = np.where(d_all > 0, reach - np.arange(nb), 0)
        bb = np.repeat(np.arange(nb, dtype=INT), reach)
        bp = bb + np.arange(bb.size, dtype=INT) - np.repeat(np.cumsum(reach) - reach, reach)
        same_b = bb == bp
        same_c = (colour[bb] == colour[bp]) & ~same_b
        base = e[bb] - e[bp]
        r1, r2, d = r[bb], r[bp], d_all[bb]
        offs = np.stack((
            np.where(same_b, 1, base - r2),
            np.where(same_b, r1, base + np.minimum(0, r1 - r2)),
            base + np.maximum(0, r1 - r2),
            base + r1,
            np.zeros_like(base),
        ), axis=1)
        bias = np.stack((
            np.where(same_b, np.where(r1 == 1, -a_w - 2 * c_w, -a_w), -2 * c_w),
            np.where(same_b, -2 * c_w, np.where(r1 == r2, 4 * c_w, 2 * c_w)),
            np.full_like(base, 2 * c_w),
            np.full_like(base, -2 * c_w),
            np.full_like(base, -b_w),
        ), axis=1)
        valid = np.stack((
            same_b | same_c,
            (same_b & (r1 > 1)) | same_c,
            same_c & (r1 != r2),
            same_c,
            (bp == bb + 1) & geo.has_next_block[bb],
        ), axis=1)
        valid &= (offs > -d[:, None]) & (offs < d[:, None])
        keep = valid.reshape(-1)
        o = offs.reshape(-1)[keep]
        sb = np.repeat(bb, 5)[keep]
        d = d_all[sb]
        first = lay.block_first_var
        self.lo = np.maximum(0, -o).astype(np.int32)
        self.size = (np.minimum(d, d - o) - self.lo).astype(np.int32)  # p - lo in [0, size)
        # partner of p: v = first[k'] + p + o = vlo + (p - lo)
        self.vlo = (first[np.repeat(bp, 5)[keep]] + o + self.lo).astype(IDX)
        self.bias = bias.reshape(-1)[keep].astype(bias_type)
        per_block = np.bincount(sb, minlength=nb)
        self.block_first_seg = np.cumsum(per_block) - per_block
        self.per_var = per_block[lay.var_block]
        # exact number of in-line partners of each variable: segments cover p in [lo, lo + size)
        n = lay.num_vars
        at = first[sb] + self.lo
        diff = np.bincount(at, minlength=n + 1) - np.bincount(at + self.size, minlength=n + 1)
        self.count = np.cumsum(diff[:n])
        self.var_block = lay.var_block

    def pairs(self, u0: int, u1: int, p: np.ndarray, cells: np.ndarray,
              cell_start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Partners and biases of the in-line pairs of variables ``u0 .. u1-1``, in order.

        A grid of (variable, segment of its block) cells, row by row, keeps the
        cells whose segment holds the variable's ``p``.
        """
        per = cells[u0:u1]
        g0 = int(cell_start[u0])
        g = int(cell_start[u1]) - g0
        s = np.arange(g, dtype=IDX)
        s += np.repeat((self.block_first_seg[self.var_block[u0:u1]] - (cell_start[u0:u1] - g0)).astype(IDX), per)
        pc = np.repeat(p[u0:u1], per)
        pc -= self.lo[s]
        ok = pc.view(np.uint32) < self.size[s].view(np.uint32)  # 0 <= p - lo < size
        s = s[ok]
        v = pc[ok]
        v += self.vlo[s]
        return v, self.bias[s]


class _Cross:
    """The pairs of one row variable and one column variable: one per shared slot.

    The column entries (two per column variable) are grouped by slot, in
    variable order, once; a row variable's column partners are then the
    entries of its slot A followed by those of its slot B (B is in a later
    column, so every partner there comes later).  Bias: ``2 c_row c_col`` with
    ``c = -1, +1`` at a row variable's A, B and ``+1, -1`` at a column variable's.
    """

    def __init__(self, lay: Layout, row_a: np.ndarray, row_b: np.ndarray,
                 col_a: np.ndarray, col_b: np.ndarray, nrow: int, c_w: int = 1, bias_type: type = np.int8) -> None:
        slots = np.stack((col_a, col_b), axis=1).reshape(-1)
        order = np.argsort(slots, kind="stable")
        self.var = (order // 2 + nrow).astype(IDX)
        self.coef: np.ndarray = np.where(order % 2 == 0, 1, -1).astype(bias_type)
        self.side: np.ndarray = np.array([-2 * c_w, 2 * c_w], bias_type)
        num_slots = lay.height * lay.width * lay.num_colours
        per_slot = np.bincount(slots, minlength=num_slots)
        slot_start = np.cumsum(per_slot) - per_slot
        ent = np.stack((row_a, row_b), axis=1).reshape(-1)  # (A, B) of every row variable
        self.ent_count = per_slot[ent]
        self.ent_first = slot_start[ent]
        self.count = self.ent_count[0::2] + self.ent_count[1::2]

    def pairs(self, u0: int, u1: int) -> tuple[np.ndarray, np.ndarray]:
        """Partners and biases of the column pairs of row variables ``u0 .. u1-1``, in order."""
        cnt = self.ent_count[2 * u0:2 * u1]
        first = self.ent_first[2 * u0:2 * u1]
        at = np.cumsum(cnt) - cnt
        src = np.arange(int(cnt.sum()), dtype=INT)
        src += np.repeat(first - at, cnt)
        sides = np.tile(self.side, u1 - u0)
        return self.var[src], np.repeat(sides, cnt) * self.coef[src]


def _distinct(values: np.ndarray) -> np.ndarray:
    """The sorted distinct *values* (``np.unique`` imports ``numpy.ma`` on first use: 6 ms of a build)."""
    values = np.sort(values)
    return values[np.concatenate(([True], values[1:] != values[:-1]))]



# -- the size before building (model/estimate) ---------------------------------------------------
def count_terms(puzzle: Puzzle, layout: Layout, weights: Weights | None = None) -> tuple[int, int]:
    """``(variables, terms)`` of the domain-wall model: the variables exactly, the terms as an upper bound.

    ``Σ linear + wall shape + block order`` is at most ``3`` per variable, and the cell penalty
    ``(R - C)²`` of a cell touched by ``a_r`` row and ``a_c`` column variables adds at most
    ``a_r(a_r - 1)/2 + a_c(a_c - 1)/2 + a_r a_c`` pairs (see :mod:`nonoqubo.model.estimate`); past
    :data:`~nonoqubo.model._families.EXACT_VARIABLES`, a per-line bound.  *weights* do not change it.
    """
    lay = layout
    variables = lay.num_vars
    if variables > EXACT_VARIABLES:  # per-variable arrays would be big themselves: a per-line bound
        m = np.diff(lay.line_first_block).astype(np.float64)
        d = lay.line_margin.astype(np.float64)
        return variables, int((m * d * (3 + 4 * np.minimum(m, d + 1))).sum())
    block = lay.var_block
    line = lay.block_line[block]
    first = lay.block_start[block] + lay.var_p  # the cell e_k + p; the other is r_k further
    cells = np.concatenate((first, first + lay.block_length[block]))
    line = np.concatenate((line, line))
    row = line < puzzle.height
    w = puzzle.width  # cell number i * width + j, from the row (i = line) or the column (j = line - H)
    at_row, at_col = line[row] * w + cells[row], cells[~row] * w + (line[~row] - puzzle.height)
    if puzzle.width * puzzle.height <= 8 * cells.size + 1_000_000:  # a count per cell: no sort
        a_r = np.bincount(at_row, minlength=puzzle.width * puzzle.height)
        a_c = np.bincount(at_col, minlength=puzzle.width * puzzle.height)
        cross = int(a_r @ a_c)
    else:  # far more cells than touches (long empty lines): count the touched cells only
        rows, a_r = np.unique(at_row, return_counts=True)
        cols, a_c = np.unique(at_col, return_counts=True)
        _, at_r, at_c = np.intersect1d(rows, cols, assume_unique=True, return_indices=True)
        cross = int(a_r[at_r] @ a_c[at_c])
    pairs = (a_r * (a_r - 1) // 2).sum() + (a_c * (a_c - 1) // 2).sum() + cross
    return variables, 3 * variables + int(pairs)


def count_random(width: int, height: int, density: float) -> tuple[float, float]:
    """``(variables, terms)`` expected of a random *width* x *height* picture's domain-wall model.

    A line of ``L`` cells has on average ``m = p + (L - 1) p (1 - p)`` blocks and margin
    ``d = L - L p - (m - 1)``, so about ``m d`` variables, each touching two of its cells; the
    cell pairs follow as in :func:`count_terms` with the touches spread evenly.
    """
    p = float(density)
    variables = 0.0
    touch = {}
    for length, lines in ((width, height), (height, width)):
        m = p + (length - 1) * p * (1 - p)
        d = max(0.0, length - length * p - (m - 1))
        per_line = m * d
        variables += per_line * lines
        touch[length] = 2 * per_line / max(1, length)  # touches a cell gets from its row (or column)
    a_r, a_c = touch[width], touch[height]
    cells = float(width) * float(height)
    pairs = cells * (a_r * max(0.0, a_r - 1) / 2 + a_c * max(0.0, a_c - 1) / 2 + a_r * a_c)
    return variables, 3 * variables + pairs
