"""The nonogram itself: row and column clues, validated; no file I/O here.

A clue lists the lengths of a line's black blocks in order (rows left to right,
columns top to bottom).  ``[]`` and ``[0]`` both mean an empty line.  A
:class:`Puzzle` is immutable and always valid: every block length is a positive
integer, every clue fits its line, and the rows paint as many cells as the
columns.  A known solution (a picture of the answer) may travel with it.

Examples:
    >>> p = Puzzle(rows=[[1], [1, 1], [3]], cols=[[2], [1, 1], [2]])
    >>> p.width, p.height
    (3, 3)
    >>> Puzzle.from_picture(["#.#", "###"]).rows
    ((1, 1), (3,))
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import PuzzleError

__all__ = ["Clue", "Puzzle", "clue_of_line", "grid_from_picture", "line_clues", "picture_of_grid"]

Clue = tuple[int, ...]

#: characters accepted as black and as white in a picture of the answer
BLACK_CHARS = frozenset("#X1xB@■█*")
WHITE_CHARS = frozenset(".0-_ ·□")


def _normalise_clue(clue: Any, what: str) -> Clue:
    """Turn *clue* into a tuple of positive ints; ``[0]`` becomes ``()``."""
    if isinstance(clue, (str, bytes)) or not isinstance(clue, Iterable):
        raise PuzzleError(f"{what}: a clue must be a list of block lengths, not {clue!r}")
    values = list(clue)
    if values == [0]:
        return ()
    result = []
    for pos, value in enumerate(values, start=1):
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
        result.append(value)
    return tuple(result)


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


def line_clues(grid: np.ndarray) -> list[tuple[int, ...]]:
    """The clue of every line of one grid (rows, then columns), in one vectorised pass.

    Examples:
        >>> line_clues(np.array([[1, 1, 0], [0, 0, 1]], bool))
        [(2,), (1,), (1,), (1,), (1,)]
    """
    g = np.asarray(grid, dtype=bool)
    h, w = g.shape
    # rows and columns apart, each padded by one white cell at both ends: memory and time
    # proportional to the cells (one (h+w) x max(h, w) array would make a 1 x 2,000,000
    # picture a 4-terabyte request)
    row_line, row_len = _runs(g)
    col_line, col_len = _runs(g.T)
    li = np.concatenate((row_line, col_line + h))
    lengths = np.concatenate((row_len, col_len)).tolist()
    bounds = np.searchsorted(li, np.arange(h + w + 1)).tolist()
    return [tuple(lengths[bounds[t]:bounds[t + 1]]) for t in range(h + w)]


def _runs(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(line index, length) of every black run of the boolean *lines*, in reading order."""
    count, n = lines.shape
    padded = np.zeros((count, n + 2), np.int8)
    padded[:, 1:n + 1] = lines
    edges = np.diff(padded, axis=1)
    li, start = np.nonzero(edges == 1)
    _, end = np.nonzero(edges == -1)
    return li, end - start


def grid_from_picture(picture: Sequence[str] | Sequence[Sequence[Any]] | np.ndarray) -> np.ndarray:
    """A boolean ``(height, width)`` array from a picture of the answer.

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
                        raise PuzzleError(
                            f"picture row {i + 1}, column {j + 1}: {ch!r} is neither black "
                            f"({' '.join(sorted(BLACK_CHARS))}) nor white ({' '.join(sorted(WHITE_CHARS - {' '}))} "
                            "or a space)"
                        )
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


def picture_of_grid(grid: np.ndarray, black: str = "#", white: str = ".") -> tuple[str, ...]:
    """Rows of ``#``/``.`` text from a boolean grid."""
    table = np.array([white, black])
    return tuple("".join(row) for row in table[np.asarray(grid, dtype=np.int8)])


