"""Petr Olšák's ``.g`` clue format (the ``grid`` griddler solver; read by pbnsolve).

Grammar (lines; ``:`` and ``#`` count only in the first column)::

    free text                 ignored (nonoqubo keeps its first line as the name)
    #d                        optional colour section, up to the next ':' line:
       m:%  blue  comment       <inchar>:<outchar> <XPM colour> <comment>
       0:   white               "0" = background, "1" = default block colour
    : rows                    text after ':' is ignored
    3 4                       one row clue a line, top to bottom; numbers
                              separated by spaces; a blank line (or 0) is an
                              empty row; a colour letter may follow a number (1m)
    : columns
    ...                       one column clue a line, left to right
    :end                      optional; anything after it is ignored

A colour section that declares colours other than ``0`` and ``1``, or a
number with a colour letter, makes the puzzle a colour puzzle, which is
refused; ``#t``/``#T`` (triangles, triddlers) is refused too.  Without a
closing ``:`` line, blank lines at the end of the file are not column clues.
nonoqubo writes empty lines as blank lines, as Olšák's examples do.

Origin: Petr Olšák, ``grid`` (ftp.cstug.cz/pub/tex/local/olsak/grid/,
``gridoce.pdf``); samples ship with pbnsolve (``kolo.g``, ``veze.g``,
``oko.g``); number-loom and nonogrid read it, webpbn exports it as "olsak".

Examples:
    >>> p = loads("Tiny\\n: rows\\n2\\n\\n: columns\\n1\\n1\\n:end\\n")
    >>> p.name, p.rows, p.cols
    ('Tiny', ((2,), ()), ((1,), (1,)))
    >>> print(dumps(p), end="")
    Tiny
    : rows
    2
    <BLANKLINE>
    : columns
    1
    1
    :end
"""

from __future__ import annotations

import re
from typing import IO, Any

from . import check_options, colour_refusal, make_puzzle, parse_clue, read_stream, text_lines
from ..errors import FormatError, located
from ..puzzle import Puzzle

NAME = "g"
TITLE = "Olšák .g (free text, ': rows' group, ': columns' group)"
EXTENSIONS = ("g",)
BINARY = False
SOLUTION = False

__all__ = ["dump", "dumps", "load", "loads"]

_COLOUR_DECL = re.compile(r"\s*(\S):(\S?)\s+(\S+)")
#: a count glued to a colour letter; the look-behind starts a match only at the first digit
#: of a run, so the search is linear in a long run of digits (a plain ``\d+`` retries from
#: every digit: quadratic)
_COLOUR_TOKEN = re.compile(r"(?<!\d)\d+[^\d\s,]")


def detect(text: str) -> bool:
    """True when two lines start with ``:`` and a line of numbers follows the first."""
    lines = text_lines(text)
    marks = [i for i, line in enumerate(lines) if line.startswith(":")]
    return len(marks) >= 2 and marks[0] + 1 < len(lines) and re.fullmatch(r"[\d\s,a-zA-Z]*", lines[marks[0] + 1]) is not None


def loads(text: str, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a ``.g`` puzzle (see the module docstring).

    Raises:
        FormatError: no row or column group, a non-numeric clue, a colour or
            triddler puzzle, or clues that do not make a puzzle; the message
            names the source and line.
    """
    check_options(options, NAME)
    lines = text_lines(text)
    marks = [i for i, line in enumerate(lines) if line.startswith(":")]
    if not marks:
        raise FormatError(located(source, len(lines) or None, "no line starts with ':' (the row group must follow one)"))
    name = None
    section = None
    for idx, line in enumerate(lines[: marks[0]]):
        if line.startswith("#"):
            section = line[1:2].lower()
            if section == "t":
                raise FormatError(located(source, idx + 1, "triangle/triddler puzzles (#t) are not rectangular grids"))
            continue
        if section == "d":
            m = _COLOUR_DECL.match(line)
            if m and m.group(1) not in "01":
                raise colour_refusal(source, idx + 1, f"{m.group(1)} = {m.group(3)}")
        elif section is None and name is None and line.strip():
            name = line.strip()
    groups: list[tuple[list[tuple[int, ...]], list[int]]] = []
    for g, (kind, start) in enumerate(zip(("row", "column"), marks)):
        stop = marks[g + 1] if g + 1 < len(marks) else None
        if stop is None:
            if kind == "row":
                raise FormatError(located(source, start + 1, "the row group is not followed by a ':' line and a column group"))
            stop = len(lines)
            while stop > start + 1 and not lines[stop - 1].strip():
                stop -= 1
        found: list[tuple[int, ...]] = []
        where: list[int] = []
        for idx in range(start + 1, stop):
            body = lines[idx]
            m = _COLOUR_TOKEN.search(body)
            if m:
                raise colour_refusal(source, idx + 1, f"{kind} {len(found) + 1} has the colour clue {body.strip()!r}")
            found.append(parse_clue(body, source, idx + 1, f"{kind} {len(found) + 1}"))
            where.append(idx + 1)
        if not found:
            raise FormatError(located(source, start + 1, f"the {kind} group is empty"))
        groups.append((found, where))
    (rows, row_lines), (cols, col_lines) = groups
    return make_puzzle(rows, cols, source=source, row_lines=row_lines, col_lines=col_lines, name=name)


def load(fp: IO[str], **options: Any) -> Puzzle:
    """Read a ``.g`` puzzle from an open text file."""
    return read_stream(fp, loads, **options)


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as ``.g`` text (the name as the free text, blank lines for empty lines)."""
    title = " ".join((puzzle.name or "nonogram").split())
    if title[:1] in (":", "#"):
        title = " " + title
    lines = [title, ": rows", *(" ".join(map(str, c)) for c in puzzle.rows)]
    lines += [": columns", *(" ".join(map(str, c)) for c in puzzle.cols), ":end"]
    return "\n".join(lines) + "\n"


def dump(puzzle: Puzzle, fp: IO[str]) -> None:
    """Write the puzzle as ``.g`` to an open text file."""
    fp.write(dumps(puzzle))
