"""The geometry of an encoding: where each variable lands in the grid, and which pairs it penalises.

Every part of nonoqubo that turns variables into a picture, or a picture's
disagreements into penalties, asks the same few questions: the builder
(:mod:`nonoqubo.model.build`) to expand the energy, the constrained form
(:mod:`nonoqubo.model.constrained`) to write its rows, the decoder
(:mod:`nonoqubo.answers.decode`) to account for every unit of energy of a
sample, presolve (:mod:`nonoqubo.logic.presolve`) to turn shift bounds into
fixed variables.  This module answers them once, vectorised over variables,
so that the promise "the decoder's penalties add up exactly to the energy"
rests on one piece of code and not on copies that must agree.

**Slots and views.**  A *slot* is a cell and a block colour, numbered
``(i * W + j) * C + (c - 1)`` for cell ``(i, j)`` and colour ``c`` of ``C``
(in black and white ``C = 1`` and a slot is a cell).  The grid is seen twice:
from the rows (the *row view*) and from the columns (the *column view*).  In
each view the coverage of a slot (how many of the view's blocks of that colour
cover the cell) is a constant, the *left-aligned* picture, plus a linear form
in the variables::

    coverage(view, slot) = left_aligned(view)[slot] + sum_{entries (v, slot, a)} a * x[v]

The energy's cell part is ``sum_slots (row coverage - column coverage)^2``, so
in the QUBO a row entry counts with sign ``+1`` (:data:`ROW_SIGN`) and a column
entry with ``-1`` (:data:`COLUMN_SIGN`).

**The domain wall** (:class:`DomainWall`, the encoding of the QUBO++ case
study; the variables are those of :class:`~nonoqubo.model.encoding.Layout`).
Block ``k`` of a line starts at ``e_k`` when left-aligned, is ``r_k`` long and
can shift right by ``0 .. d``; ``w[k][p] = 1`` exactly when it shifts by more
than ``p``.  Shifting by one more moves the block's first cell off ``e + p``
and onto ``e + r + p``, so ``w[k][p]`` has exactly two entries, both in the
block's colour::

    (v, slot of cell e_k + p,       -1)      "A": the cell the block leaves
    (v, slot of cell e_k + r_k + p, +1)      "B": the cell the block reaches

The rules of the encoding are two *families* of pair terms, each costing 1
when its two variables take one pattern of values (:class:`PairFamily`)::

    shape:  (1 - w[k][p]) * w[k][p+1]      pattern (0, 1): a 1 after a 0, a broken wall
    order:  w[k][p] * (1 - w[k+1][p])      pattern (1, 0): block k moved further than k+1

**The one-hot encoding** (:class:`~nonoqubo.model.onehot.OneHot`: ``x[k][s] = 1``
when block ``k`` shifts by exactly ``s``; a variable covers the ``r_k`` cells
``e_k + s .. e_k + s + r_k - 1`` with ``+1``; its shape family is the per-block
square ``(1 - sum_s x[k][s])^2``, its order family the pairs ``x[k][s] *
x[k+1][s']`` with ``s' < s``, pattern ``(1, 1)``) lives in its own module and
satisfies :class:`Geometry` the same way: its own variables and labels, slot
entries, families, shifts from samples, bounds-to-values rule.  Both keep the
:class:`~nonoqubo.model.encoding.Layout` for lines and blocks (starts, lengths,
colours, names, the grid painted by block shifts: those do not depend on the
encoding).  Each is registered as an
:class:`~nonoqubo.model.encodings.Encoding` (its geometry class, builder, size
counters, label letters and report words) in :mod:`nonoqubo.model.encodings`;
a model carries its encoding (``Qubo.encoding``) and
:func:`~nonoqubo.model.encodings.geometry_of` returns the geometry; the decoder
consumes only :class:`Geometry`.  Each has its own builder
(:mod:`nonoqubo.model.build_domainwall`, :mod:`nonoqubo.model.build_onehot`);
the constrained form is the domain wall's only.  The slot entries, families and signs both are made of are in
:mod:`nonoqubo.model._families` (re-exported here).

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> g = DomainWall.of(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> g.labels()
    ['y0[0][0]', 'y1[0][0]', 'z0[0][0]', 'z1[0][0]']
    >>> e = g.slot_entries(rows=True)
    >>> e.var.tolist(), e.slot.tolist(), e.coef.tolist()
    ([0, 1, 0, 1], [0, 2, 1, 3], [-1, -1, 1, 1])
    >>> g.left_aligned(rows=True).tolist(), g.left_aligned(rows=False).tolist()
    ([1, 0, 1, 0], [1, 1, 0, 0])
"""

