"""The values most QUBO file formats share, for the protocol of :mod:`nonoqubo._util.discover`.

A format module imports the ones that are its own values (``from ._defaults import KIND, ...``)
and assigns the others, so every module defines every name of the protocol and a
shared value is written once.
"""

from __future__ import annotations

__all__ = ["ALIASES", "BINARY", "HEURISTIC", "ISING", "KIND", "LEGACY_ENCODING", "OFFSET", "WRITE_BYTES_PER_TERM"]

#: no other names (a format's extensions are names too)
ALIASES: tuple[str, ...] = ()
#: takes a Qubo ("constrained": a constrained model)
KIND: str = "qubo"
#: a text format
BINARY: bool = False
#: the BINARY form only
ISING: bool = False
#: told by a magic number or nonoqubo's header
HEURISTIC: bool = False
#: nonoqubo writes UTF-8: other bytes are refused
LEGACY_ENCODING: str | None = None
#: the file holds the offset: a solver reports E
OFFSET: str = "carried"
#: the writer needs no more than the build (model.estimate.BYTES_PER_TERM)
WRITE_BYTES_PER_TERM: int = 0
