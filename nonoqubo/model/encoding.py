"""The layout of a puzzle (lines, blocks, shifts <-> grids) and the domain wall's variables on it.

Lines and blocks (starts, lengths, colours, margins, the grid painted by block shifts) do not
depend on the encoding: every encoding's geometry is made over a :class:`Layout`.  The layout
also holds the domain wall's own variables (``block_first_var``, ``var_block``, ``var_p``,
``labels``, ``encode``, ``shifts_of_columns``): the domain wall's builder reads them on its hot
path, the logic layer's line solver and presolve count on them, and a layout is the one place
they are made; :class:`~nonoqubo.model.geometry.DomainWall` answers the encoding's questions
from them.  Other encodings keep their own variables in their geometry.

For a line of length ``n`` with clue ``r_0 ... r_{m-1}`` (block colours
``c_0 ... c_{m-1}``; one colour in black and white):

* left-aligned start of block ``k``: ``e_0 = 0``, ``e_k = e_{k-1} + r_{k-1} + g_k``
  with the gap ``g_k = 1`` when ``c_k = c_{k-1}`` and ``0`` when the colours
  differ (blocks of different colours may touch);
* margin ``d = n - (e_{m-1} + r_{m-1})``: how far the blocks can slide together
  (in black and white ``n - sum(r) - (m - 1)``);
* variables ``w[k][p]`` for ``p = 0 ... d-1``: 1 exactly when block ``k`` is
  shifted right by more than ``p``, so a block's shift is its number of
  leading ones (a "domain wall" between the ones and the zeros).

Row ``i``'s variables are labelled ``y{i}[k][p]`` and column ``j``'s
``z{j}[k][p]``: the labels of the QUBO++ case study, so QUBO++ samples map
straight back.  The *variable order* (the index used by every integer-indexed
file format) is all row variables by ``(i, k, p)``, then all column variables
by ``(j, k, p)``.  A line with an empty clue or with ``d = 0`` has no
variables.

Everything here is a NumPy array indexed by *block* (rows' blocks first, then
columns'), so the builder and the decoder never loop over cells in Python.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> lay = Layout.of(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> lay.num_vars, lay.labels()
    (4, ['y0[0][0]', 'y1[0][0]', 'z0[0][0]', 'z1[0][0]'])
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import SampleError
from .puzzle import Puzzle

__all__ = ["Completion", "Layout", "LayoutLabels", "LazyLabels", "bracket_name", "flat_name", "parse_label",
           "subscripted_label"]

INT = np.int64


@dataclass(frozen=True, eq=False)
class Layout:
    """Variables of the domain-wall model, as flat arrays.

    Lines are numbered rows first (``0 ... H-1``), then columns (``H ... H+W-1``).
    Blocks are numbered in the same order, ``(line, k)``.

    Attributes:
        height, width: the grid's size.
        line_length: cells in each line (W for rows, H for columns).
        line_margin: ``d`` of each line.
        line_first_block: index of each line's first block (length lines+1).
        line_first_var: index of each line's first variable (length lines+1).
        block_line: the line of each block.
        block_k: the block's position ``k`` in its line.
        block_start: ``e_k``, the left-aligned start (cell index within the line).
        block_length: ``r_k``.
        block_colour: ``c_k``, the block's 1-based palette colour (1 in black and white).
        num_colours: the puzzle's number of block colours.
        block_margin: ``d`` of the block's line (its number of variables).
        block_first_var: index of the block's first variable (length blocks+1).
        num_vars, num_row_vars: variable counts.
    """

    height: int
    width: int
    line_length: np.ndarray
    line_margin: np.ndarray
    line_first_block: np.ndarray
    line_first_var: np.ndarray
    block_line: np.ndarray
    block_k: np.ndarray
    block_start: np.ndarray
    block_length: np.ndarray
    block_margin: np.ndarray
    block_first_var: np.ndarray
    block_colour: np.ndarray
    num_colours: int = 1

    @classmethod
    def of(cls, puzzle: Puzzle) -> Layout:
        """The layout of *puzzle* (vectorised over blocks)."""
        clues = (*puzzle.rows, *puzzle.cols)
        h, w = puzzle.height, puzzle.width
        n_lines = h + w
        line_length = np.concatenate((np.full(h, w, INT), np.full(w, h, INT)))
        blocks_per_line = np.fromiter((len(c) for c in clues), INT, n_lines)
        block_length = np.fromiter((v for c in clues for v in c), INT, int(blocks_per_line.sum()))
        block_colour = np.fromiter((v for c in (*puzzle.row_colours, *puzzle.col_colours) for v in c),  # type: ignore[misc]
                                   INT, block_length.size)
        line_first_block = np.zeros(n_lines + 1, INT)
        np.cumsum(blocks_per_line, out=line_first_block[1:])
        block_line = np.repeat(np.arange(n_lines, dtype=INT), blocks_per_line)
        block_k = np.arange(block_length.size, dtype=INT) - line_first_block[block_line]
        # e_k = sum_{l<k} (r_l + g_{l+1}): an exclusive cumulative sum restarted per line, where
        # g_{l+1} = 1 when block l+1 is in the same line and has the same colour
        gap_after = np.zeros(block_length.size, INT)
        if block_length.size:
            gap_after[:-1] = (block_line[1:] == block_line[:-1]) & (block_colour[1:] == block_colour[:-1])
        cum = np.zeros(block_length.size + 1, INT)
        np.cumsum(block_length + gap_after, out=cum[1:])
        block_start = cum[:-1] - cum[line_first_block[block_line]]
        line_need = np.zeros(n_lines, INT)
        last = line_first_block[1:][blocks_per_line > 0] - 1
        line_need[blocks_per_line > 0] = block_start[last] + block_length[last]
        line_margin = np.where(blocks_per_line > 0, line_length - line_need, 0)
        block_margin = line_margin[block_line]
        block_first_var = np.zeros(block_length.size + 1, INT)
        np.cumsum(block_margin, out=block_first_var[1:])
        line_first_var = block_first_var[line_first_block]
        return cls(
            height=h, width=w, line_length=line_length, line_margin=line_margin,
            line_first_block=line_first_block, line_first_var=line_first_var,
            block_line=block_line, block_k=block_k, block_start=block_start,
            block_length=block_length, block_margin=block_margin, block_first_var=block_first_var,
            block_colour=block_colour, num_colours=puzzle.num_colours,
        )

    # -- counts ---------------------------------------------------------------------------
    @property
    def num_lines(self) -> int:
        return self.height + self.width

    @property
    def num_blocks(self) -> int:
        return int(self.block_length.size)

    @property
    def num_vars(self) -> int:
        return int(self.block_first_var[-1])

    @property
    def num_row_vars(self) -> int:
        return int(self.line_first_var[self.height])

    # -- per-variable arrays ------------------------------------------------------------
    @cached_property
    def var_block(self) -> np.ndarray:
        """The block of each variable."""
        return np.repeat(np.arange(self.num_blocks, dtype=INT), self.block_margin)

    @cached_property
    def var_p(self) -> np.ndarray:
        """The position ``p`` of each variable within its block's wall."""
        return np.arange(self.num_vars, dtype=INT) - self.block_first_var[self.var_block]

    # -- labels ---------------------------------------------------------------------------
    @cached_property
    def has_next_block(self) -> np.ndarray:
        """Whether each block has a next block in its line (bool per block; every encoding's order rule)."""
        out = np.zeros(self.num_blocks, bool)
        out[:-1] = self.block_line[1:] == self.block_line[:-1]
        return out

    def labels(self) -> list[str]:
        """The QUBO++ label of every variable, in variable order."""
        h = self.height
        out: list[str] = []
        has = np.flatnonzero(self.block_margin)
        tails = [f"{p}]" for p in range(int(self.block_margin.max(initial=0)))]  # "p]", formatted once
        for line, k, d in zip(self.block_line[has].tolist(), self.block_k[has].tolist(),
                              self.block_margin[has].tolist()):
            head = f"y{line}[{k}][" if line < h else f"z{line - h}[{k}]["
            out.extend(map(head.__add__, tails[:d]))
        return out

    def line_name(self, line: int) -> str:
        """``row 3`` / ``column 7`` (1-based, as people count)."""
        return f"row {line + 1}" if line < self.height else f"column {line - self.height + 1}"

    # -- decoding helpers -----------------------------------------------------------------
    def shifts(self, samples: np.ndarray) -> np.ndarray:
        """Shift of every block (its number of leading ones) for each sample.

        Args:
            samples: ``(S, num_vars)`` array of 0/1.

        Returns:
            ``(S, num_blocks)`` int64 array; blocks without variables have shift 0.
        """
        x = np.asarray(samples)
        if x.ndim == 1:
            x = x[None, :]
        return self.shifts_of_columns(np.ascontiguousarray(x.T, dtype=np.int8))

    def shifts_of_columns(self, xt: np.ndarray) -> np.ndarray:
        """:meth:`shifts` of samples given as ``(num_vars, S)`` int8 columns (one row per variable).

        A wall's leading ones are counted position by position: ``alive`` (all
        ones so far) is ANDed with the bits at position ``p`` of every block
        still that long (blocks sorted by margin, so they are a prefix), and
        added up.  One step per position of the longest wall, each on whole
        rows of samples.
        """
        s = xt.shape[1]
        out = np.zeros((s, self.num_blocks), INT)
        has = np.flatnonzero(self.block_margin)
        if has.size == 0:
            return out
        margin = self.block_margin[has]
        by = np.argsort(-margin, kind="stable")
        first = self.block_first_var[has][by]
        margin = margin[by]
        count_type = np.int16 if int(margin[0]) < (1 << 15) else np.int32
        alive = xt[first] != 0
        count = alive.astype(count_type)
        for p in range(1, int(margin[0])):
            k = int(np.searchsorted(-margin, -p, side="left"))  # blocks with margin > p
            alive_k = alive[:k]
            alive_k &= xt[first[:k] + p] != 0
            count[:k] += alive_k
        out[:, has[by]] = count.T
        return out

    def grids(self, shifts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The grid seen from the rows and the grid seen from the columns.

        Args:
            shifts: ``(S, num_blocks)`` block shifts.

        Returns:
            Two ``(S, height, width)`` int8 arrays of colour indices (0 the
            background; 0/1 in black and white).  Where two blocks of a line
            overlap (possible only with broken walls or order), the later wins.
        """
        return self.view_grid(shifts, rows=True), self.view_grid(shifts, rows=False)

    def view_grid(self, shifts: np.ndarray, rows: bool = True) -> np.ndarray:
        """One of :meth:`grids`: the grid seen from the rows (or from the columns)."""
        shifts = np.atleast_2d(shifts)
        s = shifts.shape[0]
        h, w = self.height, self.width
        grid = np.zeros((s, h, w), np.int8)
        # flat index (sample, i, j) of every painted cell: the cell at zero shift, plus the
        # shift along the line (1 for a row, w for a column), plus the sample's grid; a
        # shift is at most the margin, so every position lies inside its line
        cell_block, at_zero = self.aligned_cells(rows)
        idx_type = np.int32 if s * h * w < (1 << 31) else INT
        flat = shifts[:, cell_block].astype(idx_type)
        if not rows:
            flat *= idx_type(w)
        flat += at_zero.astype(idx_type)
        flat += (np.arange(s, dtype=idx_type) * (h * w))[:, None]
        grid.reshape(-1)[flat.reshape(-1)] = np.tile(self.block_colour[cell_block].astype(np.int8), s)
        return grid

    def aligned_cells(self, rows: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Every cell the row (or column) blocks cover when left-aligned (top-aligned): ``(block, cell)``.

        Returns:
            Two int64 arrays, one item per covered cell, blocks in order and
            cells in line order within each: the block, and the cell's flat
            index ``i * W + j`` in the grid.
        """
        h, w = self.height, self.width
        blocks = np.flatnonzero((self.block_line < h) if rows else (self.block_line >= h))
        lengths = self.block_length[blocks]
        cell_block = np.repeat(blocks, lengths)
        within = np.arange(int(lengths.sum()), dtype=INT) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        pos = self.block_start[cell_block] + within
        line = self.block_line[cell_block]
        return cell_block, (line * w + pos if rows else pos * w + (line - h))

    def shifts_of_grid(self, grid: np.ndarray) -> np.ndarray:
        """The shift of every block (int64 per block) in a grid that satisfies every row and column clue.

        Each block's shift is read from the grid's row (or column): the start of its run minus
        its left-aligned start.  Every encoding's ``encode(grid)`` is this, then its own
        ``encode_shifts``.

        Args:
            grid: ``(height, width)`` colour indices (booleans in black and white).

        Raises:
            ValueError: a line of the grid does not match its clue.
        """
        from .puzzle import line_runs

        g = np.asarray(grid)
        lengths, colours = line_runs(g)
        shifts = np.zeros(self.num_blocks, INT)
        for line in range(self.num_lines):
            lo, hi = int(self.line_first_block[line]), int(self.line_first_block[line + 1])
            if (tuple(self.block_length[lo:hi].tolist()) != lengths[line]
                    or tuple(self.block_colour[lo:hi].tolist()) != colours[line]):
                raise ValueError(f"{self.line_name(line)} of the grid does not match its clue")
        if self.num_blocks:
            h, w = self.height, self.width
            n = max(h, w)
            lines = np.zeros((h + w, n + 2), np.int16)
            lines[:h, 1:w + 1] = g
            lines[h:, 1:h + 1] = g.T
            li, start = np.nonzero((lines[:, 1:] != lines[:, :-1]) & (lines[:, 1:] != 0))
            shifts[:] = start - self.block_start  # runs come in (line, position) order, as blocks do
        return shifts

    def encode(self, grid: np.ndarray) -> np.ndarray:
        """The domain-wall assignment (0/1 per variable) of a grid that satisfies every row and column clue.

        The grid's block shifts (:meth:`shifts_of_grid`); the wall of block ``k`` is then
        ``shift`` ones followed by zeros.

        Raises:
            ValueError: a line of the grid does not match its clue.
        """
        shifts = self.shifts_of_grid(grid)
        return (self.var_p < shifts[self.var_block]).astype(np.int8)


# at most 18 digits an index (a longer run is no label of any puzzle, and int() of
# more than 4,300 digits raises)
# every encoding's labels are a letter of its own, a line and two indices (the letters are in
# model/encodings' registry: any lowercase letter parses here)
_LABEL = re.compile(r"^([a-z])(\d{1,18})\[(\d{1,18})\]\[(\d{1,18})\]$")
_FLAT = re.compile(r"^([a-z])(\d{1,18})_(\d{1,18})_(\d{1,18})$")


class LazyLabels(Sequence[str]):
    """Labels made on first use from a *source* that knows their count (``num_vars``) at once and
    makes the list (``labels()``) when asked: the one lazy sequence every encoding's model carries.

    Equal to any sequence of the same labels; two of the same class made from the same puzzle are
    equal without making either list when their sources are of one kind (one encoding).  Pickled
    as the plain list.
    """

    def __init__(self, puzzle: Puzzle, source: Any, encoding: Any = None) -> None:
        self.puzzle = puzzle
        self.source = source
        #: the :class:`~nonoqubo.model.encodings.Encoding` whose labels these are (None: not said)
        self.encoding = encoding

    @cached_property
    def items(self) -> list[str]:
        return self.source.labels()

    def __len__(self) -> int:
        return self.source.num_vars

    def __getitem__(self, index: Any) -> Any:
        return self.items[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self.items)

    def __contains__(self, label: object) -> bool:
        return label in self.items

    def __eq__(self, other: object) -> bool:
        if (type(other) is type(self) and other.puzzle is self.puzzle  # type: ignore[attr-defined]
                and type(other.source) is type(self.source)):  # type: ignore[attr-defined]
            return True
        return isinstance(other, Sequence) and not isinstance(other, str) and self.items == list(other)

    __hash__ = None  # type: ignore[assignment]  # equal to a list, so unhashable like one

    def __repr__(self) -> str:
        return repr(self.items)

    def __reduce__(self) -> tuple[Any, ...]:
        return list, (self.items,)  # pickled (to a worker process) as the plain list


class LayoutLabels(LazyLabels):
    """The labels of a layout's variables, made on first use.

    Making 127,000 label strings takes about a tenth of the 100x100's build,
    and a model written as COO or decoded needs none of them; the length is
    known at once.  Reading an item, iterating or comparing makes the list
    (:meth:`Layout.labels`) once.  :attr:`puzzle` is the puzzle the layout was
    made from, so a writer can tell, without making the labels, that they follow
    the layout's rule.

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> labels = LayoutLabels(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
        >>> len(labels), labels[1], labels == ["y0[0][0]", "y1[0][0]", "z0[0][0]", "z1[0][0]"]
        (4, 'y1[0][0]', True)
    """

    def __init__(self, puzzle: Puzzle, layout: Layout | None = None) -> None:
        self.layout = layout or Layout.of(puzzle)
        super().__init__(puzzle, self.layout)


def parse_label(label: str) -> tuple[str, int, int, int] | None:
    """``("y", i, k, p)`` of a QUBO++ label ``y3[1][2]`` or of its flat form ``y3_1_2``.

    Every encoding's labels (one-hot's ``r3[1][2]`` and ``c3[1][2]``, see
    :mod:`nonoqubo.model.encodings` for the letters) parse the same way.

    Examples:
        >>> parse_label("z12[0][4]"), parse_label("y3_1_2"), parse_label("x")
        (('z', 12, 0, 4), ('y', 3, 1, 2), None)
    """
    m = _LABEL.match(label) or _FLAT.match(label)
    if m is None:
        return None
    return m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))