from __future__ import annotations

from functools import cached_property
from typing import Protocol, runtime_checkable

import numpy as np

from ._families import COLUMN_SIGN, INT, ROW_SIGN, Family, PairFamily, SlotEntries
from .encoding import Layout
from .puzzle import Puzzle

__all__ = ["COLUMN_SIGN", "ROW_SIGN", "DomainWall", "Family", "Geometry", "PairFamily", "SlotEntries"]


@runtime_checkable
class Geometry(Protocol):
    """What an encoding answers about its variables (see the module docstring).

    Lines and blocks (their starts, lengths, colours, names, and the grid a
    set of block shifts paints) do not depend on the encoding: they are
    :attr:`layout`'s.  Variables are numbered ``0 .. num_vars - 1`` in the
    encoding's variable order, the order of :meth:`labels`.
    """

    layout: Layout

    @property
    def num_vars(self) -> int:
        """How many variables the encoding has."""
        ...

    def labels(self) -> list[str]:
        """The label of every variable, in variable order."""
        ...

    def slot_entries(self, rows: bool) -> SlotEntries:
        """The entries ``(variable, slot, coefficient)`` of the row view (or of the column view)."""
        ...

    def left_aligned(self, rows: bool) -> np.ndarray:
        """The constant coverage of every slot of the view, ``H * W * C`` int8."""
        ...

    @property
    def shape(self) -> Family:
        """The terms that keep each block's variables a valid code of one shift."""
        ...

    @property
    def order(self) -> Family:
        """The terms that keep block ``k + 1`` of a line at least as far right as block ``k``."""
        ...

    def shifts_of_columns(self, xt: np.ndarray) -> np.ndarray:
        """``(S, num_blocks)`` block shifts of samples given as ``(num_vars, S)`` int8 columns."""
        ...

    def fixed_by_bounds(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """The value (0/1, or -1 for none) every variable takes when each block's shift is in ``[lo, hi]``."""
        ...

    def encode(self, grid: np.ndarray) -> np.ndarray:
        """The assignment (0/1 per variable) of a grid that satisfies every clue (``ValueError`` if one fails)."""
        ...

    def encode_shifts(self, shifts: np.ndarray) -> np.ndarray:
        """The assignment (int8, 0/1 per variable) of the block shifts *shifts* (one per block of the layout).

        The inverse of :meth:`shifts_of_columns` on valid codes: a picture given as a grid is
        encoded grid -> shifts (the layout's) -> this encoding's variables.
        """
        ...


class DomainWall:
    """The domain-wall encoding's geometry over a :class:`Layout` (see the module docstring).

    Every array is made on first use and kept; build one per layout and share it.

    Args:
        layout: the puzzle's layout (its variables are this encoding's).
    """

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    @classmethod
    def of(cls, puzzle: Puzzle) -> DomainWall:
        return cls(Layout.of(puzzle))

    @property
    def num_vars(self) -> int:
        return self.layout.num_vars

    def labels(self) -> list[str]:
        return self.layout.labels()

    # -- where a variable lands ------------------------------------------------------------
    @cached_property
    def is_row(self) -> np.ndarray:
        """Whether each variable belongs to a row (else to a column)."""
        return self.layout.block_line[self.layout.var_block] < self.layout.height

    @cached_property
    def slots(self) -> tuple[np.ndarray, np.ndarray]:
        """``(slot_a, slot_b)``: the two slots of every variable, in its own view (int64).

        ``A = e + p`` (coefficient ``-1``) and ``B = e + r + p`` (``+1``) along
        its line, both in its block's colour.
        """
        lay = self.layout
        vb = lay.var_block
        line = lay.block_line[vb]
        is_row = self.is_row
        pos_a = lay.block_start[vb] + lay.var_p
        pos_b = pos_a + lay.block_length[vb]
        nc, w = lay.num_colours, lay.width
        colour = lay.block_colour[vb] - 1

        def slot(pos: np.ndarray) -> np.ndarray:
            return np.where(is_row, line * w + pos, pos * w + (line - lay.height)) * nc + colour

        return slot(pos_a), slot(pos_b)

    @cached_property
    def qubo_sign(self) -> np.ndarray:
        """:data:`ROW_SIGN` for a row variable, :data:`COLUMN_SIGN` for a column one (int8)."""
        return np.where(self.is_row, ROW_SIGN, COLUMN_SIGN).astype(np.int8)

    def slot_entries(self, rows: bool) -> SlotEntries:
        """Every A entry (``-1``) of the view's variables in variable order, then every B entry (``+1``)."""
        nrow = self.layout.num_row_vars
        view = slice(0, nrow) if rows else slice(nrow, self.num_vars)
        var = np.arange(self.num_vars, dtype=INT)[view]
        slot_a, slot_b = self.slots
        m = var.size
        coef = np.concatenate((np.full(m, -1, np.int8), np.full(m, 1, np.int8)))
        return SlotEntries(np.concatenate((var, var)), np.concatenate((slot_a[view], slot_b[view])), coef)

    def left_aligned(self, rows: bool) -> np.ndarray:
        """The left-aligned (top-aligned for columns) picture of every row or column, per slot.

        Returns:
            ``H * W * C`` int8: 1 at slot ``(i * W + j) * C + (c - 1)`` when the
            aligned blocks paint cell ``(i, j)`` in colour ``c``.
        """
        lay = self.layout
        nc = lay.num_colours
        grid = np.zeros(lay.height * lay.width * nc, np.int8)
        cell_block, cell = lay.aligned_cells(rows)
        grid[cell * nc + lay.block_colour[cell_block] - 1] = 1
        return grid

    # -- the rules -------------------------------------------------------------------------
    @cached_property
    def has_next_block(self) -> np.ndarray:
        """Whether each block has a next block in its line (bool per block)."""
        return self.layout.has_next_block

    @cached_property
    def shape(self) -> PairFamily:
        """``(w[k][p], w[k][p+1])`` inside every block, pattern ``(0, 1)``: a broken wall."""
        lay = self.layout
        vb = lay.var_block
        first = np.flatnonzero(lay.var_p < lay.block_margin[vb] - 1)
        return PairFamily(first, first + 1, vb[first], lay.var_p[first], (0, 1))

    @cached_property
    def order(self) -> PairFamily:
        """``(w[k][p], w[k+1][p])`` for every block with a next one, pattern ``(1, 0)``."""
        lay = self.layout
        vb = lay.var_block
        first = np.flatnonzero(self.has_next_block[vb])
        block = vb[first]
        return PairFamily(first, first + lay.block_margin[block], block, lay.var_p[first], (1, 0))

    # -- samples and bounds ----------------------------------------------------------------
    def shifts_of_columns(self, xt: np.ndarray) -> np.ndarray:
        """A block's shift is its wall's number of leading ones (:meth:`Layout.shifts_of_columns`)."""
        return self.layout.shifts_of_columns(xt)

    def fixed_by_bounds(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """``w[k][p] = 1`` for ``p < lo``, ``0`` for ``p >= hi``, else -1 (int8 per variable)."""
        lay = self.layout
        blk, p = lay.var_block, lay.var_p
        values = np.full(lay.num_vars, -1, np.int8)
        values[p >= hi[blk]] = 0
        values[p < lo[blk]] = 1
        return values

    def encode(self, grid: np.ndarray) -> np.ndarray:
        """A block's wall is ``shift`` ones then zeros (:meth:`Layout.encode`)."""
        return self.layout.encode(grid)

    def encode_shifts(self, shifts: np.ndarray) -> np.ndarray:
        """``w[k][p] = 1`` exactly for ``p`` below block ``k``'s shift."""
        lay = self.layout
        return (lay.var_p < np.asarray(shifts)[lay.var_block]).astype(np.int8)
