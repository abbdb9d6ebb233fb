"""Shared machinery of the ``i j value`` text formats (COO, qbsolv, QOBLIB, MQLib, MatrixMarket).

They differ only in a few conventions, each a parameter here: the index base
(0 or 1), whether off-diagonal entries hold half the pair coefficient
(symmetric semantics), whether the objective is negated (MQLib maximises),
whether diagonal lines come first (qbsolv) or in row-major order, and the
comment marker.  Each format module states its own grammar and supplies its
preamble (problem line, size line, MatrixMarket banner ...).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._util.guard import claimed, integer
from .._util.text import decode
from ..errors import FormatError, located
from ..model.qubo import Qubo
from . import _header, _text

__all__ = ["Convention", "Merged", "Terms", "read_terms", "terms_of", "to_model"]


@dataclass(frozen=True)
class Convention:
    """How a format stores ``E = offset + sum a_i x_i + sum_{i<j} b_ij x_i x_j``."""

    name: str
    marker: str  #: comment marker at the start of a line
    base: int = 0  #: index of the first variable
    half: bool = False  #: off-diagonal entries hold b_ij / 2 (symmetric matrix semantics)
    negate: bool = False  #: the file's objective is -E (maximised)
    diagonal_first: bool = False  #: all diagonal lines before the couplers

    @property
    def prefix(self) -> str:
        return self.marker + " "


class Merged:
    """A column of the written term sequence, built a slice at a time.

    The sequence is the ``pairs`` values times ``scale`` with the ``diag``
    values inserted: diagonal ``t`` goes before pair ``pos[t]`` (``pos``
    non-decreasing), and ``add`` is added to every value (the index base).
    Slicing gives the piece as an array of a type that holds both inputs, so a
    file of 10^8 terms never holds a merged, widened or negated copy of the
    model's narrow arrays.

    Examples:
        >>> m = Merged(np.array([7, 8]), np.array([1, 2, 3]), np.array([0, 2]), add=10)
        >>> m[0:5].tolist(), m[1:4].tolist(), m.size, int(m.min()), int(m.max())
        ([17, 11, 12, 18, 13], [11, 12, 18], 5, 11, 18)
        >>> n = Merged(np.array([300]), np.array([-128, 5], np.int8), np.array([1]), scale=-1)
        >>> n[0:3].tolist(), int(n.min()), int(n.max())
        ([128, 300, -5], -5, 300)
    """

    def __init__(self, diag: np.ndarray, pairs: np.ndarray, pos: np.ndarray, add: int = 0, scale: int = 1) -> None:
        self.diag, self.pairs, self.pos, self.add, self.scale = diag, pairs, pos, add, scale
        self.at = pos + np.arange(pos.size)  # where each diagonal value lands
        self.size = int(diag.size + pairs.size)
        self.dtype = np.result_type(diag, pairs, np.int64) if pairs.dtype.kind in "iu" else np.result_type(diag, pairs)

    def __getitem__(self, part: slice) -> np.ndarray:
        s, e, _ = part.indices(self.size)
        da, db = np.searchsorted(self.at, [s, e]).tolist()
        p0, p1 = s - da, e - db
        pairs = self.pairs[p0:p1].astype(self.dtype)  # a chunk widened, never the whole column
        if self.scale != 1:
            pairs *= self.scale
        out = np.insert(pairs, self.pos[da:db] - p0, self.diag[da:db])
        return out + self.add if self.add else out

    def min(self) -> Any:
        return self._extreme(np.min)

    def max(self) -> Any:
        return self._extreme(np.max)

    def _extreme(self, pick: Any) -> Any:
        values = [pick(self.diag)] if self.diag.size else []
        if self.pairs.size:  # scale is +1 or -1: the extreme of -x is minus the other extreme of x
            other = np.max if pick is np.min else np.min
            values.append(self.scale * (pick if self.scale > 0 else other)(self.pairs).astype(self.dtype))
        return pick(values) + self.add


@dataclass
class Terms:
    """A model's terms laid out for one format (columns built a slice at a time)."""

    i: Merged  #: written indices (base applied)
    j: Merged
    num: Merged  #: value numerators
    den: int  #: common denominator (1, 2 or 4)
    num_diagonal: int
    offset: int | float  #: the model's constant (never negated: comments carry E's offset)
    vartype: str
    meta: dict[str, Any]

    @property
    def count(self) -> int:
        return self.i.size

    def chunks(self) -> Iterator[tuple[np.ndarray, int]]:
        return _text.data_chunks([self.i, self.j, self.num], [1, 1, self.den])


