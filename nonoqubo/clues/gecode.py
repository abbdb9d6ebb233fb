"""Gecode-style flat integer array (Gecode ``examples/nonogram.cpp``).

Grammar::

    spec  := W H colhint{W} rowhint{H}
    hint  := n b_1 ... b_n          (n = 0 for an empty line)

Width first, then height; the column hints (left to right) come before the row
hints (top to bottom).  In a file the numbers may be separated by commas and
white space and wrapped in C syntax, exactly as pasted from Gecode's source:
braces, ``//`` and ``/* */`` comments, and a declaration before the ``{``
(``const int heart[] = { ... };``) are all accepted.  webpbn's export page
offers this format as "gecode".

Examples:
    >>> p = from_array([3, 2, 1, 2, 1, 1, 1, 2, 1, 3, 2, 1, 1])
    >>> p.cols, p.rows
    (((2,), (1,), (2,)), ((3,), (1, 1)))
    >>> to_array(p)
    [3, 2, 1, 2, 1, 1, 1, 2, 1, 3, 2, 1, 1]
    >>> loads("const int p[] = {3, 2, /* cols */ 1,2, 1,1, 1,2, // rows\\n 1,3, 2,1,1};").rows
    ((3,), (1, 1))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import IO, Any

from .._guard import integer
from ..errors import FormatError, PuzzleError, located
from ..puzzle import Puzzle

NAME = "gecode"
TITLE = "Gecode flat integer array (width, height, column hints, row hints)"
EXTENSIONS = ("gecode", "cpp", "h", "hh", "c")
BINARY = False
SOLUTION = False  # can the format carry a known solution?

__all__ = ["dump", "dumps", "from_array", "load", "loads", "to_array"]

_TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|[{}]|-?\d+|[,;\s]+|.", re.S)


def detect(text: str) -> bool:
    """True for text that is a brace-wrapped (or bare) list of integers."""
    body = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S).strip()
    if "{" in body:
        body = body[body.index("{") + 1 : body.rindex("}") if "}" in body else len(body)]
    return bool(body) and re.fullmatch(r"[\d,\s-]+", body) is not None and "," in body


def from_array(values: Sequence[int], *, source: str = "<array>", name: str | None = None,
               positions: Sequence[tuple[int, int]] | None = None) -> Puzzle:
    """The puzzle described by a flat Gecode array.

    Args:
        values: ``W, H``, the W column hints, then the H row hints.
        source: the file name used in error messages.
        name: the puzzle's name.
        positions: for each value, its (line, column) in the file, to name in errors.

    Raises:
        FormatError: the array is too short, too long, has a negative count or a
            count that runs past the end; the message gives the element's
            position (1-based) and, from a file, its line.
    """
    vals = [int(v) for v in values]

    def where(idx: int) -> str:
        if positions is not None and idx < len(positions):
            line, col = positions[idx]
            return f"{source}:{line}:{col}"
        return source

    def fail(idx: int, message: str) -> FormatError:
        return FormatError(f"{where(idx)}: element {idx + 1}: {message}")

    if len(vals) < 2:
        raise FormatError(f"{source}: the array needs at least width and height, found {len(vals)} number(s)")
    width, height = vals[0], vals[1]
    if width <= 0:
        raise fail(0, f"width {width} must be positive")
    if height <= 0:
        raise fail(1, f"height {height} must be positive")
    pos = 2
    hints: list[tuple[int, ...]] = []
    for line_no in range(width + height):
        kind = "column" if line_no < width else "row"
        number = line_no + 1 if line_no < width else line_no - width + 1
        if pos >= len(vals):
            raise FormatError(
                f"{where(len(vals) - 1)}: the array ends after {len(vals)} numbers, "
                f"before the hint of {kind} {number} ({width} column and {height} row hints expected)"
            )
        count = vals[pos]
        if count < 0:
            raise fail(pos, f"{kind} {number}: block count {count} is negative")
        if pos + count >= len(vals):
            raise fail(
                pos,
                f"{kind} {number}: block count {count} runs past the end of the array "
                f"({len(vals) - pos - 1} number(s) left)",
            )
        hints.append(tuple(vals[pos + 1 : pos + 1 + count]))
        pos += 1 + count
    if pos != len(vals):
        raise fail(
            pos,
            f"{len(vals) - pos} number(s) left over after {width} column and {height} row hints",
        )
    try:
        return Puzzle(rows=tuple(hints[width:]), cols=tuple(hints[:width]), name=name)
    except PuzzleError as exc:
        raise FormatError(located(source, None, str(exc))) from None


def to_array(puzzle: Puzzle) -> list[int]:
    """The flat Gecode array of *puzzle* (inverse of :func:`from_array`)."""
    out = [puzzle.width, puzzle.height]
    for clue in (*puzzle.cols, *puzzle.rows):
        out.append(len(clue))
        out.extend(clue)
    return out


def loads(text: str, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read the integers of a Gecode array from C-like text (see module docstring)."""
    if options:
        raise TypeError(f"unexpected options for the gecode format: {', '.join(options)}")
    values: list[int] = []
    positions: list[tuple[int, int]] = []
    depth = 0
    seen_brace = "{" in re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    inside = not seen_brace
    closed = False
    line, line_start = 1, 0
    name = None
    for m in _TOKEN.finditer(text):
        tok = m.group()
        col = m.start() - line_start + 1
        if tok.startswith("//") or tok.startswith("/*"):
            if not values and name is None and tok.startswith("//"):
                name = tok[2:].strip() or None
        elif tok == "{":
            depth += 1
            if depth > 1:
                raise FormatError(f"{source}:{line}:{col}: nested '{{' (the array must be flat)")
            inside = True
        elif tok == "}":
            depth -= 1
            if depth < 0:
                raise FormatError(f"{source}:{line}:{col}: '}}' without a matching '{{'")
            inside, closed = False, True
        elif re.fullmatch(r"-?\d+", tok):
            if inside:
                values.append(integer(tok, source, line, f"value {len(values) + 1}"))
                positions.append((line, col))
            elif closed:
                raise FormatError(f"{source}:{line}:{col}: number {tok} after the closing '}}'")
        elif tok.strip(",; \t\r\n") == "":
            pass
        elif inside:
            raise FormatError(f"{source}:{line}:{col}: {tok!r} is not a number")
        # text outside the braces (a C declaration) is ignored
        newlines = tok.count("\n")
        if newlines:
            line += newlines
            line_start = m.start() + tok.rindex("\n") + 1
    if depth > 0:
        raise FormatError(f"{source}:{line}: the array's '{{' is never closed")
    if not values:
        raise FormatError(f"{source}: no numbers found (expected W, H, column hints, row hints)")
    return from_array(values, source=source, name=name, positions=positions)


def load(fp: IO[str], **options: Any) -> Puzzle:
    """Read a Gecode array from an open text file."""
    return loads(fp.read(), source=getattr(fp, "name", "<stream>"), **options)


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as a C array literal, one hint a line, with comments saying which."""
    lines = []
    if puzzle.name:
        lines.append(f"// {puzzle.name}")
    lines.append("{")
    lines.append(f"  {puzzle.width}, {puzzle.height},  // width, height")
    for kind, clues in (("column", puzzle.cols), ("row", puzzle.rows)):
        for idx, clue in enumerate(clues, start=1):
            nums = ", ".join(str(v) for v in (len(clue), *clue))
            lines.append(f"  {nums},  // {kind} {idx}")
    lines[-1] = lines[-1].replace(",  //", "   //", 1)
    lines.append("}")
    return "\n".join(lines) + "\n"


def dump(puzzle: Puzzle, fp: IO[str]) -> None:
    """Write the puzzle as a Gecode array to an open text file."""
    fp.write(dumps(puzzle))
