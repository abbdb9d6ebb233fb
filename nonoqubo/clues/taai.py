"""The computer nonogram tournament question files (TAAI, TCGA, ICGA / Computer Olympiad).

Grammar (one item a line)::

    $1                  the header of puzzle 1: '$' and the puzzle's number, counted from 1
    column clue x N     left to right; numbers separated by tabs (or spaces)
    row clue    x N     top to bottom
    $2                  the next puzzle, and so on (a tournament file holds 1,000 puzzles)
    ...

Every puzzle is square, N x N (25 x 25 in every tournament so far): its 2N clue
lines are the columns first, then the rows.  An empty line is a blank line (a
lone ``0`` is read as empty too, as LalaFrogKK's reader does; the writer
writes ``0``, so that a file's end cannot lose an empty last row).  Line endings may be LF or CRLF (TCGA 2023).
Every puzzle of a file has the size of the first (in a file of one puzzle,
its count of lines, blank lines at the end dropped but for one that makes the
count even); the headers must count 1, 2, 3, ... in order, with nothing before
``$1``.  Blank lines at the very end of the file beyond the last puzzle's 2N
lines are ignored.

The ``index`` option (1-based, the CLI's ``--index``) picks one puzzle, the
first by default; ``suite FILE`` builds them all (``FILE-1``, ``FILE-2``, ...),
read in one pass by :func:`puzzles` (a puzzle cut short or with a bad clue is
that puzzle's located error; the others are read).  The answers of a
tournament (``$N`` then N rows of 0/1) are :mod:`nonoqubo.samples.tournament`'s.

Checked against the real files, not from memory:

* zxkyjimmy/NonogramRecord ``question/taai2011.txt`` ... ``question/icga2023.txt``
  (GPL-3.0; the TAAI 2011-2022, TCGA 2012-2023 and ICGA 2016-2023 question
  sets, 1,000 puzzles and 51,000 lines each; ``solution/*.txt`` holds the
  answers, from which the columns-first order was checked: the first clue of
  TAAI 2011 puzzle 1 is the runs of the first column of its solution);
* CGI-LAB/Nonogram ``Parsers.cpp`` (``parseTaai``, LalaFrogKK's reader): skips
  the ``$`` line, then reads 2 x 25 lines, tokens split on space and tab, an
  empty line an empty clue.

Examples:
    >>> p = loads("$1\\n2\\n1\\n1\\n\\t\\n2\\n1 1\\n")
    >>> p.cols, p.rows
    (((2,), (1,), (1,)), ((), (2,), (1, 1)))
    >>> dumps(p)
    '$1\\n2\\n1\\n1\\n0\\n2\\n1\\t1\\n'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from typing import Any

from ._defaults import BINARY, COLOUR, HEURISTIC, KIND, LEGACY_ENCODING, SOLUTION
from ._lines import Read, attempt, check_options, clue_text, head_lines, make_puzzle, parse_clue, pick_index
from ..errors import FormatError, PuzzleError, located
from ..model.puzzle import Puzzle

NAME = "taai"
TITLE = "TAAI / TCGA / ICGA tournament questions ($1, column clues, row clues; many puzzles)"
EXTENSIONS = ("taai",)
ALIASES = ("icga", "tcga")
ORDER = 55

__all__ = ["dumps", "loads", "members", "puzzles"]

_HEADER = re.compile(r"\$(\d{1,9})")
_CLUE = re.compile(r"[\d \t]*")


def detect(head: bytes) -> bool:
    """True when line 1 is ``$1`` and line 2 is a clue (numbers separated by tabs or spaces)."""
    lines = head_lines(head)
    return len(lines) >= 2 and lines[0].strip() == "$1" and bool(_CLUE.fullmatch(lines[1]))


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.lstrip("\ufeff").splitlines()]


def _blocks(lines: list[str], source: str) -> list[tuple[int, int]]:
    """``(first, end)`` line positions (0-based, end exclusive) of each puzzle's header."""
    starts = [i for i, line in enumerate(lines) if line.startswith("$")]
    first_text = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first_text is None:
        raise FormatError(f"{source}: the file is empty")
    if not starts or starts[0] != first_text:
        raise FormatError(located(source, first_text + 1, f"expected the header '$1', found {lines[first_text][:40]!r}"))
    blocks = []
    for k, start in enumerate(starts, start=1):
        m = _HEADER.fullmatch(lines[start].strip())
        if m is None or int(m.group(1)) != k:
            raise FormatError(located(source, start + 1, f"expected the header '${k}', found {lines[start][:40]!r}"))
        end = starts[k] if k < len(starts) else len(lines)
        blocks.append((start, end))
    return blocks


