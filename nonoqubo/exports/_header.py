"""The self-describing metadata every exported QUBO file carries, and its round trip.

Decoding a solver's sample needs the clues (block lengths), the variable
labels and any variables fixed before export; the file alone must give them.
Every QUBO writer calls :func:`describe` for the one metadata dict (its grammar,
order and checks are :mod:`._metadata`'s, and :func:`to_qubo` reads it back
through :func:`._metadata.read`)::

    nonoqubo   version that wrote the file
    format     the format's NAME
    vartype    "BINARY" (x in {0,1}) or "SPIN" (s in {-1,+1}, x = (1 + s) / 2)
    name, rows, cols   the puzzle's title and clues (absent for a bare model); in
               colour every block is ``[length, colour name]``
    palette    colour puzzles only: ``{"background": {...}, "colours": [{name, rgb, char}, ...]}``
    variables, terms, offset   counts (terms: nonzero linear + quadratic) and constant
    encoding   the encoding's name, one of nonoqubo.model.encodings.REGISTRY
               (a file without it is the default, domain-wall)
    weights    {"shape": A, "order": B, "cell": C}, the penalty weights (absent: 1 each)
    labels     "layout": the rule (the encoding's labels of the puzzle,
               ``encoding.geometry_of(puzzle).labels()``) minus the fixed
               labels, in order; "listed": the format lists them itself; or the
               list of labels
    fixed      {label: 0 or 1} of the variables removed before export

JSON-like formats store the dict as it is.  Text formats write it as comment
lines, one ``key=value`` a line, values in compact JSON (the vartype bare, as
dimod's COO reader wants ``# vartype=BINARY``); a long value is wrapped after
commas over several lines, the later ones written ``key+=...``::

    # nonoqubo 0.1.0 coo: nonogram QUBO (domain-wall encoding), energy 0 exactly at a solution
    # vartype=BINARY
    # offset=3
    # rows=[[1],[1,1],
    # rows+=[2]]

Examples:
    >>> meta = {"format": "coo", "vartype": "BINARY", "offset": 3, "rows": [[1], [1, 1], [2]]}
    >>> text = comment_lines(meta, "# ", width=12)
    >>> print(text, end="")  # doctest: +ELLIPSIS
    # nonoqubo ... coo: nonogram QUBO (domain-wall encoding), energy 0 exactly at a solution
    # format="coo"
    # vartype=BINARY
    # offset=3
    # rows=[[1],[1,1],
    # rows+=[2]]
    >>> back = parse_comments(text.splitlines(), "#", "<doc>")
    >>> back["rows"], back["vartype"], back["offset"]
    ([[1], [1, 1], [2]], 'BINARY', 3)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .._util.guard import finite, json_loads
from ..errors import FormatError, WeightsError, located
from ..model.encodings import DEFAULT, Encoding, EncodingLike, encoding_named
from ..model.palette import BW, Palette
from ..model.puzzle import Puzzle
from ..model.qubo import Qubo
from ..model.weights import Weights
from . import _metadata
from ._metadata import KEYS, clue_meta

__all__ = [
    "META_KEYS",
    "comment_lines",
    "check_distinct",
    "describe",
    "encoding_meta",
    "parse_comments",
    "read_encoding",
    "spin_to_binary",
    "to_qubo",
]

#: the keys a header line may hold, in the order they are written (the version is the first line's)
META_KEYS = tuple(key for key in KEYS if key != "nonoqubo")
_KEY = re.compile(r"^([a-z_]+)(\+?)=(.*)$")
#: a comment line's width before wrapping (clue lists of the 512x512 cauldron run to 40 kB)
WIDTH = 100


def _version() -> str:
    from .._version import __version__

    return __version__


def describe(qubo: Qubo, fmt: str, *, vartype: str = "BINARY", offset: float | int | None = None,
             labels_listed: bool = False, terms: int | None = None) -> dict[str, Any]:
    """The metadata dict of *qubo* written as format *fmt*.

    Args:
        qubo: the model.
        fmt: the format's NAME.
        vartype: ``"BINARY"`` or ``"SPIN"`` (the file holds the Ising form).
        offset: the constant as written (the Ising offset for SPIN); default ``qubo.offset``.
        labels_listed: the format lists the labels itself (JSON, CSV, QPLIB names...).
        terms: the number of terms written (the Ising form has its own); default ``qubo.num_terms``.

    Returns:
        A JSON-able dict with the keys of :data:`META_KEYS` (name/rows/cols only with a puzzle).
    """
    meta: dict[str, Any] = {
        "nonoqubo": _version(),
        "format": fmt,
        "vartype": vartype,
        "variables": qubo.num_vars,
        "terms": qubo.num_terms if terms is None else int(terms),
        "offset": _number(qubo.offset if offset is None else offset),
        **encoding_meta(qubo),
    }
    puzzle = qubo.puzzle
    if puzzle is not None:
        meta.update(clue_meta(puzzle))
    if labels_listed:
        meta["labels"] = "listed"
    elif puzzle is not None and follows_rule(qubo.labels, puzzle, qubo.fixed, encoding_named(meta["encoding"])):
        meta["labels"] = "layout"
    else:
        meta["labels"] = list(qubo.labels)
    if getattr(qubo, "presolve", None) == "probe":  # line logic's files stay as they were: no key
        meta["presolve"] = "probe"
    meta["fixed"] = {str(k): int(v) for k, v in qubo.fixed.items()}
    return meta


def encoding_meta(model: Any) -> dict[str, Any]:
    """``encoding`` and ``weights`` of the metadata (a model without them: domain-wall, weights 1)."""
    return {"encoding": encoding_named(getattr(model, "encoding", None)).name,
            "weights": Weights.of(getattr(model, "weights", None)).as_dict()}


def read_encoding(meta: Mapping[str, Any], source: str) -> tuple[Encoding, Weights]:
    """The encoding and weights a file's metadata gives (the default encoding and 1 each when it gives none).

    Raises:
        UnknownEncoding: an encoding nonoqubo does not know (``SOURCE: metadata 'encoding': unknown
            encoding 'x'; known: ...``).
        FormatError: weights that are not positive integers.
    """
    encoding = encoding_named(meta.get("encoding"), located(source, None, "metadata 'encoding'"))
    try:
        weights = Weights.of(meta.get("weights"), "metadata 'weights'")
    except WeightsError as exc:
        raise FormatError(located(source, None, str(exc))) from None
    return encoding, weights


def follows_rule(labels: Sequence[str], puzzle: Puzzle, fixed: Mapping[str, int],
                 encoding: EncodingLike = DEFAULT) -> bool:
    """*labels* are the rule's (see :func:`rule_labels`); known without making them when they
    are the build's own (*encoding*'s lazy labels of *puzzle*, nothing fixed)."""
    encoding = encoding_named(encoding)
    if encoding.owns_labels(labels, puzzle) and not fixed:
        return True
    return list(labels) == rule_labels(puzzle, fixed, encoding)


def rule_labels(puzzle: Puzzle, fixed: Mapping[str, int], encoding: EncodingLike = DEFAULT) -> list[str]:
    """The *encoding*'s labels of *puzzle* (``Layout.of(puzzle).labels()`` for the domain wall) without
    the fixed ones, in order."""
    labels = encoding_named(encoding).geometry_of(puzzle).labels()
    if fixed:
        labels = [lab for lab in labels if lab not in fixed]
    return labels


def _number(value: Any) -> int | float:
    value = float(value) if not isinstance(value, (int, np.integer)) else int(value)
    return int(value) if isinstance(value, float) and value.is_integer() else value


def model_arrays(qubo: Qubo, ising: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int | float, str]:
    """``(linear, row, col, quad, offset, vartype)`` of *qubo*, or of its Ising form."""
    if ising:
        m = qubo.to_ising()
        return m.h, m.row, m.col, m.J, m.offset, "SPIN"
    return qubo.linear, qubo.row, qubo.col, qubo.quad, qubo.offset, "BINARY"


# -- comment lines ------------------------------------------------------------------------
def _wrap(text: str, width: int) -> list[str]:
    """Cut *text* into pieces of about *width* characters, each ending after a comma
    (joining the pieces gives *text* back; a piece with no comma to cut at stays long)."""
    pieces = []
    start = 0
    while len(text) - start > width:
        cut = text.rfind(",", start, start + width)
        if cut < start:
            cut = text.find(",", start + width)
            if cut < 0:
                break
        pieces.append(text[start : cut + 1])
        start = cut + 1
    if start < len(text) or not pieces:
        pieces.append(text[start:])
    return pieces


def comment_lines(meta: Mapping[str, Any], prefix: str, width: int = WIDTH) -> str:
    """The metadata as comment lines, each starting with *prefix* (``"# "``, ``"c "``, ``"% "``).

    Returns:
        The lines, each ending with a newline.
    """
    fmt = meta.get("format", "?")
    out = [f"{prefix}nonoqubo {meta.get('nonoqubo', _version())} {fmt}: nonogram QUBO "
           f"({meta.get('encoding', DEFAULT.name)} encoding), energy 0 exactly at a solution\n"]
    for key in META_KEYS:
        if key not in meta:
            continue
        value = meta[key]
        text = str(value) if key == "vartype" else json.dumps(value, separators=(",", ":"))
        for k, piece in enumerate(_wrap(text, width)):
            out.append(f"{prefix}{key}{'+' if k else ''}={piece}\n")
    return "".join(out)


def parse_comments(lines: Iterable[str], marker: str, source: str) -> dict[str, Any]:
    """The metadata from comment lines (other comments are ignored).

    Args:
        lines: the comment lines, with their comment marker.
        marker: the comment marker (``"#"``, ``"c"``, ``"%"``).
        source: file name for messages.

    Raises:
        FormatError: a metadata value that is not valid JSON.
    """
    parts: dict[str, list[str]] = {}
    meta: dict[str, Any] = {}
    for line in lines:
        body = line.rstrip("\r\n")
        if not body.startswith(marker):
            continue
        body = body[len(marker):]
        if body.startswith(" "):
            body = body[1:]
        if body.startswith("nonoqubo "):
            meta["nonoqubo"] = body.split()[1]
            continue
        m = _KEY.match(body)
        if not m or m.group(1) not in META_KEYS:
            continue
        key, more, value = m.groups()
        if more and key in parts:
            parts[key].append(value)
        else:
            parts[key] = [value]
    for key, pieces in parts.items():
        text = "".join(pieces)
        if key == "vartype":
            meta[key] = text.strip()
            continue
        meta[key] = json_loads(text, source, None)
    return meta


def names_format(head: bytes, prefix: str, fmt: str) -> bool:
    """True when *head*'s first line is a nonoqubo header (after *prefix*) naming *fmt*."""
    first = head.decode("utf-8", "replace").lstrip("\ufeff").split("\n", 1)[0]
    return first.startswith(f"{prefix}nonoqubo ") and f" {fmt}:" in first


