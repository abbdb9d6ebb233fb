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

Colour: each ``#d`` line declares a colour by its input letter (``<inchar>``,
any character but a digit, space or comma), an optional output character, an
XPM colour word (a name such as ``blue``, or ``#RRGGBB``) and a comment.
``0`` declares the background (default white), ``1`` the default block
colour used by numbers without a letter (without it, every number needs a
letter).  The colour's name is the XPM word (the letter when the word is an
RGB value or names a colour twice); its picture character is the letter.
A letter that is not declared (or any letter with no ``#d`` section), a
number without a letter when no default is declared, and a colour that is
the background are errors naming their line.  ``#t``/``#T`` (triangles,
triddlers) is refused.  Without a
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
    >>> c = loads("#d\\n r:r red\\n b:b #0000ff blue\\n: rows\\n1r 1b\\n: columns\\n1r\\n1b\\n")
    >>> c.rows, c.row_colours, c.palette.names, c.palette.colours[1].rgb
    (((1, 1),), ((1, 2),), ('white', 'red', 'b'), '0000ff')
"""

from __future__ import annotations

import re
from typing import Any

from ._defaults import BINARY, HEURISTIC, KIND, LEGACY_ENCODING, SOLUTION
from ._lines import head_lines, make_puzzle, option_lines
from .._util.guard import integer
from ..errors import FormatError, PuzzleError, located
from ..model.palette import BW, Palette, normalise_rgb
from ..model.puzzle import Puzzle

NAME = "g"
TITLE = "Olšák .g (free text, ': rows' group, ': columns' group)"
EXTENSIONS = ("g",)
COLOUR = True
ALIASES = ("olsak",)
ORDER = 70

__all__ = ["dumps", "loads"]

_COLOUR_DECL = re.compile(r"\s*(\S):(\S?)\s+(\S+)")
#: one block: a length and an optional colour letter
_BLOCK = re.compile(r"(\d+)([^\d\s,]?)")
_SEP = re.compile(r"[\s,]*")


def detect(head: bytes) -> bool:
    """True when two lines start with ``:`` and a line of numbers follows the first."""
    lines = head_lines(head)
    marks = [i for i, line in enumerate(lines) if line.startswith(":")]
    return len(marks) >= 2 and marks[0] + 1 < len(lines) and re.fullmatch(r"[\d\s,a-zA-Z]*", lines[marks[0] + 1]) is not None


def loads(text: str, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a ``.g`` puzzle (see the module docstring).

    Raises:
        FormatError: no row or column group, a non-numeric clue, a colour or
            triddler puzzle, or clues that do not make a puzzle; the message
            names the source and line.
    """
    lines = option_lines(text, NAME, options)
    marks = [i for i, line in enumerate(lines) if line.startswith(":")]
    if not marks:
        raise FormatError(located(source, len(lines) or None, "no line starts with ':' (the row group must follow one)"))
    name = None
    section = None
    declared: dict[str, tuple[str, str | None, int]] = {}  # letter -> (name, rgb, line)
    for idx, line in enumerate(lines[: marks[0]]):
        if line.startswith("#"):
            section = line[1:2].lower()
            if section == "t":
                raise FormatError(located(source, idx + 1, "triangle/triddler puzzles (#t) are not rectangular grids"))
            continue
        if section == "d":
            m = _COLOUR_DECL.match(line)
            if m:
                declared[m.group(1)] = _colour_of(m.group(1), m.group(3), source, idx + 1)
        elif section is None and name is None and line.strip():
            name = line.strip()
    background = declared.pop("0", ("white", None, 0))
    default = declared.get("1")
    for letter, (colour, rgb, at) in declared.items():
        if letter != "1" and ((colour, rgb) == background[:2] or colour == background[0] and rgb is None):
            raise FormatError(located(source, at, f"colour {letter!r} is the background colour {colour!r}"))
    names = [c[0] for c in declared.values()]
    declared = {k: (n if names.count(n) == 1 and n != background[0] else k, rgb, at)
                for k, (n, rgb, at) in declared.items()}
    groups: list[tuple[list[list[tuple[int, str]]], list[int]]] = []
    used: dict[str, None] = {}
    for g, (kind, start) in enumerate(zip(("row", "column"), marks)):
        stop = marks[g + 1] if g + 1 < len(marks) else None
        if stop is None:
            if kind == "row":
                raise FormatError(located(source, start + 1, "the row group is not followed by a ':' line and a column group"))
            stop = len(lines)
            while stop > start + 1 and not lines[stop - 1].strip():
                stop -= 1
        found: list[list[tuple[int, str]]] = []
        where: list[int] = []
        for idx in range(start + 1, stop):
            what = f"{kind} {len(found) + 1}"
            clue = _blocks(lines[idx], declared, default is not None, source, idx + 1, what)
            used.update((letter, None) for _, letter in clue)
            found.append(clue)
            where.append(idx + 1)
        if not found:
            raise FormatError(located(source, start + 1, f"the {kind} group is empty"))
        groups.append((found, where))
    (rows, row_lines), (cols, col_lines) = groups
    order = [k for k in declared if k in used] or ["1"]
    several = len(order) > 1
    try:
        palette = Palette.of([(declared[k][0], declared[k][1], k if several else "") if k in declared else "black"
                              for k in order], background[:2])
    except PuzzleError as exc:
        raise FormatError(located(source, None, str(exc))) from None
    letter_name = {k: palette.colours[n].name for n, k in enumerate(order)}
    return make_puzzle([[(v, letter_name[c]) for v, c in clue] for clue in rows],
                       [[(v, letter_name[c]) for v, c in clue] for clue in cols],
                       source=source, row_lines=row_lines, col_lines=col_lines, name=name, palette=palette)


