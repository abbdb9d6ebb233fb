"""Olšák's ``.mk`` clue format (the ``grid`` solver's simple input, read by pbnsolve).

Grammar (one item a line)::

    H W                 height and width (height first!)
    row clue  x H       top to bottom; numbers separated by spaces
    #                   a line holding only '#'
    column clue x W     left to right
    (blank lines)       ignored at the end of the file

An empty line is written ``0`` (a blank line is read as empty too, as
pbnsolve does).  The real samples use CRLF line endings and some end in
several blank lines; exactly W column lines are taken after ``#``, and any
other text after them is an error.

Origin: Petr Olšák's griddler solver ``grid`` (ftp.cstug.cz, ``.mk`` samples
shipped with pbnsolve ``examples/``, e.g. ``cplusplus.mk``); webpbn exports it
as "mk".

Examples:
    >>> p = loads("2 3\\r\\n3\\r\\n1 1\\r\\n#\\r\\n2\\r\\n1\\r\\n2\\r\\n\\r\\n")
    >>> p.rows, p.cols
    (((3,), (1, 1)), ((2,), (1,), (2,)))
    >>> print(dumps(p), end="")
    2 3
    3
    1 1
    #
    2
    1
    2
"""

from __future__ import annotations

from typing import Any

from ._defaults import ALIASES, BINARY, COLOUR, HEURISTIC, KIND, LEGACY_ENCODING, SOLUTION
from ._lines import clue_text, head_lines, make_puzzle, parse_size, puzzle_lines, read_clues, reject_trailing, size_header
from ..errors import FormatError, located
from ..model.puzzle import Puzzle

NAME = "mk"
TITLE = "Olšák .mk (H W, row clues, '#', column clues)"
EXTENSIONS = ("mk",)
ORDER = 60

__all__ = ["dumps", "loads"]

def detect(head: bytes) -> bool:
    """True when line 1 is ``H W`` and line H+2 is ``#``."""
    lines = head_lines(head)
    size = size_header(lines)
    if size is None:
        return False
    sep = size[0] + 1
    return sep < len(lines) and lines[sep].strip() == "#"


def loads(text: str, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a ``.mk`` puzzle (see the module docstring).

    Raises:
        FormatError: a bad header, a missing ``#``, a missing or non-numeric
            clue, trailing text, or clues that do not make a puzzle; the
            message names the source and line.
    """
    lines = puzzle_lines(text, NAME, options, source)
    height, width = parse_size(lines[0], source, 1, ("height", "width"))
    for idx, line in enumerate(lines[1 : height + 1], start=2):
        if line.strip() == "#":
            raise FormatError(located(source, idx, f"'#' after {idx - 2} row clues, but the header says height {height}"))
    rows, row_lines = read_clues(lines, 1, height, "row", source)
    sep = height + 1
    if sep >= len(lines):
        raise FormatError(located(source, len(lines), f"the file ends before the '#' line that follows the {height} row clues"))
    if lines[sep].strip() != "#":
        raise FormatError(located(source, sep + 1, f"expected '#' after the {height} row clues, found {lines[sep].strip()!r}"))
    cols, col_lines = read_clues(lines, sep + 1, width, "column", source)
    reject_trailing(lines, sep + 1 + width, source, f"the {width} column clues (the header says width {width})")
    return make_puzzle(rows, cols, source=source, row_lines=row_lines, col_lines=col_lines)


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as ``.mk`` text (LF line endings, ``0`` for an empty line)."""
    lines = [f"{puzzle.height} {puzzle.width}", *map(clue_text, puzzle.rows), "#", *map(clue_text, puzzle.cols)]
    return "\n".join(lines) + "\n"