@dataclass(frozen=True)
class Puzzle:
    """A black-and-white nonogram: clues for every row and every column.

    Args:
        rows: one clue per row, top to bottom; each a sequence of block lengths.
        cols: one clue per column, left to right.
        name: a short title, if known.
        solution: a known answer as rows of ``#``/``.`` (checked against the clues).
        meta: anything else the source said (author, licence, source, ...);
            not compared.

    Raises:
        PuzzleError: a block length that is not a positive integer, a clue that
            does not fit its line, row and column totals that differ, no rows or
            no columns, or a solution that does not match.
    """

    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]
    name: str | None = None
    solution: tuple[str, ...] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        rows = tuple(_normalise_clue(c, f"row {i + 1}") for i, c in enumerate(self.rows))
        cols = tuple(_normalise_clue(c, f"column {j + 1}") for j, c in enumerate(self.cols))
        if not rows:
            raise PuzzleError("the puzzle has no rows")
        if not cols:
            raise PuzzleError("the puzzle has no columns")
        for kind, clues, length, unit in (("row", rows, len(cols), "width"), ("column", cols, len(rows), "height")):
            for idx, clue in enumerate(clues):
                need = sum(clue) + max(len(clue) - 1, 0)
                if need > length:
                    raise PuzzleError(
                        f"{kind} {idx + 1}: clue {' '.join(map(str, clue))} needs {need} cells "
                        f"(blocks plus gaps) but the {unit} is {length}"
                    )
        row_total = sum(map(sum, rows))
        col_total = sum(map(sum, cols))
        if row_total != col_total:
            raise PuzzleError(
                f"the row clues paint {row_total} cells but the column clues paint {col_total}"
            )
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "meta", dict(self.meta))
        if self.solution is not None:
            grid = grid_from_picture(self.solution)
            if grid.shape != (len(rows), len(cols)):
                raise PuzzleError(
                    f"the solution is {grid.shape[1]}x{grid.shape[0]} but the clues are "
                    f"{len(cols)}x{len(rows)} (width x height)"
                )
            bad = self.mismatched_lines(grid)
            if bad:
                raise PuzzleError(f"the solution does not match the clues: {', '.join(bad[:5])}")
            object.__setattr__(self, "solution", picture_of_grid(grid))

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

    # -- constructors ------------------------------------------------------------------
    @classmethod
    def from_picture(
        cls, picture: Sequence[str] | Sequence[Sequence[Any]] | np.ndarray, name: str | None = None,
        **meta: Any,
    ) -> Puzzle:
        """The puzzle whose answer is *picture*; the picture becomes its solution.

        Examples:
            >>> Puzzle.from_picture(["##.", "..#"]).cols
            ((1,), (1,), (1,))
        """
        grid = grid_from_picture(picture)
        clues = line_clues(grid)
        return cls(
            rows=tuple(clues[: grid.shape[0]]),
            cols=tuple(clues[grid.shape[0] :]),
            name=name,
            solution=picture_of_grid(grid),
            meta=meta,
        )

    def with_solution(self, picture: Sequence[str] | np.ndarray | None) -> Puzzle:
        """A copy carrying *picture* as its known solution (checked)."""
        return Puzzle(self.rows, self.cols, self.name, None if picture is None else picture_of_grid(grid_from_picture(picture)), self.meta)

    # -- checks ------------------------------------------------------------------------
    def mismatched_lines(self, grid: np.ndarray) -> list[str]:
        """Names of the lines of *grid* whose picture does not match their clue.

        Examples:
            >>> Puzzle(rows=[[1], []], cols=[[1], []]).mismatched_lines(np.array([[0, 1], [0, 0]]))
            ['column 1', 'column 2']
        """
        got = line_clues(np.asarray(grid, dtype=bool))
        want = (*self.rows, *self.cols)
        h = self.height
        return [f"row {t + 1}" if t < h else f"column {t - h + 1}"
                for t, clue in enumerate(got) if clue != want[t]]

    def is_solution(self, grid: np.ndarray | Sequence[str]) -> bool:
        """True when *grid* (array or picture rows) satisfies every clue."""
        g = grid_from_picture(grid)
        return g.shape == self.shape and not self.mismatched_lines(g)

    def solution_grid(self) -> np.ndarray | None:
        """The known solution as a boolean array, or None."""
        return None if self.solution is None else grid_from_picture(self.solution)

    def to_dict(self) -> dict[str, Any]:
        """The clue spec as plain data (``schemas/puzzle.schema.json``)."""
        out: dict[str, Any] = {}
        if self.name is not None:
            out["name"] = self.name
        out["width"] = self.width
        out["height"] = self.height
        out["rows"] = [list(c) for c in self.rows]
        out["cols"] = [list(c) for c in self.cols]
        if self.solution is not None:
            out["solution"] = list(self.solution)
        for key, value in self.meta.items():
            out.setdefault(key, value)
        return out

    def __repr__(self) -> str:
        title = f" {self.name!r}" if self.name else ""
        return f"<Puzzle{title} {self.width}x{self.height}>"
