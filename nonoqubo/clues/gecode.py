"""Gecode-style flat integer arrays, and Gecode's own ``examples/nonogram.cpp``.

Grammar of one spec::

    spec  := W H colhint{W} rowhint{H}
    hint  := n b_1 ... b_n          (n = 0 for an empty line)

Width first, then height; the column hints (left to right) come before the row
hints (top to bottom).  webpbn's export page offers this format as "gecode".

In a file the numbers may be separated by commas and white space and wrapped in
C syntax, exactly as Gecode writes them:

* a bare list of numbers, or one brace-wrapped list (``{ 3, 2, ... }``), with
  ``//`` and ``/* */`` comments; a ``// name`` comment before the first number
  names the puzzle;
* a C/C++ source file holding one or more declarations
  ``const int NAME[] = { ... };`` (comments, trailing commas, line breaks
  allowed), such as Gecode's ``examples/nonogram.cpp`` with its 19 specs.  Each
  such array of integers is a spec called NAME.  The rest of the file (code,
  strings, other declarations) is skipped.  An array of names
  (``const int *specs[] = {heart, bear, ...};``) is the file's table: it gives
  the specs their numbers.

Choosing a spec in a file that holds several: ``index=N`` counts **from 0** in
the order of the ``specs[]`` table (else of the file), exactly like Gecode's
``-size N`` option (``nonogram -size 8`` is ``castle``); ``name="castle"``
picks by name.  With several specs and no choice, the error lists them all;
:func:`puzzles` reads them all in one scan (``suite``).

The scanner reads the text once, left to right, with no backtracking regular
expression: linear time on any input.

Examples:
    >>> p = from_array([3, 2, 1, 2, 1, 1, 1, 2, 1, 3, 2, 1, 1])
    >>> p.cols, p.rows
    (((2,), (1,), (2,)), ((3,), (1, 1)))
    >>> to_array(p)
    [3, 2, 1, 2, 1, 1, 1, 2, 1, 3, 2, 1, 1]
    >>> loads("{3, 2, /* cols */ 1,2, 1,1, 1,2, // rows\\n 1,3, 2,1,1}").rows
    ((3,), (1, 1))
    >>> src = "const int a[] = {1,1, 1,1, 1,1};\\nconst int b[] = {2,1, 0, 1,1, 1,1,};\\n"
    >>> loads(src, index=1).name, loads(src, name="a").cols
    ('b', ((1,),))
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from .._util.guard import integer
from .._util.text import head_text
from ..errors import FormatError, PuzzleError, located
from ..model.puzzle import Puzzle
from ._defaults import ALIASES, BINARY, COLOUR, HEURISTIC, KIND, LEGACY_ENCODING, SOLUTION
from ._lines import Read, attempt

NAME = "gecode"
TITLE = "Gecode flat integer array (width, height, column hints, row hints); Gecode's nonogram.cpp"
EXTENSIONS = ("gecode", "cpp", "cc", "cxx", "hpp", "h", "hh", "c")
ORDER = 20

__all__ = ["Spec", "dumps", "from_array", "loads", "members", "puzzles", "specs", "to_array"]

# one token per match; every alternative is a plain run, so matching is linear
_SCAN = re.compile(
    r"""(?P<ws>\s+)
      | (?P<line>//[^\n]*)
      | (?P<block>/\*)
      | (?P<str>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)
      | (?P<num>-?\d+)
      | (?P<id>[A-Za-z_]\w*)
      | (?P<other>.)""",
    re.X | re.S,
)


@dataclass(frozen=True)
class _Tok:
    kind: str  # "num", "id", "str", "other", "comment"
    text: str
    line: int
    col: int


@dataclass(frozen=True)
class Spec:
    """One ``NAME[] = {...}`` array of a C/C++ file.

    Attributes:
        name: the declared name (``castle``).
        index: its number in the file's ``specs[]`` table (0-based, Gecode's
            ``-size``), or in file order when there is no table; None when a
            table exists and does not list it.
        values: the integers.
        positions: (line, column) of each integer in the file.
    """

    name: str
    index: int | None
    values: tuple[int, ...]
    positions: tuple[tuple[int, int], ...]

    @property
    def size(self) -> str:
        """``WxH`` as the spec declares it (``?`` when too short)."""
        return f"{self.values[0]}x{self.values[1]}" if len(self.values) >= 2 else "?"


def _tokens(text: str, source: str) -> list[_Tok]:
    """The tokens of C-like *text*; white space dropped, comments kept as kind 'comment'."""
    out: list[_Tok] = []
    pos, line, line_start, n = 0, 1, 0, len(text)
    while pos < n:
        m = _SCAN.match(text, pos)
        assert m is not None  # (?P<other>.) with re.S matches any character
        kind = m.lastgroup or "other"
        end = m.end()
        if kind == "block":
            close = text.find("*/", pos + 2)
            if close < 0:
                raise FormatError(f"{source}:{line}:{pos - line_start + 1}: a '/*' comment is never closed")
            end = close + 2
            kind = "comment"
        elif kind == "line":
            kind = "comment"
        if kind != "ws":
            out.append(_Tok(kind, text[pos:end], line, pos - line_start + 1))
        newlines = text.count("\n", pos, end)
        if newlines:
            line += newlines
            line_start = text.rindex("\n", pos, end) + 1
        pos = end
    return out


def detect(head: bytes) -> bool:
    """True for a brace-wrapped (or bare) list of integers, or C source declaring ``NAME[] = {integers}``."""
    text = head_text(head)
    start = text[:200_000]
    try:
        toks = _tokens(start, "<detect>")
        if _declarations(toks, "<detect>")[0]:
            return True
    except FormatError:
        return False
    inner = [t for t in toks if t.kind != "comment" and t.text not in "{};"]
    return bool(inner) and all(t.kind == "num" or t.text == "," for t in inner) and any(t.text == "," for t in inner)


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


def _declarations(toks: list[_Tok], source: str) -> tuple[list[tuple[str, list[_Tok]]], list[list[_Tok]]]:
    """The ``NAME[...] = { ... }`` arrays of integers, and the arrays of names (tables).

    Returns ``[(name, number tokens)]`` and ``[name tokens]`` in file order.
    """
    code = [t for t in toks if t.kind != "comment"]
    arrays: list[tuple[str, list[_Tok]]] = []
    tables: list[list[_Tok]] = []
    i, n = 0, len(code)
    while i < n:
        t = code[i]
        # ... NAME [ N? ] = {
        if not (t.text == "=" and i + 1 < n and code[i + 1].text == "{" and i >= 3 and code[i - 1].text == "]"):
            i += 1
            continue
        j = i - 2 if code[i - 2].text == "[" else i - 3
        if j < 1 or code[j].text != "[" or code[j - 1].kind != "id":
            i += 1
            continue
        name = code[j - 1].text
        k, depth, items, flat = i + 2, 1, [], True
        while k < n and depth:
            tk = code[k]
            if tk.text == "{":
                depth += 1
                flat = False
            elif tk.text == "}":
                depth -= 1
            elif depth == 1 and tk.text != ",":
                items.append(tk)
            k += 1
        if depth:
            open_ = code[i + 1]
            raise FormatError(f"{source}:{open_.line}:{open_.col}: the '{{' of {name}[] is never closed")
        i = k
        if not flat or not items:
            continue
        kinds = {tk.kind for tk in items}
        if kinds == {"num"}:
            arrays.append((name, items))
        elif kinds == {"id"}:
            tables.append(items)
        elif "num" in kinds:
            bad = next(tk for tk in items if tk.kind != "num")
            raise FormatError(f"{source}:{bad.line}:{bad.col}: {name}[]: {bad.text!r} is not a number")
        # other arrays (strings, expressions) are not nonogram specs
    return arrays, tables


def specs(text: str, *, source: str = "<string>") -> list[Spec]:
    """Every ``NAME[] = {...}`` integer array of C/C++ *text*, numbered as :func:`loads` counts them.

    Returns an empty list for text with no such declaration (a bare array).
    """
    arrays, tables = _declarations(_tokens(text, source), source)
    names = [name for name, _ in arrays]
    table = next((tb for tb in tables if all(t.text in names for t in tb)), None)
    if table is None:
        order = {name: k for k, name in enumerate(names)}
    else:
        order = {}
        for k, t in enumerate(table):
            order.setdefault(t.text, k)
    out = [Spec(name, order.get(name), tuple(integer(t.text, source, t.line, name) for t in toks),
                tuple((t.line, t.col) for t in toks)) for name, toks in arrays]
    return sorted(out, key=lambda s: (s.index is None, s.index if s.index is not None else 0))


def members(text: str, *, source: str = "<string>") -> list[tuple[int | None, str | None]]:
    """``(index, name)`` of every puzzle :func:`loads` can pick: the numbered specs, from 0.

    A bare array is the one puzzle ``(None, None)``.

    Examples:
        >>> members("const int a[] = {1,1, 1,1, 1,1};\\nconst int b[] = {1,1, 1,1, 1,1};")
        [(0, 'a'), (1, 'b')]
    """
    found = [s for s in specs(text, source=source) if s.index is not None]
    if not found:
        return [(None, None)]
    return [(k, s.name) for k, s in enumerate(found)]  # _choose counts the numbered specs so


def puzzles(text: str, *, source: str = "<string>") -> Iterator[Read]:
    """Every puzzle of the file in one scan: the numbered specs (from 0, by name), else the bare array.

    A spec that is not a puzzle is its located error; the other specs are read.

    Raises:
        FormatError: the text cannot be scanned (an unclosed comment, a bare array that is not one).

    Examples:
        >>> src = "const int a[] = {1,1, 1,1, 1,1};\\nconst int b[] = {2,1, 0, 1,1, 1,2};"
        >>> [(r.index, r.name, r.puzzle.cols if r.puzzle else str(r.error)) for r in puzzles(src)]
        [(0, 'a', ((1,),)), (1, 'b', '<string>: the row clues paint 2 cells but the column clues paint 1')]
    """
    toks = _tokens(text, source)
    arrays, _ = _declarations(toks, source)
    if not arrays:
        values, positions, title = _bare(toks, source)
        yield attempt(None, title, partial(from_array, values, source=source, name=title, positions=positions))
        return
    numbered = [s for s in specs(text, source=source) if s.index is not None]
    for k, spec in enumerate(numbered):  # numbered as _choose counts them (the --index of each)
        yield attempt(k, spec.name, partial(from_array, spec.values, source=source, name=spec.name,
                                            positions=spec.positions))


def _listing(found: list[Spec]) -> str:
    return ", ".join(f"{'-' if s.index is None else s.index} {s.name} ({s.size})" for s in found)


def _choose(found: list[Spec], index: int | None, name: str | None, source: str) -> Spec:
    if name is not None:
        for s in found:
            if s.name == name:
                if index is not None and s.index != index:
                    raise FormatError(f"{source}: --index {index} and --name {name} name different specs")
                return s
        raise FormatError(f"{source}: no spec named {name!r}; the file holds: {_listing(found)}")
    if index is not None:
        numbered = [s for s in found if s.index is not None]
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(numbered):
            raise FormatError(f"{source}: --index {index} is out of range 0..{len(numbered) - 1} "
                              f"(counted from 0, like Gecode's -size); the file holds: {_listing(found)}")
        return numbered[index]
    if len(found) == 1:
        return found[0]
    raise FormatError(f"{source}: the file holds {len(found)} specs; choose one with --index N "
                      f"(from 0, like Gecode's -size N) or --name NAME: {_listing(found)}")


def _bare(toks: list[_Tok], source: str) -> tuple[list[int], list[tuple[int, int]], str | None]:
    """The numbers of a bare list or of one brace-wrapped list (no declaration)."""
    values: list[int] = []
    positions: list[tuple[int, int]] = []
    name = None
    inside = not any(t.text == "{" for t in toks if t.kind != "comment")
    depth, closed = 0, False
    last = toks[-1].line if toks else 1
    for t in toks:
        if t.kind == "comment":
            if not values and name is None and t.text.startswith("//"):
                name = t.text[2:].strip() or None
        elif t.text == "{":
            depth += 1
            if depth > 1:
                raise FormatError(f"{source}:{t.line}:{t.col}: nested '{{' (the array must be flat)")
            inside = True
        elif t.text == "}":
            depth -= 1
            if depth < 0:
                raise FormatError(f"{source}:{t.line}:{t.col}: '}}' without a matching '{{'")
            inside, closed = False, True
        elif t.kind == "num":
            if inside:
                values.append(integer(t.text, source, t.line, f"value {len(values) + 1}"))
                positions.append((t.line, t.col))
            elif closed:
                raise FormatError(f"{source}:{t.line}:{t.col}: number {t.text} after the closing '}}'")
        elif t.text in (",", ";"):
            pass
        elif inside:
            raise FormatError(f"{source}:{t.line}:{t.col}: {t.text!r} is not a number")
        # text outside the braces (a C declaration) is ignored
    if depth > 0:
        raise FormatError(f"{source}:{last}: the array's '{{' is never closed")
    if not values:
        raise FormatError(f"{source}: no numbers found (expected W, H, column hints, row hints)")
    return values, positions, name


def loads(text: str, *, source: str = "<string>", index: int | None = None, name: str | None = None,
          **options: Any) -> Puzzle:
    """Read a Gecode spec from a bare array or from C/C++ text (see module docstring).

    Args:
        text: the file's text.
        source: the file name used in error messages.
        index: which spec of a file with several (0-based, Gecode's ``-size``).
        name: which spec, by its declared name.

    Raises:
        FormatError: a malformed array (file, line and column named), a choice
            that matches no spec, or several specs and no choice (they are listed).
    """
    if options:
        raise TypeError(f"unexpected options for the gecode format: {', '.join(options)}")
    toks = _tokens(text, source)
    arrays, _ = _declarations(toks, source)
    if arrays:
        chosen = _choose(specs(text, source=source), index, name, source)
        return from_array(chosen.values, source=source, name=chosen.name, positions=chosen.positions)
    if index not in (None, 0) or name is not None:
        what = f"--index {index}" if name is None else f"--name {name}"
        raise FormatError(f"{source}: {what}: the file holds one bare array, not named specs")
    values, positions, title = _bare(toks, source)
    return from_array(values, source=source, name=title, positions=positions)


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
