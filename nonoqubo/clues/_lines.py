"""Helpers the clue format modules share: lines, numbers, clues, metadata, located errors.

A private module, imported by the format modules and by the registry
(:mod:`nonoqubo.clues`), so that no format module imports the registry.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .._util.discover import registry
from .._util.text import head_text
from .._util.guard import integer
from ..errors import FormatError, PuzzleError, located
from ..model.puzzle import Puzzle

__all__ = ["META_KEYS", "Read", "attempt", "check_options", "head_lines", "option_lines", "puzzle_lines", "size_header", "clue_text", "colour_refusal", "make_puzzle", "meta_text", "parse_clue",
           "parse_numbers", "parse_size", "pick_index", "read_clues", "reject_trailing", "text_lines"]

#: the puzzle's ``meta`` keys that writers with metadata fields carry
META_KEYS = ("author", "copyright", "license", "catalogue", "description", "source")

_NUMBER_SPLIT = re.compile(r"[\s,]+")
#: a header line of two numbers (``W H`` or ``H W``)
_TWO_NUMBERS = re.compile(r"\s*(\d{1,18})[ \t]+(\d{1,18})\s*")


@dataclass(frozen=True)
class Read:
    """One puzzle of a file, as a format's ``puzzles(text, *, source)`` yields it (one pass over the file).

    Attributes:
        index: the ``index`` option :func:`nonoqubo.clues.load` takes for this puzzle (its number in
            the file: from 1, from 0 in Gecode's specs), or None for a file's one puzzle.
        name: the name the file gives it (Gecode's spec names), else None.
        puzzle: the puzzle, or None when it is broken ...
        error: ... and then why (a located FormatError); the file's other puzzles are still read.
    """

    index: int | None
    name: str | None
    puzzle: Puzzle | None
    error: FormatError | None = None


def attempt(index: int | None, name: str | None, make: Callable[[], Puzzle]) -> Read:
    """``Read(index, name, make())``, or the FormatError *make* raises kept as the puzzle's ``error``.

    Examples:
        >>> attempt(2, None, lambda: Puzzle(rows=((1,),), cols=((1,),))).puzzle.rows
        ((1,),)
        >>> def broken() -> Puzzle:
        ...     raise FormatError("f.taai:3: bad")
        >>> attempt(2, None, broken).error
        FormatError('f.taai:3: bad')
    """
    try:
        return Read(index, name, make())
    except FormatError as exc:
        return Read(index, name, None, exc)


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


def text_lines(text: str) -> list[str]:
    r"""The lines of *text*, BOM and line endings (LF, CRLF, CR) and trailing spaces removed.

    Examples:
        >>> text_lines("\ufeff5 10\r\n2 1  \r\n")
        ['5 10', '2 1']
    """
    return [line.rstrip() for line in text.lstrip("\ufeff").splitlines()]


def head_lines(head: bytes) -> list[str]:
    """The lines of a file's head as the line-based detectors see them (:func:`head_text`, :func:`text_lines`)."""
    return text_lines(head_text(head))


def size_header(lines: list[str]) -> tuple[int, int] | None:
    """The two numbers of a ``W H`` (or ``H W``) first line, or None when the first line is not one."""
    m = _TWO_NUMBERS.fullmatch(lines[0]) if lines else None
    return (int(m.group(1)), int(m.group(2))) if m else None


def option_lines(text: str, name: str, options: dict[str, Any]) -> list[str]:
    """:func:`text_lines` of *text*, after refusing the options format *name* does not take."""
    check_options(options, name)
    return text_lines(text)


def puzzle_lines(text: str, name: str, options: dict[str, Any], source: str) -> list[str]:
    """:func:`option_lines`, and a FormatError for a file with no text."""
    lines = option_lines(text, name, options)
    if not any(lines):
        raise FormatError(f"{source}: the file is empty")
    return lines


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
    rows: Sequence[Any], cols: Sequence[Any], *, source: str,
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
    able = ", ".join(m.NAME for m in registry(__package__) if m.COLOUR)
    return FormatError(located(
        source, line, f"the puzzle has colours ({detail}); this format's reader handles black-and-white "
        f"puzzles only (colour puzzles are read as {able})"))


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
