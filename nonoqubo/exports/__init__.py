"""QUBO export formats: a registry of writer/reader modules, found by discovery.

Every module of this package whose name does not start with ``_`` is a format
(tablib's and dimod's layout: one format, one module).  The protocol every
format module follows, with the names it must define, is documented once in
:mod:`nonoqubo._util.discover`; a QUBO format module defines the common names
plus ``ISING``, ``OFFSET`` and ``WRITE_BYTES_PER_TERM``, and::

    def dumps(model, *, ising=False) -> str | bytes
    def dump(model, fp, *, ising=False, progress=False)   # fp opened in text or binary mode per BINARY
    def loads(data, *, source="<string>") -> model        # str, or bytes when BINARY
    def detect(head: bytes) -> bool                       # the file's first 4 kB

The text writers get ``dumps``/``dump`` from :mod:`._writer`.  Text files are
decoded by :func:`nonoqubo._util.text.decode` (UTF-8, BOM stripped; no QUBO
format declares a ``LEGACY_ENCODING``, so other bytes are refused).

Modules are discovered once (:func:`nonoqubo._util.discover.registry`), so a
new format is a new file and nothing else.  A path picks its format by the longest matching extension
(``logo.qubo.json`` -> ``qubo-json``, ``x.bqm.json`` -> ``bqm-json``,
``x.json`` -> ``qubo-json``); reading falls back to content sniffing.

Examples:
    >>> get_format("coo").NAME, format_for_path("logo.bqm.json").NAME
    ('coo', 'bqm-json')
    >>> format_for_path("out/logo.json").NAME
    'qubo-json'
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import IO, Any

from .._util import text as _textio
from .._util.atomic import atomic_write
from .._util.discover import find, registry
from ..errors import UnsupportedFormat

__all__ = [
    "write_bytes_per_term",
    "dump",
    "dumps",
    "format_for_path",
    "formats",
    "get_format",
    "load",
    "loads",
    "open_target",
    "write",
]

#: bytes of a file's start handed to the modules' detect()
HEAD = 4096


def formats(kind: str | None = None) -> list[ModuleType]:
    """Every format module, in listing order (only those of *kind* when given)."""
    return [m for m in registry(__name__) if kind is None or m.KIND == kind]


def write_bytes_per_term(names: Iterable[str]) -> int:
    """The largest ``WRITE_BYTES_PER_TERM`` of the formats *names* (0: none needs more than the build).

    What :func:`nonoqubo.model.estimate.check_fits` adds for the heaviest writer asked for.

    Examples:
        >>> write_bytes_per_term(["coo", "lp"]), write_bytes_per_term([])
        (50, 0)
    """
    return max((get_format(name).WRITE_BYTES_PER_TERM for name in names), default=0)


def _names() -> str:
    return ", ".join(m.NAME for m in formats())


def get_format(name: str) -> ModuleType:
    """The module of format *name* (a NAME, or one of its extensions such as ``qubo``).

    Raises:
        UnsupportedFormat: unknown name; the message lists the known ones.
    """
    key = name.lower().lstrip(".")
    found = find(formats(), key) or next((mod for mod in formats() if key in mod.EXTENSIONS), None)
    if found is not None:
        return found
    raise UnsupportedFormat(f"unknown QUBO format {name!r}; known formats: {_names()}")


def _by_extension(path: str, kind: str | None = None) -> ModuleType | None:
    base = os.path.basename(os.fspath(path)).lower()
    best: tuple[int, ModuleType] | None = None
    for mod in sorted(formats(), key=lambda m: kind is not None and m.KIND != kind):
        for ext in mod.EXTENSIONS:
            if base.endswith("." + ext) and (best is None or len(ext) > best[0]):
                best = (len(ext), mod)
    return best[1] if best else None


def format_for_path(path: str | os.PathLike[str], kind: str | None = None) -> ModuleType:
    """The format of *path* by its longest known extension.

    Args:
        path: the file name.
        kind: prefer a format of this KIND where two share the extension
            (``model.ommx`` is ``ommx``, or ``ommx-constrained`` for ``"constrained"``).

    Raises:
        UnsupportedFormat: no known extension; the message lists the formats.
    """
    mod = _by_extension(os.fspath(path), kind)
    if mod is None:
        raise UnsupportedFormat(
            f"{os.fspath(path)}: cannot tell the QUBO format from the file name; "
            f"give it with -f (one of: {_names()})"
        )
    return mod


def _sniff(head: bytes) -> ModuleType | None:
    return next((mod for mod in formats() if mod.detect(head)), None)


def _check(mod: ModuleType, ising: bool) -> None:
    if ising and not mod.ISING:
        able = ", ".join(m.NAME for m in formats() if m.ISING)
        raise UnsupportedFormat(f"the {mod.NAME} format cannot carry an Ising model; --ising works with: {able}")


def dumps(model: Any, format: str, *, ising: bool = False) -> str | bytes:
    """*model* as the text (or bytes) of *format*."""
    mod = get_format(format)
    _check(mod, ising)
    return mod.dumps(model, ising=ising) if ising else mod.dumps(model)


@contextlib.contextmanager
def open_target(path: str | os.PathLike[str], binary: bool) -> Iterator[IO[Any]]:
    """:func:`~nonoqubo._util.atomic.atomic_write` (the one place that words an unwritable path).

    Raises:
        WriteError: the directory is missing or not writable, the disk is full...
            (the temporary file is gone; an existing target is untouched).
    """
    with atomic_write(path, binary=binary) as fh:
        yield fh


def write(model: Any, fh: IO[Any], mod: ModuleType, *, ising: bool = False, progress: bool = False) -> None:
    """Write *model* to the open file *fh* in format *mod* (see :func:`open_target`)."""
    _check(mod, ising)
    kwargs: dict[str, Any] = {}
    if ising:
        kwargs["ising"] = True
    if progress and mod.KIND == "qubo":
        kwargs["progress"] = True
    mod.dump(model, fh, **kwargs)


def dump(
    model: Any, path: str | os.PathLike[str], format: str | None = None, *, ising: bool = False,
    progress: bool = False,
) -> ModuleType:
    """Write *model* to *path* atomically (``"-"`` is standard output).

    Args:
        model: a :class:`~nonoqubo.model.qubo.Qubo` (or a constrained model for those formats).
        path: the file to write.
        format: a format name; default from the extension of *path*.
        ising: write the Ising form (``h``, ``J``, offset) where the format can.
        progress: show a progress bar on standard error.

    Returns:
        The format module used.

    Raises:
        UnsupportedFormat: unknown format, or --ising with a format that cannot carry it.
        NonoquboError: the path cannot be written (no file is left behind).
    """
    if format:
        mod = get_format(format)
    elif os.fspath(path) == "-":
        raise UnsupportedFormat(f"writing to standard output needs a format name (-f; one of: {_names()})")
    else:
        mod = format_for_path(path)
    _check(mod, ising)
    with open_target(path, binary=bool(mod.BINARY)) as fh:
        write(model, fh, mod, ising=ising, progress=progress)
    return mod


def loads(data: str | bytes, format: str | None = None, *, source: str = "<string>") -> Any:
    """The model in *data* (format by name, else sniffed from the content)."""
    if format:
        mod = get_format(format)
    else:
        head = data[:HEAD] if isinstance(data, bytes) else data[:HEAD].encode("utf-8", "replace")
        found = _sniff(head)
        if found is None:
            raise UnsupportedFormat(f"{source}: cannot tell the QUBO format from the content; name it (one of: {_names()})")
        mod = found
    return mod.loads(_as_input(mod, data, source), source=source)


def load(path: str | os.PathLike[str], format: str | None = None, *,
         check: Callable[[str], object] | None = None) -> Any:
    """The model in the file *path*: by format name, else extension, else content.

    A file whose extension names one format but whose content another's
    ``detect`` recognises (``x.json`` holding a dimod document) is read as the latter.
    Once its format is told (from the name and the first bytes), *check* is called with the
    path before the rest is read: the commands pass the memory guard
    (:func:`nonoqubo.model.estimate.check_file_fits`), which refuses from the file's size.

    Raises:
        UnsupportedFormat: the format cannot be told.
        FormatError: the file is not valid in its format (the message names it).
        ModelTooLarge: from *check*: reading it would take more memory than is available.
        OSError: the file cannot be read.
    """
    source = os.fspath(path)
    fh: IO[bytes] | None = None
    if source == "-":
        data: bytes = sys.stdin.buffer.read()
        source = "<stdin>"
    else:
        fh = open(source, "rb")
        data = fh.read(HEAD)
    try:
        mod: ModuleType | None
        if format:
            mod = get_format(format)
        else:
            head = data[:HEAD]
            mod = _by_extension(source) if source != "<stdin>" else None
            if mod is None or not mod.detect(head):
                mod = _sniff(head) or mod
            if mod is None:
                raise UnsupportedFormat(f"{source}: cannot tell the QUBO format from the name or content; "
                                        f"name it (one of: {_names()})")
        if fh is not None and check is not None:
            check(source)
        if fh is not None:
            fh.seek(0)
            data = fh.read()
    finally:
        if fh is not None:
            fh.close()
    box = [data]  # handed on without a second reference: a text reader may let go of its input
    del data
    return mod.loads(_take_input(mod, box, source), source=source)


def _take_input(mod: ModuleType, box: list[bytes], source: str) -> str | bytes:
    """The file's content for *mod*, taken out of *box* (so the bytes go once the text is made)."""
    return _as_input(mod, box.pop(), source)


def _as_input(mod: ModuleType, data: str | bytes, source: str) -> str | bytes:
    if mod.BINARY:
        return data if isinstance(data, bytes) else data.encode("latin-1")
    return _textio.decode(data, source, what="QUBO text file", legacy=mod.LEGACY_ENCODING)
