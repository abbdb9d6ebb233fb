"""Clue file formats: a registry of reader/writer modules around :class:`Puzzle`.

Each format is a module of this package, found by discovery (a new format is a
new file, nothing else); the protocol every format module follows, with the
names it must define, is documented once in :mod:`nonoqubo._util.discover`.
A clue format module defines the common names plus ``COLOUR`` and
``SOLUTION``, and::

    def detect(head: bytes) -> bool                 # the whole file's bytes
    def loads(data, *, source="<string>", **options) -> Puzzle   # str, or bytes when BINARY
    def dumps(puzzle) -> str | bytes
    def puzzles(data, *, source) -> Iterator[Read]   # optional: every puzzle of a multi-puzzle file, in one pass

The functions here pick the module by explicit name (or alias), else by
extension, else by sniffing the content with each module's ``detect`` (in
``ORDER``); files are read, and written atomically, here.  Text is decoded by
:func:`nonoqubo._util.text.decode` (UTF-8, else the module's ``LEGACY_ENCODING``,
Latin-1 for the text clue formats).  The helpers the format modules share are
in :mod:`._lines`.

Examples:
    >>> p = loads("{3, 3, 1,1, 1,1, 1,1, 1,1, 1,1, 1,1}", format="gecode")
    >>> p.rows
    ((1,), (1,), (1,))
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from .._util import text as _textio
from .._util.discover import find, registry
from .._util.stream import read_bytes
from ..errors import FormatError, NonoquboError, PuzzleError, UnsupportedFormat
from ..model.puzzle import Puzzle
from ._lines import Read, attempt

__all__ = ["Read", "dump", "dumps", "format_for", "formats", "get_format", "load", "loads", "members", "read_all"]


def formats() -> tuple[ModuleType, ...]:
    """Every clue format module, in ``ORDER`` (the order of listings and of content sniffing)."""
    return registry(__name__)


def _names() -> str:
    return ", ".join(m.NAME for m in formats())


def _head(data: bytes | str) -> bytes:
    return data if isinstance(data, bytes) else data.encode("utf-8", "replace")


def get_format(name: str) -> ModuleType:
    """The module of format *name* (a ``NAME`` or one of a module's ``ALIASES``, any case).

    Raises:
        UnsupportedFormat: the name is unknown; the message lists the known ones.
    """
    mod = find(formats(), name)
    if mod is None:
        raise UnsupportedFormat(f"unknown clue format {name!r}; known formats: {_names()}")
    return mod


def format_for(path: str | os.PathLike[str] | None, data: bytes | str | None = None) -> ModuleType:
    """Pick the format module for *path*: by extension, else by content.

    Raises:
        UnsupportedFormat: neither the extension nor the content tells.
    """
    mods = formats()
    if path is not None:
        suffixes = [s.lstrip(".").lower() for s in Path(path).suffixes]
        # ".non.txt" style names: try the last ending first, then the one before
        for ext in reversed(suffixes):
            matches = [m for m in mods if ext in m.EXTENSIONS]
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1 and data is not None:
                head = _head(data)
                for m in matches:
                    if m.detect(head):
                        return m
                return matches[0]
    if data is not None:
        head = _head(data)
        for m in mods:
            if m.detect(head):
                return m
    where = f"{os.fspath(path)}: " if path is not None else ""
    raise UnsupportedFormat(
        f"{where}cannot tell the clue format from the file name or content; "
        f"name it with --from (one of: {_names()})"
    )


def loads(data: str | bytes, format: str | None = None, *, source: str = "<string>", **options: Any) -> Puzzle:
    """Read a puzzle from a string (or bytes) in *format* (sniffed when None).

    Raises:
        FormatError: *data* is empty or blank (``<stdin>``: standard input is empty), or not
            valid in its format.
    """
    _refuse_empty(data, source)
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
        data = read_bytes(path, path)  # a FIFO or <(...) read once, as a stream
    _refuse_empty(data, str(source))
    mod = get_format(format) if format else format_for(path, data)
    return mod.loads(_as_input(mod, data, str(source)), source=str(source), **options)


def _refuse_empty(data: str | bytes, source: str) -> None:
    if not data.strip():
        what = "standard input is empty" if source == "<stdin>" else \
            ("the file is empty" if not data else "the file holds only white space")
        raise FormatError(f"{source}: {what}: no clues to read")


def members(path: str | os.PathLike[str], format: str | None = None) -> list[tuple[int | None, str | None]]:
    """``(index, name)`` of each puzzle of the file *path*, the ``index`` option :func:`load` takes for it.

    A single-puzzle file is ``[(None, None)]``.  A format module that knows its own numbering
    and names cheaply defines ``members(text, *, source)`` (Gecode's specs, from 0, by name; the
    tournament headers); the other multi-puzzle formats are listed by their one-pass
    ``puzzles``.  A file that cannot be read or told is one member: loading it says why.
    """
    source = os.fspath(path)
    try:
        data = read_bytes(source, source)
        mod = get_format(format) if format else format_for(source, data)
        listing = getattr(mod, "members", None)
        if listing is not None:
            return list(listing(_as_input(mod, data, source), source=source))
        if getattr(mod, "puzzles", None) is None:
            return [(None, None)]
        found = [(r.index, r.name) for r in mod.puzzles(_as_input(mod, data, source), source=source)]
    except (OSError, NonoquboError):
        return [(None, None)]
    return found if len(found) > 1 else [(None, None)]


def read_all(path: str | os.PathLike[str], format: str | None = None) -> list[Read]:
    """Every puzzle of the file *path*, read in one pass: a :class:`Read` per puzzle, in file order.

    A multi-puzzle format's module defines ``puzzles(text, *, source)`` (the tournament files,
    webpbn XML puzzle sets, .nin collections, Tatham game-ID lists, Gecode's specs): the file is read and parsed
    once, whatever the count (``suite`` on a 1,000-puzzle file).  A broken puzzle is a ``Read``
    with its located ``error`` and the others are still read.  Any other format is one puzzle.
    A file of one puzzle is one ``Read`` with ``index`` None, as :func:`members` says.

    Raises:
        FormatError: the file is empty, or broken as a whole (a tournament file's headers).
        UnsupportedFormat: the format cannot be told or is unknown.
        OSError: the file cannot be read.

    Examples:
        >>> import tempfile
        >>> with tempfile.NamedTemporaryFile("w", suffix=".taai", delete=False) as fh:
        ...     _ = fh.write("$1\\n1\\n1\\n$2\\n1\\n1 1\\n")
        >>> [(r.index, r.puzzle is not None, r.error is not None) for r in read_all(fh.name)]
        [(1, True, False), (2, False, True)]
        >>> os.remove(fh.name)
    """
    source = os.fspath(path)
    data = read_bytes(source, source)
    _refuse_empty(data, source)
    mod = get_format(format) if format else format_for(source, data)
    text = _as_input(mod, data, source)
    if getattr(mod, "puzzles", None) is None:
        return [attempt(None, None, lambda: mod.loads(text, source=source))]
    found = list(mod.puzzles(text, source=source))
    if len(found) == 1:
        return [replace(found[0], index=None)]
    return found


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
    if puzzle.is_colour and not mod.COLOUR:
        able = [m.NAME for m in formats() if m.COLOUR]
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


def _as_input(mod: ModuleType, data: str | bytes, source: str) -> str | bytes:
    if mod.BINARY:
        return data if isinstance(data, bytes) else data.encode("latin-1")
    return _textio.decode(data, source, what="text clue file", legacy=mod.LEGACY_ENCODING)
