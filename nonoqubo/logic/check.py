"""Check a grid against the clues directly, and name the lines that fail.

A grid is a picture of the answer: text rows of ``#``/``.`` (or ``1``/``0``,
``X``/``-``, ...), or JSON (a list of such strings, a list of 0/1 lists, or an
object with a ``grid`` / ``solution`` / ``picture`` key).  A colour puzzle's
grid uses the palette's picture characters (``.`` the background).  A line
*fails* when its runs (maximal stretches of one colour), in order, differ from
its clue in length or in colour.

The test is vectorised over grids: :func:`failing_lines` takes an
``(S, height, width)`` stack and finds every line's runs with one ``diff``
and one ``nonzero``, so the decoder uses it on thousands of samples at once.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> p = Puzzle.from_picture(["#.", "##"])
    >>> check(p, ["#.", "##"]).valid
    True
    >>> [f.line for f in check(p, ["#.", "#."]).failures]
    ['row 2', 'column 2']
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..model.encoding import Layout
from .._util import notebook
from .._util.guard import json_loads
from ..errors import FormatError, PuzzleError
from ..model.palette import BW, Palette
from ..model.puzzle import Puzzle, colour_grid, line_clues, line_runs

__all__ = ["CheckResult", "LineFailure", "check", "failing_lines", "line_clues", "line_failures", "parse_grid",
           "read_grid"]

INT = np.int64


@dataclass(frozen=True)
class LineFailure:
    """A line whose picture does not match its clue.

    Attributes:
        line: ``row 3`` / ``column 7`` (1-based).
        clue: the clue the line should have (block lengths).
        got: the clue of the line as painted.
        clue_colours, got_colours: colour puzzles: the colour name of each
            block of *clue* / each run of *got* (empty in black and white).
    """

    line: str
    clue: tuple[int, ...]
    got: tuple[int, ...]
    clue_colours: tuple[str, ...] = ()
    got_colours: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "clue": list(self.clue), "got": list(self.got)}
        if self.clue_colours or self.got_colours:
            out["clue_colours"] = list(self.clue_colours)
            out["got_colours"] = list(self.got_colours)
        return out

    def __str__(self) -> str:
        def show(c: tuple[int, ...], names: tuple[str, ...]) -> str:
            if names:
                return " ".join(f"{v}{n}" for v, n in zip(c, names)) or "0"
            return " ".join(map(str, c)) or "0"

        coloured = bool(self.clue_colours or self.got_colours)
        return (f"{self.line}: clue {show(self.clue, self.clue_colours if coloured else ())}, "
                f"picture has {show(self.got, self.got_colours if coloured else ())}")


@dataclass(frozen=True)
class CheckResult:
    """The verdict on one grid.

    Attributes:
        valid: every line matches its clue.
        grid: the grid checked, colour indices.
        failures: every failing line, rows then columns.
        palette: the puzzle's colours.
        puzzle: the clues it was checked against (for its picture; not compared).
    """

    valid: bool
    grid: np.ndarray
    failures: list[LineFailure] = field(default_factory=list)
    palette: Palette = BW
    puzzle: Puzzle | None = field(default=None, repr=False, compare=False)

    @property
    def picture(self) -> tuple[str, ...]:
        return self.palette.picture(self.grid)

    @property
    def failing_rows(self) -> list[int]:
        """The 0-based indices of the failing rows."""
        return [int(f.line.split()[1]) - 1 for f in self.failures if f.line.startswith("row")]

    @property
    def failing_cols(self) -> list[int]:
        """The 0-based indices of the failing columns."""
        return [int(f.line.split()[1]) - 1 for f in self.failures if f.line.startswith("column")]

    @property
    def verdict(self) -> str:
        """What ``check`` prints first: ``VALID: the grid solves the puzzle`` or how many lines fail."""
        if self.valid:
            return "VALID: the grid solves the puzzle"
        n = len(self.failures)
        return f"INVALID: {n} line{'s' * (n != 1)} do not match their clue"

    def _repr_svg_(self) -> str | None:
        """Jupyter's picture: the grid with its clues, failing lines marked, as ``check --image`` draws it."""
        return notebook.show(self, "svg")

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "failing_lines": [f.to_dict() for f in self.failures],
            "picture": list(self.picture),
        }


