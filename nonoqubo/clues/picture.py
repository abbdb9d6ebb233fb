"""A picture of the answer as text: the clues are derived from it.

Grammar::

    .##..          one line a row, one character a cell, all rows equally long
    .##.#          black: '#', 'X', 'x', '1'     white: '.', '0', '-', '_'
    ...            (cells may also be separated by spaces: "1 0 1")

Colour: any other letter, digit or one of ``@*%&+=$`` is a colour of its own,
named by the character, in order of first appearance; a picture with such
characters is a colour puzzle (``#``, ``X``... then count as colours too): the
row ``rrg..`` has the clue ``2r 1g``.  A picture of digits with a digit other
than 0 and 1 among its 0s and 1s is such a colour puzzle too, and the reader
says so in a :class:`~nonoqubo.errors.Note` naming the first such cell (a
stray ``2`` in a 0/1 file is more often a typo than a colour); when the cells
are separated by spaces or tabs (a tournament solution's rows: ``0\t1\t1``)
it is refused, with its line and column: those grids are 0/1 only.

Leading and trailing blank lines, trailing spaces, a BOM and CRLF endings are
ignored; a blank line inside the picture is an error.  The picture is the
puzzle's known solution, so a puzzle read from it is solved; writing needs a
known solution too (``#``/``.`` text).  nonogrid and number-loom read such
"char grid" files; php-nonogram's ``.dat`` is the 0/1 variant.

Examples:
    >>> p = loads(".#.\\n###\\n")
    >>> p.rows, p.cols
    (((1,), (3,)), ((1,), (2,), (1,)))
    >>> print(dumps(p), end="")
    .#.
    ###
    >>> c = loads("rrg\\n.gg\\n")
    >>> c.palette.names, c.rows, c.row_colours
    (('white', 'r', 'g'), ((2, 1), (2,)), ((1, 2), (2,)))
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np

from ._defaults import BINARY, HEURISTIC, KIND, LEGACY_ENCODING
from ._lines import option_lines, text_lines
from .._util.text import head_text
from ..errors import FormatError, Note, PuzzleError, located
from ..model.palette import Palette
from ..model.puzzle import Puzzle

NAME = "picture"
TITLE = "text picture of the answer (#/., X/., 1/0); clues derived"
EXTENSIONS = ("picture", "pic", "grid", "dat")
SOLUTION = True
COLOUR = True
ALIASES = ("text", "grid")
ORDER = 100

__all__ = ["dumps", "loads", "to_picture"]

_BLACK = "#Xx1"
_WHITE = ".0-_"
_ROW = re.compile(rf"[{re.escape(_BLACK + _WHITE)}]+")
_BAD = re.compile(rf"[^{re.escape(_BLACK + _WHITE)}]")
#: anything but a colour character (letters, digits, ``#@*%&+=$``) or a white one
_COLOUR_BAD = re.compile(r"[^A-Za-z0-9#@*%&+=$" + re.escape(_WHITE) + "]")


def _listed(chars: str) -> str:
    """``'#', 'X', 'x', '1'``: every character of *chars*, quoted, for a message."""
    return ", ".join(repr(ch) for ch in chars)


_SPACED = re.compile(rf"[{re.escape(_BLACK + _WHITE)}](?:[ \t]+[{re.escape(_BLACK + _WHITE)}])+")


def detect(head: bytes) -> bool:
    """True when every non-blank line is a row of picture characters of one length (>= 2 rows)."""
    text = head_text(head)
    rows = [_squeeze(line.strip()) for line in text_lines(text) if line.strip()]
    return len(rows) >= 2 and len({len(r) for r in rows}) == 1 and all(_ROW.fullmatch(r) for r in rows)


#: a row of single digits separated by spaces or tabs (a tournament solution file's row)
_SPACED_DIGITS = re.compile(r"[0-9](?:[ \t]+[0-9])+")
_OTHER_DIGIT = re.compile(r"[2-9]")


def _spaced_stray_digit(line: str, source: str, number: int) -> None:
    """Refuse a digit other than 0/1 in a space- or tab-separated 0/1 row, naming its line and column."""
    if _SPACED_DIGITS.fullmatch(line):
        cells = line.split()
        column = next((k for k, ch in enumerate(cells) if ch not in "01"), None)
        if column is not None:
            raise FormatError(located(source, number, f"column {column + 1}: {cells[column]!r} in a grid of 0s and 1s "
                                      "separated by spaces or tabs (a tournament-style 0/1 row takes only 0 and 1)"))


def _note_stray_digits(rows: list[str], source: str, first_line: int) -> None:
    """The :class:`Note` for a digits-only picture of 0s and 1s with other digits: read as colours."""
    text = "".join(rows)
    if not text.isdigit() or "0" not in text or "1" not in text:
        return
    i, row = next((i, r) for i, r in enumerate(rows) if _OTHER_DIGIT.search(r))
    j = _OTHER_DIGIT.search(row).start()  # type: ignore[union-attr]
    colours = ", ".join(repr(ch) for ch in dict.fromkeys(text) if ch != "0")
    warnings.warn(Note(f"{source}:{first_line + i}: column {j + 1}: {row[j]!r} among 0s and 1s makes this picture a "
                       f"colour puzzle (colours {colours}); a black-and-white picture has only 0 and 1"), stacklevel=2)


def _squeeze(line: str) -> str:
    return re.sub(r"[ \t]+", "", line) if _SPACED.fullmatch(line) else line


def loads(text: str, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a text picture; the puzzle's clues come from it and it is the solution.

    Raises:
        FormatError: an empty picture, a blank line inside it, an unknown
            character, or rows of different lengths; the message names the
            source and line.
    """
    lines = option_lines(text, NAME, options)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise FormatError(f"{source}: the picture is empty")
    last = max(i for i, line in enumerate(lines) if line.strip())
    rows: list[str] = []
    for idx in range(first, last + 1):
        _spaced_stray_digit(lines[idx].strip(), source, idx + 1)
        line = _squeeze(lines[idx].strip())
        if not line:
            raise FormatError(located(source, idx + 1, "blank line inside the picture"))
        bad = _COLOUR_BAD.search(line)
        if bad is not None:
            raise FormatError(located(source, idx + 1, f"{bad.group()!r} is neither black ({_listed(_BLACK)}), "
                                      f"a colour (a letter, a digit, '@*%&+=$') nor white ({_listed(_WHITE)})"))
        if rows and len(line) != len(rows[0]):
            raise FormatError(located(source, idx + 1, f"this row has {len(line)} cells, the first row has {len(rows[0])}"))
        rows.append(line)
    text = "".join(rows)
    if _BAD.search(text) is None:  # black and white
        cells = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        black = np.isin(cells, np.frombuffer(_BLACK.encode("ascii"), dtype=np.uint8))
        return Puzzle.from_picture(black.reshape(len(rows), len(rows[0])))
    _note_stray_digits(rows, source, first + 1)
    chars = [ch for ch in dict.fromkeys(text) if ch not in _WHITE]
    palette = Palette.of([(ch, None, ch) for ch in chars])
    # the palette's own chars (a digit colour is re-lettered), the background '.'
    table = str.maketrans({**{ch: "." for ch in _WHITE}, **{ch: c.char for ch, c in zip(chars, palette.colours)}})
    return Puzzle.from_picture([row.translate(table) for row in rows], palette=palette)


def to_picture(puzzle: Puzzle, format_name: str) -> tuple[str, ...]:
    """The known solution of *puzzle*, or a PuzzleError saying that *format_name* needs one."""
    if puzzle.solution is None:
        raise PuzzleError(
            f"the {format_name} format is a picture of the answer, and this puzzle has no known "
            "solution (write it in a clue format instead, or solve it first)")
    return puzzle.solution


def dumps(puzzle: Puzzle) -> str:
    """The known solution as ``#``/``.`` rows.

    Raises:
        PuzzleError: the puzzle has no known solution.
    """
    return "\n".join(to_picture(puzzle, "picture")) + "\n"
