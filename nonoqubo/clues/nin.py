"""Jakub Wilk's ``.nin`` clue format (the ``nonogram`` solver's input).

Grammar (one item a line)::

    W H                 width and height, separated by spaces
    row clue  x H       top to bottom; numbers separated by spaces
    column clue x W     left to right
    W H                 a file may hold more puzzles, one after another
    ...                 (blank lines between two puzzles are skipped)

An empty line is written ``0`` (a blank line inside a puzzle is read as empty
too).  Exactly W+H clue lines belong to a header; what follows them is the
next puzzle's ``W H`` header or nothing.

Several puzzles in one file: Wilk's solver (``nonogram.c``'s ``main``) reads
one puzzle from one stream, character by character: the two numbers, then H
row lines and W column lines, and stops; nothing separates a puzzle from what
follows but that count.  A ``.nin`` collection is therefore the puzzles
written one after another, each with its own header.  The ``index`` option
(1-based, the CLI's ``--index``) picks one, the first by default (as the
tournament, webpbn XML and Tatham formats do); :func:`puzzles` reads them all
in one pass (``suite FILE`` builds ``FILE-1``, ``FILE-2``, ...).  A puzzle
whose clues are wrong is that puzzle's located error and the next is read;
a header that is not ``W H`` or a puzzle cut short by the end of the file
ends the reading (nothing tells where a next puzzle would start), and is the
last puzzle's error.  :func:`loads` reads only the puzzle it is asked for:
``data/data142.nin`` of the original collection holds its puzzle, then a
second copy without a header (a missing newline glued a clue onto the next
header): it loads as that puzzle, and :func:`puzzles` reports the rest as
puzzle 2's error at the line where the copy starts.

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
    >>> two = "1 1\\n1\\n1\\n\\n2 1\\n2\\n1\\n1\\n"
    >>> loads(two, index=2).rows, [r.index for r in puzzles(two)]
    (((2,),), [1, 2])
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from ._defaults import ALIASES, BINARY, COLOUR, HEURISTIC, KIND, LEGACY_ENCODING, SOLUTION
from ._lines import (Read, attempt, check_options, clue_text, head_lines, make_puzzle, parse_clue, parse_size,
                     pick_index, size_header, text_lines)
from ..errors import FormatError, located
from ..model.puzzle import Puzzle

NAME = "nin"
TITLE = "Jakub Wilk .nin (W H, row clues, column clues; one puzzle or several)"
EXTENSIONS = ("nin",)
ORDER = 50

__all__ = ["dumps", "loads", "puzzles"]

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


@dataclass(frozen=True)
class _Block:
    """One puzzle's place: its header's 0-based line, its width and height (None: the header is broken)."""

    start: int
    width: int
    height: int


def _scan(lines: list[str], source: str) -> tuple[list[_Block], FormatError | None]:
    """The puzzles' places, read from their headers alone, and the error that ended the scan (or None).

    Only the first puzzle's header is read in place (a file that does not start
    with one raises); after each puzzle's W+H lines, blank lines are skipped and
    the next line must be a header.
    """
    blocks: list[_Block] = []
    at = 0
    while at < len(lines) and not lines[at].strip():
        at += 1
    if at == len(lines):
        raise FormatError(f"{source}: the file is empty")
    while at < len(lines):
        label = f"puzzle {len(blocks) + 1}: " if blocks else ""
        try:
            width, height = parse_size(lines[at], source, at + 1, ("width", "height"))
        except FormatError as exc:
            if not blocks:
                raise
            return blocks, FormatError(located(source, at + 1, f"{label}expected the header 'W H' of the next "
                                                               f"puzzle, found {lines[at].strip()[:40]!r}"
                                                               f" ({_reason(exc)})"))
        body = len(lines) - at - 1
        if body < width + height:
            state = (f"the file ends after {max(body - height, 0)} of {width} column clues" if body >= height
                     else f"the file ends after {body} of {height} row clues")
            return blocks, FormatError(located(source, len(lines), f"{label}{state} (the header on line "
                                                                   f"{at + 1} says {width} x {height})"))
        blocks.append(_Block(at, width, height))
        at += 1 + width + height
        while at < len(lines) and not lines[at].strip():
            at += 1
    return blocks, None


def _reason(exc: FormatError) -> str:
    """The message of a located error without its ``source:line:`` place."""
    return str(exc).split(": ", 1)[-1]


def _puzzle(lines: list[str], block: _Block, label: str, source: str) -> Puzzle:
    """The puzzle at *block*; *label* (``"puzzle 2, "`` or empty) starts each clue's name in errors."""
    first = block.start + 1
    rows = [parse_clue(lines[first + k], source, first + k + 1, f"{label}row {k + 1}") for k in range(block.height)]
    first += block.height
    cols = [parse_clue(lines[first + k], source, first + k + 1, f"{label}column {k + 1}") for k in range(block.width)]
    return make_puzzle(rows, cols, source=source,
                       row_lines=list(range(block.start + 2, block.start + 2 + block.height)),
                       col_lines=list(range(first + 1, first + 1 + block.width)))


def loads(text: str, *, source: str = "<string>", index: int | None = None, **options: Any) -> Puzzle:
    """Read one puzzle of a ``.nin`` file (see the module docstring).

    Args:
        index: which puzzle of a file that holds several (1-based; default the first).
            What follows the puzzle asked for is not read.

    Raises:
        FormatError: a bad header, a missing or non-numeric clue, clues that do not
            make a puzzle, an index the file does not hold; the message names the
            source and line.
    """
    check_options(options, NAME)
    lines = text_lines(text)
    blocks, tail = _scan(lines, source)
    count = len(blocks) + (tail is not None)
    k = pick_index(count, index, source)
    if k == len(blocks):
        assert tail is not None  # the puzzle asked for is the broken one the scan ended on
        raise tail
    return _puzzle(lines, blocks[k], f"puzzle {k + 1}, " if count > 1 else "", source)


def puzzles(text: str, *, source: str = "<string>") -> Iterator[Read]:
    """Every puzzle of the file in one pass, numbered from 1; a broken one is its located error.

    Raises:
        FormatError: the file is empty or does not start with a ``W H`` header.

    Examples:
        >>> [(r.index, r.puzzle.rows if r.puzzle else str(r.error)) for r in puzzles("1 1\\n1\\n1\\n1 1\\n1\\nx\\n")]
        [(1, ((1,),)), (2, "<string>:6: puzzle 2, column 1: 'x' is not a number")]
    """
    lines = text_lines(text)
    blocks, tail = _scan(lines, source)
    count = len(blocks) + (tail is not None)
    for k, block in enumerate(blocks):
        yield attempt(k + 1, None, partial(_puzzle, lines, block, f"puzzle {k + 1}, " if count > 1 else "", source))
    if tail is not None:
        yield Read(count, None, None, tail)


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as ``.nin`` text (``0`` for an empty line)."""
    lines = [f"{puzzle.width} {puzzle.height}"]
    lines += [clue_text(c) for c in (*puzzle.rows, *puzzle.cols)]
    return "\n".join(lines) + "\n"