def _reformat(label: str, template: str) -> str:
    """*label*'s parts ``(letter, line, k, p)`` put into *template*; other names unchanged."""
    parts = parse_label(label)
    return label if parts is None else template.format(*parts)


def flat_name(label: str) -> str:
    """The bracket-free name of a label, for formats (LP, MPS) that forbid ``[`` and ``]``.

    The mapping is one to one: ``y3[1][2]`` <-> ``y3_1_2``.

    Examples:
        >>> flat_name("y3[1][2]")
        'y3_1_2'
    """
    return _reformat(label, "{}{}_{}_{}")


def bracket_name(name: str) -> str:
    """The QUBO++ label of a flat name (inverse of :func:`flat_name`).

    Examples:
        >>> bracket_name("z0_2_5")
        'z0[2][5]'
    """
    return _reformat(name, "{}{}[{}][{}]")


def subscripted_label(name: str, subscripts: Any) -> str:
    """The label of a variable given as a name and subscripts (OMMX's): ``y`` with ``[3, 1, 2]`` -> ``y3[1][2]``.

    Examples:
        >>> subscripted_label("y", [3, 1, 2]), subscripted_label("r", (0, 1, 2)), subscripted_label("x", [4])
        ('y3[1][2]', 'r0[1][2]', 'x[4]')
    """
    subs = list(subscripts)
    if len(subs) == 3 and len(name) == 1 and "a" <= name <= "z":  # an encoding's label letter (parse_label's)
        return f"{name}{subs[0]}[{subs[1]}][{subs[2]}]"
    return name + "".join(f"[{s}]" for s in subs)


