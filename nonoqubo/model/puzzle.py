"""The nonogram itself: row and column clues, validated, in black and white or in colour; no file I/O.

A clue lists a line's blocks in order (rows left to right, columns top to
bottom).  Each block has a length and a colour; ``[]`` and ``[0]`` both mean
an empty line.  A black-and-white puzzle is the one-colour case: its blocks
are all "black" and its clues are plain lengths, ``[3, 1]``.  In a colour
puzzle a block is written ``(3, "red")``; the :class:`Palette` names the
colours (with RGB and a picture character where known) and the background.

Two blocks of the same colour need at least one background cell between
them; blocks of different colours may touch.  So a clue needs
``sum(r_k) + #{k : c_k = c_(k-1)}`` cells.

A :class:`Puzzle` is immutable and always valid: every block length is a
positive integer, every colour is in the palette (never the background),
every clue fits its line, and for every colour the rows paint as many cells as
the columns.  A known solution (a picture of the answer, one character per
cell from the palette) may travel with it.

Grids are integer arrays of colour indices: 0 the background, ``c`` the
palette's colour ``c`` (1-based); a boolean grid is the black-and-white case.

Examples:
    >>> p = Puzzle(rows=[[1], [1, 1], [3]], cols=[[2], [1, 1], [2]])
    >>> p.width, p.height, p.num_colours
    (3, 3, 1)
    >>> Puzzle.from_picture(["#.#", "###"]).rows
    ((1, 1), (3,))
    >>> q = Puzzle.from_picture(["rg", "r."], palette=Palette.of(["red", "green"]))
    >>> q.rows, q.row_colours, q.clue_items(q.rows, q.row_colours)[0]
    (((1, 1), (1,)), ((1, 2), (1,)), [(1, 'red'), (1, 'green')])
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from itertools import chain

import numpy as np

from .._util import notebook
from ..errors import PuzzleError
from .palette import BLACK_CHARS, BW, NOT_BLACK_OR_WHITE, WHITE_CHARS, Palette

__all__ = ["Clue", "Puzzle", "clue_of_line", "colour_grid", "grid_from_picture", "line_clues", "line_runs"]

Clue = tuple[int, ...]


# -- clues ---------------------------------------------------------------------------------
def _normalise_clue(clue: Any, what: str) -> tuple[Clue, tuple[Any, ...]]:
    """The lengths of *clue* and the colour token of each block (None = the default colour).

    A block is a positive integer or a ``(length, colour)`` pair; ``[0]`` is ``()``.
    """
    if isinstance(clue, (str, bytes)) or not isinstance(clue, Iterable):
        raise PuzzleError(f"{what}: a clue must be a list of block lengths, not {clue!r}")
    values = list(clue)
    if values == [0]:
        return (), ()
    lengths, tokens = [], []
    for pos, item in enumerate(values, start=1):
        token = None
        if isinstance(item, (list, tuple)):
            if len(item) != 2:
                raise PuzzleError(f"{what}, block {pos}: {item!r} is not a (length, colour) pair")
            item, token = item
            if token is None or isinstance(token, (bool, float)):
                raise PuzzleError(f"{what}, block {pos}: {token!r} is not a colour")
        value = item
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise PuzzleError(f"{what}, block {pos}: block length {value!r} is not an integer")
        value = int(value)
        if value <= 0:
            kind = "zero" if value == 0 else "negative"
            hint = " (an empty line is written [] or [0] alone)" if value == 0 else ""
            raise PuzzleError(f"{what}, block {pos}: block length {value} is {kind}{hint}")
        lengths.append(value)
        tokens.append(token)
    return tuple(lengths), tuple(tokens)


def _flat_ints(lists: Any) -> np.ndarray | None:
    """All the numbers of *lists* (lists/tuples of Python ints) as one int64 array, else None."""
    try:
        if not set(map(type, lists)) <= {list, tuple}:
            return None
        flat = list(chain.from_iterable(lists))
        if flat and not set(map(type, flat)) <= {int}:
            return None
        return np.array(flat, dtype=np.int64)
    except (TypeError, OverflowError):
        return None


def _plain_clues(clues: Any, given_colours: Any = None,
                 palette_size: int = 2) -> tuple[tuple[Clue, ...], tuple[Clue, ...]] | None:
    """Lengths and colours of clues that are all lists/tuples of positive Python ints, in bulk.

    The common case (every reader gives it) at C speed: no Python loop per block,
    so a puzzle with millions of lines is checked in a second.  ``[0]`` is the
    empty clue.  *given_colours*, when not None, are the blocks' colour indices
    (1 .. palette_size - 1), clue for clue; else every block has colour 1.
    Anything else (colour pairs, floats, bools, NumPy integers, a zero or
    negative length, colours that do not fit) gives None, and
    :func:`_normalise_clue` then looks at each clue and names what is wrong.
    """
    values = _flat_ints(clues)
    if values is None:
        return None
    counts = np.fromiter(map(len, clues), np.int64, len(clues))
    if values.size and values.min() <= 0:
        starts = np.cumsum(counts) - counts
        zero_alone = (counts == 1) & (values[np.minimum(starts, max(values.size - 1, 0))] == 0)
        if int((values <= 0).sum()) != int(zero_alone.sum()):
            return None
        lengths = tuple(() if z else tuple(c) for c, z in zip(clues, zero_alone.tolist()))
        counts = np.where(zero_alone, 0, counts)
    else:
        lengths = tuple(map(tuple, clues))
    if given_colours is None:
        return lengths, tuple(map((1,).__mul__, counts.tolist()))
    if not isinstance(given_colours, (list, tuple)):
        return None
    which = _flat_ints(given_colours)
    if (which is None or len(given_colours) != len(clues)
            or list(map(len, given_colours)) != counts.tolist()):
        return None
    if which.size and (which.min() < 1 or which.max() >= palette_size):
        return None
    return lengths, tuple(map(tuple, given_colours))


def _line_needs(clues: Sequence[Clue], colours: Sequence[Clue]) -> np.ndarray:
    """Cells each clue needs (blocks plus one gap between neighbours of one colour), vectorised."""
    counts = np.fromiter(map(len, clues), np.int64, len(clues))
    try:
        lengths = np.fromiter(chain.from_iterable(clues), np.int64, int(counts.sum()))
    except OverflowError:  # a block longer than any line can be: exact Python integers
        return np.array([clue_need(c, cc) for c, cc in zip(clues, colours)], dtype=object)
    which = np.fromiter(chain.from_iterable(colours), np.int64, lengths.size)
    line = np.repeat(np.arange(len(clues)), counts)
    same = (which[1:] == which[:-1]) & (line[1:] == line[:-1])
    return (np.bincount(line, weights=lengths, minlength=len(clues)).astype(np.int64)
            + np.bincount(line[1:][same], minlength=len(clues)))


def clue_need(lengths: Sequence[int], colours: Sequence[int]) -> int:
    """Cells a clue needs: its blocks plus one gap between neighbours of the same colour.

    Examples:
        >>> clue_need([2, 1, 1], [1, 1, 2])
        5
    """
    same = sum(1 for k in range(1, len(lengths)) if colours[k] == colours[k - 1])
    return sum(lengths) + same


def clue_of_line(line: Sequence[bool] | np.ndarray) -> Clue:
    """The clue of one line of a picture (truthy = black).

    Examples:
        >>> clue_of_line([1, 1, 0, 1, 0])
        (2, 1)
    """
    cells = np.asarray(line, dtype=bool).astype(np.int8)
    padded = np.concatenate(([0], cells, [0]))
    edges = np.flatnonzero(np.diff(padded))
    return tuple(int(n) for n in edges[1::2] - edges[0::2])


def line_runs(grid: np.ndarray) -> tuple[list[Clue], list[Clue]]:
    """Lengths and colours of the runs of every line of a grid (rows, then columns), vectorised.

    A run is a maximal stretch of one non-background colour; a boolean grid is
    the one-colour case (every run has colour 1).

    Examples:
        >>> line_runs(np.array([[1, 2, 2], [0, 0, 1]]))
        ([(1, 2), (1,), (1,), (1,), (1, 1)], [(1, 2), (1,), (1,), (2,), (2, 1)])
    """
    g = np.asarray(grid).astype(np.int16)
    h, w = g.shape
    # rows and columns apart, each padded by one background cell at both ends: memory and time
    # proportional to the cells (one (h+w) x max(h, w) array would make a 1 x 2,000,000
    # picture a 4-terabyte request)
    row_line, row_len, row_colour = _runs(g)
    col_line, col_len, col_colour = _runs(g.T)
    li = np.concatenate((row_line, col_line + h))
    lengths = np.concatenate((row_len, col_len)).tolist()
    colours = np.concatenate((row_colour, col_colour)).tolist()
    bounds = np.searchsorted(li, np.arange(h + w + 1)).tolist()
    lines = list(map(slice, bounds[:-1], bounds[1:]))  # one slice per line, cut at C speed
    return list(map(tuple, map(lengths.__getitem__, lines))), list(map(tuple, map(colours.__getitem__, lines)))


def line_clues(grid: np.ndarray) -> list[tuple[int, ...]]:
    """The clue (run lengths) of every line of one grid (rows, then columns), in one vectorised pass.

    Examples:
        >>> line_clues(np.array([[1, 1, 0], [0, 0, 1]], bool))
        [(2,), (1,), (1,), (1,), (1,)]
    """
    return line_runs(grid)[0]


def _runs(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(line index, length, colour) of every run of the int16 *lines* (0 = background), in reading order."""
    count, n = lines.shape
    padded = np.zeros((count, n + 2), np.int16)
    padded[:, 1:n + 1] = lines
    change = padded[:, 1:] != padded[:, :-1]
    li, start = np.nonzero(change & (padded[:, 1:] != 0))  # a run starts at cell `start`
    _, end = np.nonzero(change & (padded[:, :-1] != 0))  # a run ends before cell `end`
    return li, end - start, padded[li, start + 1]


