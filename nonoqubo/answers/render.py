"""Show a picture: plain text for the terminal, SVG for people who would rather look.

Text: one row per line, ``#`` black and ``.`` white (in colour, the
palette's character of each colour).  Cells where the row and the column
disagree are marked ``X`` (coloured in the row view) or ``o`` (background in
the row view); a row that fails its clue ends with ``  <``, and a line of
``^`` under the grid points at the failing columns.

SVG (no dependency, plain text), sized to its content: the canvas is as wide as the row
clues, the grid and a margin for the failing-line markers (never wider because of the title or
the key, which wrap), and as tall as the title, the column clues, the grid and the key.  Marks,
the same in black and white and in colour:

* a cell where the row and the column disagree keeps the *row's* value as its fill, gets a
  dark red ring (cased in white, so it shows on any fill), and a small square in its middle
  filled with the *column's* value (black-bordered on a white casing): both values stay readable;
* a line that fails its clue: its clue in bold and underlined on a light pink band, and a
  dark red triangle beside the row (right of the grid) or under the column.  In colour every
  clue number sits on a chip of its block's colour, failing or not, written in black or white,
  whichever contrasts more;
* a key under the grid explains each mark that appears and every colour (with its name).

The document has a ``<title>`` (the caption) and a ``<desc>`` (what the picture shows, in
words), and every text and mark is drawn on a colour it contrasts with at 4.5:1 or more
(WCAG 2.x).  Colours named without RGB are resolved through the CSS names, so every fill is
``#rrggbb``.  The drawing is a pure function of its inputs, so it is easy to test.

Examples:
    >>> import numpy as np
    >>> g = np.array([[1, 0], [0, 1]], bool)
    >>> print("\\n".join(text_picture(g, conflicts=np.array([[0, 1], [0, 0]], bool), failing_rows=[0])))
    #o  <
    .#
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Sequence
from xml.sax.saxutils import escape

import numpy as np

from .._util import notebook
from ..logic.check import CheckResult
from ..model.palette import BW, Colour, Palette
from .decode import Report, Reports
from ..model.puzzle import Puzzle
from ._css_colours import CSS_COLOURS

__all__ = ["HTML_REPORTS", "check_svg", "column_values", "contrast", "luminance", "puzzle_svg", "report_svg", "reports_html",
           "svg_picture", "text_on",
           "text_picture"]

CELL = 20
FONT = 11
#: the width of one character of the monospace font, and of the bold title's
CHAR = FONT * 0.62
TITLE_FONT = 13
TITLE_CHAR = TITLE_FONT * 0.62
LINE = FONT + 5
PAD = 6
#: room right of the grid and under it for the failing-line markers
MARGIN = 12
#: the narrowest canvas (the key and the title wrap within it)
MIN_WIDTH = 220
INK = "#000000"
BLACK = "#222222"
WHITE = "#ffffff"
WRONG = "#b00020"
GOOD = "#1b6e20"
BAND = "#fde8ec"
GRIDLINE = "#bbbbbb"
RULE = "#555555"

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


def _hex(colour: Colour) -> str:
    """A palette colour as ``#rrggbb``: its RGB, else its CSS name's, else mid grey."""
    if colour.rgb is not None:
        return f"#{colour.rgb}"
    return f"#{CSS_COLOURS.get(colour.name.lower().replace(' ', ''), '888888')}"


def _fill(palette: Palette) -> list[str]:
    """The SVG fill of every colour index: black is the house BLACK, the background white, else its RGB."""
    out = [BLACK if rgb == "#000000" else rgb for rgb in map(_hex, (palette.background, *palette.colours))]
    if palette is BW or out[0] == "#888888":  # an unknown background name: white
        out[0] = WHITE
    return out