# -- back to a Qubo -----------------------------------------------------------------------
def spin_to_binary(
    h: np.ndarray, row: np.ndarray, col: np.ndarray, J: np.ndarray, offset: float, source: str
) -> tuple[np.ndarray, np.ndarray, int]:
    """The binary form of an Ising model through ``s = 2x - 1``, exact integers.

    ``J s_i s_j = J (4 x_i x_j - 2 x_i - 2 x_j + 1)`` and ``h s = h (2x - 1)``.

    Returns:
        ``(linear, quad, offset)`` int64 (row and col are unchanged).

    Raises:
        FormatError: the binary form has non-integer coefficients (not a nonoqubo model).
    """
    n = h.size
    h = np.asarray(h, np.float64)
    J = np.asarray(J, np.float64)
    lin = 2.0 * h - 2.0 * (np.bincount(row, weights=J, minlength=n) + np.bincount(col, weights=J, minlength=n))
    quad = 4.0 * J
    off = float(offset) - float(h.sum()) + float(J.sum())
    for what, arr in (("linear", lin), ("quadratic", quad), ("offset", np.array([off]))):
        if not np.array_equal(arr, np.round(arr)):
            raise FormatError(located(source, None, f"the SPIN model's binary form has a non-integer {what} coefficient"))
    return np.round(lin).astype(np.int64), np.round(quad).astype(np.int64), int(round(off))