def failing_lines(layout: Layout, grids: np.ndarray) -> np.ndarray:
    """Which lines of each grid do not match their clue, vectorised over grids.

    Args:
        layout: the puzzle's layout (clues as flat block arrays).
        grids: ``(S, height, width)`` booleans (a single ``(height, width)`` grid is allowed).

    Returns:
        ``(S, height + width)`` boolean array, rows first then columns; True = fails.
    """
    g = np.asarray(grids)
    if g.ndim == 2:
        g = g[None]
    # colour indices fit a byte (a palette has at most a few dozen colours): half the memory
    # traffic of int16 on this hot path
    g = g.astype(np.int8 if g.dtype == bool or int(g.max(initial=0)) < 128 else np.int16)
    s, h, w = g.shape
    n = max(h, w)
    # every line as a row of a (S, lines, n + 2) array, zero-padded on both sides; a run is
    # a maximal stretch of one non-zero colour
    lines = np.zeros((s, h + w, n + 2), g.dtype)
    lines[:, :h, 1:w + 1] = g
    lines[:, h:, 1:h + 1] = g.transpose(0, 2, 1)
    change = lines[:, :, 1:] != lines[:, :, :-1]
    filled = lines != 0
    # flat positions in the (S * lines, n + 1) boundaries: a run starts at one and ends at the
    # next in the same line, so a run's length is the difference of the two (one flat pass each,
    # far cheaper than three index arrays of np.nonzero)
    starts = np.flatnonzero(change & filled[:, :, 1:])
    ends = np.flatnonzero(change & filled[:, :, :-1])
    run_length = ends - starts
    key = starts // (n + 1)  # sample * (h + w) + line
    li = key % (h + w)
    run_colour = lines.reshape(-1)[starts + key + 1]  # the run's first cell: (n + 2) per line, +1 pad
    count = np.bincount(key, minlength=s * (h + w)).reshape(s, h + w)
    blocks_per_line = np.diff(layout.line_first_block)
    bad = count != blocks_per_line[None, :]
    if run_length.size:
        first_run = np.concatenate(([0], np.cumsum(count.ravel())[:-1]))
        rank = np.arange(run_length.size) - first_run[key]
        ok_rank = rank < blocks_per_line[li]
        block = np.minimum(layout.line_first_block[li] + np.where(ok_rank, rank, 0), max(layout.num_blocks - 1, 0))
        wrong = ok_rank & ((layout.block_length[block] != run_length) | (layout.block_colour[block] != run_colour)) \
            if layout.num_blocks else np.zeros(run_length.size, bool)
        bad |= (np.bincount(key[wrong], minlength=s * (h + w)) > 0).reshape(s, h + w)
    return bad


def line_failures(puzzle: Puzzle, layout: Layout, grid: np.ndarray, lines: list[int]) -> list[LineFailure]:
    """The :class:`LineFailure` of each of *lines* (indices, rows first) of *grid*."""
    if not lines:
        return []
    clues = (*puzzle.rows, *puzzle.cols)
    got, got_colours = line_runs(grid)
    if not puzzle.is_colour:
        return [LineFailure(layout.line_name(t), clues[t], got[t]) for t in lines]
    names = puzzle.palette.names
    colours = (*puzzle.row_colours, *puzzle.col_colours)  # type: ignore[misc]
    return [LineFailure(layout.line_name(t), clues[t], got[t], tuple(names[c] for c in colours[t]),
                        tuple(names[c] for c in got_colours[t])) for t in lines]


