"""The ``.cwd`` clue format (QNonograms by Meshcheryakov, Sukhoy's solver; read by pbnsolve).

Grammar (one item a line)::

    H                   height
    W                   width
    row clue  x H       top to bottom; numbers separated by spaces
    (one blank line)
    column clue x W     left to right
    (blank lines)       ignored at the end of the file

An empty line is written ``0``.  The layout follows pbnsolve's
``load_cwd_puzzle`` (avi-levy/pbnsolve, ``read.c``); webpbn exports the format
as "cwd".  No real ``.cwd`` file was found to check against, so the reader
is lenient where pbnsolve is: the separator may be missing (the column clues
then follow the rows directly).

Examples:
    >>> p = loads("2\\n3\\n3\\n1 1\\n\\n2\\n1\\n2\\n")
    >>> p.rows, p.cols
    (((3,), (1, 1)), ((2,), (1,), (2,)))
    >>> dumps(p) == "2\\n3\\n3\\n1 1\\n\\n2\\n1\\n2\\n"
    True
"""

from __future__ import annotations

import re
from typing import Any

from ._defaults import ALIASES, BINARY, COLOUR, HEURISTIC, KIND, LEGACY_ENCODING, SOLUTION
from ._lines import clue_text, head_lines, make_puzzle, parse_size, puzzle_lines, read_clues, reject_trailing
from ..errors import FormatError, located
from ..model.puzzle import Puzzle

NAME = "cwd"
TITLE = "QNonograms .cwd (H, W, row clues, blank line, column clues)"
EXTENSIONS = ("cwd",)
ORDER = 80

__all__ = ["dumps", "loads"]

_NUMBER = re.compile(r"\s*\d{1,18}\s*")


def detect(head: bytes) -> bool:
    """True when lines 1 and 2 are single numbers and line H+3 is blank."""
    lines = head_lines(head)
    if len(lines) < 3 or not (_NUMBER.fullmatch(lines[0]) and _NUMBER.fullmatch(lines[1])):
        return False
    sep = int(lines[0]) + 2
    return sep < len(lines) and not lines[sep].strip()


def loads(text: str, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a ``.cwd`` puzzle (see the module docstring).

    Raises:
        FormatError: a bad header, a missing or non-numeric clue, trailing
            text, or clues that do not make a puzzle; the message names the
            source and line.
    """
    lines = puzzle_lines(text, NAME, options, source)
    (height,) = parse_size(lines[0], source, 1, ("height",))
    if len(lines) < 2:
        raise FormatError(located(source, 1, "the file ends after the height; line 2 must hold the width"))
    (width,) = parse_size(lines[1], source, 2, ("width",))
    rows, row_lines = read_clues(lines, 2, height, "row", source, empty_blank=False)
    start = 2 + height
    if start < len(lines) and not lines[start].strip():
        start += 1
    cols, col_lines = read_clues(lines, start, width, "column", source, empty_blank=False)
    reject_trailing(lines, start + width, source, f"the {width} column clues (line 2 says width {width})")
    return make_puzzle(rows, cols, source=source, row_lines=row_lines, col_lines=col_lines)


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as ``.cwd`` text (``0`` for an empty line)."""
    lines = [str(puzzle.height), str(puzzle.width), *map(clue_text, puzzle.rows), "", *map(clue_text, puzzle.cols)]
    return "\n".join(lines) + "\n"