def _colour_of(letter: str, word: str, source: str, line: int) -> tuple[str, str | None, int]:
    """``(name, rgb, line)`` of one ``#d`` declaration (name: the XPM word, or the letter for ``#RRGGBB``)."""
    if letter.isdigit() and letter not in "01":
        raise FormatError(located(source, line, f"colour letter {letter!r} is a digit (only 0 and 1 may be)"))
    if word.startswith("#"):
        try:
            return letter, normalise_rgb(word), line
        except PuzzleError as exc:
            raise FormatError(located(source, line, str(exc))) from None
    return word, None, line


def _blocks(text: str, declared: dict[str, Any], has_default: bool, source: str, line: int,
            what: str) -> list[tuple[int, str]]:
    """One clue line: ``3 1m 2`` -> ``[(3, "1"), (1, "m"), (2, "1")]`` ("1" = the default colour)."""
    out: list[tuple[int, str]] = []
    pos = _SEP.match(text).end()  # type: ignore[union-attr]
    while pos < len(text):
        m = _BLOCK.match(text, pos)
        if m is None:
            token = text[pos:].split()[0]
            raise FormatError(located(source, line, f"{what}: {token!r} is not a number"))
        letter = m.group(2) or "1"
        if letter != "1" and letter not in declared:
            why = "is not declared in the #d section" if declared else "is used but the file has no #d colour section"
            raise FormatError(located(source, line, f"{what}: colour letter {letter!r} {why}"))
        if letter == "1" and not has_default and declared:
            raise FormatError(located(source, line, f"{what}: block {m.group(1)} has no colour letter and "
                                      "the #d section declares no default colour (1)"))
        out.append((integer(m.group(1), source, line, what), letter))
        pos = _SEP.match(text, m.end()).end()  # type: ignore[union-attr]
    if [v for v, _ in out] == [0]:
        return []
    if any(v == 0 for v, _ in out):
        raise FormatError(located(source, line, f"{what}: a block of length 0 inside the clue {text.strip()!r}"))
    return out


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as ``.g`` text (the name as the free text, blank lines for empty lines).

    A palette other than black on white gets a ``#d`` section: the background
    as ``0``, each colour under its picture character (the XPM word is its RGB
    when known, else its name), and every number its colour's letter.
    """
    title = " ".join((puzzle.name or "nonogram").split())
    if title[:1] in (":", "#"):
        title = " " + title
    pal = puzzle.palette
    lines = [title]
    suffix = [""] * len(pal)
    if pal != BW:
        lines.append("#d")
        for k, colour in enumerate((pal.background, *pal.colours)):
            letter = "0" if k == 0 else colour.char
            plain = colour.name != colour.char and re.fullmatch(r"[A-Za-z][\w-]*", colour.name)
            word = colour.name if plain or not colour.rgb else f"#{colour.rgb.upper()}"
            lines.append(f"   {letter}:{'' if k == 0 else colour.char}  {word}  {colour.name}")
            suffix[k] = "" if k == 0 else colour.char

    def clue(lengths: tuple[int, ...], colours: tuple[int, ...]) -> str:
        return " ".join(f"{v}{suffix[c]}" for v, c in zip(lengths, colours))

    lines += [": rows", *(clue(c, k) for c, k in zip(puzzle.rows, puzzle.row_colours))]  # type: ignore[arg-type]
    lines += [": columns", *(clue(c, k) for c, k in zip(puzzle.cols, puzzle.col_colours)), ":end"]  # type: ignore[arg-type]
    return "\n".join(lines) + "\n"
