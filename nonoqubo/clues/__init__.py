"""Clue file formats: a registry of reader/writer modules around :class:`Puzzle`.

Each format lives in a module of its own in this package with the same
signature (dimod's convention)::

    NAME = "non"                       # the name users type (--from / --to)
    TITLE = "Steve Simpson .non"       # one line for `nonoqubo formats`
    EXTENSIONS = ("non",)              # file endings, without the dot
    BINARY = False                     # True when loads() wants bytes
    SOLUTION = True                    # the format can carry a known solution
    COLOUR = False                     # optional: True when it can carry a colour puzzle
    def detect(text: str) -> bool      # optional: does this content look like it?
    def loads(data, *, source="<string>", **options) -> Puzzle
    def dumps(puzzle) -> str | bytes
    load(fp, ...) / dump(puzzle, fp)   # file-object versions

Modules are found by name in :data:`FORMATS` and imported only when used.  The
functions here pick the module by explicit name, else by extension, else by
sniffing the content with each module's ``detect``.

Examples:
    >>> p = loads("{3, 3, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1}", format="gecode")
    >>> p.rows
    ((1,), (1,), (1,))
"""

from __future__ import annotations

import importlib
import json
import os
import re
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from .._util.guard import integer
from ..errors import FormatError, PuzzleError, UnsupportedFormat, located
from ..model.puzzle import Puzzle

__all__ = ["FORMATS", "dump", "dumps", "format_for", "get_format", "load", "loads"]

#: the puzzle's ``meta`` keys that writers with metadata fields carry
META_KEYS = ("author", "copyright", "license", "catalogue", "description", "source")

#: format name -> module (relative to this package); the order is the order
#: in which content sniffing tries them and in which `formats` lists them.
FORMATS: dict[str, str] = {
    "spec": ".spec",
    "gecode": ".gecode",
    "xml": ".webpbn",
    "non": ".non",
    "nin": ".nin",
    "mk": ".mk",
    "g": ".olsak_g",
    "cwd": ".cwd",
    "sgt": ".sgt",
    "picture": ".picture",
    "pbm": ".pbm",
    "ppm": ".ppm",
    "png": ".png",
}

#: other names users may type for a format
ALIASES: dict[str, str] = {
    "yaml": "spec",
    "yml": "spec",
    "json": "spec",
    "webpbn": "xml",
    "pbn": "xml",
    "simpson": "non",
    "ss": "non",
    "olsak": "g",
    "tatham": "sgt",
    "pattern": "sgt",
    "text": "picture",
    "grid": "picture",
}


def _available() -> dict[str, ModuleType]:
    mods = {}
    for name in FORMATS:
        try:
            mods[name] = get_format(name)
        except UnsupportedFormat:
            continue
    return mods


def get_format(name: str) -> ModuleType:
    """The module of format *name* (a name from :data:`FORMATS` or an alias).

    Raises:
        UnsupportedFormat: the name is unknown; the message lists the known ones.
    """
    key = ALIASES.get(name.lower(), name.lower())
    if key not in FORMATS:
        known = ", ".join(FORMATS)
        raise UnsupportedFormat(f"unknown clue format {name!r}; known formats: {known}")
    try:
        return importlib.import_module(FORMATS[key], __name__)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(__name__):
            raise UnsupportedFormat(f"clue format {name!r} is not available in this version") from None
        raise


def format_for(path: str | os.PathLike[str] | None, data: bytes | str | None = None) -> ModuleType:
    """Pick the format module for *path*: by extension, else by content.

    Raises:
        UnsupportedFormat: neither the extension nor the content tells.
    """
    mods = _available()
    if path is not None:
        suffixes = [s.lstrip(".").lower() for s in Path(path).suffixes]
        # ".non.txt" style names: try the last ending first, then the one before
        for ext in reversed(suffixes):
            matches = [m for m in mods.values() if ext in getattr(m, "EXTENSIONS", ())]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1 and data is not None:
                text = data if isinstance(data, str) else data.decode("utf-8", "replace")
                for m in matches:
                    if hasattr(m, "detect") and m.detect(text):
                        return m
                return matches[0]
    if data is not None:
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        for m in mods.values():
            if hasattr(m, "detect") and m.detect(text):
                return m
    where = f"{os.fspath(path)}: " if path is not None else ""
    raise UnsupportedFormat(
        f"{where}cannot tell the clue format from the file name or content; "
        f"name it with --from (one of: {', '.join(FORMATS)})"
    )


