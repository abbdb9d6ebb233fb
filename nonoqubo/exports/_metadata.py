"""The clue metadata: one dict, whatever the file's syntax, and its one reader.

Decoding a solver's answer needs what the model was made of: the clues, the
variable labels, the variables fixed before export, the encoding and weights.
Every file nonoqubo writes carries them as one dict with the keys below, each
format in its own syntax:

* text QUBO formats (coo, qbsolv, mtx, ...): ``# key=value`` comment lines
  (:mod:`._header`);
* LP and MPS: ``\\ key: tokens`` comment lines (:mod:`.lp`);
* CQM: the archive member ``nonoqubo.json``, the clues in the clue spec's form
  (:mod:`.cqm`, :func:`spec_of`);
* OMMX: ``org.nonoqubo.<key>`` annotations, each value a string (:mod:`.ommx`).

The grammar (:data:`GRAMMAR`; a file may leave out any key, :data:`KEYS` is the
order they are written in)::

    nonoqubo     text            the version that wrote the file
    format       text            the format's NAME
    vartype      BINARY | SPIN   x in {0,1}, or s in {-1,+1} with x = (1 + s) / 2
    variables    int >= 0        the model's variables (fixed ones left out)
    terms        int >= 0        QUBO: nonzero linear + quadratic terms
    offset       number          QUBO: the constant, as written
    constraints  int >= 0        constrained: the rows
    counts       {kind: int}     constrained: rows per kind and nonzeros
    encoding     text            read by :func:`._header.read_encoding`
    weights      {shape, order, cell}   the penalty weights, positive integers
    name         text or null    the puzzle's title
    palette      {background, colours}  colour puzzles: as in the clue spec
    rows, cols   [clue, ...]     a clue: block lengths, or [length, colour] blocks
    solution     [text, ...]     the known answer, one picture row each
    about        {field: value}  the clue file's other fields (author, source...)
    labels       "layout" | "listed" | [label, ...]   the encoding's rule less the
                                 fixed labels, listed by the format itself, or listed here
    presolve     probe           the presolve that fixed them, when not line logic
                                 alone (absent: line logic, as every older file)
    fixed        {label: 0 or 1} the variables removed before export

:func:`read` is the one reader: it checks every key it finds against the grammar
and gives back :class:`Clues` (the puzzle, the fixed variables, the labels'
spelling, the vartype); a wrong value is one :class:`~nonoqubo.errors.FormatError`
line naming the file and the key, as the syntax spells it.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> meta = clue_meta(Puzzle(rows=[[1], []], cols=[[1], []], name="tiny"))
    >>> meta
    {'name': 'tiny', 'rows': [[1], []], 'cols': [[1], []]}
    >>> clues = read({**meta, "fixed": {"y0[0][0]": 1}, "labels": "layout"}, "tiny.coo")
    >>> clues.puzzle == Puzzle(rows=[[1], []], cols=[[1], []], name="tiny"), clues.fixed
    (True, {'y0[0][0]': 1})
    >>> read({"offset": "x"}, "tiny.coo")
    Traceback (most recent call last):
    ...
    nonoqubo.errors.FormatError: tiny.coo: metadata 'offset' must be a number, not 'x'
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import FormatError, located
from ..model.puzzle import Puzzle

__all__ = ["GRAMMAR", "KEYS", "Clues", "check_value", "clue_meta", "constrained_meta", "from_spec", "read",
           "spec_of"]

#: every key, in the order formats write them, with what its value is
GRAMMAR: dict[str, str] = {
    "nonoqubo": "the version that wrote the file",
    "format": "the format's name",
    "vartype": "BINARY or SPIN",
    "variables": "the number of variables",
    "terms": "the number of terms",
    "offset": "the constant",
    "constraints": "the number of constraints",
    "counts": "the rows per kind",
    "encoding": "the encoding's name",
    "weights": "the penalty weights",
    "name": "the puzzle's title",
    "palette": "the colours, {background, colours}",
    "rows": "the row clues",
    "cols": "the column clues",
    "solution": "the known answer's picture rows",
    "about": "the clue file's other fields",
    "labels": '"layout", "listed" or the list of labels',
    "presolve": "the presolve that fixed the variables (probe; absent: line logic)",
    "fixed": "the fixed variables, {label: 0 or 1}",
}
KEYS = tuple(GRAMMAR)
VARTYPES = ("BINARY", "SPIN")
#: the labels' spellings besides a list
LABEL_RULES = ("layout", "listed")


@dataclass(frozen=True)
class Clues:
    """What a file's metadata says of its model, checked.

    Attributes:
        puzzle: the puzzle of the clues (None for a bare model).
        fixed: label -> 0/1 of the variables removed before export.
        labels: ``"layout"``, ``"listed"``, the list of labels, or None (the key is absent).
        vartype: ``"BINARY"`` or ``"SPIN"``.
        presolve: ``"probe"`` when probing fixed the variables; None for line logic (or none fixed).
    """

    puzzle: Puzzle | None
    fixed: dict[str, int] = field(default_factory=dict)
    labels: str | list[str] | None = None
    vartype: str = "BINARY"
    presolve: str | None = None


# -- producing it ---------------------------------------------------------------------------
def clue_meta(puzzle: Puzzle, *, solution: bool = False, about: bool = False) -> dict[str, Any]:
    """``name``, ``palette`` (colour only), ``rows``, ``cols`` (and ``solution``, ``about``) of *puzzle*.

    Args:
        puzzle: the puzzle.
        solution: add the known answer (when the puzzle has one).
        about: add the clue file's other fields (when it had any).
    """
    meta: dict[str, Any] = {"name": puzzle.name}
    spec = puzzle.to_dict()  # the clue spec's own form: lengths, or [length, colour name] in colour
    if "colours" in spec:
        meta["palette"] = puzzle.palette.to_dict()
    meta["rows"] = spec["rows"]
    meta["cols"] = spec["cols"]
    if solution and puzzle.solution is not None:
        meta["solution"] = list(puzzle.solution)
    if about and puzzle.meta:
        meta["about"] = dict(puzzle.meta)
    return meta


def constrained_meta(model: Any, fmt: str) -> dict[str, Any]:
    """The metadata of a :class:`~nonoqubo.model.constrained.ConstrainedModel` written as format *fmt*.

    Its labels are always the layout's less the fixed ones, its encoding the domain wall; a model
    probing fixed says ``presolve: probe`` (line logic's and unpresolved models write no key, as a
    QUBO's header does: ``fixed`` tells those two apart).
    """
    from .._version import __version__

    return {
        "nonoqubo": __version__,
        "format": fmt,
        "vartype": "BINARY",
        "variables": model.num_vars,
        "constraints": model.num_constraints,
        "counts": {**model.counts(), "nonzeros": model.num_nonzeros},
        **clue_meta(model.puzzle, solution=True, about=True),
        "labels": "layout",
        **({"presolve": "probe"} if getattr(model, "presolve", None) == "probe" else {}),
        "fixed": {str(k): int(v) for k, v in model.fixed.items()},
    }


def spec_of(meta: Mapping[str, Any]) -> dict[str, Any]:
    """The clue part of *meta* as a clue spec document (``Puzzle.to_dict``'s keys and order)."""
    out: dict[str, Any] = {}
    if meta.get("name") is not None:
        out["name"] = meta["name"]
    out["width"] = len(meta["cols"])
    out["height"] = len(meta["rows"])
    if "palette" in meta:
        out["background"] = meta["palette"]["background"]
        out["colours"] = meta["palette"]["colours"]
    out["rows"] = meta["rows"]
    out["cols"] = meta["cols"]
    if "solution" in meta:
        out["solution"] = meta["solution"]
    for key, value in (meta.get("about") or {}).items():
        out.setdefault(key, value)
    return out


#: the clue spec's keys that :func:`from_spec` maps to metadata keys (``width``/``height`` follow from the clues)
_SPEC_KEYS = {"name", "rows", "cols", "columns", "solution", "background", "colours", "colors", "width", "height"}


def from_spec(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The metadata keys of a clue spec document (the inverse of :func:`spec_of`; its aliases allowed).

    Only the syntax is translated; :func:`read` checks the values.
    """
    meta: dict[str, Any] = {"name": doc.get("name")}
    colours = doc.get("colours", doc.get("colors"))
    if colours is not None or "background" in doc:
        meta["palette"] = {"background": doc.get("background", "white"), "colours": colours or ["black"]}
    for key, value in (("rows", doc.get("rows")), ("cols", doc.get("cols", doc.get("columns"))),
                       ("solution", doc.get("solution"))):
        if value is not None:
            meta[key] = value
    about = {k: v for k, v in doc.items() if k not in _SPEC_KEYS}
    if about:
        meta["about"] = about
    return meta


# -- reading it -------------------------------------------------------------------------------
def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _number(value: Any) -> bool:
    """A finite number, NumPy's scalars included (a binary format's offset is one)."""
    return (isinstance(value, numbers.Real) and not isinstance(value, bool)
            and (isinstance(value, numbers.Integral) or math.isfinite(value)))


def _text_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


#: key -> (the check of its value, what the message says it must be)
_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "nonoqubo": (lambda v: isinstance(v, str), "text"),
    "format": (lambda v: isinstance(v, (str, int)) and not isinstance(v, bool), "a format name"),
    "vartype": (lambda v: isinstance(v, str) and v.upper() in VARTYPES, "BINARY or SPIN"),
    "variables": (_count, "a whole number >= 0"),
    "terms": (_count, "a whole number >= 0"),
    "offset": (_number, "a number"),
    "constraints": (_count, "a whole number >= 0"),
    "counts": (lambda v: isinstance(v, dict) and all(_count(c) for c in v.values()),
               "a mapping of kinds to whole numbers"),
    "name": (lambda v: v is None or isinstance(v, str), "text"),
    "palette": (lambda v: isinstance(v, dict) and "colours" in v and "background" in v,
                "a mapping with 'background' and 'colours'"),
    "rows": (lambda v: isinstance(v, list), "a list of clues"),
    "cols": (lambda v: isinstance(v, list), "a list of clues"),
    "solution": (_text_list, "a list of picture rows"),
    "about": (lambda v: isinstance(v, dict), "a mapping"),
    "labels": (lambda v: v in LABEL_RULES or _text_list(v), '"layout", "listed" or a list of labels'),
    "presolve": (lambda v: v == "probe", "probe (line logic writes no key)"),
    "fixed": (lambda v: isinstance(v, dict) and all(_count(b) and b <= 1 for b in v.values()),
              "a mapping of labels to 0 or 1"),
}


def read(meta: Mapping[str, Any], source: str, *, spell: str = "metadata '{}'",
         lines: Mapping[str, int] | None = None) -> Clues:
    """The clues, fixed variables, labels and vartype a file's metadata gives, every value checked.

    Keys this nonoqubo does not know are ignored (a later version may add some);
    ``encoding`` and ``weights`` are read by :func:`._header.read_encoding`.

    Args:
        meta: the metadata as the format's syntax gave it back (JSON-like values).
        source: the file name, for messages.
        spell: how the format spells a key in a message (``"annotation org.nonoqubo.{}"``).
        lines: the line of each key in the file, where the syntax knows it.

    Raises:
        FormatError: a value of the wrong type, rows without cols (or cols without rows),
            or clues that make no puzzle; one line naming *source* and the key.
    """
    lines = lines or {}

    def fail(key: str, message: str) -> FormatError:
        return FormatError(located(source, lines.get(key), f"{spell.format(key)} {message}"))

    for key, (ok, must) in _CHECKS.items():
        if key in meta and not ok(meta[key]):
            raise fail(key, f"must be {must}, not {_show(meta[key])}")
    if ("rows" in meta) != ("cols" in meta):
        have, lack = ("rows", "cols") if "rows" in meta else ("cols", "rows")
        raise fail(lack, f"is missing (the file gives '{have}')")
    puzzle = None
    if "rows" in meta:
        from ..clues import spec

        puzzle = spec.from_dict(spec_of(meta), source=source)  # its messages name the key: rows[3]
    fixed = {str(k): int(v) for k, v in (meta.get("fixed") or {}).items()}
    return Clues(puzzle, fixed, meta.get("labels"), str(meta.get("vartype", "BINARY")).upper(), meta.get("presolve"))


def check_value(key: str, value: Any, source: str, spell: str = "metadata '{}'") -> Any:
    """*value* when it is what the grammar asks of *key* (see :func:`read`), else a FormatError."""
    ok, must = _CHECKS[key]
    if not ok(value):
        raise FormatError(located(source, None, f"{spell.format(key)} must be {must}, not {_show(value)}"))
    return value


def _show(value: Any) -> str:
    """*value* for a message: its repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