def to_qubo(
    meta: Mapping[str, Any],
    linear: np.ndarray,
    row: np.ndarray,
    col: np.ndarray,
    quad: np.ndarray,
    offset: float,
    source: str,
    labels: list[str] | None = None,
    spell: str = "metadata '{}'",
) -> Qubo:
    """The :class:`Qubo` a file describes: puzzle, labels and fixed variables restored.

    Args:
        meta: the file's metadata (see :func:`describe`).
        linear, row, col, quad, offset: the model as read (0-based indices,
            the file's vartype; duplicates and either triangle allowed).
        source: file name for messages.
        labels: the labels when the file lists them itself.
        spell: how the format spells a metadata key in a message (see :func:`._metadata.read`).

    Raises:
        FormatError: metadata missing, of the wrong type (checked by :func:`._metadata.read`)
            or inconsistent with the data.
    """
    clues = _metadata.read(meta, source, spell=spell)
    puzzle, fixed = clues.puzzle, clues.fixed
    encoding, weights = read_encoding(meta, source)
    offset = _metadata.check_value("offset", offset, source, spell)
    n = int(np.asarray(linear).size)
    if labels is None:
        spec = clues.labels
        if spec == "layout":
            if puzzle is None:
                raise FormatError(located(source, None, "labels follow the layout rule but the file has no clues"))
            labels = rule_labels(puzzle, fixed, encoding)
        elif isinstance(spec, list):
            labels = [str(x) for x in spec]
        else:
            raise FormatError(located(source, None, "no nonoqubo metadata (labels and clues); "
                                      "was this file written by nonoqubo?"))
    if len(labels) != n:
        raise FormatError(located(source, None, f"the metadata gives {len(labels)} labels but the data has {n} variables"))
    check_distinct(labels, source)
    row = np.asarray(row, np.int64)
    col = np.asarray(col, np.int64)
    if np.ndim(linear) != 1 or row.ndim != 1 or not row.size == col.size == np.size(quad):
        raise FormatError(located(source, None, f"the quadratic rows ({row.size}), columns ({col.size}) and "
                                  f"biases ({np.size(quad)}) differ in number"))
    if row.size and (min(row.min(), col.min()) < 0 or max(row.max(), col.max()) >= n):
        raise FormatError(located(source, None, f"a term refers to a variable outside 0..{n - 1}"))
    if clues.vartype == "SPIN":
        lin, q, off = spin_to_binary(np.asarray(linear), row, col, np.asarray(quad), offset, source)
    else:
        lin, q = _exact(linear, source, "linear"), _exact(quad, source, "quadratic")
        off = int(_exact(np.array([offset]), source, "offset")[0])
    return Qubo.from_terms(labels, lin, (row, col, q), off, puzzle=puzzle, fixed=fixed, encoding=encoding,
                           weights=weights, presolve=clues.presolve)