def terms_of(qubo: Qubo, conv: Convention, *, ising: bool = False, labels_listed: bool = False) -> Terms:
    """The terms of *qubo* (or of its Ising form) under convention *conv*, with the metadata.

    Integer biases stay in the model's own (narrow) arrays: halving is a
    denominator of 2 and negation a sign applied a chunk at a time, so no copy
    of the model is made however large it is.
    """
    linear, row, col, quad, offset, vartype = _header.model_arrays(qubo, ising)
    d = np.flatnonzero(linear)
    diag = linear[d]
    # each linear term goes before its row's pairs, or before every pair (diagonal_first)
    if conv.diagonal_first or not d.size:
        pos = np.zeros(d.size, np.int64)
    else:  # before row d's first pair: pairs are sorted by row, so one binary search per linear term
        pos = np.searchsorted(row, d.astype(row.dtype))  # in row's type: no widened copy of row
    sign = -1 if conv.negate else 1
    if quad.dtype.kind in "iu" and diag.dtype.kind in "iu":
        den = 2 if conv.half else 1
        num_d, num_q = diag.astype(np.int64) * (sign * den), quad  # value = num / den
    else:
        diag = -diag if conv.negate else diag  # the pairs' sign is Merged's scale
        quad = quad * 0.5 if conv.half else quad
        (num_d, den_d), (num_q, den_q) = _text.rational(diag), _text.rational(quad)
        den = max(den_d, den_q)
        num_d = num_d * (den // den_d) if den != den_d else num_d
        num_q = num_q * (den // den_q) if den != den_q else num_q
    meta = _header.describe(qubo, conv.name, vartype=vartype, offset=offset, labels_listed=labels_listed,
                            terms=int(d.size + quad.size))
    return Terms(Merged(d, row, pos, conv.base), Merged(d, col, pos, conv.base), Merged(num_d, num_q, pos, scale=sign),
                 den, int(d.size), meta["offset"], vartype, meta)


def read_terms(body: str, first_line: int, conv: Convention, n: int, source: str
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``i j value`` lines of *body* as 0-based ``(i, j, value)`` of the canonical energy.

    Comment lines inside the block (qbsolv allows them anywhere) are skipped.

    Raises:
        FormatError: a malformed line or an index outside ``base .. base+n-1``.
    """
    if ("\n" + conv.marker) in body:
        body = "\n".join("" if ln.lstrip().startswith(conv.marker) else ln for ln in body.split("\n"))
    table = _text.parse_numbers(body, source, first_line, 3)
    i = _text.as_int(table[:, 0], source, "index") - conv.base
    j = _text.as_int(table[:, 1], source, "index") - conv.base
    v = table[:, 2].copy()
    bad = np.flatnonzero((i < 0) | (j < 0) | (i >= n) | (j >= n))
    if bad.size:
        k = int(bad[0])
        raise FormatError(located(source, None, f"term {k + 1} ({int(i[k]) + conv.base}, {int(j[k]) + conv.base}) "
                                  f"is outside the {n} variables (indices start at {conv.base})"))
    if conv.negate:
        v = -v
    if conv.half:
        v[i != j] *= 2
    return i, j, v


def to_model(meta: dict[str, Any], i: np.ndarray, j: np.ndarray, v: np.ndarray, n: int, offset: float,
             source: str, labels: list[str] | None = None) -> Qubo:
    """The :class:`Qubo` of 0-based terms plus the file's metadata."""
    diag = i == j
    linear = np.bincount(i[diag], weights=v[diag], minlength=n)
    return _header.to_qubo(meta, linear, i[~diag], j[~diag], v[~diag], offset, source, labels)


def read_sized(data: str | bytes, conv: Convention, source: str) -> tuple[dict[str, Any], list[str], Qubo]:
    """Read a comment header, an ``n m`` size line and ``m`` term lines (QOBLIB, MQLib).

    Returns:
        ``(metadata, comment lines, model)``; the model's offset is the metadata's.

    Raises:
        FormatError: a missing size line, a count that does not match, bad lines, no metadata.
    """
    text = decode(data, source, what="QUBO text file")
    comments, line_no, body = _text.split_comments(text, conv.marker)
    meta = _header.parse_comments(comments, conv.marker, source)
    need_meta(meta, source)
    line, pos = _text.next_line(body, 0)
    parts = line.split()
    if len(parts) != 2:
        raise FormatError(located(source, line_no, f"expected the size line 'n m', found {line[:60]!r}"))
    n = variables(meta, len(text), source, line_no, integer(parts[0], source, line_no, "size line"))
    m = integer(parts[1], source, line_no, "size line")
    i, j, v = read_terms(body[pos:], line_no + 1, conv, n, source)
    if i.size != m:
        raise FormatError(located(source, line_no, f"the size line announces {m} entries but the file has {i.size}"))
    return meta, comments, to_model(meta, i, j, v, n, meta.get("offset", 0), source)


def variables(meta: dict[str, Any], available: int, source: str, line: int | None = None,
              count: Any = None) -> int:
    """The variable count (*count*, else the metadata's ``variables``), checked before any allocation.

    Every variable of a nonoqubo model appears in at least one term line, so a
    file of B bytes holds fewer than B variables: a larger count is a damaged
    header, refused here instead of becoming a huge ``np.zeros``.
    """
    value = meta.get("variables", 0) if count is None else count
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(located(source, line, f"the variable count {str(value)[:40]!r} is not a whole number"))
    return claimed(value, available, source, line, "variables")


def need_meta(meta: dict[str, Any], source: str) -> None:
    """Refuse a file with no nonoqubo metadata (its labels and clues would be unknown)."""
    if "labels" not in meta:
        raise FormatError(located(source, None, "no nonoqubo metadata comments (labels, clues); "
                                  "nonoqubo reads back only the files it wrote"))