def grid_from_picture(picture: Sequence[str] | Sequence[Sequence[Any]] | np.ndarray) -> np.ndarray:
    """A boolean ``(height, width)`` array from a black-and-white picture of the answer.

    *picture* is a sequence of strings (``#``/``X``/``1`` black, ``.``/``0``
    white), or a nested sequence / array of 0/1 or booleans.

    Raises:
        PuzzleError: ragged rows, an unknown character, or an empty picture.
    """
    if isinstance(picture, np.ndarray):
        grid = picture
    else:
        rows = list(picture)
        if not rows:
            raise PuzzleError("the picture has no rows")
        if all(isinstance(r, str) for r in rows):
            texts = [str(r).rstrip("\r\n") for r in rows]
            width = len(texts[0])
            out = np.zeros((len(texts), width), dtype=bool)
            for i, text in enumerate(texts):
                if len(text) != width:
                    raise PuzzleError(
                        f"picture row {i + 1} has {len(text)} cells, row 1 has {width}"
                    )
                for j, ch in enumerate(text):
                    if ch in BLACK_CHARS:
                        out[i, j] = True
                    elif ch not in WHITE_CHARS:
                        raise PuzzleError(f"picture row {i + 1}, column {j + 1}: {ch!r} is {NOT_BLACK_OR_WHITE}")
            grid = out
        else:
            widths = {len(r) for r in rows}
            if len(widths) != 1:
                raise PuzzleError("the picture's rows do not all have the same length")
            grid = np.asarray(rows)
    if grid.ndim != 2 or grid.shape[0] == 0 or grid.shape[1] == 0:
        raise PuzzleError(f"a picture must be a non-empty 2-D grid, got shape {grid.shape}")
    if grid.dtype != bool:
        if not np.isin(grid, (0, 1)).all():
            raise PuzzleError("a picture given as numbers may hold only 0 and 1")
        grid = grid.astype(bool)
    return grid


