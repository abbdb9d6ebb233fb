"""The encodings: one :class:`Encoding` object per way of writing block shifts as binary variables.

An encoding is everything the rest of nonoqubo asks of one: its name, a one-line title, its
geometry (:class:`~nonoqubo.model.geometry.Geometry`: variables, labels, slot entries, penalty
families, samples -> shifts, shifts -> variables), its builder (the QUBO's arrays), its size
counters (exact before building, and expected for a random picture), its label letters, the
words the decoder and the CLI report its shape family with, and what it can do (colour, a
constrained 0-1 form).  :data:`REGISTRY` is the one table of them, one entry an encoding, and
:func:`encoding_named` the one place a name becomes an :class:`Encoding` (an unknown name is
:class:`~nonoqubo.errors.UnknownEncoding`; a colour puzzle an encoding without a colour model
cannot encode is :class:`~nonoqubo.errors.EncodingError`, by the encoding's name).  Past that edge (the CLI's ``--encoding``, suite's
list, a file's ``encoding`` metadata, ``build(..., encoding="one-hot")``) only the object
travels: a model carries it (``Qubo.encoding``), and nothing branches on a name.

An :class:`Encoding` is equal to its name and prints as it (``str(ONE_HOT) == "one-hot"``), so
a file's ``encoding`` metadata and an old ``model.encoding == "one-hot"`` keep working; it
sorts by name.

**Adding an encoding** (the line automaton, say) is two new modules and one entry here:

1. a geometry module beside :mod:`~nonoqubo.model.geometry` (as :mod:`~nonoqubo.model.onehot`
   is), with a class made from a :class:`~nonoqubo.model.encoding.Layout` that satisfies
   :class:`~nonoqubo.model.geometry.Geometry`: ``layout``, ``num_vars``, ``labels()``,
   ``slot_entries(rows)``, ``left_aligned(rows)``, the ``shape`` and ``order`` families (from
   :mod:`nonoqubo.model._families`, or a family with ``chosen`` as one-hot's), plus any further
   families in ``families`` (the decoder adds them to the shape's report),
   ``shifts_of_columns(xt)``, ``fixed_by_bounds(lo, hi)``, ``encode(grid)`` and
   ``encode_shifts(shifts)``;
2. a builder module beside :mod:`~nonoqubo.model.build_domainwall` and
   :mod:`~nonoqubo.model.build_onehot` with ``build_arrays(puzzle, layout, weights, geometry)``
   -> ``(linear int64, row int32, col int32, quad int, offset int)`` (pairs ``row < col``,
   sorted, merged, nonzero), ``count_terms(puzzle, layout, weights)`` -> ``(variables,
   terms)`` (exact or an upper bound, before building) and ``count_random(width, height,
   density)`` -> ``(variables, terms)`` expected;
3. one entry in :data:`REGISTRY`: ``Encoding(name, title, geometry class, builder, counter,
   random counter, row letter, column letter, labels note, shape words, shape section,
   description, colour=..., constrained=..., ...)``, written out here, or made from a dict its
   builder module keeps (the line automaton's ``build_automaton.REGISTRATION``).

Nothing else changes: ``--encoding`` and its help, ``suite --encoding``, the metadata readers,
the JSON schemas (a name pattern), the decoder, presolve, ``estimate``, the exports and the
registry-parametrised tests take the new entry as it comes.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> enc = encoding_named("one-hot")
    >>> enc is ONE_HOT, str(enc), enc == "one-hot", enc.row_letter
    (True, 'one-hot', True, 'r')
    >>> enc.geometry_of(Puzzle(rows=[[1], [1]], cols=[[1], [1]])).labels()[:2]
    ['r0[0][0]', 'r0[0][1]']
    >>> encoding_named("two-hot")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    nonoqubo.errors.UnknownEncoding: encoding: unknown encoding 'two-hot'; known: ..., domain-wall, one-hot
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import EncodingError, UnknownEncoding
from . import build_automaton, build_domainwall, build_onehot
from .encoding import LazyLabels, Layout, parse_label
from .geometry import DomainWall, Geometry
from .onehot import OneHot
from .puzzle import Puzzle
from .weights import Weights

__all__ = ["DEFAULT", "DOMAIN_WALL", "ONE_HOT", "REGISTRY", "Encoding", "EncodingLike", "encoding_named",
           "encoding_of_label", "encodings", "geometry_of", "names"]

#: ``(linear, row, col, quad, offset)``: a builder's arrays (see :mod:`nonoqubo.model.qubo`)
Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]


@dataclass(frozen=True, eq=False)
class Encoding:
    """One encoding of block shifts as binary variables (see the module docstring).

    Attributes:
        name: what users type (``--encoding``) and what files say (``encoding`` metadata).
        title: one line for ``--help`` and ``info``.
        geometry: ``Layout -> Geometry``: the encoding's geometry class (or factory).
        builder: ``(puzzle, layout, weights, geometry) -> (linear, row, col, quad, offset)``.
        counter: ``(puzzle, layout, weights) -> (variables, terms)`` before building: the
            variables exactly, the terms exactly or as an upper bound (``estimate``).
        random_counter: ``(width, height, density) -> (variables, terms)`` expected of a random
            picture (``suite --random``'s memory guard).
        row_letter, column_letter: the first letter of a row's and of a column's labels
            (``y3[1][2]``: ``y``); every encoding has its own two.
        labels_note: what a label means, one sentence (the OMMX instance's description).
        shape_words: the shape family in a verdict (``"broken walls"``).
        shape_section: the heading of the shape family's list in a report.
        description: the model in a file's description (``"domain-wall encoding of ..."``).
        colour: whether it encodes colour puzzles (refused by name when not).
        constrained: whether it has a 0-1 ILP form (``build --constrained``, the constrained
            exports); today only the domain wall.
        order_words, order_section: the order family in a verdict and as a report's heading
            (the domain wall's and one-hot's ``"block order"``; the automaton's forbidden transitions).
        shape_item, order_item: a report item's text, a :meth:`str.format` template over ``line``,
            ``block``, ``position``, ``first``, ``second`` (the term's two labels), ``chosen`` and
            ``penalty``; empty for the block-and-shift wording of the domain wall and one-hot.
    """

    name: str
    title: str
    geometry: Callable[[Layout], Geometry]
    builder: Callable[..., Arrays]
    counter: Callable[[Puzzle, Layout, Weights], tuple[int, int]]
    random_counter: Callable[[int, int, float], tuple[float, float]]
    row_letter: str
    column_letter: str
    labels_note: str
    shape_words: str
    shape_section: str
    description: str
    colour: bool = True
    constrained: bool = False
    order_words: str = "block order"
    order_section: str = "block-order violations"
    shape_item: str = ""
    order_item: str = ""

    # -- a name, everywhere a string was ------------------------------------------------------
    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<Encoding {self.name}>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Encoding):
            return other.name == self.name
        if isinstance(other, str):
            return other == self.name
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)

    def __lt__(self, other: Encoding) -> bool:
        return self.name < str(other)

    def __reduce__(self) -> tuple[Any, ...]:
        return encoding_named, (self.name,)  # pickled (to a worker process) by name: the registry's object

    # -- what the model layer asks ------------------------------------------------------------
    def geometry_of(self, puzzle: Puzzle | None, layout: Layout | None = None) -> Geometry:
        """The encoding's geometry of *puzzle* (over *layout* when given: share one; *puzzle* may then be None).

        Raises:
            ValueError: neither a puzzle nor a layout.
        """
        if layout is None:
            if puzzle is None:
                raise ValueError("geometry_of needs the puzzle or its layout")
            layout = Layout.of(puzzle)
        return self.geometry(layout)

    def labels_of(self, puzzle: Puzzle, geometry: Geometry) -> LazyLabels:
        """The labels of *geometry*'s variables, made on first use (a model's ``labels``)."""
        return LazyLabels(puzzle, geometry, encoding=self)

    def owns_labels(self, labels: Sequence[str], puzzle: Puzzle) -> bool:
        """Whether *labels* are this encoding's own lazy labels of *puzzle* (known without making them)."""
        return isinstance(labels, LazyLabels) and labels.puzzle is puzzle and labels.encoding is self

    def owns_label(self, label: str) -> bool:
        """Whether *label* (``y3[1][2]`` or its flat form ``y3_1_2``) has this encoding's letters."""
        parts = parse_label(label)
        return parts is not None and parts[0] in (self.row_letter, self.column_letter)

    def check_puzzle(self, puzzle: Puzzle, source: str = "encoding") -> None:
        """Refuse a colour puzzle, by name, when the encoding has no colour model.

        Raises:
            EncodingError: *puzzle* has colours and the encoding does not encode them.
        """
        if puzzle.num_colours > 1 and not self.colour:
            raise EncodingError(f"{source}: the {self.name} encoding has no colour model; "
                                  f"the puzzle has {puzzle.num_colours} colours "
                                  f"(colour encodings: {', '.join(e.name for e in REGISTRY if e.colour)})")


#: an encoding, or its name (what the Python API accepts; :func:`encoding_named` makes it an object)
EncodingLike = Encoding | str

# the encodings' words: what a label means (OMMX descriptions), what the shape family is called
_DW_LABELS = ("variable name y (rows) or z (columns) with subscripts [i, k, p] is the QUBO++ label "
              "y{i}[k][p]: line i, block k, wall position p, 0-based; 1 = block k shifted right by more "
              "than p; ids are nonoqubo's variable order")
_OH_LABELS = ("variable name r (rows) or c (columns) with subscripts [i, k, s] is the one-hot label "
              "r{i}[k][s]: line i, block k, shift s, 0-based; 1 = block k shifted right by exactly s; "
              "ids are nonoqubo's variable order")

#: the domain wall: ``w[k][p] = 1`` when block ``k`` shifts by more than ``p`` (the QUBO++ case study)
DOMAIN_WALL = Encoding(
    "domain-wall", "the QUBO++ case study's model: w[k][p] = 1 when block k shifts by more than p, labels y/z",
    DomainWall, build_domainwall.build_arrays, build_domainwall.count_terms, build_domainwall.count_random,
    "y", "z", _DW_LABELS, "broken walls", "broken walls", "domain-wall encoding of the QUBO++ Nonogram case study",
    colour=True, constrained=True)
#: one-hot: ``x[k][s] = 1`` when block ``k`` shifts by exactly ``s``
ONE_HOT = Encoding(
    "one-hot", "one variable per possible shift of every block, labels r/c",
    OneHot, build_onehot.build_onehot_arrays, build_onehot.count_terms, build_onehot.count_random,
    "r", "c", _OH_LABELS, "one position", "blocks not at exactly one shift", "one-hot encoding",
    colour=True, constrained=False)

#: every encoding, one line each, in listing order; the first is the default
REGISTRY: tuple[Encoding, ...] = (
    DOMAIN_WALL,
    ONE_HOT,
    Encoding(**build_automaton.REGISTRATION),
)
#: the encoding of a model that names none (files written before the ``encoding`` key, bare clues)
DEFAULT = REGISTRY[0]
_BY_NAME = {e.name: e for e in REGISTRY}


def names() -> list[str]:
    """Every encoding's name, sorted (for help texts, schemas and messages)."""
    return sorted(_BY_NAME)


def encodings() -> tuple[Encoding, ...]:
    """Every registered encoding, in :data:`REGISTRY`'s order."""
    return REGISTRY


def encoding_named(name: EncodingLike | None, source: str = "encoding") -> Encoding:
    """The :class:`Encoding` called *name* (an :class:`Encoding` is returned as it is; None: the default).

    The one place a name becomes an encoding.

    Raises:
        UnknownEncoding: another name (or not a string), one line: ``SOURCE: unknown encoding 'x';
            known: ...``.
    """
    if name is None:
        return DEFAULT
    if isinstance(name, Encoding):
        return name
    found = _BY_NAME.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownEncoding(f"{source}: unknown encoding {name!r}; known: {', '.join(names())}")
    return found


def encoding_of_label(label: str) -> Encoding | None:
    """The encoding whose label letters *label* has, or None (not a label of any encoding)."""
    return next((e for e in REGISTRY if e.owns_label(label)), None)


def geometry_of(puzzle: Puzzle | None, layout: Layout | None = None, encoding: EncodingLike = DEFAULT) -> Geometry:
    """The geometry of *puzzle*'s model in *encoding* (an :class:`Encoding` or a registered name).

    *puzzle* may be None when its *layout* is given.

    Raises:
        UnknownEncoding: a name nonoqubo does not know.
        ValueError: neither a puzzle nor a layout.
    """
    return encoding_named(encoding).geometry_of(puzzle, layout)
