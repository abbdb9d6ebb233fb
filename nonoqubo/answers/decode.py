"""Samples -> block shifts -> grids -> a report per sample, with exact penalty accounting.

A sample gives every variable ``w[k][p]`` of the domain-wall model.  The
decoder works on the whole batch at once, ``(S, N)`` arrays, with index
arrays precomputed from the encoding's geometry
(:class:`~nonoqubo.model.geometry.Geometry`: its slot entries, left-aligned
pictures, penalty families and shifts; the decoder knows nothing else of the
encoding, so a second encoding needs no change here) and the
:class:`~nonoqubo.model.encoding.Layout`'s lines and blocks:

1. **shifts**: a block's shift is its number of leading ones
   (:meth:`Layout.shifts`); from the shifts, the grid seen from the rows and
   the grid seen from the columns (:meth:`Layout.grids`).  The *picture* of a
   sample is the row view.
2. **penalties**, term by term as the QUBO counts them (see
   :mod:`nonoqubo.model.build`):

   * a *broken wall*: ``w[k][p] = 0`` and ``w[k][p+1] = 1`` (penalty 1);
   * a *block-order violation*: ``w[k][p] = 1`` and ``w[k+1][p] = 0``
     (block ``k`` moved further than block ``k+1``; penalty 1);
   * a *disagreeing cell*: ``(row colour - column colour)^2`` where a line's
     colour of cell ``j`` is the linear form
     ``L(j) + sum_k (w[k][j - e_k - r_k] - w[k][j - e_k])``.  With a broken
     wall this *algebraic* colour can be 2 or -1: the report lists it as it
     is, so that the listed penalties add up **exactly** to the QUBO energy.
     In a colour puzzle the same holds per cell *and colour* (a slot): the
     coverage of the cell by the line's blocks of that colour; a conflict
     names its colour, and one cell may conflict in two colours.

3. **lines** of the picture (rows and columns) whose black runs differ from
   their clue (:func:`nonoqubo.logic.check.failing_lines`).

**Encodings and weights.**  A model carries its encoding
(:class:`~nonoqubo.model.encodings.Encoding`; a bare puzzle is the default, the
domain wall) and is decoded through that encoding's geometry, whatever it is.
A one-hot model (:data:`~nonoqubo.model.encodings.ONE_HOT`,
:mod:`nonoqubo.model.onehot`) is decoded so: a block's
shift is its first chosen shift, its *shape* terms are the blocks that do not
take exactly one shift (:class:`PositionCount`, penalty ``(1 - chosen)^2``)
and its *order* terms the pairs ``x[k][s] = x[k+1][s'] = 1`` with ``s' < s``.
A model built with weights ``shape=A,order=B,cell=C`` (``model.weights``)
counts every listed item with its family's weight, so the penalties still add
up to the energy.

A sample is *valid* when its energy is 0 (no broken wall, no order violation,
no disagreeing cell); its picture then satisfies every clue.  Per-sample
Python objects (:class:`Report`) are made only for the samples shown.

Models read from exported files may have had variables fixed by presolve
(``model.fixed``); samples are in the model's variable order
(``model.labels``) and are completed with the fixed values before decoding.
A constrained model (anything with ``constraint_violations``) also reports the
names of the constraints each sample violates.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> p = Puzzle.from_picture(["#.", ".#"])
    >>> [r.valid for r in decode(p, [[0, 1, 0, 1], [1, 1, 0, 1]])]
    [True, False]
    >>> r = decode(p, [1, 1, 0, 1])[0]
    >>> r.energy, [str(c) for c in r.cell_conflicts]
    (2, ['row 1, column 1: row says 0, column says 1 (penalty 1)', 'row 1, column 2: row says 1, column says 0 (penalty 1)'])
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from .._util import notebook
from ..logic.check import LineFailure, failing_lines, line_failures
from ..model.encoding import Completion
from ..model.encodings import DEFAULT, Encoding, encoding_named
from ..model.geometry import Family, Geometry
from ..model.weights import Weights
from ..errors import FormatError, SampleError
from ..model.qubo import Qubo
from ..model.palette import BW, Palette
from ..model.puzzle import Puzzle
from ..samples import SampleBatch, read_samples, samples_from

__all__ = [
    "Analysis", "BrokenWall", "CellConflict", "Decoder", "OrderViolation", "PositionCount", "Report",
    "Reports", "decode",
]

INT = np.int64
#: samples x entries handled at once when summing colours (bounds memory, ~64 MB)
_CHUNK = 1 << 25


# -- report items ----------------------------------------------------------------------------
@dataclass(slots=True)
class _WallTerm:
    """A penalised pair of wall variables; ``block`` is 1-based, ``position`` is ``p`` as in the labels.

    In a colour puzzle ``colours`` names the colour of the block (a broken
    wall) or of the two blocks (an order violation); empty in black and white.
    """

    line: str
    block: int
    position: int
    labels: tuple[str, str]
    penalty: int = 1
    colours: tuple[str, ...] = ()
    #: the encoding's text for this item (:attr:`Encoding.shape_item`/``order_item``), "" for the default
    template: str = ""

    def worded(self) -> str | None:
        """The item in its encoding's own words, or None where the encoding keeps the default text."""
        if not self.template:
            return None
        return self.template.format(line=self.line, block=self.block, position=self.position,
                                    next=self.position + 1, first=self.labels[0], second=self.labels[1],
                                    chosen=getattr(self, "chosen", ""), penalty=self.penalty)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "block": self.block, "position": self.position,
                               "labels": list(self.labels), "penalty": self.penalty}
        if self.colours:
            out["colours"] = list(self.colours)
        return out

    def _block(self, t: int) -> str:
        """``block 2`` or, in colour, ``block 2 (red)``, for the t-th block of the term."""
        return f"{self.block + t}" + (f" ({self.colours[t]})" if t < len(self.colours) else "")