def luminance(rgb: str) -> float:
    """The WCAG 2.x relative luminance of ``#rrggbb``."""
    channels = [int(rgb[k:k + 2], 16) / 255 for k in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG 2.x contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(fill: str) -> str:
    """Black or white, whichever contrasts more with *fill* (at least 4.58:1 for any fill)."""
    return INK if contrast(INK, fill) >= contrast(WHITE, fill) else WHITE


def _clue_text(clue: Sequence[int]) -> list[str]:
    return [str(v) for v in clue] or ["0"]


def _wrap(text: str, width: float, char: float) -> list[str]:
    """*text* in lines of at most *width* pixels (words kept whole unless longer than a line)."""
    return textwrap.wrap(text, max(8, int(width // char)), break_long_words=True) or [""]


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _conflict_mark(x: float, y: float, column_fill: str | None) -> list[str]:
    """The conflict mark on the cell at (x, y): a cased ring, and the column's value as a small square."""
    out = ['<g class="conflict">',
           f'<rect class="mark-casing" x="{_num(x + 1.5)}" y="{_num(y + 1.5)}" width="{CELL - 3}" height="{CELL - 3}" '
           f'fill="none" stroke="{WHITE}" stroke-width="3"/>',
           f'<rect class="mark ring" x="{_num(x + 1.5)}" y="{_num(y + 1.5)}" width="{CELL - 3}" height="{CELL - 3}" '
           f'fill="none" stroke="{WRONG}" stroke-width="1.6"/>']
    if column_fill is not None:
        side = 6
        at = (CELL - side) / 2
        out += [f'<rect class="mark-casing" x="{_num(x + at)}" y="{_num(y + at)}" width="{side}" height="{side}" '
                f'fill="none" stroke="{WHITE}" stroke-width="3"/>',
                f'<rect class="mark column-value" x="{_num(x + at)}" y="{_num(y + at)}" width="{side}" height="{side}" '
                f'fill="{column_fill}" stroke="{INK}" stroke-width="1"/>']
    out.append("</g>")
    return out


def _triangle(cx: float, cy: float, pointing: str) -> str:
    """A failing-line marker: a small triangle pointing left (at a row) or up (at a column)."""
    r = 4.5
    pts = ([(cx - r, cy), (cx + r, cy - r), (cx + r, cy + r)] if pointing == "left"
           else [(cx, cy - r), (cx - r, cy + r), (cx + r, cy + r)])
    return (f'<polygon class="mark failing" points="{" ".join(f"{_num(a)},{_num(b)}" for a, b in pts)}" '
            f'fill="{WRONG}"/>')


def column_values(report: Report) -> np.ndarray:
    """The grid as the *columns* see it at the cells of ``report.cell_conflicts`` (the rows' view elsewhere).

    A cell conflict gives, per colour, the column's coverage of the cell: the column's value is
    the colour it covers the cell with (the background when none), in black and white filled
    when the column's value is at least 1.

    Examples:
        >>> from nonoqubo.answers.decode import decode
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> p = Puzzle.from_picture(["#.", ".#"])
        >>> r = decode(p, [0, 0, 0, 0])[0]  # every block left- (top-) aligned
        >>> r.grid.tolist(), column_values(r).tolist()
        ([[1, 0], [1, 0]], [[1, 1], [0, 0]])
    """
    out = np.asarray(report.grid).astype(np.int64).copy()
    names = list(report.palette.names)
    gained: list[tuple[int, int, int]] = []
    for c in report.cell_conflicts:
        i, j = c.row - 1, c.column - 1
        k = 1 if c.colour is None else names.index(c.colour) if c.colour in names else 1
        if c.column_colour >= 1:
            gained.append((i, j, k))
        elif out[i, j] == k:  # the row covers the cell with this colour, the column does not
            out[i, j] = 0
    for i, j, k in gained:
        out[i, j] = k
    return out


def svg_picture(
    puzzle: Puzzle,
    grid: np.ndarray,
    *,
    conflicts: np.ndarray | None = None,
    failing_rows: Iterable[int] = (),
    failing_cols: Iterable[int] = (),
    title: str | None = None,
    column_grid: np.ndarray | None = None,
    valid: bool | None = None,
) -> str:
    """An SVG drawing of *grid* with *puzzle*'s clues around it and a key (see the module docstring).

    Args:
        puzzle: the clues drawn around the grid.
        grid: ``(height, width)`` colour indices (booleans in black and white): the rows' view.
        conflicts: cells where rows and columns disagree (marked, both values shown).
        failing_rows, failing_cols: 0-based indices of lines that fail (clues marked).
        title: a caption above the drawing (e.g. the verdict); also the ``<title>``.
        column_grid: the columns' value of every conflict cell, shown as a small square
            (:func:`column_values`); without it black and white shows the other value and colour
            shows none.
        valid: the verdict the title states: its colour is the valid green when True, the wrong red
            when False, black when None (a title that is no verdict, such as a puzzle's).

    Returns:
        The SVG document as a string.

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> p = Puzzle.from_picture(["#."])
        >>> s = svg_picture(p, p.solution_grid())
        >>> s.startswith("<svg") and s.count("<rect") >= 2 and "<title" in s
        True
    """
    g = np.asarray(grid).astype(np.int64)
    h, w = g.shape
    fills = _fill(puzzle.palette)
    colour = puzzle.is_colour
    bad_rows = sorted(set(int(i) for i in failing_rows))
    bad_cols = sorted(set(int(j) for j in failing_cols))
    conf = np.zeros(g.shape, bool) if conflicts is None else np.asarray(conflicts, dtype=bool)
    if column_grid is not None:
        other: np.ndarray | None = np.asarray(column_grid).astype(np.int64)
    elif not colour:
        other = 1 - (g > 0)
    else:
        other = None
    row_colours = puzzle.row_colours or tuple(() for _ in puzzle.rows)
    col_colours = puzzle.col_colours or tuple(() for _ in puzzle.cols)

    def chip_width(item: str) -> float:
        return len(item) * CHAR + 4

    def row_clue_width(i: int) -> float:
        items = _clue_text(puzzle.rows[i])
        if colour and puzzle.rows[i]:
            return sum(chip_width(t) for t in items) + 2 * (len(items) - 1)
        return len(" ".join(items)) * CHAR * 1.08  # bold is a little wider in some fonts

    left = PAD + (max((row_clue_width(i) for i in range(h)), default=0)) + 6
    left = float(int(left + 0.999))
    top_rows = max((len(_clue_text(c)) for c in puzzle.cols), default=1)
    width = max(MIN_WIDTH, int(left + w * CELL + MARGIN + PAD + 0.999))
    title_lines = _wrap(title, width - 2 * PAD, TITLE_CHAR) if title else []
    caption = PAD + len(title_lines) * (TITLE_FONT + 4) if title else 0
    top = caption + PAD + top_rows * LINE + 2
    bottom = top + h * CELL
    body: list[str] = [f'<rect x="0" y="0" width="{width}" height="{{height}}" fill="{WHITE}"/>']
    # the title's colour says its verdict, never guessed from the marks (a broken wall can leave none)
    title_ink = INK if valid is None else GOOD if valid else WRONG
    for k, line in enumerate(title_lines):
        body.append(f'<text class="caption" x="{PAD}" y="{PAD + (k + 1) * (TITLE_FONT + 4) - 4}" font-size="{TITLE_FONT}" '
                    f'font-weight="bold" fill="{title_ink}">{escape(line)}</text>')
    # bands behind failing lines' clues
    for i in bad_rows:
        body.append(f'<rect class="band" x="0" y="{top + i * CELL}" width="{_num(left - 2)}" height="{CELL}" fill="{BAND}"/>')
    for j in bad_cols:
        body.append(f'<rect class="band" x="{_num(left + j * CELL)}" y="{caption}" width="{CELL}" '
                    f'height="{top - caption - 1}" fill="{BAND}"/>')

    def clue_item(x_mid: float, baseline: float, item: str, block_colour: int | None, failing: bool) -> list[str]:
        """One clue number centred at *x_mid*: on a chip in colour, bold and underlined when failing."""
        weight = ' font-weight="bold"' if failing else ""
        out = []
        ink = INK
        if block_colour is not None:
            chip = fills[block_colour]
            ink = text_on(chip)
            cw = chip_width(item)
            out.append(f'<rect class="chip" x="{_num(x_mid - cw / 2)}" y="{_num(baseline - FONT + 0.5)}" width="{_num(cw)}" '
                       f'height="{FONT + 3}" rx="2" fill="{chip}"/>')
        out.append(f'<text x="{_num(x_mid)}" y="{_num(baseline)}" text-anchor="middle" fill="{ink}"{weight}>'
                   f'{escape(item)}</text>')
        if failing:
            half = len(item) * CHAR / 2 + 0.5
            out.append(f'<line class="mark underline" x1="{_num(x_mid - half)}" y1="{_num(baseline + 1.8)}" '
                       f'x2="{_num(x_mid + half)}" y2="{_num(baseline + 1.8)}" stroke="{ink}" stroke-width="1"/>')
        return out

    # row clues, right-aligned against the grid
    for i in range(h):
        baseline = top + i * CELL + CELL * 0.68
        failing = i in bad_rows
        items = _clue_text(puzzle.rows[i])
        if colour and puzzle.rows[i]:
            x = left - 4
            for t in range(len(items) - 1, -1, -1):
                cw = chip_width(items[t])
                body += clue_item(x - cw / 2, baseline, items[t], row_colours[i][t], failing)
                x -= cw + 2
        else:
            text = " ".join(items)
            weight = ' font-weight="bold"' if failing else ""
            body.append(f'<text x="{_num(left - 4)}" y="{_num(baseline)}" text-anchor="end" fill="{INK}"{weight}>'
                        f'{escape(text)}</text>')
            if failing:
                x0 = left - 4 - len(text) * CHAR * 1.08
                body.append(f'<line class="mark underline" x1="{_num(x0)}" y1="{_num(baseline + 1.8)}" x2="{_num(left - 4)}" '
                            f'y2="{_num(baseline + 1.8)}" stroke="{INK}" stroke-width="1"/>')
    # column clues, stacked down to the grid
    for j in range(w):
        items = _clue_text(puzzle.cols[j])
        x_mid = left + j * CELL + CELL / 2
        y0 = top - 5 - (len(items) - 1) * LINE
        for t, item in enumerate(items):
            block = col_colours[j][t] if colour and puzzle.cols[j] else None
            body += clue_item(x_mid, y0 + t * LINE, item, block, j in bad_cols)
    # cells: the rows' view
    body.append(f'<g class="cells" stroke="{GRIDLINE}" stroke-width="0.5">')
    for i in range(h):
        for j in range(w):
            body.append(f'<rect x="{_num(left + j * CELL)}" y="{top + i * CELL}" width="{CELL}" height="{CELL}" '
                        f'fill="{fills[g[i, j]]}"/>')
    body.append("</g>")
    # thicker rule every 5 cells, as on paper
    for j in range(0, w + 1, 5):
        body.append(f'<line x1="{_num(left + j * CELL)}" y1="{top}" x2="{_num(left + j * CELL)}" y2="{bottom}" '
                    f'stroke="{RULE}" stroke-width="1"/>')
    for i in range(0, h + 1, 5):
        body.append(f'<line x1="{_num(left)}" y1="{top + i * CELL}" x2="{_num(left + w * CELL)}" y2="{top + i * CELL}" '
                    f'stroke="{RULE}" stroke-width="1"/>')
    body.append(f'<rect x="{_num(left)}" y="{top}" width="{w * CELL}" height="{h * CELL}" fill="none" '
                f'stroke="{BLACK}" stroke-width="1.5"/>')
    # conflicts: the row's value stays as the fill; a ring and the column's value on top
    for i, j in zip(*np.nonzero(conf)):
        col_fill = None if other is None else fills[int(other[i, j])]
        body += _conflict_mark(left + int(j) * CELL, top + int(i) * CELL, col_fill)
    for i in bad_rows:
        body.append(_triangle(left + w * CELL + MARGIN / 2 + 1, top + i * CELL + CELL / 2, "left"))
    for j in bad_cols:
        body.append(_triangle(left + j * CELL + CELL / 2, bottom + MARGIN / 2 + 1, "up"))
    # the key: every colour, and each mark that appears, drawn as in the grid
    key_top = bottom + MARGIN + 10
    names = puzzle.palette.names

    def swatch(fill: str) -> Callable[[float], list[str]]:
        return lambda y: [f'<rect x="{PAD}" y="{_num(y)}" width="{CELL}" height="{CELL}" fill="{fill}" '
                          f'stroke="{GRIDLINE}" stroke-width="0.5"/>']

    entries: list[tuple[Callable[[float], list[str]], str]] = []
    if colour:
        entries += [(swatch(fill), names[k] + (" (background)" if k == 0 else "")) for k, fill in enumerate(fills)]
    else:
        entries += [(swatch(fills[1]), "filled cell"), (swatch(fills[0]), "empty cell")]
    if conf.any():
        shown = other is not None
        entries.append((lambda y: swatch(fills[1])(y) + _conflict_mark(PAD, y, fills[0] if shown else None),
                        "row and column disagree: the fill is the row's value"
                        + (", the small square the column's" if shown else "") + "; the ring marks the cell"))
    if bad_rows or bad_cols:
        entries.append((lambda y: [_triangle(PAD + CELL / 2, y + CELL / 2, "left")],
                        "a line that does not match its clue: its clue bold and underlined on a pink band, "
                        "a triangle beside the row or under the column"))
    body.append('<g class="key">')
    body.append(f'<text x="{PAD}" y="{key_top}" font-weight="bold" fill="{INK}">Key</text>')
    y = key_top + 6
    text_x = PAD + CELL + 6
    for draw, label in entries:
        lines = _wrap(label, width - text_x - PAD, CHAR)
        body += draw(y)
        for k, line in enumerate(lines):
            body.append(f'<text x="{text_x}" y="{_num(y + 14 + k * (FONT + 3))}" fill="{INK}">{escape(line)}</text>')
        y += max(CELL, len(lines) * (FONT + 3) + 4) + 4
    body.append("</g>")
    height = int(y + PAD)
    body[0] = body[0].replace("{height}", str(height))
    caption_text = title or (puzzle.name or "nonogram")
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="monospace" font-size="{FONT}" role="img" aria-labelledby="title desc">',
        f'<title id="title">{escape(caption_text)}</title>',
        f'<desc id="desc">{escape(_description(puzzle, g, conf, bad_rows, bad_cols))}</desc>',
    ]
    return "\n".join(head + body + ["</svg>"]) + "\n"


def _description(puzzle: Puzzle, g: np.ndarray, conf: np.ndarray, bad_rows: Sequence[int],
                 bad_cols: Sequence[int]) -> str:
    """The ``<desc>``: what the picture shows, in words."""
    h, w = g.shape
    what = f"{'A colour' if puzzle.is_colour else 'A black-and-white'} nonogram{' ' + repr(puzzle.name) if puzzle.name else ''}, "
    what += f"{h} rows by {w} columns, with its clues: row clues left of the grid, column clues above it. "
    filled = int((g > 0).sum())
    what += f"{filled} of {h * w} cells are filled. "
    n = int(conf.sum())
    if n:
        what += (f"{n} cell{'s' * (n != 1)} where the row and the column disagree are ringed; each shows the row's "
                 "value as its fill and the column's as a small square. ")
    if bad_rows or bad_cols:
        lines = [f"row {i + 1}" for i in bad_rows] + [f"column {j + 1}" for j in bad_cols]
        what += f"Lines that do not match their clue ({len(lines)}): {', '.join(lines[:12])}"
        what += (", ..." if len(lines) > 12 else "") + "; their clues are bold and underlined. "
    if not n and not (bad_rows or bad_cols):
        what += "Every line matches its clue. "
    return what + "A key below the grid explains the marks."


def _titled(puzzle: Puzzle, verdict: str) -> str:
    return f"{puzzle.name + ': ' if puzzle.name else ''}{verdict}"


def report_svg(report: Report, puzzle: Puzzle | None = None) -> str:
    """The picture ``decode --image`` and ``solve --image`` write for *report*: its grid, conflicts and failing lines.

    Args:
        report: a decoded sample.
        puzzle: the clues (default the report's own ``puzzle``).

    Raises:
        ValueError: no puzzle is given and the report carries none.
    """
    puzzle = puzzle if puzzle is not None else report.puzzle
    if puzzle is None:
        raise ValueError("report_svg needs the puzzle: this report carries none")
    h = puzzle.height
    return svg_picture(
        puzzle, report.grid, conflicts=report.conflicts,
        failing_rows=[t for t in report.failing_line_index if t < h],
        failing_cols=[t - h for t in report.failing_line_index if t >= h],
        title=_titled(puzzle, report.verdict), column_grid=column_values(report), valid=bool(report.valid),
    )


def check_svg(result: CheckResult, puzzle: Puzzle | None = None) -> str:
    """The picture ``check --image`` writes: the grid checked, its failing lines marked, the verdict as title.

    Raises:
        ValueError: no puzzle is given and the result carries none.
    """
    puzzle = puzzle if puzzle is not None else result.puzzle
    if puzzle is None:
        raise ValueError("check_svg needs the puzzle: this result carries none")
    return svg_picture(puzzle, result.grid, failing_rows=result.failing_rows, failing_cols=result.failing_cols,
                       title=_titled(puzzle, result.verdict), valid=bool(result.valid))


def puzzle_svg(puzzle: Puzzle) -> str:
    """A puzzle's picture: its clues around its known solution, or around an empty grid when none is known.

    Examples:
        >>> p = Puzzle.from_picture(["#.", "##"], name="tiny")
        >>> "tiny: solution" in puzzle_svg(p), "tiny: unsolved" in puzzle_svg(p.with_solution(None))
        (True, True)
    """
    known = puzzle.solution_grid()
    grid = known if known is not None else np.zeros(puzzle.shape, np.int8)
    words = "solution" if known is not None else "unsolved"
    return svg_picture(puzzle, grid, title=_titled(puzzle, f"{words}, {puzzle.width}x{puzzle.height}"))


#: the reports :func:`reports_html` draws; the rest are counted under them (a decode may hold thousands)
HTML_REPORTS = 24


def reports_html(reports: Reports) -> str | None:
    """The notebook picture of a decode's :class:`~nonoqubo.answers.decode.Reports`: a heading (how many
    samples, how many valid, the best energy), then each report's verdict over its picture
    (:func:`report_svg`, what ``decode --image`` writes), the first :data:`HTML_REPORTS` of them.
    None (the text ``repr``) when a report carries no puzzle to draw."""
    if any(r.puzzle is None for r in reports):
        return None
    def own_ids(svg: str, k: int) -> str:  # one page holds them all: each SVG's title and desc ids its own
        return svg.replace('id="title"', f'id="title-{k}"').replace('id="desc"', f'id="desc-{k}"') \
            .replace('aria-labelledby="title desc"', f'aria-labelledby="title-{k} desc-{k}"')

    items = [f'<figure style="display:inline-block;vertical-align:top;margin:0 1em 1em 0">'
             f'<figcaption>sample {r.index}: {escape(r.verdict)}</figcaption>{own_ids(report_svg(r), k)}</figure>'
             for k, r in enumerate(reports[:HTML_REPORTS])]
    more = len(reports) - HTML_REPORTS
    tail = f"<p>... and {more} more (index the list to see one)</p>" if more > 0 else ""
    return f'<div class="nonoqubo-reports"><p>{escape(reports.summary())}</p>{"".join(items)}{tail}</div>'


notebook.register(Puzzle, "svg", puzzle_svg)
notebook.register(Report, "svg", report_svg)
notebook.register(Reports, "html", reports_html)
notebook.register(CheckResult, "svg", check_svg)
