"""nonoqubo: nonogram clues -> QUBO files for annealers and QUBO solvers, and back.

The handful of names most users need::

    >>> import nonoqubo
    >>> puzzle = nonoqubo.Puzzle.from_picture(["#.", ".#"])
    >>> qubo = nonoqubo.build(puzzle)
    >>> qubo.num_vars, qubo.num_terms
    (4, 4)

``nonoqubo.clues`` reads and writes clue formats; ``Qubo.to_bqm()`` hands the
model to dimod.
"""

from __future__ import annotations

from . import clues
from .build import build
from .encoding import Layout
from .errors import (
    FormatError,
    MissingDependency,
    NonoquboError,
    PuzzleError,
    SampleError,
    UnsupportedFormat,
)
from .puzzle import Puzzle
from .qubo import Qubo

__version__ = "0.1.0"

__all__ = [
    "FormatError",
    "Layout",
    "MissingDependency",
    "NonoquboError",
    "Puzzle",
    "PuzzleError",
    "Qubo",
    "SampleError",
    "UnsupportedFormat",
    "build",
    "clues",
    "load_puzzle",
]


def load_puzzle(path: str, format: str | None = None, **options: object) -> Puzzle:
    """Read a puzzle from a clue file in any supported format (see :mod:`nonoqubo.clues`)."""
    return clues.load(path, format, **options)
