"""Show a picture: plain text for the terminal, SVG for people who would rather look.

Text: one row per line, ``#`` black and ``.`` white (in colour, the
palette's character of each colour).  Cells where the row and the column
disagree are marked ``X`` (coloured in the row view) or ``o`` (background in
the row view); a row that fails its clue ends with ``  <``, and a line of
``^`` under the grid points at the failing columns.

SVG (no dependency, plain text): the grid with its clues around it, row clues
on the left and column clues on top; disagreeing cells are filled red (or
outlined red when white), and the clues of failing lines are red on a pink
band.  In colour every cell is filled with its colour's RGB (a colour named
without RGB gets its name, which SVG knows for the CSS colours) and a
disagreeing coloured cell is outlined red; each clue number is written in its
block's colour.  The drawing is a pure function of its inputs, so it is easy
to test.

Examples:
    >>> import numpy as np
    >>> g = np.array([[1, 0], [0, 1]], bool)
    >>> print("\\n".join(text_picture(g, conflicts=np.array([[0, 1], [0, 0]], bool), failing_rows=[0])))
    #o  <
    .#
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape

import numpy as np

from ..model.palette import BW, Palette
from ..model.puzzle import Puzzle

__all__ = ["svg_picture", "text_picture"]

CELL = 18
FONT = 11
BLACK = "#222222"
WRONG = "#d62728"
BAND = "#fde0e0"
GRIDLINE = "#bbbbbb"


def text_picture(
    grid: np.ndarray,
    *,
    conflicts: np.ndarray | None = None,
    failing_rows: Iterable[int] = (),
    failing_cols: Iterable[int] = (),
    palette: Palette = BW,
) -> list[str]:
    """Rows of text for *grid* with the marks described in the module docstring.

    Args:
        grid: ``(height, width)`` colour indices (booleans in black and white).
        conflicts: cells to mark (``X`` coloured, ``o`` background), same shape.
        failing_rows, failing_cols: 0-based indices of lines that fail their clue.
        palette: the colours' characters.
    """
    g = np.asarray(grid).astype(np.int64)
    chars = np.array(palette.chars, dtype="<U1")[g]
    if conflicts is not None:
        c = np.asarray(conflicts, dtype=bool)
        chars[c & (g > 0)] = "X"
        chars[c & (g == 0)] = "o"
    bad_rows = set(int(i) for i in failing_rows)
    out = ["".join(row) + ("  <" if i in bad_rows else "") for i, row in enumerate(chars)]
    cols = sorted(int(j) for j in failing_cols)
    if cols:
        marker = [" "] * g.shape[1]
        for j in cols:
            marker[j] = "^"
        out.append("".join(marker).rstrip())
    return out


def _fill(palette: Palette) -> list[str]:
    """The SVG fill of every colour index: black is the house BLACK, else RGB, else the name."""
    out = []
    for colour in (palette.background, *palette.colours):
        if colour.rgb == "000000":
            out.append(BLACK)
        elif colour.rgb is not None:
            out.append(f"#{colour.rgb}")
        else:
            out.append(colour.name if colour.name.isalpha() else "#888888")
    return out


def _clue_text(clue: Sequence[int]) -> list[str]:
    return [str(v) for v in clue] or ["0"]


def svg_picture(
    puzzle: Puzzle,
    grid: np.ndarray,
    *,
    conflicts: np.ndarray | None = None,
    failing_rows: Iterable[int] = (),
    failing_cols: Iterable[int] = (),
    title: str | None = None,
) -> str:
    """An SVG drawing of *grid* with *puzzle*'s clues around it.

    Args:
        puzzle: the clues drawn around the grid.
        grid: ``(height, width)`` colour indices (booleans in black and white).
        conflicts: cells where rows and columns disagree (drawn red).
        failing_rows, failing_cols: 0-based indices of lines that fail (clues in red).
        title: a caption above the drawing (e.g. the verdict).

    Returns:
        The SVG document as a string.

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> p = Puzzle.from_picture(["#."])
        >>> s = svg_picture(p, p.solution_grid())
        >>> s.startswith("<svg") and s.count("<rect") >= 2
        True
    """
    g = np.asarray(grid).astype(np.int64)
    h, w = g.shape
    fills = _fill(puzzle.palette)
    bad_rows = set(int(i) for i in failing_rows)
    bad_cols = set(int(j) for j in failing_cols)
    row_colours = puzzle.row_colours or tuple(() for _ in puzzle.rows)
    col_colours = puzzle.col_colours or tuple(() for _ in puzzle.cols)
    row_texts = [" ".join(_clue_text(c)) for c in puzzle.rows]
    col_texts = [_clue_text(c) for c in puzzle.cols]
    char_w = FONT * 0.62
    left = int(max(len(t) for t in row_texts) * char_w) + 10
    top_rows = max(len(t) for t in col_texts)
    caption = 22 if title else 0
    top = caption + top_rows * (FONT + 3) + 8
    width = left + w * CELL + 2
    if title:  # room for the caption
        width = max(width, int(len(title) * (FONT + 2) * 0.62) + 10)
    height = top + h * CELL + 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="{FONT}">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
    ]
    if title:
        colour = WRONG if (bad_rows or bad_cols or (conflicts is not None and np.any(conflicts))) else "#2a7d2a"
        parts.append(f'<text x="4" y="15" font-size="{FONT + 2}" fill="{colour}">{escape(title)}</text>')
    # bands behind failing lines' clues
    for i in sorted(bad_rows):
        parts.append(f'<rect x="0" y="{top + i * CELL}" width="{left - 2}" height="{CELL}" fill="{BAND}"/>')
    for j in sorted(bad_cols):
        parts.append(f'<rect x="{left + j * CELL}" y="{caption}" width="{CELL}" height="{top - caption - 2}" fill="{BAND}"/>')

    def ink(colours: Sequence[int], t: int, failing: bool) -> str:
        """A clue number's colour: red on a failing line, else its block's colour (black in black and white)."""
        if failing:
            return WRONG
        return fills[colours[t]] if puzzle.is_colour and t < len(colours) else BLACK

    # clues: one text per row (in colour, one tspan per block in its colour)
    for i, text in enumerate(row_texts):
        y = top + i * CELL + CELL * 0.7
        fill = WRONG if i in bad_rows else BLACK
        body = escape(text)
        if puzzle.is_colour and puzzle.rows[i]:
            body = " ".join(f'<tspan fill="{ink(row_colours[i], t, i in bad_rows)}">{escape(item)}</tspan>'
                            for t, item in enumerate(_clue_text(puzzle.rows[i])))
        parts.append(f'<text x="{left - 4}" y="{y:.1f}" text-anchor="end" fill="{fill}">{body}</text>')
    for j, items in enumerate(col_texts):
        x = left + j * CELL + CELL / 2
        y0 = top - 6 - (len(items) - 1) * (FONT + 3)
        for t, item in enumerate(items):
            parts.append(f'<text x="{x:.1f}" y="{y0 + t * (FONT + 3):.1f}" text-anchor="middle" '
                         f'fill="{ink(col_colours[j], t, j in bad_cols)}">{escape(item)}</text>')
    # cells
    conf = np.zeros(g.shape, bool) if conflicts is None else np.asarray(conflicts, dtype=bool)
    parts.append(f'<g stroke="{GRIDLINE}" stroke-width="0.5">')
    for i in range(h):
        for j in range(w):
            x, y = left + j * CELL, top + i * CELL
            fill = WRONG if conf[i, j] and g[i, j] and not puzzle.is_colour else fills[g[i, j]]
            parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{"white" if g[i, j] == 0 else fill}"/>')
    parts.append("</g>")
    # white cells in conflict (every conflicting cell in colour): a red outline on top
    for i, j in zip(*np.nonzero(conf & ((g == 0) | puzzle.is_colour))):
        x, y = left + int(j) * CELL, top + int(i) * CELL
        parts.append(f'<rect x="{x + 1.5}" y="{y + 1.5}" width="{CELL - 3}" height="{CELL - 3}" '
                     f'fill="none" stroke="{WRONG}" stroke-width="2"/>')
    # thicker rule every 5 cells, as on paper
    for j in range(0, w + 1, 5):
        parts.append(f'<line x1="{left + j * CELL}" y1="{top}" x2="{left + j * CELL}" y2="{top + h * CELL}" stroke="#555" stroke-width="1"/>')
    for i in range(0, h + 1, 5):
        parts.append(f'<line x1="{left}" y1="{top + i * CELL}" x2="{left + w * CELL}" y2="{top + i * CELL}" stroke="#555" stroke-width="1"/>')
    parts.append(f'<rect x="{left}" y="{top}" width="{w * CELL}" height="{h * CELL}" fill="none" stroke="{BLACK}" stroke-width="1.5"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
