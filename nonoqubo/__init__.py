"""nonoqubo: nonogram clues -> QUBO files for annealers and QUBO solvers, and back.

The handful of names most users need::

    >>> import nonoqubo
    >>> puzzle = nonoqubo.Puzzle.from_picture(["#.", ".#"])
    >>> qubo = nonoqubo.build(puzzle)
    >>> qubo.num_vars, qubo.num_terms
    (4, 4)

``nonoqubo.clues`` reads and writes clue formats; ``Qubo.to_bqm()`` hands the
model to dimod; ``decode(model_or_puzzle, samples)`` turns solver samples back
into pictures with a verdict, ``check(puzzle, grid)`` checks a grid and
``solve(puzzle)`` samples locally.
"""

from __future__ import annotations

from . import clues
from .model.build import build
from .model.encoding import Layout
from .errors import (
    FormatError,
    MissingDependency,
    NonoquboError,
    PuzzleError,
    SampleError,
    UnsupportedFormat,
)
from .model.palette import Palette
from .model.puzzle import Puzzle
from .model.qubo import Qubo

from .logic.check import check
from .answers import render as _render  # noqa: F401  registers the notebook pictures (nonoqubo._util.notebook)
from .decoding import decode
from .solvers.sampling import solve
from ._version import __version__ as __version__

__all__ = [
    "FormatError",
    "Layout",
    "MissingDependency",
    "NonoquboError",
    "Palette",
    "Puzzle",
    "PuzzleError",
    "Qubo",
    "SampleError",
    "UnsupportedFormat",
    "build",
    "check",
    "clues",
    "decode",
    "load_puzzle",
    "solve",
]


def load_puzzle(path: str, format: str | None = None, **options: object) -> Puzzle:
    """Read a puzzle from a clue file in any supported format (see :mod:`nonoqubo.clues`)."""
    return clues.load(path, format, **options)