def _size(lines: list[str], blocks: list[tuple[int, int]], source: str) -> int:
    start, end = blocks[0]
    count = end - start - 1
    if len(blocks) == 1:  # no second header tells the size: blank lines at the end are not clues ...
        full = count
        while count and not lines[start + count].strip():
            count -= 1
        if count % 2 and count < full:  # ... unless one is needed to make 2N (an empty last row)
            count += 1
    if count == 0 or count % 2:
        raise FormatError(located(source, start + 1, f"puzzle $1 has {count} clue lines; a square N x N "
                                  "puzzle has 2N (N column clues, then N row clues)"))
    return count // 2


def _puzzle(lines: list[str], block: tuple[int, int], k: int, size: int, last: bool, source: str) -> Puzzle:
    start, end = block
    body = lines[start + 1:end]
    if last:
        while len(body) > 2 * size and not body[-1].strip():
            body.pop()
    if len(body) != 2 * size:
        state = "is cut short" if len(body) < 2 * size else "has too many lines"
        raise FormatError(located(source, start + 1, f"puzzle ${k} {state}: {len(body)} clue lines, expected "
                                  f"{2 * size} ({size} columns, then {size} rows, like puzzle $1)"))
    clues = [parse_clue(line, source, start + 2 + j, f"puzzle ${k}, {'column' if j < size else 'row'} "
                        f"{j % size + 1}") for j, line in enumerate(body)]
    col_lines = list(range(start + 2, start + 2 + size))
    row_lines = list(range(start + 2 + size, start + 2 + 2 * size))
    return make_puzzle(clues[size:], clues[:size], source=source, row_lines=row_lines, col_lines=col_lines)


def loads(text: str, *, source: str = "<string>", index: int | None = None, **options: Any) -> Puzzle:
    """Read one puzzle of a tournament file (see the module docstring).

    Args:
        index: which puzzle (1-based, the number of its ``$`` header; default the first).

    Raises:
        FormatError: nothing before ``$1`` allowed, a wrong or out-of-order ``$`` header,
            a puzzle with the wrong count of lines (a truncated file), a token that is not
            a number, clues that do not fit; the message names the source and line.
    """
    check_options(options, NAME)
    lines = _lines(text)
    blocks = _blocks(lines, source)
    size = _size(lines, blocks, source)
    k = pick_index(len(blocks), index, source)
    return _puzzle(lines, blocks[k], k + 1, size, k == len(blocks) - 1, source)


def puzzles(text: str, *, source: str = "<string>") -> Iterator[Read]:
    """Every puzzle of the file in one pass, numbered from 1; a broken one is its located error.

    Raises:
        FormatError: the headers or the size of the first puzzle are wrong (as :func:`loads`):
            without them no puzzle can be told from the next.

    Examples:
        >>> [(r.index, r.puzzle.rows if r.puzzle else str(r.error)) for r in puzzles("$1\\n1\\n1\\n$2\\n1\\nx\\n")]
        [(1, ((1,),)), (2, "<string>:6: puzzle $2, row 1: 'x' is not a number")]
    """
    lines = _lines(text)
    blocks = _blocks(lines, source)
    size = _size(lines, blocks, source)
    for k, block in enumerate(blocks):
        yield attempt(k + 1, None, partial(_puzzle, lines, block, k + 1, size, k == len(blocks) - 1, source))


def members(text: str, *, source: str = "<string>") -> list[tuple[int | None, str | None]]:
    """``(index, None)`` for each puzzle, counted from 1; a file of one puzzle is ``[(None, None)]``.

    Raises:
        FormatError: the headers or the size of the first puzzle are wrong (as :func:`loads`).
    """
    lines = _lines(text)
    blocks = _blocks(lines, source)
    _size(lines, blocks, source)
    if len(blocks) == 1:
        return [(None, None)]
    return [(k, None) for k in range(1, len(blocks) + 1)]


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as a one-puzzle tournament file (tabs between numbers, ``0`` for an empty line).

    Raises:
        PuzzleError: the puzzle is not square (the format has no size line).
    """
    if puzzle.width != puzzle.height:
        raise PuzzleError(f"the {NAME} format holds square puzzles only; this one is "
                          f"{puzzle.width}x{puzzle.height}")
    lines = ["$1"] + [clue_text(c, "\t") for c in (*puzzle.cols, *puzzle.rows)]
    return "\n".join(lines) + "\n"