def loads(data: str | bytes, format: str | None = None, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a puzzle from a string (or bytes) in *format* (sniffed when None)."""
    mod = get_format(format) if format else format_for(None, data)
    return mod.loads(_as_input(mod, data, source), source=source, **options)


def load(
    path_or_fp: str | os.PathLike[str] | IO[Any], format: str | None = None, **options: Any
) -> Puzzle:
    """Read a puzzle from a file path (or an open file), format by name, extension or content.

    Raises:
        FormatError: the file is not valid in its format (the message names file and line).
        UnsupportedFormat: the format cannot be told or is unknown.
        OSError: the file cannot be read.
    """
    if hasattr(path_or_fp, "read"):
        fp: Any = path_or_fp
        data = fp.read()
        source = getattr(fp, "name", "<stream>")
        path = source if isinstance(source, str) and not source.startswith("<") else None
    else:
        path = os.fspath(path_or_fp)
        source = path
        with open(path, "rb") as fh:
            data = fh.read()
    mod = get_format(format) if format else format_for(path, data)
    return mod.loads(_as_input(mod, data, str(source)), source=str(source), **options)


def dumps(puzzle: Puzzle, format: str) -> str | bytes:
    """Write *puzzle* as a string (bytes for binary formats) in *format*.

    Raises:
        PuzzleError: a colour puzzle and a black-and-white-only format.
    """
    mod = get_format(format)
    refuse_colour(puzzle, mod)
    return mod.dumps(puzzle)


def refuse_colour(puzzle: Puzzle, mod: ModuleType) -> None:
    """Raise a PuzzleError when *puzzle* has colours that format *mod* cannot hold."""
    if puzzle.is_colour and not getattr(mod, "COLOUR", False):
        able = [name for name, m in _available().items() if getattr(m, "COLOUR", False)]
        raise PuzzleError(
            f"the {mod.NAME} format holds black-and-white puzzles only and this puzzle has "
            f"{puzzle.num_colours} colours ({', '.join(puzzle.palette.names[1:])}); "
            f"write it as one of: {', '.join(able)}")


def dump(puzzle: Puzzle, path: str | os.PathLike[str], format: str | None = None) -> None:
    """Write *puzzle* to *path* atomically; the format by name or by the file's extension."""
    from .._util.atomic import atomic_write

    mod = get_format(format) if format else format_for(path)
    refuse_colour(puzzle, mod)
    data = mod.dumps(puzzle)
    with atomic_write(path, binary=isinstance(data, bytes)) as fh:
        fh.write(data)


def meta_text(value: Any) -> str:
    """A metadata value as the plain text a clue file writes (never a Python repr).

    Text stays as it is, a flat list becomes ``a, b``, anything nested is
    written as compact JSON, and line breaks become spaces (every format here
    keeps a field on one line).

    Examples:
        >>> meta_text(["Ann", "Bob"]), meta_text({"year": 2004}), meta_text("two\\nlines")
        ('Ann, Bob', '{"year":2004}', 'two lines')
    """
    if isinstance(value, str):
        text = value
    elif isinstance(value, (list, tuple)) and all(isinstance(v, (str, int, float)) for v in value):
        text = ", ".join(map(str, value))
    elif isinstance(value, (int, float)):
        text = str(value)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return " ".join(text.split("\n")).replace("\r", " ")


def _as_input(mod: ModuleType, data: str | bytes, source: str) -> str | bytes:
    if getattr(mod, "BINARY", False):
        return data if isinstance(data, bytes) else data.encode("latin-1")
    if isinstance(data, bytes):
        return decode_text(data, source)
    return data


def decode_text(data: bytes, source: str) -> str:
    """Bytes of a text clue file as str: UTF-8 (BOM allowed), else Latin-1.

    Old puzzle files (Olšák's, Czech comments) are often Latin-1 or CP1250; the
    numbers are ASCII either way, so nothing the readers need is lost.
    """
    if b"\x00" in data[:4096]:
        raise FormatError(f"{source}: this is a binary file, not a text clue file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


# -- helpers shared by the line-based format modules ------------------------------------
_NUMBER_SPLIT = re.compile(r"[\s,]+")


def text_lines(text: str) -> list[str]:
    r"""The lines of *text*, BOM and line endings (LF, CRLF, CR) and trailing spaces removed.

    Examples:
        >>> text_lines("\ufeff5 10\r\n2 1  \r\n")
        ['5 10', '2 1']
    """
    return [line.rstrip() for line in text.lstrip("\ufeff").splitlines()]


def parse_numbers(text: str, source: str, line: int | None, what: str) -> list[int]:
    """The non-negative integers of *text* (separated by spaces and/or commas).

    Raises:
        FormatError: a token is not a number; the message names *source*, *line* and *what*.

    Examples:
        >>> parse_numbers("2, 1 3", "a.nin", 4, "row 3")
        [2, 1, 3]
        >>> parse_numbers("2 x", "a.nin", 4, "row 3")
        Traceback (most recent call last):
        nonoqubo.errors.FormatError: a.nin:4: row 3: 'x' is not a number
    """
    out = []
    for token in _NUMBER_SPLIT.split(text.strip()):
        if not token:
            continue
        if not token.isascii() or not token.isdigit():
            raise FormatError(located(source, line, f"{what}: {token!r} is not a number"))
        out.append(integer(token, source, line, what))
    return out


def parse_clue(text: str, source: str, line: int | None, what: str) -> tuple[int, ...]:
    """One clue: numbers separated by spaces or commas; blank or a lone ``0`` is empty."""
    values = parse_numbers(text, source, line, what)
    if values == [0]:
        return ()
    if 0 in values:
        raise FormatError(located(source, line, f"{what}: a block of length 0 inside the clue {text.strip()!r}"))
    return tuple(values)


def clue_text(clue: tuple[int, ...], sep: str = " ", empty: str = "0") -> str:
    """A clue written as text: numbers joined by *sep*, *empty* for an empty line."""
    return sep.join(map(str, clue)) if clue else empty


def make_puzzle(
    rows: list[tuple[int, ...]], cols: list[tuple[int, ...]], *, source: str,
    row_lines: list[int] | None = None, col_lines: list[int] | None = None,
    solution_line: int | None = None, **fields: Any,
) -> Puzzle:
    """``Puzzle(rows, cols, **fields)``, a :class:`PuzzleError` turned into a located FormatError.

    *row_lines* / *col_lines* give the file line of each clue, so a clue that
    does not fit its line is reported at that clue's line; a solution that does
    not match is reported at *solution_line*.
    """
    try:
        return Puzzle(rows=tuple(rows), cols=tuple(cols), **fields)
    except PuzzleError as exc:
        message = str(exc)
        line = None
        m = re.match(r"(row|column) (\d+)", message)
        if m:
            lines = row_lines if m.group(1) == "row" else col_lines
            idx = int(m.group(2)) - 1
            if lines is not None and idx < len(lines):
                line = lines[idx]
        elif "solution" in message:
            line = solution_line
        raise FormatError(located(source, line, message)) from None


def check_options(options: dict[str, Any], name: str, allowed: tuple[str, ...] = ()) -> None:
    """Raise ``TypeError("unexpected options ...")`` for options the format does not take."""
    extra = [k for k in options if k not in allowed]
    if extra:
        raise TypeError(f"unexpected options for the {name} format: {', '.join(extra)}")


def pick_index(count: int, index: int | None, source: str, what: str = "puzzles") -> int:
    """The 0-based position chosen by a 1-based *index* (default the first) among *count*."""
    if index is None:
        return 0
    if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index <= count:
        raise FormatError(f"{source}: the file holds {count} {what}; --index {index} is out of range 1..{count}")
    return index - 1


def colour_refusal(source: str, line: int | None, detail: str) -> FormatError:
    """The error of a reader that handles black-and-white puzzles only, for a colour puzzle."""
    able = ", ".join(name for name, m in _available().items() if getattr(m, "COLOUR", False))
    return FormatError(located(
        source, line, f"the puzzle has colours ({detail}); this format's reader handles black-and-white "
        f"puzzles only (colour puzzles are read as {able})"))


def read_stream(fp: IO[Any], loads_fn: Any, **options: Any) -> Puzzle:
    """``loads_fn(fp.read(), source=fp.name)``: the ``load`` of every format module."""
    return loads_fn(fp.read(), source=getattr(fp, "name", "<stream>"), **options)


def read_clues(
    lines: list[str], start: int, count: int, kind: str, source: str, *, empty_blank: bool = True,
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Read *count* clues of *kind* ("row"/"column") from ``lines[start:]``, one a line.

    Returns the clues and their 1-based line numbers.  A blank line is an empty
    clue when *empty_blank* (else an error).

    Raises:
        FormatError: the file ends early, or a line is not a clue.
    """
    clues, where = [], []
    for k in range(count):
        idx = start + k
        if idx >= len(lines):
            raise FormatError(located(
                source, len(lines) or None,
                f"the file ends after {k} of {count} {kind} clues"))
        text = lines[idx]
        if not text.strip() and not empty_blank:
            raise FormatError(located(source, idx + 1, f"{kind} {k + 1}: blank line, expected a clue (0 for an empty line)"))
        clues.append(parse_clue(text, source, idx + 1, f"{kind} {k + 1}"))
        where.append(idx + 1)
    return clues, where


def parse_size(text: str, source: str, line: int, names: tuple[str, ...]) -> list[int]:
    """Positive integers *names* (e.g. ``("width", "height")``) read from one header line."""
    values = parse_numbers(text, source, line, "header")
    if len(values) != len(names):
        raise FormatError(located(
            source, line, f"expected {' and '.join(names)} ({len(names)} number(s)), found {text.strip()!r}"))
    for name, value in zip(names, values):
        if value <= 0:
            raise FormatError(located(source, line, f"{name} {value} must be positive"))
    return values


def reject_trailing(lines: list[str], start: int, source: str, what: str) -> None:
    """Raise a located FormatError for the first non-blank line from ``lines[start]`` on.

    *what* says where the puzzle ended, e.g. "the 5 column clues (the header says width 5)".
    """
    for idx in range(start, len(lines)):
        if lines[idx].strip():
            raise FormatError(located(source, idx + 1, f"text after {what}: {lines[idx].strip()!r}"))
