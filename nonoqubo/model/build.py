"""Puzzle -> Qubo: the one entry that builds a puzzle's QUBO in any registered encoding.

:func:`build` takes the clues, an encoding (an
:class:`~nonoqubo.model.encodings.Encoding` or its name, looked up once by
:func:`~nonoqubo.model.encodings.encoding_named`) and the penalty weights, makes
the layout and the encoding's geometry once, and hands them to the encoding's
builder: :mod:`nonoqubo.model.build_domainwall` (the expanded domain-wall model
of the QUBO++ "Nonogram" case study, the default) or
:mod:`nonoqubo.model.build_onehot`.  The :class:`~nonoqubo.model.qubo.Qubo` it
returns carries the encoding object, the weights, the puzzle and the labels
(made on first use).

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> q = build(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> q.num_vars, q.num_terms, q.offset, str(q.encoding)
    (4, 4, 2, 'domain-wall')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .build_domainwall import build_arrays
from .encoding import Layout
from .encodings import DEFAULT, EncodingLike, encoding_named
from .puzzle import Puzzle
from .qubo import Qubo
from .weights import Weights

__all__ = ["as_puzzle", "build", "build_arrays"]


def _sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def as_puzzle(value: Any) -> Puzzle:
    """*value* as a :class:`Puzzle`: a puzzle, a ``(rows, columns)`` pair or a rows/columns mapping.

    Raises:
        TypeError: any other value, with what to pass.
    """
    if isinstance(value, Puzzle):
        return value
    if isinstance(value, Mapping) and "rows" in value and ("columns" in value or "cols" in value):
        return Puzzle(rows=value["rows"], cols=value["columns"] if "columns" in value else value["cols"])
    if _sequence(value) and len(value) == 2 and all(_sequence(v) and all(_sequence(c) for c in v) for v in value):
        return Puzzle(rows=value[0], cols=value[1])
    raise TypeError(
        f"build() takes a Puzzle or its clues as (rows, columns), e.g. build([[[1], [1]], [[1], [1]]]) "
        f"or nonoqubo.Puzzle(rows=..., cols=...); not a {type(value).__name__}"
        + (f" of {len(value)} items (a pair of lists of clues is needed)" if _sequence(value) else "")
    )


def build(puzzle: Puzzle | Any, *, encoding: EncodingLike = DEFAULT, weights: Weights | Any = None) -> Qubo:
    """The expanded QUBO of *puzzle* in *encoding*, labels and puzzle attached.

    *puzzle* is a :class:`Puzzle`, or its clues: a ``(rows, columns)`` pair of clue lists
    (``build([[[1], [1]], [[1], [1]]])``) or a ``{"rows": ..., "columns": ...}`` mapping.
    *encoding* is an :class:`~nonoqubo.model.encodings.Encoding` or a registered name:
    ``"domain-wall"`` (the QUBO++ case study's model, the default), ``"one-hot"``
    (:mod:`nonoqubo.model.onehot`), ...; *weights* multiply the shape, order and
    cell families (:class:`~nonoqubo.model.weights.Weights`, a ``{family: int}`` mapping or
    a ``"shape=2,cell=3"`` text; default 1 each).

    Raises:
        TypeError: anything else (the message says what to pass).
        PuzzleError: clues that are not a valid puzzle.
        UnknownEncoding: an encoding nonoqubo does not know.
        EncodingError: a colour puzzle in an encoding without a colour model.
        WeightsError: bad weights.

    Examples:
        >>> from nonoqubo.model.puzzle import Puzzle
        >>> q = build(Puzzle.from_picture(["#.", ".#"]))
        >>> q.labels
        ['y0[0][0]', 'y1[0][0]', 'z0[0][0]', 'z1[0][0]']
        >>> int(q.energy([0, 1, 0, 1])[0])
        0
        >>> h = build(Puzzle.from_picture(["#.", ".#"]), encoding="one-hot", weights="cell=2")
        >>> str(h.encoding), h.weights, h.labels[:2], int(h.energy([1, 0, 0, 1, 1, 0, 0, 1])[0])
        ('one-hot', Weights(shape=1, order=1, cell=2), ['r0[0][0]', 'r0[0][1]'], 0)
    """
    puzzle = as_puzzle(puzzle)
    enc = encoding_named(encoding)
    enc.check_puzzle(puzzle)
    w = Weights.of(weights)
    layout = Layout.of(puzzle)
    geo = enc.geometry(layout)
    linear, row, col, quad, offset = enc.builder(puzzle, layout, w, geo)
    return Qubo(enc.labels_of(puzzle, geo), linear, row, col, quad, offset, puzzle=puzzle, encoding=enc, weights=w)