@dataclass(slots=True)
class BrokenWall(_WallTerm):
    """``w[k][p] = 0`` followed by ``w[k][p+1] = 1``: the wall of block ``k`` is not a wall."""

    def __str__(self) -> str:
        return (f"{self.line}, block {self._block(0)}: {self.labels[0]} = 0 but "
                f"{self.labels[1]} = 1 (penalty {self.penalty})")


@dataclass(slots=True)
class PositionCount(_WallTerm):
    """One-hot: block ``k`` takes ``chosen`` shifts, not exactly one (``labels``: its first and last variable)."""

    chosen: int = 0

    def to_dict(self) -> dict[str, Any]:
        out = _WallTerm.to_dict(self)
        out["chosen"] = self.chosen
        return out

    def __str__(self) -> str:
        if (text := self.worded()) is not None:
            return text
        return (f"{self.line}, block {self._block(0)}: {self.chosen} of its shifts "
                f"{self.labels[0]} .. {self.labels[1]} are 1, not exactly one (penalty {self.penalty})")


@dataclass(slots=True)
class OrderViolation(_WallTerm):
    """``w[k][p] = 1`` and ``w[k+1][p] = 0``: block ``k`` moved further than block ``k+1``.

    One-hot (``both`` True): ``x[k][s] = 1`` and ``x[k+1][s'] = 1`` with ``s' < s``.
    """

    both: bool = False

    def __str__(self) -> str:
        if (text := self.worded()) is not None:
            return text
        second = "= 1, a shift left of where it may be" if self.both else "= 0"
        return (f"{self.line}, blocks {self._block(0)} and {self._block(1)}: {self.labels[0]} = 1 "
                f"but {self.labels[1]} {second} (penalty {self.penalty})")


