"""The values most clue formats share, for the protocol of :mod:`nonoqubo._util.discover`.

A format module imports the ones that are its own values (``from ._defaults import KIND, ...``)
and assigns the others, so every module defines every name of the protocol and a
shared value is written once.
"""

from __future__ import annotations

__all__ = ["ALIASES", "BINARY", "COLOUR", "HEURISTIC", "KIND", "LEGACY_ENCODING", "SOLUTION"]

#: no other names
ALIASES: tuple[str, ...] = ()
#: a clue file holds a puzzle
KIND: str = "puzzle"
#: a text format
BINARY: bool = False
#: black-and-white puzzles only
COLOUR: bool = False
#: clues only, no known solution
SOLUTION: bool = False
#: a text clue format is told by its shape (the images have signatures)
HEURISTIC: bool = True
#: old clue files (Olšák's, Czech comments) are often Latin-1
LEGACY_ENCODING: str | None = "latin-1"