def check_distinct(labels: list[str], source: str) -> None:
    """Refuse, naming *source* and both positions, two variables with one label (dimod cannot map them).

    Examples:
        >>> check_distinct(["a", "b", "a"], "m.json")
        Traceback (most recent call last):
        ...
        nonoqubo.errors.FormatError: m.json: the label 'a' names variables 0 and 2: every variable needs its own label
    """
    first: dict[str, int] = {}
    for k, label in enumerate(labels):
        if first.setdefault(label, k) != k:
            shown = label if len(label) <= 40 else label[:37] + "..."
            raise FormatError(located(source, None, f"the label {shown!r} names variables {first[label]} and {k}: "
                                      "every variable needs its own label"))


def _exact(values: Any, source: str, what: str) -> np.ndarray:
    arr = finite(np.asarray(values), source, f"{what} coefficient")
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64)
    r = np.round(arr)
    bad = np.flatnonzero(r != arr)
    if bad.size:
        raise FormatError(located(source, None, f"{what} coefficient {arr[bad[0]]!r} is not an integer"))
    return r.astype(np.int64)


def malformed(exc: Exception) -> str:
    """What is wrong with a JSON model's arrays, in words (NumPy's OverflowError speaks of C longs)."""
    return "an index is out of range (past int64)" if isinstance(exc, OverflowError) else str(exc)
