"""Jakub Wilk's ``.nin`` clue format (the ``nonogram`` solver's input).

Grammar (one item a line)::

    W H                 width and height, separated by spaces
    row clue  x H       top to bottom; numbers separated by spaces
    column clue x W     left to right
    (anything after the W+H clue lines is ignored)

An empty line is written ``0`` (a blank line is read as empty too).  Exactly
W+H clue lines are read after the header: files in the original collection
sometimes continue past the puzzle (a second copy, a missing newline glued
onto the next header), and what follows is not part of the puzzle.

Origin: jwilk-archive/nonogram (``data/*.nin``, MIT), read by pbnsolve,
nonogrid and Pierre Dejoue's picross-solver; webpbn exports it as "nin".

Examples:
    >>> p = loads("3 2\\n3\\n1 1\\n2\\n1\\n2\\n")
    >>> p.rows, p.cols
    (((3,), (1, 1)), ((2,), (1,), (2,)))
    >>> print(dumps(p), end="")
    3 2
    3
    1 1
    2
    1
    2
"""

from __future__ import annotations

import re
from typing import Any

from ._defaults import ALIASES, BINARY, COLOUR, HEURISTIC, KIND, LEGACY_ENCODING, SOLUTION
from ._lines import clue_text, head_lines, make_puzzle, parse_size, puzzle_lines, read_clues, size_header
from ..model.puzzle import Puzzle

NAME = "nin"
TITLE = "Jakub Wilk .nin (W H, row clues, column clues)"
EXTENSIONS = ("nin",)
ORDER = 50

__all__ = ["dumps", "loads"]

_CLUE = re.compile(r"[\d \t]*")


def detect(head: bytes) -> bool:
    """True when line 1 is ``W H`` and the next W+H lines are space-separated numbers."""
    lines = head_lines(head)
    size = size_header(lines)
    if size is None:
        return False
    need = size[0] + size[1]
    body = lines[1 : need + 1]
    return len(body) == need and all(_CLUE.fullmatch(line) for line in body)


def loads(text: str, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a ``.nin`` puzzle (see the module docstring).

    Raises:
        FormatError: a bad header, a missing or non-numeric clue, or clues that
            do not make a puzzle; the message names the source and line.
    """
    lines = puzzle_lines(text, NAME, options, source)
    width, height = parse_size(lines[0], source, 1, ("width", "height"))
    rows, row_lines = read_clues(lines, 1, height, "row", source)
    cols, col_lines = read_clues(lines, 1 + height, width, "column", source)
    return make_puzzle(rows, cols, source=source, row_lines=row_lines, col_lines=col_lines)


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as ``.nin`` text (``0`` for an empty line)."""
    lines = [f"{puzzle.width} {puzzle.height}"]
    lines += [clue_text(c) for c in (*puzzle.rows, *puzzle.cols)]
    return "\n".join(lines) + "\n"
