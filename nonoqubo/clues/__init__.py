"""Clue file formats: a registry of reader/writer modules around :class:`Puzzle`.

Each format lives in a module of its own in this package with the same
signature (dimod's convention)::

    NAME = "non"                       # the name users type (--from / --to)
    TITLE = "Steve Simpson .non"       # one line for `nonoqubo formats`
    EXTENSIONS = ("non",)              # file endings, without the dot
    BINARY = False                     # True when loads() wants bytes
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
import os
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from ..errors import FormatError, UnsupportedFormat
from ..puzzle import Puzzle

__all__ = ["FORMATS", "dump", "dumps", "format_for", "get_format", "load", "loads"]

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
    """Write *puzzle* as a string (bytes for binary formats) in *format*."""
    return get_format(format).dumps(puzzle)


def dump(puzzle: Puzzle, path: str | os.PathLike[str], format: str | None = None) -> None:
    """Write *puzzle* to *path* atomically; the format by name or by the file's extension."""
    from .._atomic import atomic_write

    mod = get_format(format) if format else format_for(path)
    data = mod.dumps(puzzle)
    with atomic_write(path, binary=isinstance(data, bytes)) as fh:
        fh.write(data)


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
