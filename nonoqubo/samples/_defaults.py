"""The values most sample formats share, for the protocol of :mod:`nonoqubo._util.discover`.

A format module imports the ones that are its own values (``from ._defaults import KIND, ...``)
and assigns the others, so every module defines every name of the protocol and a
shared value is written once.
"""

from __future__ import annotations

__all__ = ["ALIASES", "BINARY", "EXTENSIONS", "HEURISTIC", "KIND", "LEGACY_ENCODING"]

#: no other names
ALIASES: tuple[str, ...] = ()
#: answers are told by content, not by name
EXTENSIONS: tuple[str, ...] = ()
#: a file of solver answers
KIND: str = "samples"
#: a text format
BINARY: bool = False
#: told by the solver's own header lines
HEURISTIC: bool = False
#: solver logs may carry Latin-1 names or comments
LEGACY_ENCODING: str | None = "latin-1"