@dataclass(frozen=True, eq=False)
class Completion:
    """How samples of a model become full assignments of its puzzle's layout.

    A presolved model holds only some of the layout's variables (its
    ``labels``); the others were fixed beforehand (its ``fixed``, label ->
    0/1).  A sample of the model is *completed* by putting each of its values
    at its variable's place in the layout order and the fixed values at
    theirs.  The same completion serves the presolve helpers, the decoder and
    the constrained model: make it once per model (:meth:`of`, from labels, or
    :meth:`at`, from positions), check it (:meth:`check`), then :meth:`fill`
    batches.

    Attributes:
        num_vars: variables of the full layout.
        model_pos: the layout position of each model variable; None when the
            model's variables are the layout's, in order (completion is then nothing).
        fixed_pos, fixed_val: the layout position and value (int8) of each fixed variable.
        unknown, unknown_fixed: the first model (fixed) label that is no variable of the layout.
        missing: the first layout label neither in the model nor fixed.

    Examples:
        >>> c = Completion.of(["a", "b", "c"], ["c", "a"], {"b": 1})
        >>> c.fill(np.array([[1, 0]], np.int8)).tolist()
        [[0, 1, 1]]
        >>> Completion.of(["a", "b"], ["a"], {}).missing
        'b'
    """

    num_vars: int
    model_pos: np.ndarray | None
    fixed_pos: np.ndarray
    fixed_val: np.ndarray
    unknown: str | None = None
    unknown_fixed: str | None = None
    missing: str | None = None

    @classmethod
    def of(cls, full_labels: Sequence[str], labels: Sequence[str], fixed: Mapping[str, int]) -> Completion:
        """The completion of a model with *labels* and *fixed* values, in a layout of *full_labels*."""
        n = len(full_labels)
        no_fixed = (np.zeros(0, INT), np.zeros(0, np.int8))
        if labels is full_labels:
            return cls(n, None, *no_fixed)
        where = {label: i for i, label in enumerate(full_labels)}
        names, fixed_names = list(labels), list(fixed)
        pos = np.fromiter((where.get(label, -1) for label in names), INT, len(names))
        fixed_pos = np.fromiter((where.get(label, -1) for label in fixed_names), INT, len(fixed_names))
        fixed_val = np.fromiter((int(v) for v in fixed.values()), np.int8, len(fixed_names))
        if (pos < 0).any():
            return cls(n, pos, *no_fixed, unknown=names[int(np.flatnonzero(pos < 0)[0])])
        if (fixed_pos < 0).any():
            return cls(n, pos, *no_fixed, unknown_fixed=fixed_names[int(np.flatnonzero(fixed_pos < 0)[0])])
        covered = np.zeros(n, bool)
        covered[pos] = True
        covered[fixed_pos] = True
        if not covered.all():
            return cls(n, pos, fixed_pos, fixed_val, missing=full_labels[int(np.flatnonzero(~covered)[0])])
        return cls.at(n, pos, fixed_pos, fixed_val)

    @classmethod
    def at(cls, num_vars: int, model_pos: np.ndarray, fixed_pos: np.ndarray, fixed_val: np.ndarray) -> Completion:
        """The completion of a model whose variables and fixings sit at the given layout positions."""
        model_pos = np.asarray(model_pos, INT)
        identity = model_pos.size == num_vars and np.array_equal(model_pos, np.arange(num_vars))
        return cls(num_vars, None if identity else model_pos, np.asarray(fixed_pos, INT),
                   np.asarray(fixed_val).astype(np.int8))

    def check(self, *, unknown: str, unknown_fixed: str, missing: str) -> None:
        """Raise :class:`~nonoqubo.errors.SampleError` for the first problem, if any.

        Each argument is a message template with ``{label}`` (the offending
        label) and ``{short}`` (its first 80 characters).
        """
        for template, label in ((unknown, self.unknown), (unknown_fixed, self.unknown_fixed),
                                (missing, self.missing)):
            if label is not None:
                raise SampleError(template.format(label=label, short=label[:80]))

    def fill(self, bits: np.ndarray, *, copy: bool = False) -> np.ndarray:
        """The full ``(S, num_vars)`` int8 assignments of model-order ``(S, model vars)`` *bits*.

        When the model's variables are the layout's, *bits* itself is returned
        (as int8; a copy when *copy*).
        """
        bits = np.asarray(bits, dtype=np.int8)
        if bits.ndim == 1:
            bits = bits[None, :]
        if self.model_pos is None:
            return bits.copy() if copy else bits
        full = np.empty((bits.shape[0], self.num_vars), np.int8)
        full[:, self.model_pos] = bits
        full[:, self.fixed_pos] = self.fixed_val
        return full
