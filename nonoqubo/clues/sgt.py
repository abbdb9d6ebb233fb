"""Simon Tatham's Portable Puzzles "Pattern": game IDs and save files.

Grammar of a game ID (one a line; blank lines and ``#`` comments are skipped)::

    W x H : clue / clue / ... / clue      W column clues (left to right),
                                          then H row clues (top to bottom)
    clue := n ( '.' n )*  |  ''  |  0     '.' joins the numbers of one clue;
                                          an empty field is an empty line
    5x5:3/1.1/4/3/1/2/1.1.1/4/2/2         (``W:`` alone means a square W x W)

An optional ``,...`` suffix after the clues lists pre-filled cells; it is a
hint only and is ignored.  ``WxH#seed`` is a random seed, not a puzzle, and is
refused.  A text file may hold several game IDs: the ``index`` option
(1-based, the CLI's ``--index``) picks one, the first by default; :func:`puzzles`
reads them all in one pass (``suite``).

A save file (``sgt-pattern --save``) is a list of ``KEY :len:value`` lines;
the size comes from ``PARAMS`` and the clues from ``DESC``.  Its ``AUXINFO``
holds the solution, obfuscated with SHA-1, and is not read.  nonoqubo writes
game IDs (they paste into the game's "Specific..." dialog and
``sgt-pattern WxH:...``).

Origin: Simon Tatham's Portable Puzzle Collection, ``pattern.c``
(www.chiark.greenend.org.uk/~sgtatham/puzzles/), Debian package
``sgt-puzzles``.

Examples:
    >>> p = loads("3x2:2/1/2/3/1.1")
    >>> p.rows, p.cols
    (((3,), (1, 1)), ((2,), (1,), (2,)))
    >>> dumps(p)
    '3x2:2/1/2/3/1.1\\n'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from typing import Any

from ._defaults import BINARY, COLOUR, KIND, LEGACY_ENCODING, SOLUTION
from ._lines import Read, attempt, make_puzzle, option_lines, pick_index, text_lines
from .._util.guard import integer
from .._util.text import head_text
from ..errors import FormatError, located
from ..model.puzzle import Puzzle

NAME = "sgt"
TITLE = "Simon Tatham's Pattern game ID (WxH:cols/rows) or save file"
EXTENSIONS = ("sgt", "sav", "pattern")
ALIASES = ("tatham", "pattern")
ORDER = 90
HEURISTIC = False  # told by its own keywords, not by the shape of the text

__all__ = ["dumps", "loads", "puzzles"]

_GAME_ID = re.compile(r"\s*(\d+)(?:x(\d+))?\s*([:#])(.*)")
_SAVE_LINE = re.compile(r"([A-Z]+)\s*:(\d+):(.*)")


def detect(head: bytes) -> bool:
    """True for a Pattern save file or text whose first line is a ``WxH:`` game ID."""
    text = head_text(head)
    start = text.lstrip("\ufeff \t\r\n")
    if start.startswith("SAVEFILE:"):
        return re.search(r"^GAME\s*:\d+:Pattern\s*$", text, re.M) is not None
    first = start.split("\n", 1)[0]
    return re.fullmatch(r"\d+(x\d+)?:[\d./]*(,.*)?\s*", first) is not None


def loads(text: str, *, source: str = "<string>", index: int | None = None, **options: Any) -> Puzzle:
    """Read a Pattern game ID (or save file); see the module docstring.

    Args:
        text: one or more game IDs, or a save file.
        source: the file name used in error messages.
        index: which game ID of a file that holds several (1-based).

    Raises:
        FormatError: no game ID, a random seed, a bad size, a non-numeric clue,
            the wrong number of clues, or clues that do not make a puzzle; the
            message names the source and line.
    """
    lines = option_lines(text, NAME, options)
    if _is_save(lines):
        if index not in (None, 1):
            pick_index(1, index, source, "game")
        return _load_save(lines, source)
    ids = _game_ids(lines, source)
    lineno, game_id = ids[pick_index(len(ids), index, source, "game IDs")]
    return _game(lineno, game_id, source)


def puzzles(text: str, *, source: str = "<string>") -> Iterator[Read]:
    """Every game ID of the file in one pass, numbered from 1 (a save file: its one game).

    A game ID that is not one, or whose clues do not make a puzzle, is its located error; the
    other lines are read.

    Raises:
        FormatError: the file holds no game ID.

    Examples:
        >>> [(r.index, r.puzzle.rows if r.puzzle else str(r.error)) for r in puzzles("1x1:1/1\\n2x1:1/0/1.1\\n")]
        [(1, ((1,),)), (2, '<string>:2: row 1: clue 1 1 needs 3 cells (blocks plus gaps) but the width is 2')]
    """
    lines = text_lines(text)
    if _is_save(lines):
        yield attempt(1, None, partial(_load_save, lines, source))
        return
    for k, (lineno, game_id) in enumerate(_game_ids(lines, source), start=1):
        yield attempt(k, None, partial(_game, lineno, game_id, source))


def _is_save(lines: list[str]) -> bool:
    return bool(lines) and lines[0].lstrip("\ufeff").startswith("SAVEFILE:")


def _game_ids(lines: list[str], source: str) -> list[tuple[int, str]]:
    """``(line number, game ID)`` of every line that is not blank or a ``#`` comment."""
    ids = [(i + 1, line.strip()) for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]
    if not ids:
        raise FormatError(f"{source}: no game ID found (expected WxH:clues)")
    return ids