def check(puzzle: Puzzle, grid: np.ndarray | Sequence[str] | Sequence[Sequence[int]], layout: Layout | None = None) -> CheckResult:
    """Check one grid against *puzzle*'s clues.

    Args:
        puzzle: the clues.
        grid: a boolean array or picture rows (``#``/``.``, ``1``/``0``).

    Returns:
        A :class:`CheckResult` listing every failing line (rows, then columns).

    Raises:
        PuzzleError: the grid is not a picture, or its size differs from the puzzle's.
    """
    g = colour_grid(grid, puzzle.palette)
    if g.shape != puzzle.shape:
        raise PuzzleError(
            f"the grid is {g.shape[1]}x{g.shape[0]} but the puzzle is "
            f"{puzzle.width}x{puzzle.height} (width x height)"
        )
    lay = layout or Layout.of(puzzle)
    bad = np.flatnonzero(failing_lines(lay, g)[0])
    failures = line_failures(puzzle, lay, g, [int(t) for t in bad])
    return CheckResult(valid=not failures, grid=g, failures=failures, palette=puzzle.palette, puzzle=puzzle)


def read_grid(path: str | os.PathLike[str], *, source: str | None = None, palette: Palette = BW) -> np.ndarray:
    """Read a grid from the file *path* (a ``str`` is always a path; :func:`parse_grid` reads text).

    The grammar and errors are :func:`parse_grid`'s; *source* names the file in messages
    (default: the path).

    Raises:
        FormatError: the file is not a picture.
        OSError: the file cannot be read (``FileNotFoundError`` names a missing one).
    """
    text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
    return parse_grid(text, source=source or os.fspath(path), palette=palette)


def parse_grid(text: str, *, source: str = "<grid>", palette: Palette = BW) -> np.ndarray:
    """The grid in *text* (the content of a grid file).

    Text: one row per line, ``#``/``X``/``1`` black and ``.``/``0``/``-`` white;
    blank lines and lines starting with ``//`` or ``;`` are skipped, and
    blanks between cells are ignored.  JSON: a list of row strings, a list of
    0/1 lists, or an object whose ``grid``, ``solution`` or ``picture`` is one.
    A colour puzzle's grid uses *palette*'s characters (or colour numbers in JSON).

    Raises:
        FormatError: the text is not a picture (the message names the line).

    Examples:
        >>> parse_grid("#.\\n.#").astype(int).tolist()
        [[1, 0], [0, 1]]
        >>> parse_grid('{"grid": [[0, 1], [1, 1]]}').astype(int).tolist()
        [[0, 1], [1, 1]]
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_grid takes the grid's text, not a {type(text).__name__}; read a file with read_grid")
    src = source
    head = text.lstrip()
    if head.startswith(("[", "{")):
        doc = json_loads(text, src)
        if isinstance(doc, dict):
            for key in ("grid", "solution", "picture"):
                if key in doc:
                    doc = doc[key]
                    break
            else:
                raise FormatError(f"{src}: a JSON grid object needs a 'grid', 'solution' or 'picture' key")
        if isinstance(doc, list) and doc and isinstance(doc[0], list):
            if any(not isinstance(v, (int, bool)) for row in doc for v in row):
                raise FormatError(f"{src}: a JSON grid of lists holds only 0/1 or true/false (colour numbers in colour)")
        try:
            return colour_grid(doc, palette)
        except PuzzleError as exc:
            raise FormatError(f"{src}: {exc}") from None
    rows: list[str] = []
    numbers: list[int] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("//", ";")):
            continue
        rows.append("".join(stripped.split()))
        numbers.append(lineno)
    if not rows:
        raise FormatError(f"{src}: no grid rows")
    try:
        return colour_grid(rows, palette)
    except PuzzleError as exc:
        msg = str(exc)
        if msg.startswith("picture row "):
            k = int(msg.split()[2].rstrip(","))
            raise FormatError(f"{src}:{numbers[k - 1]}: {msg}") from None
        raise FormatError(f"{src}: {msg}") from None
