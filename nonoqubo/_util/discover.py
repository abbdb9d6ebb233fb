"""The one registry protocol of nonoqubo: finding the format modules of a package.

The clue formats (:mod:`nonoqubo.clues`), the QUBO file formats
(:mod:`nonoqubo.exports`) and the solver-answer formats
(:mod:`nonoqubo.samples`) are three registries of one kind: each public module
(a name not starting with ``_``) of the package is one format, found here by
:func:`registry`, so a new format is a new file and nothing else.  Every
format module defines:

==========================  =================  ==========================================================
name                        type               meaning
==========================  =================  ==========================================================
``NAME``                    str                the name users type (``--from``, ``-f``, ``--samples-format``)
``TITLE``                   str                one line for listings (``nonoqubo formats``, help texts)
``EXTENSIONS``              tuple[str, ...]    file endings without the dot (multi-part allowed; may be empty)
``ALIASES``                 tuple[str, ...]    other names users may type (may be empty)
``ORDER``                   int                position in listings and in content sniffing (low first)
``KIND``                    str                what it holds: ``"puzzle"``, ``"qubo"``/``"constrained"``/``"puzzle"``
                                               (an export of the puzzle itself: MiniZinc), ``"samples"``
``BINARY``                  bool               ``loads`` takes (and ``dumps`` gives) bytes, else str
``HEURISTIC``               bool               ``detect`` accepts a generic shape other files share (lines of
                                               numbers, a grid): a match is a weak hint, not a signature
``LEGACY_ENCODING``         str | None         text that is not UTF-8 is read in this encoding, else refused
``detect(head: bytes)``     -> bool            does this content look like the format?
``loads(data, *, source)``  -> the object      read (the registry hands str or bytes per ``BINARY``)
==========================  =================  ==========================================================

and the capabilities of its registry (:data:`CAPABILITIES`):

* clue formats: ``COLOUR`` (bool, can hold a colour puzzle), ``SOLUTION`` (bool,
  can carry a known solution), ``dumps(puzzle)``; optionally ``puzzles(data, *,
  source)``, every puzzle of a multi-puzzle file in one pass (an iterator of
  ``clues._lines.Read``: index, name, the puzzle or its located error), which
  :func:`nonoqubo.clues.read_all` and ``suite`` use instead of one ``loads`` per puzzle;
* QUBO formats: ``ISING`` (bool, can carry the Ising form), ``OFFSET`` (how a
  solver reading the file reports the energy: ``"carried"`` the file holds the
  offset, E; ``"excluded"`` the terms only, E - offset; ``"negated"`` a
  maximised x'Qx = offset - E), ``WRITE_BYTES_PER_TERM`` (int, peak bytes a
  term of the writer when above the build's own, else 0), ``dumps(model, *,
  ising=False)`` and ``dump(model, fp, *, ising=False, progress=False)``;
* sample formats: nothing more (a reader only).

A value most modules of a registry share is written once, in the package's
private ``_defaults`` module; a format imports the defaults that are its own
values (``from ._defaults import KIND, ...``) and assigns the others, so every
module defines every name (:func:`problems` lists what one lacks).

``detect`` gets bytes everywhere: the first 4 kB of a QUBO file, the whole
content of a clue file (its text detectors count lines), the first 4 MB of a
text answer file and the whole of a binary one; text formats look at
:func:`nonoqubo._util.text.head_text` of it.  Bytes become
text in one place, :func:`nonoqubo._util.text.decode`.

Examples:
    >>> [m.NAME for m in registry("nonoqubo.exports")][:3]
    ['qubo-json', 'bqm', 'bqm-json']
    >>> registry("nonoqubo.exports") is registry("nonoqubo.exports")  # discovered once
    True
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from functools import lru_cache
from types import ModuleType

__all__ = ["CAPABILITIES", "COMMON", "OFFSETS", "find", "problems", "registry", "submodules"]

#: the names every format module of every registry defines, and their types
COMMON: dict[str, type | tuple[type, ...]] = {
    "NAME": str, "TITLE": str, "EXTENSIONS": tuple, "ALIASES": tuple, "ORDER": int, "KIND": str,
    "BINARY": bool, "HEURISTIC": bool, "LEGACY_ENCODING": (str, type(None)),
}
#: the capabilities each registry's modules declare besides :data:`COMMON`
CAPABILITIES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "nonoqubo.clues": {"COLOUR": bool, "SOLUTION": bool},
    "nonoqubo.exports": {"ISING": bool, "OFFSET": str, "WRITE_BYTES_PER_TERM": int},
    "nonoqubo.samples": {},
}
#: the values of a QUBO format's ``OFFSET``
OFFSETS = ("carried", "excluded", "negated")


def submodules(package: str, path: Iterable[str], *required: str) -> list[ModuleType]:
    """The modules of *package* (found on *path*) that define every name in *required*.

    Modules whose names start with ``_`` are private helpers and are skipped.

    Examples:
        >>> import nonoqubo.exports as e
        >>> "coo" in [m.NAME for m in submodules(e.__name__, e.__path__, "NAME", "dumps")]
        True
    """
    found = []
    for info in pkgutil.iter_modules(path):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{package}.{info.name}")
        if all(hasattr(mod, name) for name in required):
            found.append(mod)
    return found


@lru_cache(maxsize=None)
def registry(package: str) -> tuple[ModuleType, ...]:
    """The format modules of *package* (every public module defining ``NAME``), by ``ORDER`` then ``NAME``.

    Discovered once a process (the result is cached).
    """
    mods = submodules(package, importlib.import_module(package).__path__, "NAME")
    return tuple(sorted(mods, key=lambda m: (m.ORDER, m.NAME)))


def find(mods: Iterable[ModuleType], name: str) -> ModuleType | None:
    """The module among *mods* whose ``NAME``, else one of whose ``ALIASES``, is *name* (any case)."""
    key = name.lower()
    mods = tuple(mods)
    return next((m for m in mods if key == m.NAME), None) or next((m for m in mods if key in m.ALIASES), None)


def problems(mod: ModuleType, package: str) -> list[str]:
    """What format module *mod* of registry *package* lacks or has wrong (empty: it follows the protocol).

    Examples:
        >>> import types
        >>> problems(types.ModuleType("nonoqubo.samples.new"), "nonoqubo.samples")[:2]
        ['NAME is missing', 'TITLE is missing']
    """
    out = []
    for name, kind in {**COMMON, **CAPABILITIES[package]}.items():
        if not hasattr(mod, name):
            out.append(f"{name} is missing")
        elif not isinstance(getattr(mod, name), kind) or (kind is int and isinstance(getattr(mod, name), bool)):
            out.append(f"{name} is a {type(getattr(mod, name)).__name__}, not {kind}")
    writes = ("dumps",) if package == "nonoqubo.clues" else ("dumps", "dump") if package == "nonoqubo.exports" else ()
    for name in ("detect", "loads", *writes):
        if not callable(getattr(mod, name, None)):
            out.append(f"{name}() is missing")
    if getattr(mod, "OFFSET", "carried") not in OFFSETS:
        out.append(f"OFFSET {mod.OFFSET!r} is not one of {', '.join(OFFSETS)}")
    return out