@dataclass(slots=True)
class CellConflict:
    """A cell whose colour seen from its row differs from the colour seen from its column.

    ``row`` and ``column`` are 1-based.  The colours are the model's algebraic
    values (0/1 when the walls are intact, possibly -1 or 2 when not); the
    penalty is ``(row_colour - column_colour)^2``.  In a colour puzzle
    ``colour`` names the block colour and the values are that colour's
    coverage of the cell.
    """

    row: int
    column: int
    row_colour: int
    column_colour: int
    colour: str | None = None
    weight: int = 1

    @property
    def penalty(self) -> int:
        return self.weight * (self.row_colour - self.column_colour) ** 2

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"row": self.row, "column": self.column, "row_colour": self.row_colour,
                               "column_colour": self.column_colour}
        if self.colour is not None:
            out["colour"] = self.colour
        out["penalty"] = self.penalty
        return out

    def __str__(self) -> str:
        where = f"row {self.row}, column {self.column}"
        if self.colour is not None:
            where += f", {self.colour}"
        return (f"{where}: row says {self.row_colour}, "
                f"column says {self.column_colour} (penalty {self.penalty})")


@dataclass
class Report:
    """What one sample means.

    Attributes:
        index: the sample's position in its batch (0-based).
        valid: energy 0: the picture is a solution.
        energy: the QUBO energy, equal to ``penalty_total``.
        broken_walls, order_violations, cell_conflicts: every penalised term.
        failing_lines: lines of the picture whose runs differ from their clue.
        grid: the picture (row view), ``(height, width)`` colour indices (0/1 in black and white).
        conflicts: ``(height, width)`` booleans, the cells in ``cell_conflicts``.
        shifts: every block's shift (rows' blocks first).
        reported_energy, num_occurrences: what the samples file said, if anything.
        violated_constraints: names, for constrained models.
        puzzle: the clues decoded against (for the picture; not compared).

    In Jupyter a report shows itself as the picture ``decode --image`` draws
    (:meth:`_repr_svg_`).
    """

    index: int
    valid: bool
    energy: int
    broken_walls: list[BrokenWall]
    order_violations: list[OrderViolation]
    cell_conflicts: list[CellConflict]
    failing_lines: list[LineFailure]
    grid: np.ndarray
    conflicts: np.ndarray
    shifts: np.ndarray
    reported_energy: float | None = None
    num_occurrences: int | None = None
    violated_constraints: list[str] | None = None
    failing_line_index: list[int] = field(default_factory=list)
    palette: Palette = BW
    encoding: Encoding = DEFAULT
    puzzle: Puzzle | None = field(default=None, repr=False, compare=False)

    def _repr_svg_(self) -> str | None:
        """Jupyter's picture: the grid with its clues, conflicts and failing lines, as ``decode --image`` draws it."""
        return notebook.show(self, "svg")

    def __repr__(self) -> str:
        """One line: the verdict and the counts (the arrays are in ``grid``, ``shifts``, ``picture``)."""
        h, w = self.grid.shape if self.grid.ndim == 2 else (0, 0)
        head = f"<Report sample {self.index}: {'VALID' if self.valid else 'INVALID'}, energy {self.energy}"
        if not self.valid:
            head += (f" ({len(self.broken_walls)} broken walls, {len(self.order_violations)} order violations, "
                     f"{len(self.cell_conflicts)} cell conflicts), {len(self.failing_lines)} failing lines")
        return head + f", {h}x{w} picture>"

    @property
    def picture(self) -> tuple[str, ...]:
        """The picture as rows of ``#``/``.`` (the palette's characters in colour)."""
        return self.palette.picture(self.grid)

    @property
    def verdict(self) -> str:
        """``VALID, energy 0``, or ``INVALID, energy E = ...`` split by family (what ``decode`` prints)."""
        if self.valid:
            return "VALID, energy 0"
        pen = self.penalties
        return (f"INVALID, energy {self.energy} = {pen['wall_shape']} ({self.encoding.shape_words}) + "
                f"{pen['block_order']} ({self.encoding.order_words}) + {pen['cells']} (cells)")

    @property
    def penalties(self) -> dict[str, int]:
        """The energy split by kind of term."""
        return {
            "wall_shape": sum(w.penalty for w in self.broken_walls),
            "block_order": sum(o.penalty for o in self.order_violations),
            "cells": sum(c.penalty for c in self.cell_conflicts),
        }

    @property
    def penalty_total(self) -> int:
        """Sum of every listed penalty; equals :attr:`energy`."""
        return sum(self.penalties.values())

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data (``schemas/report.schema.json``, one item of ``samples``)."""
        out: dict[str, Any] = {
            "index": self.index,
            "valid": self.valid,
            "energy": self.energy,
            "penalties": self.penalties,
            "broken_walls": [w.to_dict() for w in self.broken_walls],
            "order_violations": [o.to_dict() for o in self.order_violations],
            "cell_conflicts": [c.to_dict() for c in self.cell_conflicts],
            "failing_lines": [f.to_dict() for f in self.failing_lines],
            "picture": list(self.picture),
        }
        if self.reported_energy is not None:
            out["reported_energy"] = self.reported_energy
        if self.num_occurrences is not None:
            out["num_occurrences"] = self.num_occurrences
        if self.violated_constraints is not None:
            out["violated_constraints"] = list(self.violated_constraints)
        return out


class Reports(list[Report]):
    """The reports of a decode of several samples: a list (indexing, ``len``, iteration, ``==`` with a list
    of the same reports) that Jupyter shows as each report's picture and verdict (:meth:`_repr_html_`).

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> reports = decode(Puzzle.from_picture(["#.", ".#"]), [[0, 1, 0, 1], [1, 1, 0, 1]])
        >>> type(reports).__name__, len(reports), reports == list(reports), [r.valid for r in reports]
        ('Reports', 2, True, [True, False])
        >>> reports.summary()
        '2 samples, 1 valid, best energy 0'
    """

    __slots__ = ()

    def summary(self) -> str:
        """One line: how many reports, how many valid, the best energy (what the pictures' heading says)."""
        n, k = len(self), sum(1 for r in self if r.valid)
        best = f", best energy {min(r.energy for r in self)}" if self else ""
        return f"{n} sample{'s' * (n != 1)}, {k} valid{best}"

    def _repr_html_(self) -> str | None:
        """Jupyter's picture: every report's grid (as ``decode --image`` draws it) under its verdict."""
        return notebook.show(self, "html")


@dataclass
class Analysis:
    """The vectorised results for a batch (``S`` samples); see :meth:`Decoder.analyse`."""

    bits: np.ndarray  # (S, N) full-layout assignment
    shifts: np.ndarray  # (S, blocks)
    broken: np.ndarray  # (S, shape pairs) bool
    order: np.ndarray  # (S, order pairs) bool
    row_colour: np.ndarray  # (S, H*W*C): per slot (cell, colour)
    col_colour: np.ndarray  # (S, H*W*C)
    energy: np.ndarray  # (S,) int64
    grid: np.ndarray  # (S, H, W) row view, colour indices
    failing: np.ndarray  # (S, lines) bool

    @property
    def valid(self) -> np.ndarray:
        return self.energy == 0

    def __len__(self) -> int:
        return int(self.energy.size)


# -- the decoder -----------------------------------------------------------------------------
class Decoder:
    """Decode samples of one model; build once, decode many batches.

    Args:
        model_or_puzzle: a :class:`Puzzle`, or a :class:`~nonoqubo.model.qubo.Qubo` (or a
            constrained model) that carries its puzzle.  A file is opened first, by
            :func:`nonoqubo.inputs.open_input` (``nonoqubo.decoding.decoder_of`` does both).

    Raises:
        SampleError: the model's labels are not variables of its puzzle's layout.
        FormatError: a model that carries no clues.
        TypeError: a path: the decoder decodes what it is handed, it opens no file.
    """

    def __init__(self, model_or_puzzle: Any) -> None:
        if isinstance(model_or_puzzle, (str, bytes, os.PathLike)):
            raise TypeError("Decoder takes a Puzzle or a model, not a path: open the file with "
                            "nonoqubo.inputs.open_input, or use nonoqubo.decoding.decoder_of(path)")
        self.model = model_or_puzzle
        puzzle: Puzzle | None
        if isinstance(model_or_puzzle, Puzzle):
            puzzle = model_or_puzzle
        else:
            puzzle = getattr(model_or_puzzle, "puzzle", None)
            if not isinstance(puzzle, Puzzle):
                raise FormatError(
                    "the model carries no clues, so its samples cannot be decoded; "
                    "decode against the clue file instead"
                )
        self.puzzle = puzzle
        #: what the decoder knows of the encoding: slots, penalty families, shifts
        self.encoding: Encoding = encoding_named(getattr(model_or_puzzle, "encoding", None))
        self.weights: Weights = Weights.of(getattr(model_or_puzzle, "weights", None))
        self.geometry: Geometry = self.encoding.geometry_of(puzzle)
        self.layout = self.geometry.layout
        self.full_labels = self.geometry.labels()
        if isinstance(model_or_puzzle, Puzzle):
            self.labels: list[str] = self.full_labels
            self.fixed: dict[str, int] = {}
        else:
            self.labels = [str(x) for x in model_or_puzzle.labels]
            self.fixed = {str(k): int(v) for k, v in dict(getattr(model_or_puzzle, "fixed", {}) or {}).items()}
        self._completion = Completion.of(self.full_labels, self.labels, self.fixed)
        self._completion.check(
            unknown="the model's variable {short!r} is not a variable of its puzzle",
            unknown_fixed="the model's fixed variable {short!r} is not a variable of its puzzle",
            missing="the model has neither a variable nor a fixed value for {label!r}; "
                    "it does not encode the whole puzzle",
        )
        self._prepare_indices()
        if isinstance(model_or_puzzle, Qubo):
            self._check_energies(model_or_puzzle)

    def _check_energies(self, qubo: Qubo) -> None:
        """Refuse a model whose own energy is not its clues' energy (an edited offset or term, issue 33).

        The decoder reports the penalties its clues give; they add up to the QUBO energy only when
        the model is the QUBO of those clues.  Two assignments test it for the cost of two energies:
        all zeros (where the model's energy is its offset alone) and all ones (every term on).  A
        file whose offset was edited is refused here by name, never decoded into a verdict its own
        energy contradicts.

        Raises:
            SampleError: the two energies differ (``decoder_of`` names the file).
        """
        n = len(self.labels)
        probes = np.zeros((2, n), np.int8)
        probes[1] = 1
        # the model's own energies need no pass over the samples: the offset, and the sum of every term
        own = (int(qubo.offset), int(qubo.offset) + int(np.sum(qubo.linear, dtype=np.int64))
               + int(np.sum(qubo.quad, dtype=np.int64)))
        clues = self.analyse(probes).energy
        for k, what in enumerate(("all-zero", "all-one")):
            if int(own[k]) != int(clues[k]):
                cause = (f"its offset {qubo.offset} is not the {int(clues[0])} of its clues" if k == 0 else
                         "its terms are not those of its clues")
                raise SampleError(f"the model is not the QUBO of its clues: at the {what} assignment its own energy "
                                  f"is {int(own[k])} but its clues give {int(clues[k])} ({cause}; the file was "
                                  "edited, or is another model's); rebuild it with 'nonoqubo build'")

    def complete(self, bits: np.ndarray) -> np.ndarray:
        """The full-layout assignment ``(S, N_full)`` of model-order *bits* ``(S, N_model)``."""
        return self._completion.fill(bits)

    # -- index arrays -----------------------------------------------------------------------
    def _prepare_indices(self) -> None:
        geo = self.geometry
        lay = self.layout
        #: the penalty families: wall shape and block order
        self.shape, self.order = geo.shape, geo.order
        # colour entries: variable v adds coef * x[v] to a slot of its view.  Slots are
        # numbered row view first ((i*W + j)*C + c), then column view (offset H*W*C).
        hw = lay.height * lay.width * lay.num_colours
        rows, cols = geo.slot_entries(rows=True), geo.slot_entries(rows=False)
        var = np.concatenate((rows.var, cols.var))
        slot = np.concatenate((rows.slot, cols.slot + hw))
        coef = np.concatenate((rows.coef, cols.coef))
        # Per coefficient (the domain wall has +1 and -1), a gather and a grouped sum
        # (no multiply by 1): the slots sorted by their number of entries (largest
        # first), so "slots with more than t entries" is a prefix; step t adds the t-th
        # entry of each such slot with one gather (a handful of steps in all).
        self._plans = []
        present = np.bincount(coef.astype(INT) + 128, minlength=256)  # coefficients are int8
        for c in (np.flatnonzero(present)[::-1] - 128).tolist():
            chosen = np.flatnonzero(coef == c)
            cells, owner = slot[chosen], var[chosen]
            order = np.argsort(cells, kind="stable")
            sorted_cells = cells[order]
            starts = np.flatnonzero(np.concatenate(([True], sorted_cells[1:] != sorted_cells[:-1])))
            sizes = np.diff(np.append(starts, cells.size))
            by_size = np.argsort(-sizes, kind="stable")
            steps = [(int((sizes > t).sum()), owner[order[starts[by_size[: int((sizes > t).sum())]] + t]])
                     for t in range(int(sizes.max()))]
            self._plans.append((sorted_cells[starts][by_size], steps, c))
        self._left = np.concatenate((geo.left_aligned(rows=True), geo.left_aligned(rows=False))).astype(np.int16)

    @cached_property
    def _lists(self) -> tuple[list[str], list[int], list[int]]:
        """Line names and per-block layout arrays as Python lists (fast scalar access)."""
        lay = self.layout
        names = [lay.line_name(t) for t in range(lay.num_lines)]
        return names, lay.block_line.tolist(), lay.block_k.tolist()

    def _terms(self, kind: type[_WallTerm], family: Family, penalties: np.ndarray, blocks: int,
               weight: int = 1, bits: np.ndarray | None = None) -> list[Any]:
        """A *kind* report item for every term of *family* with a nonzero penalty in *penalties*.

        *blocks*: how many blocks (from the term's) the item names the colours of; *weight*: the
        family's weight (every item's penalty is multiplied by it); *bits*: the sample's full
        assignment, for a family that counts chosen variables (one-hot's one-position terms).
        """
        names, block_line, block_k = self._lists
        labels = self.full_labels
        colour = self._block_colour_names
        hits = np.flatnonzero(penalties)
        items: list[Any] = [kind(names[block_line[blk]], block_k[blk] + 1, pos, (labels[v], labels[u]),
                      colours=colour[blk:blk + blocks])
                 for blk, pos, v, u in zip(family.block[hits].tolist(), family.position[hits].tolist(),
                                           family.first[hits].tolist(), family.second[hits].tolist())]
        if penalties.dtype != bool or weight != 1:  # terms that cost more than 1 (each item costs 1 by default)
            for item, penalty in zip(items, penalties[hits].tolist()):
                item.penalty = weight * int(penalty)
        if hasattr(family, "chosen") and bits is not None and items:
            chosen = family.chosen(bits[:, None])[hits, 0].tolist()
            for item, n in zip(items, chosen):
                item.chosen = int(n)
        if getattr(family, "pattern", None) == (1, 1):
            for item in items:
                item.both = True
        return items

    @cached_property
    def _block_colour_names(self) -> tuple[str, ...]:
        """The colour name of every block in a colour puzzle; empty in black and white."""
        if not self.puzzle.is_colour:
            return ()
        names = self.puzzle.palette.names
        return tuple(names[c] for c in self.layout.block_colour.tolist())

    def _colours(self, xt: np.ndarray) -> np.ndarray:
        """Algebraic colour of every slot, ``(S, 2*H*W*C)`` int16: row view, then column view.

        *xt* holds the samples as columns ``(N, S)``, so every step gathers whole
        rows; the result is a transposed view of a ``(2*H*W*C, S)`` array.
        """
        s = xt.shape[1]
        out = np.repeat(self._left[:, None], s, axis=1)
        step = max(1, _CHUNK // max(1, xt.shape[0]))
        for s0 in range(0, s, step):
            xs = xt[:, s0:s0 + step]
            view = out[:, s0:s0 + step]
            for cells, steps, sign in self._plans:
                acc = np.zeros((cells.size, xs.shape[1]), np.int16)
                for m, var in steps:
                    acc[:m] += xs[var]
                if sign == 1:
                    view[cells] += acc
                elif sign == -1:
                    view[cells] -= acc
                else:
                    view[cells] += acc * sign
        return out.T

    # -- the vectorised pass ----------------------------------------------------------------
    def analyse(self, bits: np.ndarray, *, complete: bool = True) -> Analysis:
        """Everything about a batch, vectorised over samples.

        Args:
            bits: ``(S, N)`` 0/1 in the model's order (or the full layout's when
                ``complete`` is False).
        """
        x = self.complete(bits) if complete else np.asarray(bits, dtype=np.int8)
        lay = self.layout
        # one variable per row: every gather below takes whole rows (fast), and the
        # per-sample results are transposed views
        xt = np.ascontiguousarray(x.T)
        shifts = self.geometry.shifts_of_columns(xt)
        broken = self.shape.violations(xt).T  # a broken wall: 0 then 1
        order = self.order.violations(xt).T  # blocks out of order: 1 then 0
        hw = lay.height * lay.width * lay.num_colours
        colours = self._colours(xt)
        rc, cc = colours[:, :hw], colours[:, hw:]
        diff = colours.T[:hw].astype(np.int32) - colours.T[hw:]  # |diff| <= blocks over a slot
        diff *= diff
        a_w, b_w, c_w = self.weights
        energy = (a_w * broken.T.sum(axis=0, dtype=INT) + b_w * order.T.sum(axis=0, dtype=INT)
                  + c_w * diff.sum(axis=0, dtype=INT))
        grid = lay.view_grid(shifts, rows=True)  # the picture is the rows' view
        failing = failing_lines(lay, grid)
        return Analysis(x, shifts, broken, order, rc, cc, energy, grid, failing)

    # -- per-sample reports -----------------------------------------------------------------
    def report(self, analysis: Analysis, i: int, batch: SampleBatch | None = None,
               violated: list[str] | None = None) -> Report:
        """The :class:`Report` of sample *i* of *analysis*."""
        lay = self.layout
        h, w = lay.height, lay.width
        a_w, b_w, c_w = self.weights
        shape_kind = PositionCount if hasattr(self.shape, "chosen") else BrokenWall
        walls = self._terms(shape_kind, self.shape, analysis.broken[i], 1, a_w, analysis.bits[i])
        orders = self._terms(OrderViolation, self.order, analysis.order[i], 2, b_w)
        for items, template in ((walls, self.encoding.shape_item), (orders, self.encoding.order_item)):
            for item in items if template else ():
                item.template = template
        rc, cc = analysis.row_colour[i], analysis.col_colour[i]
        nc = lay.num_colours
        bad_slots = np.flatnonzero(rc != cc)
        colour_names: list[str | None] = list(self.puzzle.palette.names[1:]) if self.puzzle.is_colour else [None] * nc
        cells = [CellConflict(c // nc // w + 1, c // nc % w + 1, a, b, colour_names[c % nc], c_w)
                 for c, a, b in zip(bad_slots.tolist(), rc[bad_slots].tolist(), cc[bad_slots].tolist())]
        conflicts = np.zeros(h * w, bool)
        conflicts[bad_slots // nc] = True
        grid = analysis.grid[i]
        failing_idx = np.flatnonzero(analysis.failing[i]).tolist()
        lines = line_failures(self.puzzle, lay, grid, failing_idx)
        energy = int(analysis.energy[i])
        return Report(
            index=i, valid=energy == 0, energy=energy, broken_walls=walls, order_violations=orders,
            cell_conflicts=cells, failing_lines=lines, grid=grid.copy(),
            conflicts=conflicts.reshape(h, w), shifts=analysis.shifts[i].copy(),
            reported_energy=self._reported_energy(batch, i),
            num_occurrences=None if batch is None or batch.num_occurrences is None else int(batch.num_occurrences[i]),
            violated_constraints=violated, failing_line_index=failing_idx, palette=self.puzzle.palette,
            encoding=self.encoding, puzzle=self.puzzle,
        )

    def _reported_energy(self, batch: SampleBatch | None, i: int) -> float | None:
        """The energy the samples file gave for sample *i*, as a QUBO energy (offset included)."""
        if batch is None or batch.energies is None:
            return None
        energy = float(batch.energies[i])
        if batch.extra.get("offset_excluded"):  # qbsolv and MQLib files have no offset field
            offset = self.qubo.offset if isinstance(self.model, Puzzle) else getattr(self.model, "offset", None)
            if offset is not None:
                energy += float(offset)
        return energy

    def reports(self, analysis: Analysis, indices: Sequence[int], batch: SampleBatch | None = None) -> list[Report]:
        """Reports for the chosen samples (constraint names added for constrained models)."""
        idx = [int(i) for i in indices]
        violated: list[list[str]] | list[None] = [None] * len(idx)
        if idx and hasattr(self.model, "constraint_violations"):
            violated = [list(v) for v in self.model.constraint_violations(analysis.bits[idx])]
        return [self.report(analysis, i, batch, v) for i, v in zip(idx, violated)]

    def batch(self, samples: Any, *, format: str | None = None, spin: bool | None = None) -> SampleBatch:
        """Samples of any accepted form (see :func:`decode`) as a :class:`SampleBatch`.

        A ``str`` or path is a samples file (a missing one is ``FileNotFoundError``, never
        taken for the samples' text).
        """
        if isinstance(samples, (str, os.PathLike)):
            return read_samples(samples, self.labels, format=format, spin=spin, fixed=self.fixed,
                                puzzle=self.puzzle, encoding=self.encoding)
        return samples_from(samples, self.labels, spin=spin, fixed=self.fixed)

    @cached_property
    def qubo(self):
        """``build(puzzle)``: the full model the penalties add up to."""
        from ..model.build import build

        return build(self.puzzle, encoding=self.encoding, weights=self.weights)


def select(analysis: Analysis, which: str) -> list[int]:
    """Indices of the samples to show: ``"all"``, or ``"best"`` (the first of lowest energy)."""
    if which == "all":
        return list(range(len(analysis)))
    if which == "best":
        return [int(np.argmin(analysis.energy))] if len(analysis) else []
    raise ValueError(f"which must be 'all' or 'best', not {which!r}")


def decode(
    model_or_puzzle: Any,
    samples: Any,
    *,
    which: str = "all",
    format: str | None = None,
    spin: bool | None = None,
) -> Reports:
    """Decode samples into one :class:`Report` per sample shown (a :class:`Reports` list).

    Args:
        model_or_puzzle: a :class:`Puzzle`, a ``Qubo``/constrained model carrying its
            puzzle, or a :class:`Decoder` made for one (``nonoqubo.decode``, :func:`nonoqubo.decoding.decode`, also takes a path).
        samples: a dimod ``SampleSet``, a pyqbpp ``Sol``, a :class:`SampleBatch`, a
            ``{label: value}`` dict (or a list of them), vectors in the model's
            variable order (list, 2-D list, ndarray), or a samples file path (a ``str``
            is always a path: text goes through :func:`nonoqubo.samples.parse_samples`).
        which: ``"all"`` samples, or only the ``"best"`` (lowest energy).
        format: the samples file format (detected when None).
        spin: values are spins (True), 0/1 (False), or detect (None).

    Returns:
        Reports in sample order (one for ``which="best"``).

    Raises:
        SampleError: samples that do not fit the model (the message names sample and variable).
    """
    decoder = model_or_puzzle if isinstance(model_or_puzzle, Decoder) else Decoder(model_or_puzzle)
    batch = decoder.batch(samples, format=format, spin=spin)
    analysis = decoder.analyse(batch.bits)
    return Reports(decoder.reports(analysis, select(analysis, which), batch))