def _game(lineno: int, game_id: str, source: str) -> Puzzle:
    """The puzzle of one game ID, at line *lineno*."""
    m = _GAME_ID.fullmatch(game_id)
    if not m:
        raise FormatError(located(source, lineno, f"{_short(game_id)!r} is not a Pattern game ID (WxH:clues)"))
    width, height = (integer(g, source, lineno, 'size') for g in (m.group(1), m.group(2) or m.group(1)))
    if m.group(3) == "#":
        raise FormatError(located(source, lineno, "this is a random seed (WxH#seed), not a puzzle; "
                                  "let sgt-pattern turn it into a game ID first"))
    return _from_desc(width, height, m.group(4), source, lineno)


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _from_desc(width: int, height: int, desc: str, source: str, lineno: int) -> Puzzle:
    if width <= 0 or height <= 0:
        raise FormatError(located(source, lineno, f"size {width}x{height} must be positive"))
    fields = desc.split(",", 1)[0].split("/")
    if len(fields) != width + height:
        raise FormatError(located(
            source, lineno, f"{len(fields)} clues, but {width}x{height} needs {width} column and {height} row clues"))
    clues = []
    for k, field in enumerate(fields):
        what = f"column {k + 1}" if k < width else f"row {k - width + 1}"
        parts = field.strip().split(".") if field.strip() else []
        for part in parts:
            if not part.isascii() or not part.isdigit():
                raise FormatError(located(source, lineno, f"{what}: {part!r} is not a number"))
        values = [integer(p, source, lineno, what) for p in parts]
        clues.append(tuple(values) if values != [0] else ())
    lines = [lineno] * (width + height)
    return make_puzzle(clues[width:], clues[:width], source=source, row_lines=lines[width:], col_lines=lines[:width])


def _load_save(lines: list[str], source: str) -> Puzzle:
    fields: dict[str, tuple[str, int]] = {}
    for idx, line in enumerate(lines):
        m = _SAVE_LINE.fullmatch(line)
        if not m:
            if line.strip():
                raise FormatError(located(source, idx + 1, f"{_short(line)!r} is not a 'KEY :length:value' save line"))
            continue
        key, length, value = m.group(1), integer(m.group(2), source, idx + 1, 'length'), m.group(3)
        if len(value) != length:
            raise FormatError(located(source, idx + 1, f"{key}: the value has {len(value)} characters, the line says {length}"))
        fields.setdefault(key, (value, idx + 1))
    game = fields.get("GAME", ("", None))
    if game[0] != "Pattern":
        raise FormatError(located(source, game[1], f"a save file of the game {game[0]!r}, not 'Pattern'"))
    for key in ("PARAMS", "DESC"):
        if key not in fields:
            raise FormatError(f"{source}: the save file has no {key} line")
    params, pline = fields["PARAMS"]
    m = re.fullmatch(r"(\d+)(?:x(\d+))?", params.strip())
    if not m:
        raise FormatError(located(source, pline, f"PARAMS {params!r} is not a size WxH"))
    desc, dline = fields["DESC"]
    width, height = (integer(g, source, pline, 'PARAMS') for g in (m.group(1), m.group(2) or m.group(1)))
    return _from_desc(width, height, desc, source, dline)


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as a Pattern game ID (one line)."""
    fields = [".".join(map(str, c)) for c in (*puzzle.cols, *puzzle.rows)]
    return f"{puzzle.width}x{puzzle.height}:{'/'.join(fields)}\n"
