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

``import nonoqubo`` imports nothing heavy: each public name is imported the first time it is
used (:data:`PUBLIC` says from where; PEP 562), so ``nonoqubo --version`` and a script that needs
one reader pay for what they use.  The notebook pictures of a :class:`Puzzle`, a decoded
sample's report and a check's result are drawn by :mod:`nonoqubo.answers.render`, which
:mod:`nonoqubo._util.notebook` imports the first time Jupyter asks for one.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._util import notebook as _notebook
from ._version import __version__ as __version__
from .errors import (
    FormatError,
    MissingDependency,
    NonoquboError,
    PuzzleError,
    SampleError,
    UnsupportedFormat,
)

if TYPE_CHECKING:  # what the names below are, for type checkers and editors (imported when used)
    from . import clues
    from .decoding import decode
    from .logic.check import check
    from .model.build import build
    from .model.encoding import Layout
    from .model.palette import Palette
    from .model.puzzle import Puzzle
    from .model.qubo import Qubo
    from .solvers.sampling import solve

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

#: the public names imported when first used: name -> (module, attribute; None: the module itself)
PUBLIC: dict[str, tuple[str, str | None]] = {
    "clues": (".clues", None),
    "build": (".model.build", "build"),
    "Layout": (".model.encoding", "Layout"),
    "Palette": (".model.palette", "Palette"),
    "Puzzle": (".model.puzzle", "Puzzle"),
    "Qubo": (".model.qubo", "Qubo"),
    "check": (".logic.check", "check"),
    "decode": (".decoding", "decode"),
    "solve": (".solvers.sampling", "solve"),
}

# the pictures of Puzzle, Report and CheckResult (nonoqubo._util.notebook): drawn by answers/render,
# imported when a notebook first asks for one
_notebook.renderers(f"{__name__}.answers.render")


def __getattr__(name: str) -> Any:
    """A public name of :data:`PUBLIC`, imported on first use (and kept, so this runs once a name)."""
    try:
        module, attribute = PUBLIC[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    found = importlib.import_module(module, __name__)
    value = found if attribute is None else getattr(found, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def load_puzzle(path: str, format: str | None = None, **options: object) -> Puzzle:
    """Read a puzzle from a clue file in any supported format (see :mod:`nonoqubo.clues`)."""
    from . import clues

    return clues.load(path, format, **options)