def colour_grid(picture: Any, palette: Palette) -> np.ndarray:
    """A grid of colour indices (int8) from picture rows, a boolean grid or an integer grid.

    Raises:
        PuzzleError: ragged rows, a character or number that is no colour of *palette*.

    Examples:
        >>> colour_grid(["r.", "gr"], Palette.of(["red", "green"])).tolist()
        [[1, 0], [2, 1]]
    """
    if isinstance(picture, np.ndarray) and picture.dtype != bool:
        grid = picture
    elif not isinstance(picture, np.ndarray) and picture and all(isinstance(r, str) for r in picture):
        return palette.grid(picture)
    elif len(palette.colours) == 1 or isinstance(picture, np.ndarray):
        return grid_from_picture(picture).astype(np.int8)
    else:
        grid = np.asarray(picture)
    if grid.ndim != 2 or grid.size == 0 or grid.dtype.kind not in "iub":
        raise PuzzleError(f"a picture must be a non-empty 2-D grid of colour numbers, got shape {grid.shape}")
    if grid.min() < 0 or grid.max() >= len(palette):
        raise PuzzleError(f"a picture given as numbers may hold only 0 .. {len(palette) - 1}")
    return grid.astype(np.int8)


@dataclass(frozen=True)
class Puzzle:
    """A nonogram: clues for every row and every column, black and white or in colour.

    Args:
        rows: one clue per row, top to bottom; each a sequence of blocks, a
            block being a length or a ``(length, colour)`` pair (colour: a
            palette name, picture character or 1-based index).
        cols: one clue per column, left to right.
        name: a short title, if known.
        solution: a known answer as rows of picture characters (``#``/``.``
            in black and white; the palette's characters in colour); checked.
        meta: anything else the source said (author, licence, source, ...);
            not compared.
        palette: the colours; default black on white (:data:`BW`), or, when
            the clues name colours and no palette is given, those names in
            order of first use on white.
        row_colours, col_colours: the colour of every block (1-based palette
            indices); filled from the clues, normally not given.

    After construction ``rows``/``cols`` hold block lengths only and
    ``row_colours``/``col_colours`` the matching colour indices.

    Raises:
        PuzzleError: a block length that is not a positive integer, an unknown
            colour or the background as a block colour, a clue that does not
            fit its line, row and column totals (per colour) that differ, no
            rows or no columns, or a solution that does not match.
    """

    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]
    name: str | None = None
    solution: tuple[str, ...] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    palette: Palette = BW
    row_colours: tuple[Clue, ...] | None = None
    col_colours: tuple[Clue, ...] | None = None

    def __post_init__(self) -> None:
        palette = self.palette if self.palette is not None else BW
        plain = (isinstance(self.rows, (list, tuple)) and isinstance(self.cols, (list, tuple))
                 and (fast_rows := _plain_clues(self.rows, self.row_colours, len(palette))) is not None
                 and (fast_cols := _plain_clues(self.cols, self.col_colours, len(palette))) is not None)
        if plain:
            assert fast_rows is not None and fast_cols is not None  # plain is True only when both were found
            (rows, row_colours), (cols, col_colours) = fast_rows, fast_cols
        else:
            rows, cols, row_colours, col_colours, palette = self._normalise(palette)
        if not rows:
            raise PuzzleError("the puzzle has no rows")
        if not cols:
            raise PuzzleError("the puzzle has no columns")
        for kind, clues, colours, length, unit in (
            ("row", rows, row_colours, len(cols), "width"), ("column", cols, col_colours, len(rows), "height"),
        ):
            needs = _line_needs(clues, colours)
            over = np.flatnonzero(needs > length)
            if over.size:
                idx = int(over[0])
                raise PuzzleError(
                    f"{kind} {idx + 1}: clue {self._show(clues[idx], colours[idx], palette)} needs "
                    f"{int(needs[idx])} cells (blocks plus gaps) but the {unit} is {length}"
                )
        ncol = len(palette)
        totals = []
        for clues, colours in ((rows, row_colours), (cols, col_colours)):
            lengths = np.fromiter(chain.from_iterable(clues), np.int64)
            which = np.fromiter(chain.from_iterable(colours), np.int64, lengths.size)
            totals.append(np.bincount(which, weights=lengths, minlength=ncol).astype(np.int64))
        if not np.array_equal(totals[0], totals[1]):
            c = int(np.flatnonzero(totals[0] != totals[1])[0])
            colour = "" if ncol == 2 else f" {palette.names[c]}"
            raise PuzzleError(
                f"the row clues paint {int(totals[0][c])}{colour} cells but the column clues paint "
                f"{int(totals[1][c])}"
            )
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "row_colours", row_colours)
        object.__setattr__(self, "col_colours", col_colours)
        object.__setattr__(self, "palette", palette)
        object.__setattr__(self, "meta", dict(self.meta))
        if self.solution is not None:
            grid = colour_grid(self.solution, palette)
            if grid.shape != (len(rows), len(cols)):
                raise PuzzleError(
                    f"the solution is {grid.shape[1]}x{grid.shape[0]} but the clues are "
                    f"{len(cols)}x{len(rows)} (width x height)"
                )
            bad = self.mismatched_lines(grid)
            if bad:
                raise PuzzleError(f"the solution does not match the clues: {', '.join(bad[:5])}")
            object.__setattr__(self, "solution", palette.picture(grid))

    def _normalise(self, palette: Palette) -> tuple[tuple[Clue, ...], tuple[Clue, ...], tuple[Clue, ...],
                                                    tuple[Clue, ...], Palette]:
        """Clues one by one (colour pairs, other number types): rows, cols, their colours, the palette."""
        row_items = [_normalise_clue(c, f"row {i + 1}") for i, c in enumerate(self.rows)]
        col_items = [_normalise_clue(c, f"column {j + 1}") for j, c in enumerate(self.cols)]
        for given, items in ((self.row_colours, row_items), (self.col_colours, col_items)):
            if given is not None:
                if len(given) != len(items) or any(len(g) != len(t[0]) for g, t in zip(given, items)):
                    raise PuzzleError("the block colours do not match the clues block for block")
                items[:] = [(t[0], tuple(g)) for t, g in zip(items, given)]
        named = [tok for _, toks in (*row_items, *col_items) for tok in toks if isinstance(tok, str)]
        if palette is BW and named and any(t not in BW.names + BW.chars for t in named):
            palette = Palette.of(dict.fromkeys(named))
        resolved = []
        for kind, items in (("row", row_items), ("column", col_items)):
            out = []
            for idx, (_, toks) in enumerate(items):
                out.append(tuple(1 if tok is None else palette.index(tok, f"{kind} {idx + 1}, block {k + 1}")
                                 for k, tok in enumerate(toks)))
            resolved.append(tuple(out))
        rows = tuple(t[0] for t in row_items)
        cols = tuple(t[0] for t in col_items)
        return rows, cols, resolved[0], resolved[1], palette

    @staticmethod
    def _show(clue: Sequence[int], colours: Sequence[int], palette: Palette) -> str:
        if len(palette.colours) == 1:
            return " ".join(map(str, clue)) or "0"
        return " ".join(f"{v}{palette.names[c]}" for v, c in zip(clue, colours)) or "0"

    # -- sizes -------------------------------------------------------------------------
    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.cols)

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.rows)

    @property
    def shape(self) -> tuple[int, int]:
        """``(height, width)``, as NumPy orders a grid."""
        return (len(self.rows), len(self.cols))

    @property
    def num_colours(self) -> int:
        """Number of block colours (1 for black and white)."""
        return len(self.palette.colours)

    @property
    def is_colour(self) -> bool:
        """More than one block colour: a black-and-white-only format cannot hold it."""
        return self.num_colours > 1

    def clue_items(self, lengths: Sequence[Clue], colours: Sequence[Clue]) -> list[list[tuple[int, str]]]:
        """Clues as ``(length, colour name)`` blocks, e.g. ``clue_items(p.rows, p.row_colours)``."""
        names = self.palette.names
        return [[(v, names[c]) for v, c in zip(cl, cc)] for cl, cc in zip(lengths, colours)]

    def clue_text(self, line: int) -> str:
        """The clue of line *line* (rows first) as people write it: ``3 1`` or ``3red 1blue``."""
        h = self.height
        clue = self.rows[line] if line < h else self.cols[line - h]
        cc = self.row_colours[line] if line < h else self.col_colours[line - h]  # type: ignore[index]
        return self._show(clue, cc, self.palette)

    # -- constructors ------------------------------------------------------------------
    @classmethod
    def from_picture(
        cls, picture: Sequence[str] | Sequence[Sequence[Any]] | np.ndarray, name: str | None = None,
        palette: Palette | None = None, **meta: Any,
    ) -> Puzzle:
        """The puzzle whose answer is *picture*; the picture becomes its solution.

        Args:
            picture: rows of picture characters, or a grid of colour indices
                (booleans for black and white).
            palette: the colours the characters / indices refer to (default black and white).

        Examples:
            >>> Puzzle.from_picture(["##.", "..#"]).cols
            ((1,), (1,), (1,))
        """
        pal = palette or BW
        grid = colour_grid(picture, pal)
        lengths, colours = line_runs(grid)
        h = grid.shape[0]
        puzzle = cls(
            rows=tuple(lengths[:h]), cols=tuple(lengths[h:]), name=name, meta=meta, palette=pal,
            row_colours=tuple(colours[:h]), col_colours=tuple(colours[h:]),
        )
        # the clues are the picture's own runs: it solves them by construction, no second check
        object.__setattr__(puzzle, "solution", pal.picture(grid))
        return puzzle

    def with_solution(self, picture: Sequence[str] | np.ndarray | None) -> Puzzle:
        """A copy carrying *picture* as its known solution (checked)."""
        solution = None if picture is None else self.palette.picture(colour_grid(picture, self.palette))
        return Puzzle(self.rows, self.cols, self.name, solution, self.meta, self.palette,
                      self.row_colours, self.col_colours)

    # -- checks ------------------------------------------------------------------------
    def mismatched_lines(self, grid: np.ndarray) -> list[str]:
        """Names of the lines of *grid* whose picture does not match their clue.

        Examples:
            >>> Puzzle(rows=[[1], []], cols=[[1], []]).mismatched_lines(np.array([[0, 1], [0, 0]]))
            ['column 1', 'column 2']
        """
        lengths, colours = line_runs(np.asarray(grid))
        want = (*self.rows, *self.cols)
        want_c = (*self.row_colours, *self.col_colours)  # type: ignore[misc]
        h = self.height
        return [f"row {t + 1}" if t < h else f"column {t - h + 1}"
                for t in range(len(want)) if lengths[t] != want[t] or colours[t] != want_c[t]]

    def is_solution(self, grid: np.ndarray | Sequence[str]) -> bool:
        """True when *grid* (array or picture rows) satisfies every clue."""
        g = colour_grid(grid, self.palette)
        return g.shape == self.shape and not self.mismatched_lines(g)

    def solution_grid(self) -> np.ndarray | None:
        """The known solution as an int8 grid of colour indices (0/1 in black and white), or None."""
        return None if self.solution is None else self.palette.grid(self.solution)

    def to_dict(self) -> dict[str, Any]:
        """The clue spec as plain data (``schemas/puzzle.schema.json``).

        Black and white: clues are lists of lengths.  Colour (or a palette
        other than black on white): ``background`` and ``colours`` give the
        palette, and every block is ``[length, colour name]``.
        """
        out: dict[str, Any] = {}
        if self.name is not None:
            out["name"] = self.name
        out["width"] = self.width
        out["height"] = self.height
        if self.palette == BW:
            out["rows"] = [list(c) for c in self.rows]
            out["cols"] = [list(c) for c in self.cols]
        else:
            out["background"] = self.palette.background.to_dict()
            out["colours"] = [c.to_dict() for c in self.palette.colours]
            out["rows"] = [[list(b) for b in c] for c in self.clue_items(self.rows, self.row_colours)]  # type: ignore[arg-type]
            out["cols"] = [[list(b) for b in c] for c in self.clue_items(self.cols, self.col_colours)]  # type: ignore[arg-type]
        if self.solution is not None:
            out["solution"] = list(self.solution)
        for key, value in self.meta.items():
            out.setdefault(key, value)
        return out

    def __repr__(self) -> str:
        title = f" {self.name!r}" if self.name else ""
        colours = f" {self.num_colours} colours" if self.is_colour else ""
        return f"<Puzzle{title} {self.width}x{self.height}{colours}>"

    def _repr_svg_(self) -> str | None:
        """Jupyter's picture of the puzzle: its clues around its known solution, or an empty grid.

        The drawing is :func:`nonoqubo.answers.render.svg_picture`'s, the one ``--image`` writes
        (registered through :mod:`nonoqubo._util.notebook`; this layer does not import it).
        """
        return notebook.show(self, "svg")
