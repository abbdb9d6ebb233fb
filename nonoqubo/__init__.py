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
from .palette import Palette
from .puzzle import Puzzle
from .qubo import Qubo

# the functions shadow their modules' names on purpose: nonoqubo.decode(...) is
# the function; the modules stay importable as nonoqubo.decode etc.
from .check import check  # noqa: E402
from .decode import decode  # noqa: E402
from .solve import solve  # noqa: E402

__version__ = "0.1.0"

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
