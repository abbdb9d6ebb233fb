"""The one-hot encoding's geometry: one variable per possible shift of every block.

The encoding of Fixstars Amplify's "Picross" example and of the one-hot side
of the domain-wall literature (Chen, Stollenwerk, Chancellor, IEEE TQE 2021).
Block ``k`` of a line starts at ``e_k`` when left-aligned (the
:class:`~nonoqubo.model.encoding.Layout`'s start, which already holds the
colour model's gap rule: one empty cell between consecutive blocks of the same
colour, none between blocks of different colours), is ``r_k`` long and can
shift by ``0 .. d``.  Its variables are ``x[k][s]``, ``s = 0 .. d``, 1 exactly
when the block is shifted by ``s`` (a line with ``d = 0`` has none: its blocks
sit at their only place).  The energy (see :mod:`nonoqubo.model.build_onehot`)::

    shape:  (1 - sum_s x[k][s])^2                 every block at exactly one shift
    order:  sum_{s' < s} x[k][s] * x[k+1][s']     block k+1 no further left than block k allows
    cells:  sum_slots (R - C)^2                   R, C: the row's and the column's coverage

Block ``k + 1`` starts at ``e_{k+1} + s'`` and block ``k`` ends at ``e_k + r_k + s``;
since ``e_{k+1} = e_k + r_k + g`` (``g`` the gap), ``s' >= s`` is exactly the gap
rule, in colour as in black and white.  A variable covers the ``r_k`` cells
``e_k + s .. e_k + s + r_k - 1`` of its line in the block's colour (coefficient
``+1``); the left-aligned constant of a view is the picture of the blocks of
lines without variables.

Variables are ordered as the domain wall's: every row variable by ``(line,
block, shift)``, then every column variable.  Labels: ``r{i}[k][s]`` for row
``i`` and ``c{j}[k][s]`` for column ``j`` (the domain wall's are ``y`` and
``z``), with the flat forms ``r3_1_2`` for LP-like formats.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> g = OneHot.of(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> g.labels()
    ['r0[0][0]', 'r0[0][1]', 'r1[0][0]', 'r1[0][1]', 'c0[0][0]', 'c0[0][1]', 'c1[0][0]', 'c1[0][1]']
    >>> e = g.slot_entries(rows=True)
    >>> e.var.tolist(), e.slot.tolist()
    ([0, 1, 2, 3], [0, 1, 2, 3])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .encoding import LazyLabels, Layout
from ._families import COLUMN_SIGN, ROW_SIGN, PairFamily, SlotEntries
from .puzzle import Puzzle

__all__ = ["OneHot", "OneHotLabels", "PositionFamily"]

INT = np.int64


@dataclass(frozen=True)
class PositionFamily:
    """One term per block with variables: ``(1 - sum_s x[k][s])^2``.

    ``first`` and ``second`` are the block's first and last variable (its
    variables are the contiguous run between), ``position`` is 0.

    Examples:
        >>> f = PositionFamily(np.array([0]), np.array([2]), np.array([0]), np.array([0]))
        >>> f.violations(np.array([[0, 1, 1], [0, 0, 1], [0, 0, 1]], np.int8)).tolist()
        [[1, 0, 4]]
    """

    first: np.ndarray
    second: np.ndarray
    block: np.ndarray
    position: np.ndarray

    def __len__(self) -> int:
        return int(self.first.size)

    def chosen(self, xt: np.ndarray) -> np.ndarray:
        """``(terms, S)`` int64: how many shifts each block takes in each sample."""
        if not self.first.size:
            return np.zeros((0, xt.shape[1]), INT)
        cum = np.zeros((xt.shape[0] + 1, xt.shape[1]), np.int32)
        np.cumsum(xt, axis=0, dtype=np.int32, out=cum[1:])
        return (cum[self.second + 1] - cum[self.first]).astype(INT)

    def violations(self, xt: np.ndarray) -> np.ndarray:
        """``(terms, S)`` int64 penalties ``(1 - chosen)^2``."""
        miss = 1 - self.chosen(xt)
        return miss * miss


class OneHot:
    """The one-hot encoding's geometry over a :class:`Layout` (see the module docstring).

    Satisfies :class:`~nonoqubo.model.geometry.Geometry`; every array is made
    on first use and kept.  Registered as
    :data:`~nonoqubo.model.encodings.ONE_HOT`.
    """

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        lay = layout
        #: variables of each block: d + 1, or 0 when d = 0
        self.block_vars = np.where(lay.block_margin > 0, lay.block_margin + 1, 0).astype(INT)
        self.block_first_var = np.zeros(lay.num_blocks + 1, INT)
        np.cumsum(self.block_vars, out=self.block_first_var[1:])
        self.num_row_vars = int(self.block_first_var[lay.line_first_block[lay.height]])

    @classmethod
    def of(cls, puzzle: Puzzle) -> OneHot:
        return cls(Layout.of(puzzle))

    @property
    def num_vars(self) -> int:
        return int(self.block_first_var[-1])

    @cached_property
    def var_block(self) -> np.ndarray:
        """The block of each variable."""
        return np.repeat(np.arange(self.layout.num_blocks, dtype=INT), self.block_vars)

    @cached_property
    def var_s(self) -> np.ndarray:
        """The shift ``s`` each variable stands for."""
        return np.arange(self.num_vars, dtype=INT) - self.block_first_var[self.var_block]

    @cached_property
    def is_row(self) -> np.ndarray:
        return self.layout.block_line[self.var_block] < self.layout.height

    @cached_property
    def qubo_sign(self) -> np.ndarray:
        """:data:`ROW_SIGN` for a row variable, :data:`COLUMN_SIGN` for a column one (int8)."""
        return np.where(self.is_row, ROW_SIGN, COLUMN_SIGN).astype(np.int8)

    def labels(self) -> list[str]:
        """``r{i}[k][s]`` (rows) and ``c{j}[k][s]`` (columns), in variable order."""
        lay = self.layout
        h = lay.height
        out: list[str] = []
        has = np.flatnonzero(self.block_vars)
        tails = [f"{s}]" for s in range(int(self.block_vars.max(initial=0)))]
        for line, k, n in zip(lay.block_line[has].tolist(), lay.block_k[has].tolist(),
                              self.block_vars[has].tolist()):
            head = f"r{line}[{k}][" if line < h else f"c{line - h}[{k}]["
            out.extend(map(head.__add__, tails[:n]))
        return out

    # -- where a variable lands ------------------------------------------------------------
    def cell_slot(self, block: np.ndarray, pos: np.ndarray) -> np.ndarray:
        """The slot of cell *pos* along the line of *block*, in the block's colour (int64)."""
        lay = self.layout
        line = lay.block_line[block]
        nc, w = lay.num_colours, lay.width
        cell = np.where(line < lay.height, line * w + pos, pos * w + (line - lay.height))
        return cell * nc + (lay.block_colour[block] - 1)

    def entries(self, var: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(variable, slot)`` of every cell the variables *var* cover, by variable then cell."""
        lay = self.layout
        blk = self.var_block[var]
        r = lay.block_length[blk]
        owner = np.repeat(var, r)
        within = np.arange(int(r.sum()), dtype=INT) - np.repeat(np.cumsum(r) - r, r)
        pos = np.repeat(lay.block_start[blk] + self.var_s[var], r) + within
        return owner, self.cell_slot(self.var_block[owner], pos)

    def slot_entries(self, rows: bool) -> SlotEntries:
        """Every cell each variable of the view covers, coefficient ``+1``, by variable then cell."""
        view = np.arange(self.num_row_vars, dtype=INT) if rows else np.arange(self.num_row_vars, self.num_vars,
                                                                              dtype=INT)
        var, slot = self.entries(view)
        return SlotEntries(var, slot, np.ones(var.size, np.int8))

    def left_aligned(self, rows: bool) -> np.ndarray:
        """The picture the blocks of lines without variables paint (they cannot move), per slot."""
        lay = self.layout
        nc = lay.num_colours
        grid = np.zeros(lay.height * lay.width * nc, np.int8)
        cell_block, cell = lay.aligned_cells(rows)
        fixed = lay.block_margin[cell_block] == 0
        grid[cell[fixed] * nc + lay.block_colour[cell_block[fixed]] - 1] = 1
        return grid

    # -- the rules -------------------------------------------------------------------------
    @cached_property
    def has_next_block(self) -> np.ndarray:
        """Whether each block has a next block in its line (bool per block)."""
        return self.layout.has_next_block

    @cached_property
    def shape(self) -> PositionFamily:
        """``(1 - sum_s x[k][s])^2`` for every block with variables."""
        blocks = np.flatnonzero(self.block_vars)
        first = self.block_first_var[blocks]
        return PositionFamily(first, first + self.block_vars[blocks] - 1, blocks, np.zeros(blocks.size, INT))

    @cached_property
    def order(self) -> PairFamily:
        """``x[k][s] * x[k+1][s']`` for ``s' < s``, pattern ``(1, 1)``, in ``(k, s, s')`` order."""
        blocks = np.flatnonzero(self.has_next_block & (self.block_vars > 0))
        d = self.layout.block_margin[blocks]
        per = d * (d + 1) // 2
        blk = np.repeat(blocks, per)
        t = np.arange(int(per.sum()), dtype=INT) - np.repeat(np.cumsum(per) - per, per)
        s = triangle_row(t)  # t = s (s - 1) / 2 + s', 0 <= s' < s
        s2 = t - s * (s - 1) // 2
        first = self.block_first_var[blk] + s
        second = self.block_first_var[blk + 1] + s2
        return PairFamily(first, second, blk, s, (1, 1))

    # -- samples and bounds ----------------------------------------------------------------
    def shifts_of_columns(self, xt: np.ndarray) -> np.ndarray:
        """A block's shift is its first ``s`` with ``x[k][s] = 1`` (0 when none is)."""
        s_count = xt.shape[1]
        out = np.zeros((s_count, self.layout.num_blocks), INT)
        blocks = np.flatnonzero(self.block_vars)
        if blocks.size == 0:
            return out
        big = np.iinfo(np.int32).max
        val = np.where(xt != 0, self.var_s.astype(np.int32)[:, None], big)
        first = np.minimum.reduceat(val, self.block_first_var[blocks], axis=0)
        first[first == big] = 0
        out[:, blocks] = first.T
        return out

    def fixed_by_bounds(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """``x[k][s] = 0`` for a shift outside ``[lo, hi]``; ``1`` for the only one when ``lo = hi``."""
        blk, s = self.var_block, self.var_s
        values = np.full(self.num_vars, -1, np.int8)
        values[(s < lo[blk]) | (s > hi[blk])] = 0
        values[(lo[blk] == hi[blk]) & (s == lo[blk])] = 1
        return values

    def encode(self, grid: np.ndarray) -> np.ndarray:
        """The assignment of a grid that satisfies every clue (``ValueError`` when one does not hold):
        the grid's block shifts (:meth:`Layout.shifts_of_grid`), then :meth:`encode_shifts`."""
        return self.encode_shifts(self.layout.shifts_of_grid(grid))

    def encode_shifts(self, shifts: np.ndarray) -> np.ndarray:
        """The assignment of the block shifts *shifts* (one per block of the layout): 1 at each block's shift."""
        return (self.var_s == np.asarray(shifts)[self.var_block]).astype(np.int8)


def triangle_row(t: np.ndarray) -> np.ndarray:
    """The ``s >= 1`` with ``s (s - 1) / 2 <= t < s (s + 1) / 2`` for every *t* (exact integers)."""
    s = ((1 + np.sqrt(1 + 8 * t.astype(np.float64))) / 2).astype(INT)
    s -= s * (s - 1) // 2 > t
    s += s * (s + 1) // 2 <= t
    return s


class OneHotLabels(LazyLabels):
    """The one-hot labels of a puzzle's variables, made on first use (as :class:`LayoutLabels` does)."""

    def __init__(self, puzzle: Puzzle, geometry: OneHot | None = None) -> None:
        self.geometry = geometry or OneHot.of(puzzle)
        super().__init__(puzzle, self.geometry)
